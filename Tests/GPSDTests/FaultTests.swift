import Foundation
import Glibc
import Syscall
import TestSupport
import XCTest
@testable import GPSD

/// The real world: gpsd dying and coming back, not there yet, there without receivers, a peer that
/// never speaks, a peer that sends garbage and megabyte lines. gpsd cases use a real gpsd; the broken
/// peers are small socket servers in the test.
final class FaultTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = try TestEnvironment.temporaryDirectory("gpsd-fault")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testWatchReconnectsAfterGpsdIsKilledMidStreamAndStartedAgain() throws {
        if TestEnvironment.optedOut("gpsd") { return }
        let log = try NMEAFeed.journey(leadIn: 2).write(to: directory)
        let first = try GPSFake.started(log: log, once: false, pace: 0.02)
        let watch = try ChildProcess(try TestEnvironment.pulsedotBinary(), ["watch", "--gpsd", "127.0.0.1:\(first.port)"])
        defer { watch.terminate() }
        func fixCount() -> Int { watch.stdout.split(separator: "\n").count }
        XCTAssertTrue(ChildProcess.waitUntil(timeout: 30) { fixCount() >= 5 }, "fixes flow:\n\(watch.stderr)")

        let pid = try XCTUnwrap(first.gpsdPID, "gpsfake's gpsd")
        kill(pid, SIGKILL)
        XCTAssertNotNil(first.child.wait(timeout: 15), "gpsfake notices its gpsd died")
        XCTAssertTrue(ChildProcess.waitUntil(timeout: 10) { watch.stderr.contains("lost gpsd") }, watch.stderr)
        // gpsd stays away for a while: the client retries (and says so once).
        XCTAssertTrue(ChildProcess.waitUntil(timeout: 10) { watch.stderr.contains("unreachable") }, watch.stderr)
        let beforeRestart = fixCount()

