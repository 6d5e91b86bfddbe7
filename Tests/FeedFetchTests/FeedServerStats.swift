import FeedFetch
import Foundation
import HTTPWire
import TestSupport

extension FeedServer {
    /// What the server counted: bytes sent per path, requests per path, the last key it saw.
    func stats() throws -> [String: Any] {
        let fetched = try FeedClient.fetch(HTTPURL(parsing: url("/stats", port: "plain")), options: FetchOptions())
        guard case .fresh(let body) = fetched.body, let json = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw TestFailure("/stats gave no JSON")
        }
        return json
    }
}
