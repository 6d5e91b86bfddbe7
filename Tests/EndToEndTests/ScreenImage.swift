import Foundation
import PNG
import TestSupport
import XCTest

/// A screendump or a headless render as RGB pixels, with the comparisons the display tests make:
/// "the screen shows the headless render of the same frame, each channel within N, over the dot's
/// area, and the dot is where it must be". Shared by the KMS, fbdev and field-trial tests.
struct ScreenImage: Equatable {
    let width: Int
    let height: Int
    /// RGB, 3 bytes a pixel.
    let rgb: [UInt8]

    init(width: Int, height: Int, rgb: [UInt8]) {
        precondition(rgb.count == width * height * 3)
        self.width = width; self.height = height; self.rgb = rgb
    }

    init(_ image: RGBAImage) {
        var rgb = [UInt8](repeating: 0, count: image.width * image.height * 3)
        for i in 0..<(image.width * image.height) {
            rgb[i * 3] = image.rgba[i * 4]; rgb[i * 3 + 1] = image.rgba[i * 4 + 1]; rgb[i * 3 + 2] = image.rgba[i * 4 + 2]
        }
        self.init(width: image.width, height: image.height, rgb: rgb)
    }

    static func read(_ path: String) throws -> ScreenImage { ScreenImage(try PNGRead.rgba(path: path)) }

    func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * width + x) * 3
        return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }

    /// The logical canvas a panel turned by `degrees` shows, written out from kms.md's convention
    /// (not from the code under test): with 90°, logical (x, y) on an H×W canvas is physical
    /// (W−1−y, x) of the W×H panel.
    func logicalView(rotation degrees: Int) -> ScreenImage {
        let swap = degrees == 90 || degrees == 270
        let (lw, lh) = swap ? (height, width) : (width, height)
        var out = [UInt8](repeating: 0, count: lw * lh * 3)
        for y in 0..<lh {
            for x in 0..<lw {
                let (px, py): (Int, Int)
                switch degrees {
                case 90: (px, py) = (width - 1 - y, x)
                case 180: (px, py) = (width - 1 - x, height - 1 - y)
                case 270: (px, py) = (y, height - 1 - x)
                default: (px, py) = (x, y)
                }
                let s = (py * width + px) * 3, d = (y * lw + x) * 3
                out[d] = rgb[s]; out[d + 1] = rgb[s + 1]; out[d + 2] = rgb[s + 2]
            }
        }
        return ScreenImage(width: lw, height: lh, rgb: out)
    }

    /// The largest channel difference between `self` around (cx, cy) and `reference` around
    /// (rcx, rcy), over a square of `side` pixels; and where it is.
    func maxDifference(around cx: Int, _ cy: Int, side: Int, against reference: ScreenImage,
                       around rcx: Int, _ rcy: Int) -> (difference: Int, x: Int, y: Int) {
        var worst = (difference: 0, x: 0, y: 0)
        let half = side / 2
        for dy in -half..<(side - half) {
            for dx in -half..<(side - half) {
                let (x, y, rx, ry) = (cx + dx, cy + dy, rcx + dx, rcy + dy)
                guard x >= 0, y >= 0, x < width, y < height, rx >= 0, ry >= 0, rx < reference.width, ry < reference.height else { continue }
                let a = pixel(x, y), b = reference.pixel(rx, ry)
                let d = max(abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b))
                if d > worst.difference { worst = (d, x, y) }
            }
        }
        return worst
    }

    /// The centroid of the pixels within `tolerance` of `color` (the inner dot's colour), or nil.
    func centroid(of color: (Int, Int, Int), tolerance: Int = 12) -> (x: Double, y: Double, count: Int)? {
        var sx = 0.0, sy = 0.0, n = 0
        for y in 0..<height {
            for x in 0..<width {
                let p = pixel(x, y)
                if abs(p.r - color.0) <= tolerance && abs(p.g - color.1) <= tolerance && abs(p.b - color.2) <= tolerance {
                    sx += Double(x) + 0.5; sy += Double(y) + 0.5; n += 1
                }
            }
        }
        return n == 0 ? nil : (sx / Double(n), sy / Double(n), n)
    }

    func write(to path: String) throws {
        try PNGWrite.rgb(width: width, height: height, rgb: rgb, to: path)
    }
}

/// The headless render of a frame, made by the binary under test on the host.
enum HeadlessRender {
    static func frame(at time: Double, width: Int, height: Int, scale: Double, format: String = "xrgb8888",
                      extra: [String] = []) throws -> ScreenImage {
        let dir = try TestEnvironment.temporaryDirectory("render")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("frame.png").path
        let args = ["render", "--at", "\(time)", "--width", "\(width)", "--height", "\(height)", "--scale", "\(scale)",
                    "--format", format, "--out", out] + extra
        let r = try runProgram(try TestEnvironment.pulsedotBinary(), args)
        guard r.status == 0 else { throw TestFailure("pulsedot \(args.joined(separator: " ")): \(r.stderr)") }
        return try ScreenImage.read(out)
    }
}