        let second = try GPSFake(log: log, port: first.port, once: false, pace: 0.02)
        defer { second.stop() }
        XCTAssertTrue(ChildProcess.waitUntil(timeout: 40) { fixCount() >= beforeRestart + 5 }, "fixes flow again:\n\(watch.stderr)")
        XCTAssertTrue(watch.isRunning, "the same watch process, never restarted")
        let log2 = watch.stderr
        XCTAssertEqual(log2.components(separatedBy: "connected to gpsd 3.22").count - 1, 2, log2)
        XCTAssertEqual(log2.components(separatedBy: "unreachable").count - 1, 1, "retries are not logged one by one:\n\(log2)")
        XCTAssertEqual(log2.components(separatedBy: "lost gpsd").count - 1, 1, log2)
    }

    func testClientBacksOffWhileGpsdIsAbsentThenConnectsWhenItAppears() throws {
        if TestEnvironment.optedOut("gpsd") { return }
        let port = try TestEnvironment.freeTCPPort()
        let h = try ClientHarness.local(port: port, realTime: true)
        h.start()
        h.pump(until: { false }, timeout: 1.5)
        let attempts = h.client.statistics.connectionAttempts
        // 0.25, 0.5, 1 s (±20 %) apart: 3 or 4 attempts in 1.5 s, far from a busy loop.
        XCTAssertTrue((2...5).contains(attempts), "\(attempts) attempts in 1.5 s")
        XCTAssertEqual(h.states, [.connecting, .unreachable(reason: "connect gpsd 127.0.0.1:\(port): Connection refused (errno 111)")])

        let log = try NMEAFeed.journey(leadIn: 2).write(to: directory)
        let gpsd = try GPSFake(log: log, port: port, once: false, pace: 0.02)
        defer { gpsd.stop() }
        XCTAssertTrue(h.pump(until: { h.fixes.count >= 3 }, timeout: 40), "fixes arrive once gpsd is up: \(h.states)")
        XCTAssertEqual(h.states.filter { if case .unreachable = $0 { true } else { false } }.count, 1)
        XCTAssertTrue(h.states.contains(.connected(release: "3.22")))
        XCTAssertEqual(h.client.health, .receiving)
    }

    func testGpsdWithoutReceiversIsHealthyQuietAndNotReconnected() throws {
        if TestEnvironment.optedOut("gpsd") { return }
        let port = try TestEnvironment.freeTCPPort()
        let gpsd = try ChildProcess("/usr/sbin/gpsd", ["-N", "-S", String(port), "-F", directory.appendingPathComponent("control.sock").path])
        defer { gpsd.terminate() }
        XCTAssertTrue(ChildProcess.waitUntil(timeout: 15) { GPSFake.accepts(port: port) }, gpsd.stderr)
        // A silence timeout of 0.3 s would reconnect many times in 2 s if it applied here.
        let h = try ClientHarness.local(port: port, silenceTimeout: .milliseconds(300), realTime: true)
        h.start()
        XCTAssertTrue(h.pump(until: { h.states.last == .noReceiver }, timeout: 10), "\(h.states)")
        h.pump(until: { false }, timeout: 2)
        XCTAssertEqual(h.states, [.connecting, .connected(release: "3.22"), .noReceiver], "\"no receiver\" said once")
        XCTAssertEqual(h.client.statistics.connectionAttempts, 1, "no reconnect loop")
        XCTAssertEqual(h.client.health, .noReceiver)
        XCTAssertNil(h.client.deadline)

        // Watching one receiver gpsd does not have: gpsd answers with only an ERROR.
        let one = try ClientHarness.local(port: port, silenceTimeout: .milliseconds(300), device: "/dev/pulsedot-missing", realTime: true)
        one.start()
        XCTAssertTrue(one.pump(until: { one.states.last == .noReceiver }, timeout: 10), "\(one.states)")
        one.pump(until: { false }, timeout: 2)
        XCTAssertEqual(one.states, [.connecting, .connected(release: "3.22"), .noReceiver])
        XCTAssertEqual(one.warnings, ["gpsd at 127.0.0.1:\(port) says: No such device as /dev/pulsedot-missing"])
        XCTAssertEqual(one.client.statistics.connectionAttempts, 1, "no reconnect loop")
    }

    func testServerThatAcceptsAndNeverSpeaksTimesOutAndIsRetried() throws {
        let server = try LoopbackServer()
        let h = try ClientHarness.local(port: server.port, silenceTimeout: .milliseconds(300), realTime: true)
        h.start()
        var accepted: [FileDescriptor] = []
        XCTAssertTrue(h.pump(until: {
            if (try? server.hasPendingConnection()) == true, let peer = try? server.accept() { accepted.append(peer) }
            return accepted.count >= 3
        }, timeout: 20), "the client keeps coming back: \(h.states)")
        XCTAssertEqual(h.states, [.connecting, .lost(reason: "no answer from gpsd within 0.30 s")], "said once, not per timeout")
        XCTAssertTrue(try LoopbackServer.isClosedByClient(accepted[0]), "the silent connection was closed, not leaked")
    }

    func testGarbageAndMebibyteLinesAreSkippedAndCountedWhileFixesKeepFlowing() throws {
        let server = try LoopbackServer()
        let h = try ClientHarness.local(port: server.port, realTime: true)
        h.start()
        let peer = try server.accept()
        XCTAssertTrue(h.pump { h.client.pollEvents == Int16(POLLIN) })
        let capacity = h.client.lineBufferCapacity
        let mebibyte = [UInt8](repeating: UInt8(ascii: "{"), count: 1 << 20)
        var garbage = [UInt8](repeating: 0, count: 300)
        for i in garbage.indices { garbage[i] = UInt8(truncatingIfNeeded: (i * 7919) >> 3) | 0x80 }
        var stream = Array((GPSDSamples.version + "\r\n" + GPSDSamples.devices + "\r\n").utf8)
        for _ in 0..<4 {
            stream += garbage + [0x0A] + mebibyte + Array("\r\n".utf8) + garbage + Array("\r\n\(GPSDSamples.tpv3D)\r\n".utf8)
        }
        var offset = 0
        while offset < stream.count {
            let sent = try stream[offset...].withUnsafeBytes { try peer.send($0) } ?? 0
            offset += sent
            h.pump(wait: 0)
            XCTAssertEqual(h.client.lineBufferCapacity, capacity, "the line buffer never grows")
        }
        XCTAssertTrue(h.pump { h.fixes.count == 4 }, "\(h.client.statistics)")
        let s = h.client.statistics
        XCTAssertEqual(s.skipped[.oversizeLine], 4)
        XCTAssertEqual(s.skipped[.notJSON], 8)
        XCTAssertEqual(s.skipped.total, 12)
        XCTAssertEqual(s.bytesReceived, stream.count)
        XCTAssertEqual(h.warnings.count, 2, "one per reason: \(h.warnings)")
        XCTAssertEqual(h.states.last, .receiving(devices: ["/dev/pts/2"]), "the connection survives")
        XCTAssertEqual(s.connections, 1)
    }

    func testWatchMemoryStaysFlatUnderAStreamOfMebibyteLines() throws {
        let server = try LoopbackServer()
        let watch = try ChildProcess(try TestEnvironment.pulsedotBinary(), ["watch", "--gpsd", "127.0.0.1:\(server.port)"])
        defer { watch.terminate() }
        let peer = try server.accept(timeout: 15)
        try LoopbackServer.send(GPSDSamples.version + "\r\n" + GPSDSamples.devices + "\r\n" + GPSDSamples.tpv3D + "\r\n", to: peer)
        XCTAssertTrue(ChildProcess.waitUntil(timeout: 10) { watch.stdout.split(separator: "\n").count == 1 })
        let baseline = try peakResidentKiB(of: watch.pid)
        let mebibyte = String(repeating: "x", count: 1 << 20)
        for round in 1...16 {
            try LoopbackServer.send(mebibyte + "\r\n" + GPSDSamples.tpv3D + "\r\n", to: peer)
            XCTAssertTrue(ChildProcess.waitUntil(timeout: 10) { watch.stdout.split(separator: "\n").count == round + 1 }, "round \(round)")
        }
        let peak = try peakResidentKiB(of: watch.pid)
        // A client that buffered a whole line would peak at least 1024 KiB higher.
        XCTAssertLessThan(peak - baseline, 512, "peak RSS went from \(baseline) KiB to \(peak) KiB")
        XCTAssertEqual(watch.stderr.components(separatedBy: "is longer than").count - 1, 1, "one warning:\n\(watch.stderr)")
    }

    /// VmHWM: the most resident memory the process ever had.
    func peakResidentKiB(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = Int(line.split(separator: " ").dropFirst().first ?? "") else {
            throw TestFailure("no VmHWM in /proc/\(pid)/status")
        }
        return kib
    }
}
