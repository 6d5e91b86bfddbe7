import Foundation
import PNG
import TestSupport
import XCTest

/// `pulsedot demo`: frames plus a contact sheet, its path printed.
final class RenderDemoTests: XCTestCase {
    func testDemoWritesFramesAndAContactSheet() throws {
        let dir = try TestEnvironment.temporaryDirectory("demo").path + "/out/nested"
        let run = try runProgram(try TestEnvironment.pulsedotBinary(), ["demo", "--out", dir])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, dir + "/contact-sheet.png\n")
        let sheet = try PNGRead.rgba(path: dir + "/contact-sheet.png")
        XCTAssertEqual(sheet.height, 248)
        XCTAssertEqual(sheet.width, 8 * 240 + 9 * 4)
        let frames = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("frame-") }.sorted()
        XCTAssertEqual(frames.count, 40)
        XCTAssertEqual(frames.first, "frame-000.png")
        XCTAssertEqual(try PNGRead.rgba(path: dir + "/" + frames[20]).width, 240)
        // Tiles differ: the halo grows across the sheet (tile 2, t = 1 s, shows it; tile 0 does not).
        func tile(_ i: Int) -> [UInt8] {
            let x0 = 4 + i * 244
            var bytes: [UInt8] = []
            for y in 4..<244 {
                let start: Int = (y * sheet.width + x0) * 4
                bytes += sheet.rgba[start..<start + 240 * 4]
            }
            return bytes
        }
        XCTAssertTrue(tile(0) != tile(2), "tiles 0 and 2 are the same picture")
    }

    /// The README's command runs it with no options: ./pulsedot-demo in the current directory.
    func testDefaultDirectoryIsInTheCurrentDirectory() throws {
        let cwd = try TestEnvironment.temporaryDirectory("demo-cwd")
        let child = try ChildProcess(try TestEnvironment.pulsedotBinary(), ["demo"], workDirectory: cwd)
        XCTAssertEqual(child.wait(timeout: 120), 0, child.stderr)
        XCTAssertEqual(child.stdout, "./pulsedot-demo/contact-sheet.png\n")
        XCTAssertEqual(try PNGRead.rgba(path: cwd.path + "/pulsedot-demo/contact-sheet.png").height, 248)
    }

    func testDemoRefusesABadSetting() throws {
        let dir = try TestEnvironment.temporaryDirectory("demo").path
        let run = try runProgram(try TestEnvironment.pulsedotBinary(), ["demo", "--out", dir, "--set", "colorDotInset=11"])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertEqual(run.stderr, "pulsedot: demo: colorDotInset = 11: out of range (0 ≤ value < 11)\n")
    }
}
