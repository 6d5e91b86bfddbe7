import Foundation
import TestSupport
import XCTest

/// `pulsedot bench` as BENCHMARKS.md runs it: the built binary. Speed is never asserted here (the
/// machine is shared); what is asserted is that the fast frame path paints exactly what the plain
/// reference path paints (`--verify`), and that the report says what it should.
final class BenchCommandTests: XCTestCase {
    private func bench(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProgram(try TestEnvironment.pulsedotBinary(), ["bench"] + args, timeout: 600)
    }

    private func assertVerified(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try bench(args + ["--verify"])
        XCTAssertEqual(run.status, 0, "bench \(args.joined(separator: " ")): \(run.stderr)", file: file, line: line)
        XCTAssertTrue(run.stdout.contains("verify: all "), run.stdout, file: file, line: line)
    }

    /// A few dozen frames of every scene in both scan-out formats, full HD, stock look.
    func testEverySceneAndFormatMatchesTheReferencePainter() throws {
        for scene in ["static", "moving", "pan", "copy"] {
            for format in ["xrgb8888", "rgb565"] {
                try assertVerified(["--scene", scene, "--format", format, "--frames", "36"])
            }
        }
    }

    /// Whole halo cycles (growth, fade, the jump back to nothing) on small canvases, where the halo
    /// is also clipped by the canvas's edges; both looks (the default one breathes) and scale 2.
    func testWholeCyclesOnSmallCanvasesMatchTheReferencePainter() throws {
        for (look, frames) in [("stock", "190"), ("default", "250")] {
            for scale in ["1", "2"] {
                for scene in ["moving", "pan"] {
                    try assertVerified(["--scene", scene, "--look", look, "--scale", scale, "--frames", frames,
                                        "--width", "200", "--height", "150", "--format", scene == "pan" ? "rgb565" : "xrgb8888"])
                }
            }
        }
        try assertVerified(["--scene", "static", "--scale", "1.5", "--frames", "190", "--width", "97", "--height", "61"])
    }

    /// Turned panels: the portrait vehicle panel of deploy/package/examples (800x480 RGB565 at 90°), and
    /// every turn in both formats while the view pans (the whole frame copied out turned).
    func testTurnedPanelsMatchTheReferencePainter() throws {
        try assertVerified(["--scene", "moving", "--format", "rgb565", "--width", "800", "--height", "480", "--rotation", "90",
                            "--frames", "36"])
        for rotation in ["90", "180", "270"] {
            for format in ["xrgb8888", "rgb565"] {
                try assertVerified(["--scene", "pan", "--format", format, "--rotation", rotation, "--width", "200",
                                    "--height", "150", "--frames", "24"])
            }
        }
    }

