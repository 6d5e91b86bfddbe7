/// The ring disc's drop shadow as precomputed masks: the disc's silhouette blurred by the Gaussian
/// kernel once per (style, scale), then resampled at 8×8 sub-pixel phases (1/8 px) so drawing a
/// shadow is reading one mask row per row. The alpha of the whole shadow (colour alpha × opacity ×
/// group opacity) is baked in. All phases are made in init; painting only reads them.
public final class SoftShadowMasks {
    /// Phases per pixel along each axis.
    public static let phases = 8
    /// The mask's centre sits `margin` px from its top-left corner; its side is 2·margin + 1.
    public let margin: Int
    public let size: Int
    /// The blurred silhouette at phase 0 as a padded sprite (for the entrance pop's scaling).
    public let sprite: SpriteMask
    private let storage: UnsafeMutablePointer<UInt8>
    /// Per phase and mask row, the columns holding its non-zero alpha: [start, end) in mask
    /// columns (start == end for a row of zeros), so a frame blends only where the shadow is.
    private let rowRanges: UnsafeMutablePointer<Int32>
    private let boxes: [Rect]
    /// The blurred silhouette with alpha baked in, 2^16 precision, (size+1)² with a zero first row
    /// and column: what every phase is resampled from (kept for `referenceSample`).
    private let base: [Int]

    /// - Parameters: radius and sigma in 1/256 px; alpha 0…255 of the whole shadow.
    public init(radius: Int, sigma: Int, alpha: Int) {
        let kernel = Gaussian.kernel(sigma256: sigma)
        margin = (radius + 255) / 256 + kernel.radius + 2
        size = 2 * margin + 1
        let n = size
        // Silhouette: the disc's own anti-aliased coverage, centred on a pixel corner.
        var silhouette = [Int32](repeating: 0, count: n * n)
        let raster = DiscRasterizer(initialWidth: n)
        let disc = Disc(centerX256: margin * 256, centerY256: margin * 256, radius256: radius)
        let row = UnsafeMutablePointer<UInt8>.allocate(capacity: n)
        for y in 0..<n {
            raster.coverageRow(disc, y: y, clipX0: 0, clipX1: n, into: row)
            for x in 0..<n { silhouette[y * n + x] = Int32(row[x]) }
        }
        row.deallocate()
        // Separable blur, horizontal then vertical, rounding once at the end of each pass. The
        // weights sum to 2^16: the first pass's sums stay below 255·2^16 < 2^24, the second's reach
        // 255·2^8·2^16 ≈ 2^32, past a 32-bit Int, so it adds in Int64.
        let w = kernel.weights.map(Int.init), kr = kernel.radius
        var pass = [Int32](repeating: 0, count: n * n)
        for y in 0..<n { for x in 0..<n {
            var acc = 0
            for k in -kr...kr where x - k >= 0 && x - k < n { acc += w[k + kr] * Int(silhouette[y * n + x - k]) }
            pass[y * n + x] = Int32((acc + 128) >> 8)  // 255·2^8 scale
        } }
        var blurred = [Int32](repeating: 0, count: n * n)
        for y in 0..<n { for x in 0..<n {
            var acc: Int64 = 0
            for k in -kr...kr where y - k >= 0 && y - k < n { acc += Int64(w[k + kr]) * Int64(pass[(y - k) * n + x]) }
            blurred[y * n + x] = Int32((acc + 128) >> 8)  // 255·2^16 scale
        } }
        // Bake the alpha in: coverage × alpha / 255, still at 2^16 precision, with a zero row and
        // column in front so every phase can read its upper-left neighbours without a test.
        let a = Int64(min(max(alpha, 0), 255))
        let m = n + 1
        var base = [Int](repeating: 0, count: m * m)
        for y in 0..<n { for x in 0..<n { base[(y + 1) * m + x + 1] = Int((Int64(blurred[y * n + x]) * a + 127) / 255) } }
        let count = Self.phases * Self.phases
        // Four spare zero bytes at the end: a row may be read four pixels at a time.
        let store = UnsafeMutablePointer<UInt8>.allocate(capacity: count * n * n + 4)
        (store + count * n * n).initialize(repeating: 0, count: 4)
        var boxes = [Rect]()
        base.withUnsafeBufferPointer { b in
            for py in 0..<Self.phases { for px in 0..<Self.phases {
                boxes.append(Self.shift(b.baseAddress!, n, px, py, into: store + (py * Self.phases + px) * n * n))
            } }
        }
        storage = store
        let ranges = UnsafeMutablePointer<Int32>.allocate(capacity: count * n * 2)
        for i in 0..<(count * n) {
            let line = store + i * n
            var a = 0, b = n
            while a < n && line[a] == 0 { a += 1 }
            while b > a && line[b - 1] == 0 { b -= 1 }
            ranges[2 * i] = Int32(a)
            ranges[2 * i + 1] = Int32(b)
        }
        rowRanges = ranges
        self.boxes = boxes
        self.base = base
        var phase0 = [UInt8](repeating: 0, count: n * n)
        for i in 0..<(n * n) { phase0[i] = store[i] }
        sprite = SpriteMask(AlphaMask(width: n, height: n, alpha: phase0))
    }

