import Foundation
import Location
@testable import Positioning
import TestSupport
import XCTest

/// The real receiver recordings in ../shared/testdata/nmea (CI has them): every one loads, and the
/// replay reads the same positions gpsd 3.22 itself reports for them (gpsfake as the reference).
final class NmeaCorpusTests: XCTestCase {
    static let folder = TestEnvironment.packageRoot.appendingPathComponent("../shared/testdata/nmea").standardizedFileURL

    static func recordings() throws -> [URL] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".log") || $0.hasSuffix("SampleData.txt") || $0.hasSuffix("lines.txt") }
            .sorted()
        return names.map { folder.appendingPathComponent($0) }
    }

    override func setUpWithError() throws {
        guard !TestEnvironment.optedOut("corpus") else { throw XCTSkip("PULSEDOT_SKIP=corpus") }
        guard FileManager.default.fileExists(atPath: Self.folder.path) else {
            throw TestFailure("\(Self.folder.path) is missing: the recordings are part of the test data (PULSEDOT_SKIP=corpus to leave them out)")
        }
    }

    func testEveryRecordingLoads() throws {
        let files = try Self.recordings()
        XCTAssertGreaterThanOrEqual(files.count, 9)
        for url in files {
            let log = try ReplayLog.load(path: url.path)
            print(log.summary)
            XCTAssertGreaterThan(log.fixCount, 5, url.lastPathComponent)
            XCTAssertEqual(log.format, .nmea)
            for r in log.records { XCTAssertGreaterThanOrEqual(r.offset, 0) }
            XCTAssertEqual(log.skips.count("bad checksum"), 0, "\(url.lastPathComponent): \(log.skips)")
        }
    }

    /// The Garmin drive crosses midnight and lasts 8.3 minutes at 0.5 Hz.
    func testGarminDriveTiming() throws {
        let log = try ReplayLog.load(path: Self.folder.appendingPathComponent("NmeaSampleData_first3250lines.txt").path)
        XCTAssertEqual(log.fixCount, 250)
        XCTAssertEqual(log.duration, 498, accuracy: 1e-9)
        let speeds = log.records.compactMap { $0.fix?.speed }
        XCTAssertEqual(speeds.max()!, 25, accuracy: 2, "about 25 m/s")
    }

    /// For every fix with a time, gpsd's TPV of that time (gpsfake, deterministic mode) has the same
    /// position; and every instant gpsd reports a position for, the replay has one too.
    func testPositionsMatchGpsdItself() throws {
        if TestEnvironment.optedOut("gpsd") { throw XCTSkip("PULSEDOT_SKIP=gpsd") }
        try GPSFake.requireInstalled()
        for url in try Self.recordings() {
            let reference = try Self.gpsdPositions(url)
            let log = try ReplayLog.load(path: url.path)
            var mine: [Int: (Double, Double)] = [:]
            for r in log.records {
                guard let fix = r.fix, let time = fix.time else { continue }
                mine[Self.timeOfDayMillis(time)] = (fix.latitude, fix.longitude)
            }
            let name = url.lastPathComponent
            XCTAssertGreaterThan(reference.count, 5, name)
            XCTAssertEqual(Set(reference.keys).subtracting(mine.keys).sorted().prefix(5), [],
                           "\(name): instants gpsd has a position for and the replay has not (ms of day)")
            // gpsd 3.22 drops the very first instant of a 10 Hz log (rst39.log's 20:41:32.10) while
            // it learns the receiver's cycle; the replay keeps it. Nothing more may differ.
            XCTAssertLessThanOrEqual(Set(mine.keys).subtracting(reference.keys).count, 1, "\(name): extra instants")
            for (t, position) in mine {
                guard let ref = reference[t] else { continue }
                XCTAssertEqual(position.0, ref.0, accuracy: 2e-9, "\(name) latitude at \(t) ms")
                XCTAssertEqual(position.1, ref.1, accuracy: 2e-9, "\(name) longitude at \(t) ms")
            }
        }
    }

    /// gpsd 3.22 shifts dates before 2017 by 1024 weeks, a whole number of days: compare times of day.
    static func timeOfDayMillis(_ t: FixTime) -> Int {
        Int(((t.secondsSinceEpoch % 86_400 + 86_400) % 86_400) * 1000) + Int((Double(t.nanoseconds) / 1e6).rounded())
    }

    /// Runs the recording through gpsd and returns the last position it reported for each time.
    static func gpsdPositions(_ url: URL) throws -> [Int: (Double, Double)] {
        var out: [Int: (Double, Double)] = [:]
        for object in try GPSFake.play(log: url) where object["class"] as? String == "TPV" {
            guard let mode = object["mode"] as? Int, mode >= 2,
                  let lat = object["lat"] as? Double, let lon = object["lon"] as? Double,
                  let text = object["time"] as? String, let time = FixTime(iso8601: text) else { continue }
            out[timeOfDayMillis(time)] = (lat, lon)
        }
        return out
    }
}
