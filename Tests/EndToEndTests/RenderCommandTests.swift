import Foundation
import PNG
import TestSupport
import XCTest

/// `pulsedot render` as a user runs it: the built binary, real files.
final class RenderCommandTests: XCTestCase {
    private var dir: String = ""

    override func setUpWithError() throws {
        dir = try TestEnvironment.temporaryDirectory("render").path
    }

    private func render(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProgram(try TestEnvironment.pulsedotBinary(), ["render"] + args)
    }

    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 4
        return Array(image.rgba[i..<i + 3])
    }

    func testDefaultsGiveA240SquareWithTheDotCentred() throws {
        let out = dir + "/frame.png"
        let run = try render(["--at", "1", "--out", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let image = try PNGRead.rgba(path: out)
        XCTAssertEqual(image.width, 240)
        XCTAssertEqual(image.height, 240)
        XCTAssertFalse(image.fileHasAlpha, "an RGB PNG")
        XCTAssertEqual(pixel(image, 0, 0), [0xE5, 0xE3, 0xDF], "default background")
        // At t = 1 s the breath is at its peak: the centre is the opaque annotationColor.
        XCTAssertEqual(pixel(image, 120, 120), [0x00, 0x7A, 0xFF])
        XCTAssertEqual(pixel(image, 119, 119), [0x00, 0x7A, 0xFF])
    }

    func testEveryOption() throws {
        let out = dir + "/wide.png"
        let run = try render(["--at", "0.25", "--out", out, "--width", "320", "--height", "200", "--scale", "3",
                              "--background", "#102030", "--format", "rgb565", "--heading", "45", "--entrance",
                              "--set", "annotationColor=#FF3B30", "--set", "delayBetweenPulseCycles=0"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let image = try PNGRead.rgba(path: out)
        XCTAssertEqual(image.width, 320)
        XCTAssertEqual(image.height, 200)
        // An RGB565 frame widened back: every channel is a replicated 5- or 6-bit value.
        for i in stride(from: 0, to: image.rgba.count, by: 4) {
            let (r, g, b) = (image.rgba[i], image.rgba[i + 1], image.rgba[i + 2])
            if r & 7 != r >> 5 || g & 3 != g >> 6 || b & 7 != b >> 5 {
                XCTFail("pixel \(i / 4) = \(r),\(g),\(b) is not a widened RGB565 value")
                break
            }
        }
        // #102030 narrowed to 565 and widened back.
        XCTAssertEqual(pixel(image, 0, 0), [0x10, 0x20, 0x31])
        XCTAssertEqual(pixel(image, 160, 100), [0xFF, 0x3C, 0x31], "#FF3B30 through 565")
    }

    func testFormatsAgreeUpTo565Rounding() throws {
        let a = dir + "/a.png", b = dir + "/b.png"
        XCTAssertEqual(try render(["--at", "1.2", "--out", a]).status, 0)
        XCTAssertEqual(try render(["--at", "1.2", "--out", b, "--format", "rgb565"]).status, 0)
        let x = try PNGRead.rgba(path: a), y = try PNGRead.rgba(path: b)
        for i in 0..<x.rgba.count where abs(Int(x.rgba[i]) - Int(y.rgba[i])) > 4 {
            XCTFail("byte \(i): \(x.rgba[i]) vs \(y.rgba[i])")
            break
        }
    }

    func testSameArgumentsSameBytes() throws {
        let a = dir + "/a.png", b = dir + "/b.png"
        XCTAssertEqual(try render(["--at", "0.5", "--out", a, "--entrance"]).status, 0)
        XCTAssertEqual(try render(["--at", "0.5", "--out", b, "--entrance"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: a)), try Data(contentsOf: URL(fileURLWithPath: b)))
    }

    /// Each bad value: non-zero exit, exactly one line naming the property and the value, no file.
    func testBadValuesAreOneClearLine() throws {
        let flat = dir + "/flat.png"
        try PNGWrite.rgb(width: 4, height: 4, rgb: Array(repeating: 90, count: 48), to: flat)
        let cases: [([String], [String])] = [
            (["--set", "sparkle=1"], ["sparkle = 1", "unknown property"]),
            (["--set", "annotationColor=#12345"], ["annotationColor = #12345", "not a colour"]),
            (["--set", "colorDotInset=11"], ["colorDotInset = 11: out of range (0 ≤ value < 11)"]),
            (["--set", "pulseAnimationDuration=0"], ["pulseAnimationDuration = 0", "out of range"]),
            (["--set", "outerPulseAnimationDuration=0"], ["outerPulseAnimationDuration = 0", "out of range"]),
            (["--set", "image=\(dir)/missing.png"], ["image = \(dir)/missing.png", "no such file"]),
            (["--set", "headingImage=\(flat)"], ["headingImage = \(flat)", "no alpha channel"]),
            (["--background", "#E5E3DF80"], ["--background = #E5E3DF80", "opaque"]),
            (["--background", "grey"], ["--background = grey", "not a colour"]),
            (["--format", "rgb888"], ["--format rgb888", "xrgb8888 or rgb565"]),
            (["--scale", "0"], ["scale = 0", "out of range"]),
            (["--width", "0"], ["--width 0"]),
            (["--bogus", "1"], ["unknown option --bogus"]),
        ]
        for (extra, needles) in cases {
            let out = dir + "/bad.png"
            let run = try render(["--at", "1", "--out", out] + extra)
            XCTAssertNotEqual(run.status, 0, "\(extra)")
            XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, "one line for \(extra): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("pulsedot: "), run.stderr)
            for needle in needles { XCTAssertTrue(run.stderr.contains(needle), "\(extra): \(run.stderr)") }
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "no frame written for \(extra)")
        }
    }

    func testMissingRequiredOptions() throws {
        XCTAssertEqual(try render(["--out", dir + "/x.png"]).stderr, "pulsedot: render needs --at SECONDS (the animation clock)\n")
        XCTAssertEqual(try render(["--at", "1"]).stderr, "pulsedot: render needs --out FILE.png\n")
        XCTAssertNotEqual(try render(["--at", "-1", "--out", dir + "/x.png"]).status, 0)
    }

    func testAnImageWithAlphaIsAccepted() throws {
        let arrow = dir + "/arrow.png", out = dir + "/arrow-frame.png"
        var rgba: [UInt8] = []
        for y in 0..<24 { for x in 0..<24 { rgba += [0, 0, 0, abs(x - 12) + abs(y - 12) < 10 ? 255 : 0] } }
        try PNGWrite.rgba(RGBAImage(width: 24, height: 24, rgba: rgba), to: arrow)
        let run = try render(["--at", "1", "--out", out, "--set", "image=\(arrow)", "--set", "headingImage=\(arrow)",
                              "--set", "imageScale=2", "--heading", "90"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try PNGRead.rgba(path: out).width, 240)
    }
}
