import Foundation
import TestSupport
import XCTest

/// The frame loop allocates nothing: valgrind (`HeapCount`) counts the same heap allocations for a
/// run of N frames as for 2N frames. Counts, not time, so it cannot flake.
/// Small canvases and few frames: memcheck is slow.
final class BenchAllocationTests: XCTestCase {
    private func allocations(_ args: [String]) throws -> Int {
        let run = try HeapCount.run(try TestEnvironment.pulsedotBinary(), ["bench", "--width", "240", "--height", "160"] + args)
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.allocations
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
        // The stock halo turns faint enough for the profile's coverage (DiscProfile) at about 0.9 s,
        // frame 54: between 40 and 120 frames, so a table made on first use would be counted.
        let few = try allocations(["--scene", "moving", "--frames", "40"])
        let more = try allocations(["--scene", "moving", "--frames", "120"])
        XCTAssertEqual(few, more, "moving: \(few) heap allocations for 40 frames but \(more) for 120")
    }
}
