import Foundation
import GrowthBook

// The README's integration, as small as it gets: a payload, a client, a user.
let payload = try GrowthBookPayload(
    Data(#"{"features": {"new-checkout": {"defaultValue": false, "rules": [{"force": true}]}}}"#.utf8),
    decrypt: nil
)
let client = GrowthBookClient(payload: payload)
print(client.user(["id": "u1"]).isOn("new-checkout") ? "new checkout" : "old checkout")