    deinit { storage.deallocate(); rowRanges.deallocate() }

    /// Where a shadow centred at (cx, cy) (1/256 px) goes: its mask, the mask's top-left pixel,
    /// and the pixels that are not zero (absolute).
    public struct Placement {
        public let mask: UnsafePointer<UInt8>
        public let size: Int
        public let originX: Int
        public let originY: Int
        public let box: Rect
        /// Row r of the mask is zero outside columns [rows[2r], rows[2r + 1]).
        public let rows: UnsafePointer<Int32>
    }

    public func placement(centerX: Int, centerY: Int) -> Placement {
        // Nearest 1/8 px; a phase of 8 is the next pixel's phase 0.
        let qx = (centerX + 16) >> 5, qy = (centerY + 16) >> 5
        let index = (qy & 7) * Self.phases + (qx & 7)
        let ox = (qx >> 3) - margin, oy = (qy >> 3) - margin
        let b = boxes[index]
        return Placement(mask: UnsafePointer(storage + index * size * size), size: size,
                         originX: ox, originY: oy,
                         box: b.isEmpty ? .empty : Rect(x: b.x + ox, y: b.y + oy, width: b.width, height: b.height),
                         rows: UnsafePointer(rowRanges + index * size * 2))
    }

    /// The shadow centred at (centerX, centerY) (1/256 px) at pixel (x, y), computed from the blurred
    /// silhouette directly rather than read from a phase mask: the benchmark's reference painter
    /// (`--verify`) checks the masks against it. Slow; not for the frame path.
    public func referenceSample(x: Int, y: Int, centerX: Int, centerY: Int) -> UInt8 {
        let qx = (centerX + 16) >> 5, qy = (centerY + 16) >> 5
        let mx = x - ((qx >> 3) - margin), my = y - ((qy >> 3) - margin)
        if mx < 0 || my < 0 || mx >= size || my >= size { return 0 }
        let px = qx & 7, py = qy & 7, m = size + 1
        func at(_ bx: Int, _ by: Int) -> Int { base[(by + 1) * m + bx + 1] }  // bx, by ≥ −1
        let v = at(mx, my) * ((8 - px) * (8 - py)) + at(mx - 1, my) * (px * (8 - py))
            + at(mx, my - 1) * ((8 - px) * py) + at(mx - 1, my - 1) * (px * py)
        return UInt8((v + (1 << 21)) >> 22)
    }

    /// Phase (px, py): the silhouette moved right by px/8 and down by py/8, bilinearly, rounded to
    /// 8 bits. `base` is (n+1)² with a zero first row and column. Returns the non-zero box.
    private static func shift(_ base: UnsafePointer<Int>, _ n: Int, _ px: Int, _ py: Int,
                              into out: UnsafeMutablePointer<UInt8>) -> Rect {
        let m = n + 1
        let w00 = (8 - px) * (8 - py), w10 = px * (8 - py), w01 = (8 - px) * py, w11 = px * py
        var minX = n, minY = n, maxX = -1, maxY = -1
        for y in 0..<n {
            let here = base + (y + 1) * m + 1, above = base + y * m + 1
            for x in 0..<n {
                // At most 255·2^16 · 64 + 2^21 < 2^31: fits a 32-bit Int.
                let v = here[x] * w00 + here[x - 1] * w10 + above[x] * w01 + above[x - 1] * w11
                let a = UInt8((v + (1 << 21)) >> 22)  // ÷ 64 weights ÷ 2^16
                out[y * n + x] = a
                if a != 0 {
                    if x < minX { minX = x }
                    if x > maxX { maxX = x }
                    if y < minY { minY = y }
                    maxY = y
                }
            }
        }
        return maxX < 0 ? .empty : Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}
