import Raster

/// How far `--verify` lets a frame stray from the reference painter's: 2/255 per channel on an
/// XRGB8888 output — what a faint, large disc's coverage from `DiscProfile` may move a pixel by —
/// and on RGB565 one step of the narrowed channel (2/255 before narrowing moves a 5- or 6-bit
/// channel by at most one). Every other layer is drawn exactly, so most frames are byte-equal.
enum BenchTolerance {
    static func allowed(_ format: PixelFormat) -> Int {
        switch format {
        case .xrgb8888: return 2
        case .rgb565: return 1
        }
    }

    /// The largest difference of one channel between two frames of the same size and format, in
    /// the format's own units (Int.max for frames of different shapes).
    static func largestDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        if a.width != b.width || a.height != b.height || a.format != b.format { return .max }
        var m = 0
        for y in 0..<a.height {
            switch a.format {
            case .xrgb8888:
                let p = a.row(y).assumingMemoryBound(to: UInt32.self), q = b.row(y).assumingMemoryBound(to: UInt32.self)
                for x in 0..<a.width where p[x] != q[x] {
                    for shift in [0, 8, 16] as [UInt32] {
                        m = max(m, abs(Int((p[x] >> shift) & 0xFF) - Int((q[x] >> shift) & 0xFF)))
                    }
                }
            case .rgb565:
                let p = a.row(y).assumingMemoryBound(to: UInt16.self), q = b.row(y).assumingMemoryBound(to: UInt16.self)
                for x in 0..<a.width where p[x] != q[x] {
                    for (shift, mask) in [(0, 0x1F), (5, 0x3F), (11, 0x1F)] as [(UInt16, Int)] {
                        m = max(m, abs(Int(p[x] >> shift) & mask - Int(q[x] >> shift) & mask))
                    }
                }
            }
        }
        return m
    }
}
