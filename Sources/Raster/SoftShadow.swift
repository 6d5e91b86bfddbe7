/// The ring disc's drop shadow as precomputed masks: the disc's silhouette blurred by the Gaussian
/// kernel once per (style, scale), then resampled at 8×8 sub-pixel phases (1/8 px) so drawing a
/// shadow is reading one mask row per row. The alpha of the whole shadow (colour alpha × opacity ×
/// group opacity) is baked in. A phase is computed the first time it is needed, into storage
/// allocated in init, so painting never allocates.
public final class SoftShadowMasks {
    /// Phases per pixel along each axis.
    public static let phases = 8
    /// The mask's centre sits `margin` px from its top-left corner; its side is 2·margin + 1.
    public let margin: Int
    public let size: Int
    /// The blurred silhouette at phase 0 as a padded sprite (for the entrance pop's scaling).
    public let sprite: SpriteMask
    private let base: [Int32]  // blurred coverage, 0…255·2^16, disc centre at (margin, margin)
    private let storage: UnsafeMutablePointer<UInt8>
    private var ready: [Bool]
    private var boxes: [Rect]

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
        // Separable blur, horizontal then vertical, rounding once at the end of each pass.
        let w = kernel.weights.map(Int.init), kr = kernel.radius
        var pass = [Int32](repeating: 0, count: n * n)
        for y in 0..<n { for x in 0..<n {
            var acc = 0
            for k in -kr...kr where x - k >= 0 && x - k < n { acc += w[k + kr] * Int(silhouette[y * n + x - k]) }
            pass[y * n + x] = Int32((acc + 128) >> 8)  // 255·2^8 scale
        } }
        var blurred = [Int32](repeating: 0, count: n * n)
        for y in 0..<n { for x in 0..<n {
            var acc = 0
            for k in -kr...kr where y - k >= 0 && y - k < n { acc += w[k + kr] * Int(pass[(y - k) * n + x]) }
            blurred[y * n + x] = Int32((acc + 128) >> 8)  // 255·2^16 scale
        } }
        // Bake the alpha in: base = coverage × alpha / 255, still at 2^16 precision.
        let a = Int64(min(max(alpha, 0), 255))
        base = blurred.map { Int32((Int64($0) * a + 127) / 255) }
        let count = Self.phases * Self.phases
        storage = .allocate(capacity: count * n * n)
        storage.initialize(repeating: 0, count: count * n * n)
        ready = [Bool](repeating: false, count: count)
        boxes = [Rect](repeating: .empty, count: count)
        var phase0 = [UInt8](repeating: 0, count: n * n)
        for i in 0..<(n * n) { phase0[i] = UInt8((base[i] + 32768) >> 16) }
        sprite = SpriteMask(AlphaMask(width: n, height: n, alpha: phase0))
    }

    deinit { storage.deallocate() }

    /// Where a shadow centred at (cx, cy) (1/256 px) goes: its mask, the mask's top-left pixel,
    /// and the pixels that are not zero (absolute).
    public struct Placement {
        public let mask: UnsafePointer<UInt8>
        public let size: Int
        public let originX: Int
        public let originY: Int
        public let box: Rect
    }

    public func placement(centerX: Int, centerY: Int) -> Placement {
        // Nearest 1/8 px; a phase of 8 is the next pixel's phase 0.
        let qx = (centerX + 16) >> 5, qy = (centerY + 16) >> 5
        let px = qx & 7, py = qy & 7
        let ix = qx >> 3, iy = qy >> 3
        let index = py * Self.phases + px
        if !ready[index] { compute(index, px, py) }
        let ox = ix - margin, oy = iy - margin
        let b = boxes[index]
        return Placement(mask: UnsafePointer(storage + index * size * size), size: size,
                         originX: ox, originY: oy,
                         box: b.isEmpty ? .empty : Rect(x: b.x + ox, y: b.y + oy, width: b.width, height: b.height))
    }

    /// Phase (px, py): the silhouette moved right by px/8 and down by py/8, bilinearly.
    private func compute(_ index: Int, _ px: Int, _ py: Int) {
        let n = size
        let out = storage + index * n * n
        let wx1 = px, wx0 = 8 - px, wy1 = py, wy0 = 8 - py
        var minX = n, minY = n, maxX = -1, maxY = -1
        func b(_ x: Int, _ y: Int) -> Int { x >= 0 && y >= 0 ? Int(base[y * n + x]) : 0 }
        for y in 0..<n { for x in 0..<n {
            let v = (b(x, y) * wx0 + b(x - 1, y) * wx1) * wy0 + (b(x, y - 1) * wx0 + b(x - 1, y - 1) * wx1) * wy1
            let a = UInt8((v + (1 << 21)) >> 22)  // ÷ 64 weights ÷ 2^16
            out[y * n + x] = a
            if a != 0 { minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y) }
        } }
        boxes[index] = maxX < 0 ? .empty : Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
        ready[index] = true
    }
}
