import Foundation
import TestSupport
import XCTest

/// The kiosk tests' world: Fortaleza's feed moved to today by kiosk_feeds.py (its plan: the trips,
/// stops and times the feeds speak of) and the HTTPS feed server whose /files/ it fills, by a
/// producer that makes the feeds anew every 2 s in the phase the test sets.
struct KioskWorld {
    let plan: [String: Any]
    let server: FeedServer
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("kiosk_feeds.py").path

    /// The moved feed in DIR/feed.
    init(in dir: URL) throws {
        let made = try runProgram(FeedServer.python, [script, "gtfs", "/work/shared/testdata/gtfs/fortaleza.zip", dir.path,
                                                      String(Int(Date().timeIntervalSince1970))], timeout: 120)
        guard made.status == 0 else { throw TestFailure("kiosk_feeds.py gtfs failed (\(made.status)):\n\(made.stderr)") }
        plan = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])
        server = try FeedServer()
        try Data(made.stdout.utf8).write(to: server.folder.appendingPathComponent("plan.json"))
    }

    func phase(_ n: Int) throws {
        try String(n).write(to: server.folder.appendingPathComponent("phase"), atomically: true, encoding: .utf8)
    }

    /// Starts the producer and waits for its first feeds.
    func produce() throws -> ChildProcess {
        let file = server.folder.appendingPathComponent("files/tu.pb")
        try? FileManager.default.removeItem(at: file)
        let child = try ChildProcess(FeedServer.python, [script, "loop", server.folder.path], label: "kiosk_feeds.py loop")
        guard ChildProcess.waitUntil(timeout: 30, { FileManager.default.fileExists(atPath: file.path) }) else {
            throw TestFailure("kiosk_feeds.py loop wrote no feed:\n\(child.stderr)")
        }
        return child
    }

    func place(_ key: String) -> [Double] { plan[key] as! [Double] }

    /// The configuration's [transit] section over the moved feed in DIR, with `more` keys.
    func transitSection(_ dir: URL, _ more: String...) -> String {
        (["[transit]", "gtfs = \(dir.appendingPathComponent("feed").path)", "cache = \(dir.appendingPathComponent("cache").path)"] + more)
            .joined(separator: "\n")
    }

    /// The [realtime] section: each feed key from the server's `paths`, checked against the test CA.
    func realtimeSection(_ paths: KeyValuePairs<String, String>, _ more: String...) -> String {
        (["[realtime]"] + paths.map { "\($0.key) = \(server.url($0.value))" } + ["caFile = \(server.caFile)"] + more)
            .joined(separator: "\n")
    }
}
