/// Drawing a polyline: row by row over the clip, each segment near the row walked over the pixels
/// it can reach, keeping per pixel the nearest segment's squared distance, then each touched pixel
/// shaded once. Exact integer arithmetic throughout, so any split of the canvas into clips gives
/// the very same pixels as one whole draw.
extension Polyline {
    /// Draws the line with `style` inside `clip` (canvas pixels) of an XRGB8888 `canvas` whose
    /// top-left pixel is map pixel (`viewX`, `viewY`). Allocates nothing.
    public func stroke(_ style: StrokeStyle, into canvas: PixelBuffer, clip: Rect, viewX: Int, viewY: Int) {
        precondition(canvas.format == .xrgb8888, "a polyline is drawn on an xrgb8888 canvas")
        let area = clip.intersection(canvas.bounds)
        if area.isEmpty || segments.isEmpty { return }
        let view = (x: Self.clampView(viewX), y: Self.clampView(viewY))
        var x0 = area.x
        while x0 < area.maxX {
            let x1 = min(area.maxX, x0 + rowCapacity)
            strokeChunk(style, canvas, Rect(x: x0, y: area.y, width: x1 - x0, height: area.height), view)
            x0 = x1
        }
    }

    /// Views beyond ±2^30 px are as far off as any route can be; clamping keeps Q8 in Int64.
    static func clampView(_ v: Int) -> Int64 { Int64(min(max(v, -(1 << 30)), 1 << 30)) }

    private func strokeChunk(_ style: StrokeStyle, _ canvas: PixelBuffer, _ chunk: Rect, _ view: (x: Int64, y: Int64)) {
        let reach = style.reach256 + 256  // a pixel of slack over the rounded divisions below
        // Pixel centres of the chunk's corners, map Q8.
        let left = (Int64(chunk.x) + view.x) * 256 + 128, right = (Int64(chunk.maxX - 1) + view.x) * 256 + 128
        let top = (Int64(chunk.y) + view.y) * 256 + 128, bottom = (Int64(chunk.maxY - 1) + view.y) * 256 + 128
        var count = 0
        var rowsFrom = Int64.max, rowsTo = Int64.min
        var i = 0
        while i < segments.count {
            let s = segments[i]
            if s.maxX + reach >= left, s.minX - reach <= right, s.maxY + reach >= top, s.minY - reach <= bottom {
                selected[count] = Int32(truncatingIfNeeded: i)
                count += 1
                rowsFrom = min(rowsFrom, s.minY - reach); rowsTo = max(rowsTo, s.maxY + reach)
            }
            i += 1
        }
        if count == 0 { return }
        // Clamped to the chunk before narrowing: Int is 32 bits on ARM.
        let yFrom = Int(min(max(Fixed64.ceil256(rowsFrom - 128) - view.y, Int64(chunk.y)), Int64(chunk.maxY)))
        let yTo = Int(max(min(Fixed64.floor256(rowsTo - 128) - view.y, Int64(chunk.maxY - 1)), Int64(chunk.y - 1)))
        if yFrom > yTo { return }
        let boundary = travelled256
        for y in yFrom...yTo {
            let my = (Int64(y) + view.y) * 256 + 128
            var lo = Int.max, hi = Int.min
            var k = 0
            while k < count {
                let index = Int(selected[k])
                k += 1
                let s = segments[index]
                if my + reach < s.minY || my - reach > s.maxY { continue }
                // The segment's x extent over the rows a pixel here could be reached from, widened
                // by the reach: every pixel of this row within reach of the segment lies inside.
                var xa = s.minX, xb = s.maxX
                let dy = s.by - s.ay
                if dy != 0 {
                    let dx = s.bx - s.ax
                    let p = s.ax + (max(my - reach, s.minY) - s.ay) * dx / dy
                    let q = s.ax + (min(my + reach, s.maxY) - s.ay) * dx / dy
                    xa = min(p, q); xb = max(p, q)
                }
                let first = max(Int64(chunk.x), Fixed64.ceil256(xa - reach - 128) - view.x)
                let last = min(Int64(chunk.maxX - 1), Fixed64.floor256(xb + reach - 128) - view.x)
                if first > last { continue }
                let from = Int(first) - chunk.x, to = Int(last) - chunk.x
                walk(s, index, from: from, to: to, wx: (first + view.x) * 256 + 128 - s.ax, wy: my - s.ay, boundary: boundary - s.start)
                lo = min(lo, from); hi = max(hi, to)
            }
            if lo <= hi { shadeRow(style, canvas.row(y).assumingMemoryBound(to: UInt32.self) + chunk.x, lo, hi) }
        }
    }

    /// Pixels `from`…`to` of the chunk's row against segment `s`, the first pixel's centre at
    /// (`wx`, `wy`) from its start: the distance along it and across it advance by one step each.
    @inline(__always)
    private func walk(_ s: StrokeSegment, _ index: Int, from: Int, to: Int, wx: Int64, wy: Int64, boundary: Int64) {
        var along = wx * s.ux + wy * s.uy  // Q38
        var across = wy * s.ux - wx * s.uy
        let alongStep = 256 * s.ux, acrossStep = -256 * s.uy
        var i = from
        while i <= to {
            let a = along >> 30
            // The magnitude first, then the shift: a line's two sides round alike (symmetric).
            let h = (across < 0 ? -across : across) >> 30
            let e = a < 0 ? a : a > s.length ? a - s.length : 0
            let d2 = h * h + e * e
            let d = d2 < 0xFFFF_FFFF ? UInt32(truncatingIfNeeded: d2) : UInt32.max
            if d < distances[i] {
                distances[i] = d
                travelledness[i] = travelledness(segment: index, along: a, boundary: boundary)
            }
            along &+= alongStep
            across &+= acrossStep
            i += 1
        }
    }

    /// Shades the touched pixels `lo`…`hi` of a row and leaves the scratch as found.
    @inline(__always)
    private func shadeRow(_ style: StrokeStyle, _ row: UnsafeMutablePointer<UInt32>, _ lo: Int, _ hi: Int) {
        let outer = style.casing.outer2 > style.line.outer2 ? style.casing.outer2 : style.line.outer2
        var i = lo
        while i <= hi {
            let d2 = distances[i]
            if d2 < outer { row[i] = style.shade(row[i], d2, travelledness[i]) }
            distances[i] = .max
            i += 1
        }
    }
}

/// Whole pixels from 1/256 px for any sign (arithmetic shifts round toward −∞).
enum Fixed64 {
    @inline(__always) static func floor256(_ v: Int64) -> Int64 { v >> 8 }
    @inline(__always) static func ceil256(_ v: Int64) -> Int64 { -((-v) >> 8) }
}
