/// Up to four concentric discs drawn outermost first, each anti-aliased from its centre's exact
/// distance: a stop's white disc inside a coloured ring, a terminus's double ring.
public struct RingMarker: Equatable, Sendable {
    public struct Ring: Equatable, Sendable {
        public let ramp: EdgeRamp
        let paint: SolidPaint
        public init(radius256: Int32, color: Color) {
            ramp = EdgeRamp(radius256: radius256)
            paint = SolidPaint(color)
        }
    }

    // Four slots, not an array: a marker is copied into every frame's drawing and must not
    // touch the heap.
    let r0: Ring?, r1: Ring?, r2: Ring?, r3: Ring?

    /// Rings outermost first; more than four are ignored.
    public init(_ rings: Ring...) {
        r0 = rings.count > 0 ? rings[0] : nil
        r1 = rings.count > 1 ? rings[1] : nil
        r2 = rings.count > 2 ? rings[2] : nil
        r3 = rings.count > 3 ? rings[3] : nil
    }

    /// How far from the centre a pixel centre may be and still be touched, 1/256 px.
    public var reach256: Int64 {
        var r: Int32 = 0
        if let a = r0 { r = max(r, a.ramp.radius256) }
        if let a = r1 { r = max(r, a.ramp.radius256) }
        if let a = r2 { r = max(r, a.ramp.radius256) }
        if let a = r3 { r = max(r, a.ramp.radius256) }
        return Int64(r) + 128
    }

    /// The map pixels the marker at `center` may touch.
    public func bounds(at center: Point256) -> Rect {
        Polyline.pixelRect(minX: Int64(center.x256), minY: Int64(center.y256), maxX: Int64(center.x256), maxY: Int64(center.y256),
                           margin256: reach256)
    }

    /// Draws the marker centred on map point `center` inside `clip` of an XRGB8888 canvas whose
    /// top-left pixel is map pixel (`viewX`, `viewY`).
    public func draw(into canvas: PixelBuffer, clip: Rect, center: Point256, viewX: Int, viewY: Int) {
        precondition(canvas.format == .xrgb8888, "a marker is drawn on an xrgb8888 canvas")
        let vx = Polyline.clampView(viewX), vy = Polyline.clampView(viewY)
        let cx = Int64(center.x256), cy = Int64(center.y256), reach = reach256
        // The marker's pixels in canvas coordinates, clamped before narrowing (32-bit Int on ARM).
        let area = clip.intersection(canvas.bounds)
        if area.isEmpty { return }
        let x0 = max(Fixed64.ceil256(cx - reach - 128) - vx, Int64(area.x))
        let x1 = min(Fixed64.floor256(cx + reach - 128) - vx, Int64(area.maxX - 1))
        let y0 = max(Fixed64.ceil256(cy - reach - 128) - vy, Int64(area.y))
        let y1 = min(Fixed64.floor256(cy + reach - 128) - vy, Int64(area.maxY - 1))
        if x0 > x1 || y0 > y1 { return }
        for y in Int(y0)...Int(y1) {
            let row = canvas.row(y).assumingMemoryBound(to: UInt32.self)
            let dy = (Int64(y) + vy) * 256 + 128 - cy
            for x in Int(x0)...Int(x1) {
                let dx = (Int64(x) + vx) * 256 + 128 - cx
                let d2 = dx * dx + dy * dy
                if d2 >= 0xFFFF_FFFF { continue }
                row[x] = shade(row[x], UInt32(truncatingIfNeeded: d2))
            }
        }
    }

    @inline(__always)
    private func shade(_ pixel: UInt32, _ d2: UInt32) -> UInt32 {
        var p = pixel
        var root: UInt32?
        for slot in 0..<4 {
            let ring: Ring? = slot == 0 ? r0 : slot == 1 ? r1 : slot == 2 ? r2 : r3
            guard let ring else { break }
            if d2 >= ring.ramp.outer2 { continue }
            var d: UInt32 = 0
            if ring.ramp.needsRoot(d2) {
                if root == nil { root = Fixed.isqrt(d2) }
                d = root ?? 0
            }
            let a = ring.ramp.alpha(d2, root: d)
            if a > 0 { p = Blend.over(p, ring.paint, alpha: Blend.div255(a &* ring.paint.alpha)) }
        }
        return p
    }
}
