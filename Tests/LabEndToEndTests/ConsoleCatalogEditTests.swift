import Foundation
import LabTestSupport
import Testing

/// `lab console` over a catalog file that is edited while it runs, in tmux.
@Suite(
    .requires(Tmux.isAvailable, "tmux is not installed: apt-get install tmux to run the console end-to-end tests")
)
struct ConsoleCatalogEditTests {
    /// A catalog with one two-variant experiment per name.
    static func catalog(_ names: [String]) -> String {
        let experiments = names.map { name in
            """
            {"name": "\(name)", "keys": ["key\(name)"], "baseline": "\(name)Off", "variants": [
              {"name": "\(name)Off", "assignments": {"key\(name)": false}},
              {"name": "\(name)On", "assignments": {"key\(name)": true}}]}
            """
        }
        return #"{"source": "Local", "experiments": [\#(experiments.joined(separator: ",\n"))]}"#
    }

    /// Saves the catalog as editors do: a new file renamed over the old one.
    static func save(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// `lab console` on the catalog, on its Experiments screen.
    static func experimentsScreen(_ lab: LabHarness, catalog path: String) throws -> Tmux {
        let tmux = try Tmux(
            command: "'\(LabHarness.binary)' console --catalog '\(path)' --state '\(lab.state)'",
            environment: lab.environment
        )
        #expect(tmux.waitFor("Experiments"), "\(tmux.capture())")
        try tmux.send("Enter")
        #expect(tmux.waitFor("EXPERIMENT"))
        return tmux
    }

    @Test func theHighlightStaysOnItsExperimentWhileAnotherProcessAddsOneAboveAndForcesAnother() throws {
        let lab = try LabHarness()
        let path = try lab.write("c.json", Self.catalog(["Beta", "Gamma", "Delta"]))
        let tmux = try Self.experimentsScreen(lab, catalog: path)
        defer { tmux.kill() }
        try tmux.send("j")  // Beta → Gamma (rows: Beta, Delta, Gamma)
        try tmux.send("j")
        try Self.save(Self.catalog(["Alpha", "Aleph", "Beta", "Gamma", "Delta"]), to: path)
        #expect(tmux.waitFor(" Alpha "), "the edit never showed: \(tmux.capture())")
        let force = try lab.runRaw(["force", "Delta", "DeltaOn", "--catalog", path, "--state", lab.state])
        #expect(force.status == 0, "\(force.stderr)")
        #expect(
            tmux.waitFor {
                $0.split(separator: "\n").contains {
                    $0.hasPrefix(" Delta ") && $0.contains(" On ") && $0.contains(" F ")
                }
            },
            "\(tmux.capture())"
        )
        try tmux.send("Enter")
        #expect(tmux.waitFor("Experiments › Gamma"), "Enter opened another experiment: \(tmux.capture())")
    }

    @Test func aBrokenEditIsReportedAndTheLastGoodCatalogStays() throws {
        let lab = try LabHarness()
        let path = try lab.write("c.json", Self.catalog(["Beta", "Gamma"]))
        let tmux = try Self.experimentsScreen(lab, catalog: path)
        defer { tmux.kill() }
        try Self.save(#"{"source": "Local", "experiments": [{"name": 3}]}"#, to: path)
        #expect(tmux.waitFor("c.json:1:"), "the problem was not shown: \(tmux.capture())")
        let screen = tmux.capture()
        #expect(screen.contains(" Beta ") && screen.contains(" Gamma "))
        // Fixed again: applied.
        try Self.save(Self.catalog(["Beta", "Gamma", "Epsilon"]), to: path)
        #expect(tmux.waitFor(" Epsilon "), "\(tmux.capture())")
    }
}
