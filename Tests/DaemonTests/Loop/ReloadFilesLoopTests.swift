import Foundation
import Glibc
import PNG
import TestSupport
import XCTest

/// A reload opens the files the new configuration names (the map image, the dot's images) before
/// anything is swapped: a dot image that cannot be taken is one line naming the file's line, the
/// key and the value, and the running view keeps drawing; a map that cannot be read is left out
/// (the dot on the background colour), said once, and the rest of the new configuration runs.
final class ReloadFilesLoopTests: XCTestCase {
    func testAFileTheNewConfigurationCannotOpenKeepsTheRunningView() throws {
        let dir = try TestEnvironment.temporaryDirectory("reload-files").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["map.png", "other.png"] {
            try PNGWrite.rgb(width: 40, height: 30, rgb: [UInt8](repeating: 90, count: 40 * 30 * 3), to: "\(dir)/\(name)")
        }
        let good = RunLoopTests.base + "[map]\nimage = \(dir)/map.png\nbounds = 0,0,0.04,0.03\n"
        let missingMap = good.replacingOccurrences(of: "map.png", with: "gone.png")
        let missingDot = good + "[dot]\nheadingImage = \(dir)/gone.png\n"
        let h = try LoopHarness(config: good)
        h.waiting.at(1.0) { h.configText = missingMap }
        h.waiting.signal(SIGHUP, at: 1.0)
        h.waiting.at(2.0) { h.configText = missingDot }
        h.waiting.signal(SIGHUP, at: 2.0)
        h.waiting.at(2.5) { h.configText = good.replacingOccurrences(of: "map.png", with: "other.png") }
        h.waiting.signal(SIGHUP, at: 2.5)
        h.waiting.signal(SIGTERM, at: 3.05)
        XCTAssertEqual(try h.run(), 0)

        func line(_ text: String, _ prefix: String) -> Int {
            text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix(prefix) }! + 1
        }
        // A map that cannot be read is left out, not refused: the dot on the background, said once.
        let leftOut = h.lines.filter { $0.text.contains("map: test.conf:\(line(missingMap, "image")): map.image = \(dir)/gone.png: no such file") }
        XCTAssertEqual(leftOut.map(\.t), [1.0], h.log)
        XCTAssertTrue(leftOut.first?.text.hasPrefix("<3>") ?? false, h.log)
        let rejected = h.lines.filter { $0.text.contains("reload rejected, the running configuration stays: ") }
        XCTAssertEqual(rejected.map(\.t), [2.0], h.log)
        XCTAssertTrue(rejected.last?.text.hasSuffix(
            "test.conf:\(line(missingDot, "headingImage")): headingImage = \(dir)/gone.png: no such file (a PNG image is expected here)") ?? false, h.log)
        XCTAssertEqual(h.logged("configuration reloaded"), [1.0, 2.5], "the good file is taken, its image opened")
        XCTAssertEqual(h.logged("other.png: 40x30"), [2.5], h.log)
        // Ten frames a second throughout, on the one display: the running view kept drawing.
        XCTAssertEqual(h.displays.count, 1)
        XCTAssertEqual(h.display?.presents, 30, h.log)
    }
}
