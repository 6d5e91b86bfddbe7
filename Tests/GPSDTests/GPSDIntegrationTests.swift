import Foundation
import Glibc
import Syscall
import TestSupport
import XCTest
@testable import GPSD

/// `pulsedot watch` and the client against a real gpsd fed by gpsfake with NMEA these tests write.
/// The reference is gpsfake's own output for the same run (`-p`: gpsfake is itself a watcher).
/// The race the issue warns about (gpsfake plays a log in about 2 s) is avoided by pacing the feed
/// (`-c`), by starting the client as soon as gpsd listens (gpsfake waits 1.4 s after its own watch
/// before feeding), and by 20 s of searching at the start of every feed.
final class GPSDIntegrationTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = try TestEnvironment.temporaryDirectory("gpsd")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testWatchPrintsExactlyTheFixesGpsdReports() throws {
        if TestEnvironment.optedOut("gpsd") { return }
        let log = try NMEAFeed.journey().write(to: directory)
        var gpsd: GPSFake!, watch: ChildProcess!
        defer { watch?.terminate() }
        try GPSFake.againIfItGaveUp {
            watch?.terminate()
            gpsd = try GPSFake.started(log: log, pace: 0.02)
            watch = try ChildProcess(try TestEnvironment.pulsedotBinary(), ["watch", "--gpsd", "127.0.0.1:\(gpsd.port)", "--timeout", "20"])
            try gpsd.waitForFeedEnd()
        }
        XCTAssertTrue(ChildProcess.waitUntil(timeout: 10) { watch.stderr.contains("lost gpsd") }, "watch notices gpsd leaving:\n\(watch.stderr)")
        watch.signal(SIGTERM)
        _ = watch.wait(timeout: 5)

        let expected = gpsd.reports.compactMap(ExpectedFix.init(tpv:))
        let printed = watch.stdout.split(separator: "\n").map { line -> ExpectedFix? in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object.flatMap(ExpectedFix.init(watchLine:))
        }
        XCTAssertFalse(printed.contains { $0 == nil }, "every stdout line is a fix object:\n\(watch.stdout)")
        assertSameFixes(printed.compactMap { $0 }, expected, "pulsedot watch")

