import Raster

/// The ring disc and its shadow, composited as one group faded by outerDotAlpha.
extension DotPainter {
    /// Rows of the group inside `box`: per row the shadow's alpha (read straight from the phase
    /// mask when it spans the box, else gathered into the scratch row), the ring's row from its
    /// table, then `GroupBlend.drawRow`.
    func drawGroup(_ g: DotLayout.Group, box: Rect, into target: PixelBuffer) {
        if box.isEmpty { return }
        let x0 = box.x, x1 = box.maxX, width = box.width
        let ringVisible = g.ringPaint.alpha > 0
        if ringVisible { ringTable.rasterize(g.ring, rows: box.y, box.maxY, clipX0: x0, clipX1: x1) }
        guard let masks = shadow, g.shadowBounds.intersects(box) else {
            if ringVisible { ringTable.draw(g.ringPaint, rows: box.y, box.maxY, x0: x0, x1: x1, into: target, over: nil) }
            return
        }
        let ringAlpha = UInt32(g.ringColor.a)
        let bytes = ringTable.bytes
        for y in box.y..<box.maxY {
            let ring = ringVisible ? ringTable.span(y) : DiscSpan.empty
            var alpha: UnsafePointer<UInt8> = UnsafePointer(shadowRow)
            var s0 = x0, s1 = x0
            if let p = g.shadowPhase {
                let my = y - p.originY
                if my >= 0 && my < p.size {
                    let line = p.mask + my * p.size
                    // The row's non-zero columns: blended only there.
                    let r0 = p.originX + Int(p.rows[2 * my]), r1 = p.originX + Int(p.rows[2 * my + 1])
                    if p.originX <= x0 && p.originX + p.size >= x1 {
                        alpha = line + (x0 - p.originX)
                        s0 = max(x0, r0); s1 = min(x1, r1)
                    } else {
                        shadowRow.update(repeating: 0, count: width)
                        let a = max(x0, r0), b = min(x1, r1)
                        if a < b {
                            (shadowRow + (a - x0)).update(from: line + (a - p.originX), count: b - a)
                            s0 = a; s1 = b
                        }
                    }
                } else if !ring.isEmpty {
                    shadowRow.update(repeating: 0, count: width)
                }
            } else if let s = g.shadowSprite {
                s.sampleRow(masks.sprite, y: y, x0: x0, x1: x1, into: shadowRow)
                s0 = x0; s1 = x1
            }
            if ring.isEmpty && s1 <= s0 { continue }
            GroupBlend.drawRow(target.row(y).assumingMemoryBound(to: UInt32.self), x0: x0, x1: x1,
                               shadow: alpha, shadowStart: s0, shadowEnd: s1, disc: ring, leftEdge: bytes + ring.left,
                               rightEdge: bytes + ring.right, shadowPaint: shadowPaint,
                               discPaint: g.ringPaint, discAlpha: ringAlpha, groupAlpha: groupAlpha, knockout: knockout)
        }
    }
}