    func testTextReportHasEveryFrameAndTheSummary() throws {
        let run = try bench(["--scene", "moving", "--frames", "12", "--width", "320", "--height", "240"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "pulsedot bench: moving, xrgb8888 320x240, scale 1.0, stock look, software composition, 12 frames")
        let frames = lines.filter { $0.hasPrefix("frame ") && !$0.hasPrefix("frame time") }
        XCTAssertEqual(frames.count, 12)
        // The first two frames are whole frames, one per scan-out buffer.
        XCTAssertTrue(frames[0].hasSuffix("touched 76800 px, copied 307200 bytes"), frames[0])
        XCTAssertTrue(frames[1].hasSuffix("copied 307200 bytes"), frames[1])
        XCTAssertTrue(frames[5].range(of: #"^frame 5: hash [0-9a-f]{16}, touched \d+ px, copied \d+ bytes$"#, options: .regularExpression) != nil, frames[5])
        for prefix in ["pixels touched per frame: ", "bytes copied per frame: ", "frame time: p50 ", "hash: "] {
            XCTAssertTrue(lines.contains { $0.hasPrefix(prefix) }, "no '\(prefix)…' line in\n\(run.stdout)")
        }
    }

    /// With the dot on a plane the map stands still in the frame: after the two first frames
    /// nothing is copied out.
    func testPlanesCompositionCopiesNothingWhileTheMapStandsStill() throws {
        let run = try bench(["--scene", "moving", "--composition", "planes", "--frames", "12", "--width", "320", "--height", "240", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("\"composition\":\"planes\""), run.stdout)
        let text = try bench(["--scene", "moving", "--composition", "planes", "--frames", "12", "--width", "320", "--height", "240"])
        let frames = text.stdout.split(separator: "\n").filter { $0.hasPrefix("frame ") && !$0.hasPrefix("frame time") }
        XCTAssertEqual(frames.count, 12)
        for f in frames.dropFirst(2) { XCTAssertTrue(f.hasSuffix("touched 0 px, copied 0 bytes"), String(f)) }
    }

    func testJSONReportAgreesWithTheTextOneAndRunsAreDeterministic() throws {
        let args = ["--scene", "pan", "--format", "rgb565", "--frames", "20", "--width", "300", "--height", "200"]
        let text = try bench(args)
        let json = try bench(args + ["--json", "--verify"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["scene"] as? String, "pan")
        XCTAssertEqual(object["format"] as? String, "rgb565")
        XCTAssertEqual(object["frames"] as? Int, 20)
        XCTAssertEqual(object["verified"] as? Bool, true)
        let perFrame = try XCTUnwrap(object["perFrame"] as? [[String: Any]])
        XCTAssertEqual(perFrame.count, 20)
        // pan redraws and copies the whole frame when the view moves, as the daemon does, and only
        // the dot's damage (with the frame before's, for the other buffer) while it stands still.
        var whole = 0, partial = 0
        for f in perFrame {
            let touched = try XCTUnwrap(f["touched"] as? Int), copied = try XCTUnwrap(f["bytesCopied"] as? Int)
            if touched == 300 * 200 { whole += 1 } else { partial += 1 }
            XCTAssertGreaterThanOrEqual(copied, touched * 2)
            XCTAssertLessThanOrEqual(copied, 300 * 200 * 2)
        }
        XCTAssertGreaterThanOrEqual(whole, 4, "the view follows the dot")
        XCTAssertGreaterThanOrEqual(partial, 4, "the view moves only every few frames at 12 m/s")
        let hashes = perFrame.compactMap { $0["hash"] as? String }
        let textHashes = text.stdout.split(separator: "\n").filter { $0.hasPrefix("frame ") && !$0.hasPrefix("frame time") }
            .map { String($0.split(separator: " ")[3].dropLast()) }
        XCTAssertEqual(hashes, textHashes)
        let combined = try XCTUnwrap(object["hash"] as? String)
        XCTAssertTrue(text.stdout.contains("hash: \(combined) (all frames)"))
        // The dot moves: frames differ.
        XCTAssertGreaterThan(Set(hashes).count, 15)
    }

    func testBadOptionsAreOneLineErrors() throws {
        for (args, message) in [(["--scene", "spin"], "--scene spin: expected static, moving, pan, copy or drive"),
                                (["--format", "rgb888"], "--format rgb888: expected xrgb8888 or rgb565"),
                                (["--look", "ios"], "--look ios: expected stock or default"),
                                (["--rotation", "45"], "--rotation 45: expected 0, 90, 180 or 270"),
                                (["--frames", "0"], "--frames 0: expected a whole number from 1 to 1000000"),
                                (["--composition", "overlay"], "--composition overlay: expected software or planes"),
                                (["--composition", "planes", "--verify"], "--verify holds whole frames against the reference painter; with planes the frame has no dot"),
                                (["--composition", "planes", "--rotation", "90"], "--composition planes keeps rotation 0"),
                                (["--wide"], "unknown option --wide")] {
            let run = try bench(args)
            XCTAssertEqual(run.status, 2, "\(args)")
            XCTAssertTrue(run.stderr.hasPrefix("pulsedot: bench: "), run.stderr)
            XCTAssertTrue(run.stderr.contains(message), "\(args): \(run.stderr)")
            XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, run.stderr)
        }
    }
}