        // The feed did what it was written to do, as gpsd saw it.
        XCTAssertGreaterThan(expected.count, 40)
        XCTAssertEqual(expected.first?.mode, 2, "the first fix is 2D")
        XCTAssertEqual(expected.last?.mode, 3, "it ends in 3D")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let seconds = Set(expected.compactMap { $0.time.flatMap(formatter.date(from:))?.timeIntervalSince1970 }).sorted()
        let gaps = zip(seconds.dropFirst(), seconds).map { $0 - $1 }
        XCTAssertEqual(gaps.filter { $0 != 1 }, [5], "fixes every second but for the 4 lost ones: \(seconds)")
        XCTAssertTrue(expected.allSatisfy { $0.device?.hasPrefix("/dev/pts/") == true })
        // gpsd may list the pty before gpsfake's own watch activates it: "no receiver" may come
        // first; after the loss the watch may already have failed a retry.
        let lines = watch.stderr.split(separator: "\n").map(String.init).filter { !$0.contains("no receiver") && !$0.contains("unreachable") }
        XCTAssertEqual(lines.count, 4, watch.stderr)
        XCTAssertEqual(lines.first, "pulsedot watch: connecting to gpsd at 127.0.0.1:\(gpsd.port)")
        XCTAssertEqual(lines.dropFirst().first, "pulsedot watch: connected to gpsd 3.22 at 127.0.0.1:\(gpsd.port)")
        XCTAssertTrue(lines.dropFirst(2).first?.hasPrefix("pulsedot watch: gpsd at 127.0.0.1:\(gpsd.port): receiving from /dev/pts/") == true, watch.stderr)
        XCTAssertTrue(lines.last?.hasPrefix("pulsedot watch: lost gpsd at 127.0.0.1:\(gpsd.port) (gpsd closed the connection); reconnecting in ") == true, watch.stderr)
    }

    func testClientSeesGpsdsFixesGSTSkyAndTheLostFix() throws {
        if TestEnvironment.optedOut("gpsd") { return }
        let log = try NMEAFeed.journey().write(to: directory)
        var gpsd: GPSFake!, h: ClientHarness!
        try GPSFake.againIfItGaveUp {
            gpsd = try GPSFake.started(log: log, pace: 0.02)
            h = try ClientHarness.local(port: gpsd.port, realTime: true)
            h.start()
            XCTAssertTrue(h.pump(until: { gpsd.feedEnded }, timeout: 90), "gpsfake ends")
            try gpsd.waitForFeedEnd()
        }
        XCTAssertTrue(h.pump(until: { if case .lost = h.client.state { true } else { false } }, timeout: 10))
        let reports = gpsd.reports

        assertSameFixes(h.fixes.map { ExpectedFix(watchLine: try! JSONSerialization.jsonObject(with: Data($0.jsonLine.utf8)) as! [String: Any])! },
                        reports.compactMap(ExpectedFix.init(tpv:)), "client fixes")

        let gstExpected = reports.filter { $0["class"] as? String == "GST" }
        let gstGot = h.events.compactMap { if case .gst(let g) = $0 { g } else { nil } }
        XCTAssertEqual(gstGot.count, gstExpected.count)
        XCTAssertEqual(gstGot.count, 18, "one GST per 3D second")
        for (g, e) in zip(gstGot, gstExpected) {
            XCTAssertEqual(g.rms, e["rms"] as? Double)
            XCTAssertEqual(g.major, e["major"] as? Double)
            XCTAssertEqual(g.minor, e["minor"] as? Double)
            XCTAssertEqual(g.orientation, e["orient"] as? Double)
            XCTAssertEqual(g.latitudeError, e["lat"] as? Double)
            XCTAssertEqual(g.longitudeError, e["lon"] as? Double)
            XCTAssertEqual(g.altitudeError, e["alt"] as? Double)
            XCTAssertEqual(g.time?.description, e["time"] as? String)
        }
        XCTAssertEqual(gstGot.first?.latitudeError, 2.5, "the feed's GST accuracy arrives unchanged")

        let skyExpected = reports.filter { $0["class"] as? String == "SKY" }
        let skyGot = h.events.compactMap { if case .sky(let s) = $0 { s } else { nil } }
        XCTAssertEqual(skyGot.count, skyExpected.count)
        XCTAssertGreaterThan(skyGot.count, 0)
        for (s, e) in zip(skyGot, skyExpected) {
            XCTAssertEqual(s.satellitesSeen, e["nSat"] as? Int)
            XCTAssertEqual(s.satellitesUsed, e["uSat"] as? Int)
        }

        // No fix, then fixes, then the tunnel's no-fix TPVs, then fixes again.
        let noFixExpected = reports.filter { $0["class"] as? String == "TPV" && ExpectedFix(tpv: $0) == nil }.count
        XCTAssertEqual(h.client.statistics.tpvsWithoutFix, noFixExpected)
        let kinds = h.events.compactMap { e -> Character? in
            switch e {
            case .fix: "F"
            case .noFix: "n"
            default: nil
            }
        }
        let runs = String(kinds).replacingOccurrences(of: "F+", with: "F", options: .regularExpression)
            .replacingOccurrences(of: "n+", with: "n", options: .regularExpression)
        XCTAssertEqual(runs, "nFnF")
        XCTAssertEqual(h.client.statistics.skipped.total, 0, "gpsd's own output has nothing to skip")
        XCTAssertEqual(h.states.filter { $0 != .noReceiver }.prefix(3), [.connecting, .connected(release: "3.22"), .receiving(devices: [h.fixes[0].device!])])
    }

    func testWatchExitsZeroAfterCountFixesOverIPv6() throws {
        if TestEnvironment.optedOut("gpsd") { return }
        let log = try NMEAFeed.journey(leadIn: 2).write(to: directory)
        let gpsd = try GPSFake.started(log: log, once: false, pace: 0.02)
        defer { gpsd.stop() }
        let result = try runProgram(try TestEnvironment.pulsedotBinary(), ["watch", "--gpsd", "[::1]:\(gpsd.port)", "--count", "5"], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 5)
        XCTAssertTrue(result.stderr.contains("connected to gpsd 3.22 at [::1]:\(gpsd.port)"), result.stderr)
    }

    /// Without --gpsd, watch asks the gpsd the service's configuration names (file, drop-in,
    /// --set in that order), and --gpsd still wins over it.
    func testWatchAsksTheConfiguredGpsd() throws {
        if TestEnvironment.optedOut("gpsd") { return }
        let log = try NMEAFeed.journey(leadIn: 2).write(to: directory)
        let gpsd = try GPSFake.started(log: log, once: false, pace: 0.02)
        defer { gpsd.stop() }
        let closed = try closedPort()
        let config = directory.appendingPathComponent("watch.conf")
        try "[source]\ngpsd = 127.0.0.1:\(closed)\n".write(to: config, atomically: true, encoding: .utf8)
        let dropIns = directory.appendingPathComponent("watch.conf.d")
        try FileManager.default.createDirectory(at: dropIns, withIntermediateDirectories: true)
        try "[source]\ngpsd = [::1]:\(gpsd.port)\n".write(to: dropIns.appendingPathComponent("50-site.conf"), atomically: true, encoding: .utf8)
        let binary = try TestEnvironment.pulsedotBinary()
        let configured = try runProgram(binary, ["watch", "--config", config.path, "--count", "2"], timeout: 60)
        XCTAssertEqual(configured.status, 0, configured.stderr)
        XCTAssertEqual(configured.stdout.split(separator: "\n").count, 2)
        XCTAssertTrue(configured.stderr.contains("connected to gpsd 3.22 at [::1]:\(gpsd.port)"), configured.stderr)
        let overridden = try runProgram(binary, ["watch", "--config", config.path, "--set", "source.gpsd=127.0.0.1:\(closed)", "--timeout", "1"], timeout: 30)
        XCTAssertEqual(overridden.status, 1, overridden.stderr)
        XCTAssertTrue(overridden.stderr.contains("cannot connect to gpsd at 127.0.0.1:\(closed)"), overridden.stderr)
        let flag = try runProgram(binary, ["watch", "--config", config.path, "--set", "source.gpsd=127.0.0.1:\(closed)",
                                           "--gpsd", "127.0.0.1:\(gpsd.port)", "--count", "1"], timeout: 60)
        XCTAssertEqual(flag.status, 0, flag.stderr)
        let notGpsd = try runProgram(binary, ["watch", "--config", config.path, "--set", "source.position=52.5,13.4",
                                              "--timeout", "1"], timeout: 30)
        XCTAssertTrue(notGpsd.stderr.hasPrefix("pulsedot watch: the configuration's source is not gpsd; watching 127.0.0.1:2947\n"), notGpsd.stderr)
    }

    /// The binary's own path: the name is looked up on the process's worker thread, started from
    /// the command's main-actor code, and the fixes flow as with an address.
    func testWatchFindsGpsdByNameThroughTheWorkerThread() throws {
        if TestEnvironment.optedOut("gpsd") { return }
        let log = try NMEAFeed.journey(leadIn: 2).write(to: directory)
        let gpsd = try GPSFake.started(log: log, once: false, pace: 0.02)
        defer { gpsd.stop() }
        let result = try runProgram(try TestEnvironment.pulsedotBinary(), ["watch", "--gpsd", "localhost:\(gpsd.port)", "--count", "3"], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 3)
        XCTAssertTrue(result.stderr.contains("connected to gpsd 3.22 at localhost:\(gpsd.port)"), result.stderr)
    }

    func testWatchGivesUpWithOneClearLineWhenGpsdCannotBeReached() throws {
        let port = try closedPort()
        let result = try runProgram(try TestEnvironment.pulsedotBinary(), ["watch", "--gpsd", "127.0.0.1:\(port)", "--timeout", "1"], timeout: 30)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.last, "pulsedot: watch: cannot connect to gpsd at 127.0.0.1:\(port) within 1.0 s (connect gpsd 127.0.0.1:\(port): Connection refused (errno 111))")
        XCTAssertEqual(lines.filter { $0.contains("unreachable") }.count, 1, "retries are not logged one by one:\n\(result.stderr)")
    }

    func testWatchRejectsBadOptionsNamingThem() throws {
        let bin = try TestEnvironment.pulsedotBinary()
        let cases: [([String], String)] = [
            (["--gpsd", "::1"], "gpsd address \"::1\": an IPv6 address needs brackets"),
            (["--count", "-1"], "--count -1: expected a whole number"),
            (["--timeout", "soon"], "--timeout soon: expected a number"),
            (["--speed", "3"], "unknown option --speed"),
            (["extra"], "watch takes no arguments, got 'extra'"),
        ]
        for (args, message) in cases {
            let r = try runProgram(bin, ["watch"] + args, timeout: 10)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertTrue(r.stderr.hasPrefix("pulsedot: watch: ") && r.stderr.contains(message), "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1)
        }
    }
}
