import Foundation
import TestSupport

/// The feeds make_feeds.py builds with Google's gtfs-realtime-bindings, in the venv
/// `deploy/install-deps --test` makes, and what the bindings read back from each: made once per
/// test run into a temporary folder.
struct BindingsFeeds {
    struct Case {
        let name: String
        let bytes: [UInt8]
        /// The feed as json_format.MessageToDict gives it (proto field names); nil for a
        /// message to be refused whole.
        let expected: [String: Any]?
        let skipped: Int
        /// A word the refusal must contain, for a message to be refused whole.
        let error: String?
        let bindingsRefuse: Bool
    }

    let cases: [String: Case]

    /// Made once (a static is initialised once, thread-safely) and only read after: the JSON
    /// values inside are what keeps it from being Sendable.
    nonisolated(unsafe) static let shared = Result { try BindingsFeeds() }

    static var python: String {
        let cache = ProcessInfo.processInfo.environment["PULSEDOT_CACHE"] ?? "/var/cache/pulsedot-test"
        return cache + "/venv-gtfsrt/bin/python3"
    }

    private init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.python) else {
            throw TestFailure("no \(Self.python): run deploy/install-deps --test (it makes the venv with gtfs-realtime-bindings)")
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("make_feeds.py").path
        let folder = try TestEnvironment.temporaryDirectory("gtfsrt")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try runProgram(Self.python, [script, folder.path], timeout: 120)
        guard run.status == 0 else { throw TestFailure("make_feeds.py failed (\(run.status)):\n\(run.stderr)") }
        let json = try Data(contentsOf: folder.appendingPathComponent("expected.json"))
        guard let top = try JSONSerialization.jsonObject(with: json) as? [String: Any],
              let list = top["cases"] as? [String: [String: Any]] else {
            throw TestFailure("expected.json is not what make_feeds.py writes")
        }
        var cases: [String: Case] = [:]
        for (name, entry) in list {
            let file = try XCTUnwrapString(entry["file"], "file of \(name)")
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
            cases[name] = Case(name: name, bytes: bytes, expected: entry["expect"] as? [String: Any],
                               skipped: (entry["skipped"] as? Int) ?? 0, error: entry["error"] as? String,
                               bindingsRefuse: (entry["bindings_refuse"] as? Bool) ?? false)
        }
        self.cases = cases
    }

    func callAsFunction(_ name: String) throws -> Case {
        guard let found = cases[name] else { throw TestFailure("make_feeds.py made no case \(name)") }
        return found
    }
}

private func XCTUnwrapString(_ value: Any?, _ what: String) throws -> String {
    guard let string = value as? String else { throw TestFailure("expected.json: no \(what)") }
    return string
}
