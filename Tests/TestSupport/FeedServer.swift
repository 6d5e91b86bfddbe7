import Foundation
import Glibc

/// Tests/FeedFetchTests/feed_server.py run by the venv's python (Google's bindings make its feed):
/// its ports, its CA and the feed it serves. Stopped and started again on the same ports for the
/// "server gone" tests.
public final class FeedServer {
    public let folder: URL
    public private(set) var child: ChildProcess?
    public private(set) var ports: [String: Int] = [:]

    public static var python: String {
        let cache = ProcessInfo.processInfo.environment["PULSEDOT_CACHE"] ?? "/var/cache/pulsedot-test"
        return cache + "/venv-gtfsrt/bin/python3"
    }

    public init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.python) else {
            throw TestFailure("no \(Self.python): run deploy/install-deps --test (it makes the venv with gtfs-realtime-bindings)")
        }
        folder = try TestEnvironment.temporaryDirectory("feeds")
        try start()
    }

    deinit {
        child?.terminate()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts the server; again on the ports it had before when it ran already.
    public func start() throws {
        let portsFile = folder.appendingPathComponent("ports.json")
        try? FileManager.default.removeItem(at: portsFile)
        let script = TestEnvironment.packageRoot.appendingPathComponent("Tests/FeedFetchTests/feed_server.py").path
        var arguments = [script, folder.path]
        if !ports.isEmpty { arguments.append(["good", "wrong", "expired", "plain", "proxy"].map { String(ports[$0]!) }.joined(separator: ",")) }
        let started = try ChildProcess(Self.python, arguments, label: "feed_server.py")
        child = started
        guard ChildProcess.waitUntil(timeout: 60, { FileManager.default.fileExists(atPath: portsFile.path) || !started.isRunning }),
              let data = try? Data(contentsOf: portsFile),
              let json = try JSONSerialization.jsonObject(with: data) as? [String: Int] else {
            throw TestFailure("feed_server.py did not start:\n\(started.stderr)")
        }
        ports = json
    }

    public func stop() {
        child?.terminate()
        child = nil
    }

    public var caFile: String { folder.appendingPathComponent("ca.pem").path }
    public var feed: [UInt8] { (try? [UInt8](Data(contentsOf: folder.appendingPathComponent("vehicles.pb")))) ?? [] }

    /// The test proxy, `http://127.0.0.1:PORT`: CONNECT to the good and plain ports, 403 for the rest.
    public var proxyURL: String { "http://127.0.0.1:\(ports["proxy"]!)" }

    /// `https://localhost:PORT/path` on the port with the certificate `which` (good, wrong, expired).
    public func url(_ path: String, host: String = "localhost", port which: String = "good") -> String {
        (which == "plain" ? "http" : "https") + "://\(host):\(ports[which]!)\(path)"
    }
}
