import Foundation
import Glibc
import TestSupport
import XCTest

/// A real gpsd fed by gpsfake (Debian's gpsd + gpsd-clients), loopback only, on a free port.
/// gpsfake is a /usr/bin/python3 script: it is run with the system Python, never a pyenv one.
final class GPSFake {
    let port: UInt16
    let child: ChildProcess

    /// `once`: gpsd exits at the end of the log (`-1`); otherwise the log repeats until `stop()`.
    /// `pace`: seconds between sentences (`-c`). Always `-p`: gpsfake itself watches (with nmea on)
    /// and prints everything gpsd sends it, which is the reference the tests compare with.
    init(log: URL, port: UInt16? = nil, once: Bool = true, pace: Double? = nil) throws {
        self.port = try port ?? TestEnvironment.freeTCPPort()
        var args = ["/usr/bin/gpsfake", "-q", "-p", "-P", String(self.port)]
        if once { args.append("-1") }
        if let pace { args += ["-c", String(pace)] }
        args.append(log.path)
        // Unbuffered: its output file must show each line as gpsd sends it (see `feedEnded`).
        child = try ChildProcess("/usr/bin/python3", args, environment: ["PYTHONUNBUFFERED": "1"], label: "gpsfake")
    }

    deinit { stop() }

    /// Waits until gpsd accepts TCP connections on 127.0.0.1:port.
    func waitUntilListening(timeout: Double = 15) throws {
        let ok = ChildProcess.waitUntil(timeout: timeout) { Self.accepts(port: port) || !child.isRunning }
        guard ok, child.isRunning || Self.accepts(port: port) else {
            throw TestFailure("gpsd (gpsfake) did not listen on port \(port) within \(timeout) s: \(child.stderr)")
        }
    }

    static func accepts(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = port.bigEndian
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Whether gpsd has played the whole log: it closes the fake device (`"activated":0`) at the
    /// end of a `-1` run. gpsfake itself can then hang in tcdrain() on its pty under load, so the
    /// tests take this line, not gpsfake's exit, as the end of the feed.
    var feedEnded: Bool { !child.isRunning || child.stdout.contains("\"activated\":0}") }

    /// Waits for the end of the feed, then stops gpsfake and its gpsd (by force if they hang).
    func waitForFeedEnd(timeout: Double = 90) throws {
        guard ChildProcess.waitUntil(timeout: timeout, { feedEnded }) else {
            let out = child.stdout.suffix(600), err = child.stderr.suffix(600)
            stop()
            throw TestFailure("gpsfake did not finish its log within \(timeout) s\nstdout: ...\(out)\nstderr: ...\(err)")
        }
        if child.isRunning { _ = child.wait(timeout: 3) }
        if let status = child.isRunning ? nil : Optional(child.process.terminationStatus), status != 0 {
            throw TestFailure("gpsfake exited with \(status): \(child.stderr.suffix(600))")
        }
        stop()
    }

    /// The gpsd process gpsfake started (for killing it mid-stream).
    var gpsdPID: Int32? {
        let children = (try? String(contentsOfFile: "/proc/\(child.pid)/task/\(child.pid)/children", encoding: .utf8)) ?? ""
        for pid in children.split(separator: " ").compactMap({ Int32($0) }) {
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            if comm.hasPrefix("gpsd") { return pid }
        }
        return nil
    }

    /// SIGTERM: gpsfake kills its gpsd and exits. If it hangs, both are killed by pid, so no gpsd
    /// outlives the test.
    func stop() {
        let daemon = gpsdPID
        child.signal(SIGTERM)
        if child.wait(timeout: 5) == nil { child.terminate() }
        if let daemon, (try? String(contentsOfFile: "/proc/\(daemon)/comm", encoding: .utf8))?.hasPrefix("gpsd") == true {
            kill(daemon, SIGKILL)
        }
    }

    /// Every JSON object gpsd sent gpsfake's own watcher, parsed with Foundation (an oracle
    /// independent of the parser under test).
    var reports: [[String: Any]] { Self.jsonObjects(in: child.stdout) }

    static func jsonObjects(in text: String) -> [[String: Any]] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            guard line.hasPrefix("{") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }
}

/// What a gpsd TPV means as a fix, computed from gpsd's own JSON with the rules of the issue
/// (mode 2/3 with lat and lon; eph, else the larger of epx and epy), for comparisons.
struct ExpectedFix: CustomStringConvertible {
    var lat: Double, lon: Double, mode: Int
    var eph: Double?, track: Double?, speed: Double?
    var time: String?, device: String?, status: String

    init?(tpv o: [String: Any]) {
        guard o["class"] as? String == "TPV", let mode = o["mode"] as? Int, mode >= 2,
              let lat = o["lat"] as? Double, let lon = o["lon"] as? Double else { return nil }
        self.lat = lat
        self.lon = lon
        self.mode = mode
        let epx = o["epx"] as? Double, epy = o["epy"] as? Double
        eph = o["eph"] as? Double ?? ((epx != nil || epy != nil) ? max(epx ?? 0, epy ?? 0) : nil)
        track = o["track"] as? Double
        speed = o["speed"] as? Double
        time = o["time"] as? String
        device = o["device"] as? String
        let names = [1: "normal", 2: "dgps", 3: "rtk-fixed", 4: "rtk-float", 5: "dead-reckoning", 6: "gnss-dead-reckoning", 7: "time-only", 8: "simulated"]
        status = (o["status"] as? Int).map { names[$0] ?? "status-\($0)" } ?? "normal"
    }

    /// A line of `pulsedot watch` output, read back with Foundation.
    init?(watchLine o: [String: Any]) {
        guard let lat = o["lat"] as? Double, let lon = o["lon"] as? Double, let mode = o["mode"] as? Int,
              let status = o["status"] as? String else { return nil }
        self.lat = lat
        self.lon = lon
        self.mode = mode
        eph = o["eph"] as? Double
        track = o["track"] as? Double
        speed = o["speed"] as? Double
        time = o["time"] as? String
        device = o["device"] as? String
        self.status = status
    }

    var description: String { "\(lat),\(lon) mode \(mode) eph \(eph.map { "\($0)" } ?? "-") \(time ?? "no time")" }

    /// Equal as the issue asks: lat/lon to 1e-9°, mode, eph; and the rest exactly.
    func matches(_ other: ExpectedFix) -> Bool {
        func same(_ a: Double?, _ b: Double?) -> Bool {
            switch (a, b) {
            case (nil, nil): true
            case let (a?, b?): abs(a - b) <= 1e-9
            default: false
            }
        }
        return abs(lat - other.lat) <= 1e-9 && abs(lon - other.lon) <= 1e-9 && mode == other.mode && same(eph, other.eph)
            && same(track, other.track) && same(speed, other.speed) && time == other.time && device == other.device
            && status == other.status
    }
}

/// Asserts two fix lists are equal element by element, naming the first difference.
func assertSameFixes(_ got: [ExpectedFix], _ expected: [ExpectedFix], _ what: String,
                     file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(got.count, expected.count, "\(what): \(got.count) fixes, gpsd reported \(expected.count)", file: file, line: line)
    for (i, (g, e)) in zip(got, expected).enumerated() where !g.matches(e) {
        XCTFail("\(what): fix \(i) is \(g), gpsd reported \(e)", file: file, line: line)
        return
    }
}
