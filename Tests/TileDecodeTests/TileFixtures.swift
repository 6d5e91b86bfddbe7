import Foundation
import PNG
import Raster
import Tiles
import TestSupport
import TileDecode
import XCTest

/// Tiles made by real tools (the project's PNG writer, libjpeg-turbo's cjpeg and djpeg, a
/// zlib-written PNG from Python), and ways to read what a decoder left in a slot.
enum TileFixtures {
    static let cjpeg = "/usr/bin/cjpeg"
    static let djpeg = "/usr/bin/djpeg"
    static let python = "/usr/bin/python3"

    static func requireTools() throws {
        for tool in [cjpeg, djpeg, python] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw TestFailure("\(tool) is missing: sudo deploy/install-deps --test (libjpeg-turbo-progs, python3)")
        }
    }

    /// A picture that tells every pixel, channel and orientation apart: red follows x, green y,
    /// blue both, with a few hard edges so JPEG's blocks have something to get wrong.
    static func pattern(width: Int, height: Int) -> [UInt8] {
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let edge = (x / 37 + y / 23) % 3 == 0
                rgb += [UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)),
                        edge ? 230 : UInt8((x ^ y) & 0x7F)]
            }
        }
        return rgb
    }

    static func directory() throws -> URL { try TestEnvironment.temporaryDirectory("tiles") }

    /// A binary PPM (P6) or, for one channel, PGM (P5): what cjpeg reads.
    static func writePNM(_ pixels: [UInt8], width: Int, height: Int, channels: Int, to url: URL) throws {
        let header = Array("\(channels == 1 ? "P5" : "P6")\n\(width) \(height)\n255\n".utf8)
        try Data(header + pixels).write(to: url)
    }

    /// A JPEG of `pixels` made by cjpeg with `options` (e.g. `-progressive`, `-sample 1x1`).
    static func cjpeg(_ pixels: [UInt8], width: Int, height: Int, channels: Int = 3, options: [String] = []) throws -> (bytes: [UInt8], path: String) {
        let dir = try directory()
        let input = dir.appendingPathComponent(channels == 1 ? "in.pgm" : "in.ppm")
        let output = dir.appendingPathComponent("tile.jpg")
        try writePNM(pixels, width: width, height: height, channels: channels, to: input)
        let run = try runProgram(cjpeg, options + ["-outfile", output.path, input.path], timeout: 60)
        guard run.status == 0 else { throw TestFailure("cjpeg \(options) failed (\(run.status)): \(run.stderr)") }
        return (Array(try Data(contentsOf: output)), output.path)
    }

    /// djpeg's own decode of a JPEG file, as packed R, G, B bytes (grey widened to three equal
    /// channels, as a decode into RGB pixels does).
    static func djpegRGB(_ path: String) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let output = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("djpeg.pnm")
        let run = try runProgram(djpeg, ["-pnm", "-outfile", output.path, path], timeout: 60)
        guard run.status == 0 else { throw TestFailure("djpeg failed (\(run.status)): \(run.stderr)") }
        let pnm = Array(try Data(contentsOf: output))
        // "P6\nW H\n255\n" then the samples; djpeg writes exactly these four tokens.
        var tokens: [String] = [], token = "", offset = 0
        while tokens.count < 4 {
            let c = pnm[offset]; offset += 1
            if c == 0x0A || c == 0x20 {
                if !token.isEmpty { tokens.append(token); token = "" }
            } else {
                token.append(Character(UnicodeScalar(c)))
            }
        }
        let width = Int(tokens[1])!, height = Int(tokens[2])!
        let samples = Array(pnm[offset...])
        switch tokens[0] {
        case "P6": return (width, height, samples)
        case "P5": return (width, height, samples.flatMap { [$0, $0, $0] })
        default: throw TestFailure("djpeg wrote \(tokens[0]), not a PPM or PGM")
        }
    }

    /// A PNG written by Python's zlib, for the colour types PNGWrite does not write. `kind` is
    /// "grey" (type 0), "greyalpha" (type 4) or "palette" (type 3 with a tRNS chunk); the pixels
    /// follow `pythonPixel`.
    static func pythonPNG(_ kind: String, size: Int) throws -> [UInt8] {
        let out = try directory().appendingPathComponent("\(kind).png")
        let script = """
        import struct, sys, zlib
        kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
        def chunk(tag, data):
            return struct.pack('>I', len(data)) + tag + data + struct.pack('>I', zlib.crc32(tag + data))
        colour = {'grey': 0, 'greyalpha': 4, 'palette': 3}[kind]
        rows = bytearray()
        for y in range(n):
            rows.append(0)
            for x in range(n):
                if kind == 'palette':
                    rows.append((x // 16 + (y // 16) * 3) % 16)
                else:
                    rows.append((x * 7 + y * 3) & 255)
                    if kind == 'greyalpha':
                        rows.append((x + y * 2) & 255)
        png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', n, n, 8, colour, 0, 0, 0))
        if kind == 'palette':
            png += chunk(b'PLTE', bytes(c for i in range(16) for c in (i * 16, 255 - i * 16, i * 5)))
            png += chunk(b'tRNS', bytes(i * 17 for i in range(16)))
        png += chunk(b'IDAT', zlib.compress(bytes(rows), 9)) + chunk(b'IEND', b'')
        open(out, 'wb').write(png)
        """
        let run = try runProgram(python, ["-c", script, kind, String(size), out.path], timeout: 60)
        guard run.status == 0 else { throw TestFailure("python3 PNG writer failed (\(run.status)): \(run.stderr)") }
        return Array(try Data(contentsOf: out))
    }

    /// What `pythonPNG(kind)` holds at (x, y), as straight-alpha R, G, B, A.
    static func pythonPixel(_ kind: String, _ x: Int, _ y: Int) -> [UInt8] {
        switch kind {
        case "palette":
            let i = (x / 16 + (y / 16) * 3) % 16
            return [UInt8(i * 16), UInt8(255 - i * 16), UInt8(i * 5), UInt8(i * 17)]
        default:
            let v = UInt8((x * 7 + y * 3) & 255)
            return [v, v, v, kind == "greyalpha" ? UInt8((x + y * 2) & 255) : 255]
        }
    }

    /// A tile slot filled with a byte no decoder writes everywhere, so untouched pixels show.
    static func slot(_ size: TileSize, fill: UInt8 = 0x5A) -> OwnedPixelBuffer {
        let slot = OwnedPixelBuffer(width: size.pixels, height: size.pixels, format: .xrgb8888)
        slot.bytes.initializeMemory(as: UInt8.self, repeating: fill)
        return slot
    }

    /// The slot's pixels as packed R, G, B bytes.
    static func rgb(_ slot: OwnedPixelBuffer) -> [UInt8] { PNGWrite.rgbBytes(slot.buffer) }

    /// The slot's X bytes (the fourth of each pixel) that are not 0xFF.
    static func xBytesNotFF(_ slot: OwnedPixelBuffer) -> Int {
        var count = 0
        for i in stride(from: 3, to: slot.bytes.count, by: 4) where slot.bytes[i] != 0xFF { count += 1 }
        return count
    }

    /// PulseDot's blend of straight-alpha `c` onto `bg`, written out independently of the code
    /// under test.
    static func over(_ c: UInt8, _ bg: UInt8, _ a: UInt8) -> UInt8 {
        let alpha = Int(a)
        let sum: Int = Int(c) * alpha + Int(bg) * (255 - alpha) + 127
        return UInt8(sum / 255)
    }

    /// The first index where two byte arrays differ, for a message shorter than two dumps.
    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
        guard a.count == b.count else { return "\(a.count) bytes against \(b.count)" }
        guard let i = a.indices.first(where: { a[$0] != b[$0] }) else { return "none" }
        return "byte \(i) (pixel \(i / 3)): \(a[i]) against \(b[i])"
    }
}

// A PixelBuffer is a view: it does not keep its OwnedPixelBuffer alive, and a temporary's pixels
// can be freed before a call taking only its view has run. These keep the owners for the call.
extension TileDecoder {
    @discardableResult
    func decode(_ bytes: [UInt8], into slot: OwnedPixelBuffer) throws -> TileFormat {
        try withExtendedLifetime(slot) { try decode(bytes, into: slot.buffer) }
    }
}

extension TileScaler {
    static func enlarge(_ parent: OwnedPixelBuffer, levels: Int, column: Int, row: Int, into child: OwnedPixelBuffer) {
        withExtendedLifetime((parent, child)) {
            enlarge(parent.buffer, levels: levels, column: column, row: row, into: child.buffer)
        }
    }
}

extension PNGWrite {
    static func frame(_ frame: OwnedPixelBuffer) throws -> [UInt8] {
        try withExtendedLifetime(frame) { try PNGWrite.frame(frame.buffer) }
    }
}
