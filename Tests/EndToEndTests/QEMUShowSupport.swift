import Foundation
import TestSupport
import XCTest

/// What `pulsedot show --at` left: its guest pid, the settled screen and what it logged.
struct ShowStill {
    let pid: Int
    let screen: ScreenImage
    let log: String
}

/// The checks every `pulsedot show` test in QEMU makes, whatever the output (KMS, fbdev): a still
/// frame, its dot against the headless render, and the console back after SIGTERM.
protocol QEMUShowTesting: XCTestCase {
    /// The command before `--at`, e.g. `pulsedot show --fbdev /dev/fb0`.
    static var showCommand: String { get }
    /// Names the temporary folder that keeps the screen and the render when they differ.
    static var mismatchFolder: String { get }
}

extension QEMUShowTesting {
    /// Starts `showCommand --at TIME ARGS`, waits for its still frame and a settled screen that is
    /// no longer the console.
    func showStill(_ vm: QEMUMachine, at time: Double, _ args: String, console: ScreenImage) throws -> ShowStill {
        let pid = try vm.spawn("\(Self.showCommand) --at \(time) \(args)")
        let log = try vm.waitForOutput(pid, containing: "still frame at clock")
        let screen = ScreenImage(try vm.stableScreendump { ScreenImage($0) != console })
        return ShowStill(pid: pid, screen: screen, log: log)
    }

    /// The dot's area of `screen` (logical, turned back already) against the render (each channel
    /// within `tolerance`), and the inner dot's colour centred where it must be.
    func assertDotMatches(_ screen: ScreenImage, at center: (Int, Int), _ render: ScreenImage, at renderCenter: (Int, Int),
                          scale: Double, tolerance: Int, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let side = Int((KMSShowTests.haloPoints * scale).rounded(.up)) + Int(16 * scale)
        let worst = screen.maxDifference(around: center.0, center.1, side: side, against: render, around: renderCenter.0, renderCenter.1)
        if worst.difference > tolerance {
            let dir = (try? TestEnvironment.temporaryDirectory(Self.mismatchFolder))?.path ?? "/tmp"
            try? screen.write(to: dir + "/screen.png")
            try? render.write(to: dir + "/render.png")
            XCTFail("\(what): a channel differs by \(worst.difference) at (\(worst.x), \(worst.y)) (tolerance \(tolerance)); images in \(dir)",
                    file: file, line: line)
        }
        guard let dot = screen.centroid(of: KMSShowTests.dotColor) else {
            return XCTFail("\(what): no dot colour on the screen", file: file, line: line)
        }
        XCTAssertGreaterThan(dot.count, Int(50 * scale * scale), "\(what): too little of the dot", file: file, line: line)
        XCTAssertEqual(dot.x, Double(center.0), accuracy: 1.0, "\(what): the dot is off in x", file: file, line: line)
        XCTAssertEqual(dot.y, Double(center.1), accuracy: 1.0, "\(what): the dot is off in y", file: file, line: line)
    }
}

extension XCTestCase {
    /// Stops `pid` (a show or a run on a display) with SIGTERM: exit 0, and the console as it was
    /// before, without the dot.
    func assertStopsAndConsoleReturns(_ vm: QEMUMachine, _ pid: Int, console: ScreenImage,
                                      file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try vm.stop(pid), 0, (try? vm.backgroundOutput(pid)) ?? "", file: file, line: line)
        let after = ScreenImage(try vm.stableScreendump())
        XCTAssertNil(after.centroid(of: KMSShowTests.dotColor), "the dot is still on the screen after SIGTERM", file: file, line: line)
        XCTAssertTrue(after == console, "the console did not come back as it was", file: file, line: line)
    }
}
