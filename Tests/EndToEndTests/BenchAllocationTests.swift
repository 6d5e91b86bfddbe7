import Foundation
import TestSupport
import XCTest

/// The frame loop allocates nothing: valgrind's memcheck counts the same heap allocations for a
/// run of N frames as for 2N frames. Counts, not time, so it cannot flake.
/// Small canvases and few frames: memcheck is slow.
final class BenchAllocationTests: XCTestCase {
    private func allocations(_ args: [String]) throws -> Int {
        let run = try runProgram("/usr/bin/valgrind", ["--tool=memcheck", "--leak-check=no", try TestEnvironment.pulsedotBinary(),
                                                       "bench", "--width", "240", "--height", "160"] + args, timeout: 600)
        XCTAssertEqual(run.status, 0, run.stderr)
        let pattern = try NSRegularExpression(pattern: #"total heap usage: ([0-9,]+) allocs"#)
        let text = run.stderr
        guard let m = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let r = Range(m.range(at: 1), in: text), let n = Int(text[r].replacingOccurrences(of: ",", with: "")) else {
            throw TestFailure("no heap summary in memcheck's output:\n\(text)")
        }
        return n
    }

    func testFramesDoNotAllocate() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind"),
                      "valgrind is missing: sudo deploy/install-deps --test")
        for config in [["--scene", "moving", "--format", "rgb565", "--look", "default"],
                       ["--scene", "pan", "--format", "xrgb8888", "--scale", "2"]] {
            let few = try allocations(config + ["--frames", "8"])
            let more = try allocations(config + ["--frames", "16"])
            XCTAssertEqual(few, more, "\(config): \(few) heap allocations for 8 frames but \(more) for 16")
            XCTAssertGreaterThan(few, 0, "memcheck counted nothing: is it really running the binary?")
        }
    }
}
