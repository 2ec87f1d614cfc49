import Foundation

/// Who changes made on this machine are recorded as: the login name.
public enum LocalTester {
    /// `$USER`, else the account's name, else `local`.
    public static var name: String {
        if let user = ProcessInfo.processInfo.environment["USER"], !user.isEmpty { return user }
        let name = NSUserName()
        return name.isEmpty ? "local" : name
    }
}
