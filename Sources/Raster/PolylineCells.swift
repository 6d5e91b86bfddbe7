/// The grid cells a thick polyline may colour: what a map that keeps its own pixels under the line
/// (to put them back when the line changes) has to keep, and nothing far from it.
extension Polyline {
    /// Calls `body(column, row)` for every cell of a grid of 1 << `shift` px squares of map pixels
    /// (cell (0, 0) from map pixel (0, 0)) holding a pixel whose centre may lie within `margin256`
    /// of the line. Conservative — a cell the line only nearly reaches may be named — and a cell
    /// near several segments is named once per segment.
    public func forEachCell(shift: Int, margin256: Int64, _ body: (Int, Int) -> Void) {
        let size256 = Int64(256) << shift
        // A pixel centre lies within half a diagonal of its cell's centre (√2 < 1449/1024); a
        // pixel of slack over that.
        let limit = margin256 + (size256 / 2 * 1449 + 1023) / 1024 + 256
        let limit2 = Double(limit) * Double(limit)
        let cellShift = Int64(shift + 8)
        for s in segments {
            let c0 = (s.minX - limit) >> cellShift, c1 = (s.maxX + limit) >> cellShift
            let r0 = (s.minY - limit) >> cellShift, r1 = (s.maxY + limit) >> cellShift
            let dx = Double(s.bx - s.ax), dy = Double(s.by - s.ay)
            let length2 = dx * dx + dy * dy
            var r = r0
            while r <= r1 {
                let cy = Double(r * size256 + size256 / 2) - Double(s.ay)
                var c = c0
                while c <= c1 {
                    let cx = Double(c * size256 + size256 / 2) - Double(s.ax)
                    var t = length2 > 0 ? (cx * dx + cy * dy) / length2 : 0
                    t = t < 0 ? 0 : t > 1 ? 1 : t
                    let ex = cx - t * dx, ey = cy - t * dy
                    if ex * ex + ey * ey <= limit2 { body(Int(c), Int(r)) }
                    c += 1
                }
                r += 1
            }
        }
    }
}
