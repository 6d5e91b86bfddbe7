import LocationDot
import Raster

/// Frames and measurements for the painter tests.
enum PainterFixture {
    static let clear = Color(r: 0, g: 0, b: 0, a: 0)

    /// A style showing only the layers asked for, each in opaque white, so a black frame's red
    /// channel is that layer's coverage.
    static func only(ring: Bool = false, dot: Bool = false, halo: Bool = false) -> DotStyle {
        var s = DotStyle()
        s.outerColor = ring ? .white : clear
        s.annotationColor = dot ? .white : clear
        s.pulseColor = halo ? .white : clear
        s.shadowOpacity = 0
        return s
    }

    static func frame(_ size: Int, _ color: Color) -> OwnedPixelBuffer {
        let f = OwnedPixelBuffer(width: size, height: size, format: .xrgb8888)
        f.buffer.fill(f.buffer.bounds, with: color)
        return f
    }

    /// A frame whose every pixel differs from its neighbours, to catch stray writes.
    static func patterned(_ w: Int, _ h: Int) -> OwnedPixelBuffer {
        let f = OwnedPixelBuffer(width: w, height: h, format: .xrgb8888)
        for y in 0..<h {
            let row = f.buffer.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w { row[x] = 0xFF00_0000 | UInt32((x * 37 + y * 11) & 0xFF) << 16 | UInt32((x ^ y) & 0xFF) << 8 | UInt32((x + 3 * y) & 0xFF) }
        }
        return f
    }

    /// Σ channel/255 over the frame (the summed coverage on a black frame) and its centroid.
    /// `invert` measures darkness on a white frame instead.
    static func coverage(_ f: OwnedPixelBuffer, shift: UInt32 = 16, invert: Bool = false) -> (sum: Double, x: Double, y: Double) {
        var sum = 0.0, mx = 0.0, my = 0.0
        for y in 0..<f.buffer.height {
            let row = f.buffer.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<f.buffer.width {
                var c = Double((row[x] >> shift) & 0xFF) / 255
                if invert { c = 1 - c }
                sum += c; mx += c * (Double(x) + 0.5); my += c * (Double(y) + 0.5)
            }
        }
        return (sum, mx / max(sum, 1e-9), my / max(sum, 1e-9))
    }

    /// 64-bit FNV-1a of the frame's bytes.
    static func hash(_ f: OwnedPixelBuffer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in f.bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }
}

extension PixelBuffer {
    func channels(x: Int, y: Int) -> (r: Int, g: Int, b: Int) {
        let p = pixel(x: x, y: y)
        return (Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF))
    }
}
