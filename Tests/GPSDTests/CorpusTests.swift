import Foundation
import Location
import Syscall
import TestSupport
import XCTest
@testable import GPSD

/// Real receiver recordings (../shared/testdata/nmea beside the package; CI has it) played through
/// a real gpsd: the client must report exactly the fixes gpsd reports, and gpsd's own output, with
/// NMEA lines mixed in, must decode the same way however it is cut into reads.
final class CorpusTests: XCTestCase {
    static let folder = TestEnvironment.packageRoot.appendingPathComponent("../shared/testdata/nmea").standardizedFileURL

    func recordings() throws -> [URL] {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted()
        return names.filter { !$0.hasPrefix("COPYING") && !$0.hasPrefix("LICENSE") && !$0.hasPrefix("SOURCES") }
            .map { Self.folder.appendingPathComponent($0) }
    }

    func testClientReportsWhatGpsdReportsForEveryRecording() throws {
        if TestEnvironment.optedOut("gpsd") || TestEnvironment.optedOut("corpus") { return }
        guard FileManager.default.fileExists(atPath: Self.folder.path) else {
            return XCTFail("no recordings at \(Self.folder.path) (set PULSEDOT_SKIP=corpus to run without them)")
        }
        let files = try recordings()
        XCTAssertGreaterThanOrEqual(files.count, 9)
        var totalFixes = 0
        for file in files {
            let name = file.lastPathComponent
            // Unpaced: the client connects as soon as gpsd listens, well inside the 1.4 s gpsfake
            // waits after its own watch before it starts feeding.
            var gpsd: GPSFake!, h: ClientHarness!
            try GPSFake.againIfItGaveUp {
                gpsd = try GPSFake.started(log: file)
                h = try ClientHarness.local(port: gpsd.port, realTime: true)
                h.start()
                XCTAssertTrue(h.pump(until: { gpsd.feedEnded }, timeout: 90), "\(name): gpsfake ends")
                try gpsd.waitForFeedEnd()
            }
            h.pump(until: { if case .lost = h.client.state { true } else { false } }, timeout: 5)
            let expected = gpsd.reports.compactMap(ExpectedFix.init(tpv:))
            XCTAssertGreaterThan(expected.count, 0, name)
            totalFixes += expected.count
            assertSameFixes(h.fixes.map(Self.readBack), expected, name)
            XCTAssertEqual(h.client.statistics.skipped[.unknownClass] + h.client.statistics.skipped[.nmeaSentence],
                           h.client.statistics.skipped.total, "\(name): only classes we do not use are skipped: \(h.client.statistics.skipped)")
            XCTAssertEqual(h.warnings, [], name)
            try checkOfflineDecoding(of: gpsd.child.stdout, expected: expected, name: name)
        }
        XCTAssertGreaterThan(totalFixes, 700)
    }

    static func readBack(_ fix: Fix) -> ExpectedFix {
        ExpectedFix(watchLine: try! JSONSerialization.jsonObject(with: Data(fix.jsonLine.utf8)) as! [String: Any])!
    }

    /// gpsfake's own output (JSON with NMEA interleaved: its watch asks for nmea) through the framer
    /// in irregular reads and the decoder: NMEA lines are skipped and counted, fixes come out equal.
    func checkOfflineDecoding(of output: String, expected: [ExpectedFix], name: String) throws {
        let bytes = Array(output.utf8)
        let nmeaLines = output.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("$") || $0.hasPrefix("!") }.count
        XCTAssertGreaterThan(nmeaLines, 0, "\(name): gpsfake's output has NMEA mixed in")
        var framer = LineFramer()
        var counts = SkipCounts()
        var fixes: [ExpectedFix] = []
        var offset = 0, chunk = 1
        while offset < bytes.count {
            let n = min(chunk, bytes.count - offset)
            bytes[offset..<(offset + n)].withUnsafeBytes { raw in
                framer.append(raw) { event in
                    guard case .line(let line) = event else { return XCTFail("\(name): oversize line") }
                    switch MessageDecoder.decode(line) {
                    case .skipped(let reason, _): counts[reason] += 1
                    case .message(.tpv(let tpv)):
                        if let fix = Fix(tpv, receivedAt: MonotonicInstant(nanoseconds: 0)) { fixes.append(Self.readBack(fix)) }
                    case .message: break
                    }
                }
            }
            offset += n
            chunk = chunk * 7 % 1531 + 1
        }
        XCTAssertEqual(counts[.nmeaSentence], nmeaLines, name)
        XCTAssertEqual(counts.total - counts[.nmeaSentence] - counts[.unknownClass], 0, "\(name): \(counts)")
        assertSameFixes(fixes, expected, "\(name) offline")
    }
}
