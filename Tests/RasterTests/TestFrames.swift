import Raster

/// Small helpers shared by the Raster tests: frames with known contents.
enum TestFrames {
    /// An XRGB8888 frame whose every pixel is distinct: 0xFF, y, x-low, x-high-ish pattern.
    static func numbered(width: Int, height: Int) -> OwnedPixelBuffer {
        let f = OwnedPixelBuffer(width: width, height: height, format: .xrgb8888)
        for y in 0..<height {
            let row = f.buffer.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { row[x] = 0xFF00_0000 | UInt32(y & 0xFF) << 16 | UInt32(x & 0xFF) << 8 | UInt32((x * 7 + y * 13) & 0xFF) }
        }
        return f
    }

    static func solid(width: Int, height: Int, _ c: Color) -> OwnedPixelBuffer {
        let f = OwnedPixelBuffer(width: width, height: height, format: .xrgb8888)
        f.buffer.fill(f.buffer.bounds, with: c)
        return f
    }
}

extension PixelBuffer {
    func channels(x: Int, y: Int) -> (r: Int, g: Int, b: Int) {
        let p = pixel(x: x, y: y)
        return (Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF))
    }
}
