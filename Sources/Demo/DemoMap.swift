import Geo
import Raster

/// The demo's map image, drawn in code from `DemoTown`'s plan: blocks with buildings between white
/// streets, the bus route's arterials in yellow, a park with a pond, a square, a river with greens along its
/// banks, two bridges and the route's tunnel, and the bus line itself in transit orange with its
/// stops. Flat colours after Apple Maps' light palette, no text. Rectangles are filled whole pixels;
/// curves are chains of the Raster discs (exact-area coverage in 1/256 px), so the same bytes come
/// out everywhere.
public enum DemoMap {
    public static let land = Color(r: 0xF2, g: 0xEF, b: 0xE9)
    static let block = Color(r: 0xEC, g: 0xE8, b: 0xE1)
    static let building = Color(r: 0xE0, g: 0xDB, b: 0xD2)
    static let park = Color(r: 0xC4, g: 0xE4, b: 0xB0)
    static let parkPath = Color(r: 0xE4, g: 0xF1, b: 0xD6)
    public static let water = Color(r: 0xA3, g: 0xCF, b: 0xF2)
    static let street = Color.white
    static let streetCasing = Color(r: 0xDA, g: 0xD5, b: 0xCC)
    static let arterial = Color(r: 0xFF, g: 0xE9, b: 0xA8)
    static let arterialCasing = Color(r: 0xEF, g: 0xC9, b: 0x6B)
    static let bridgeCasing = Color(r: 0xB9, g: 0xB2, b: 0xA6)
    /// The bus line (Apple's system orange: far from the dot's blue).
    public static let line = Color(r: 0xFF, g: 0x95, b: 0x00)

    /// The whole map, `DemoTown.width`×`DemoTown.height`, XRGB8888.
    public static func draw(_ town: DemoTown = DemoTown()) -> OwnedPixelBuffer {
        let image = OwnedPixelBuffer(width: DemoTown.width, height: DemoTown.height, format: .xrgb8888)
        var pen = Pen(image.buffer)
        pen.rect(image.buffer.bounds, land)
        drawBlocks(&pen)
        drawRiverside(&pen)
        drawPark(&pen)
        drawStreets(&pen)
        drawCrossings(&pen)
        drawLine(&pen, town)
        return image
    }

    // MARK: Layers

    /// Every block between two avenues and two streets: a paler lot with a few buildings on it
    /// (sizes from an integer hash of the block and lot).
    static func drawBlocks(_ pen: inout Pen) {
        let xs = [0] + DemoTown.avenues + [DemoTown.width]
        let ys = [0] + DemoTown.streets + [DemoTown.height]
        for j in 0..<(ys.count - 1) {
            for i in 0..<(xs.count - 1) {
                let inner = Rect(x: xs[i] + 10, y: ys[j] + 10, width: xs[i + 1] - xs[i] - 20, height: ys[j + 1] - ys[j] - 20)
                if inner.width < 20 || inner.height < 20 || ys[j] == DemoTown.northBank { continue }
                pen.rect(inner, block)
                let columns = 3 + Int(hash(i, j, 0) % 3)
                for row in 0..<2 {
                    for c in 0..<columns {
                        let w = inner.width / columns, h = inner.height / 2
                        let shrinkX = Int(hash(i, j, 1 + row * 8 + c) % 9), shrinkY = Int(hash(i, j, 40 + row * 8 + c) % 14)
                        // Buildings stand on the street side of their lot.
                        let y = row == 0 ? inner.y + 4 : inner.y + h + 2 + shrinkY
                        pen.rect(Rect(x: inner.x + c * w + 3, y: y, width: w - 6 - shrinkX, height: h - 6 - shrinkY), building)
                    }
                }
            }
        }
    }

    /// The river between the bank streets, in a green strip along both banks.
    static func drawRiverside(_ pen: inout Pen) {
        let y0 = DemoTown.northBank + 10, y1 = DemoTown.southBank - 10
        pen.rect(Rect(x: 0, y: y0, width: DemoTown.width, height: y1 - y0), park)
        // A path along each bank.
        for x in stride(from: -8, through: DemoTown.width + 8, by: 2) {
            let r = DemoTown.river(atX: Double(x))
            pen.disc(Double(x), r.center - r.halfWidth - 16, 2.5, parkPath)
            pen.disc(Double(x), r.center + r.halfWidth + 16, 2.5, parkPath)
        }
        for x in stride(from: -70, through: DemoTown.width + 70, by: 2) {
            let r = DemoTown.river(atX: Double(x))
            pen.disc(Double(x), r.center, r.halfWidth, water)
        }
    }

    /// The park's lawn, a pond and paths crossing it; the square with its fountain.
    static func drawPark(_ pen: inout Pen) {
        let p = DemoTown.park
        let lawn = Rect(x: p.x0 + 10, y: p.y0 + 10, width: p.x1 - p.x0 - 20, height: p.y1 - p.y0 - 20)
        pen.rect(lawn, park)
        let mx = Double(p.x0 + p.x1) / 2, my = Double(p.y0 + p.y1) / 2
        for k in 0...400 {
            let f = Double(k) / 400
            let x = Double(lawn.x) + f * Double(lawn.width)
            pen.disc(x, my + 28 * PortableMath.sin(f * 2 * PortableMath.pi), 2.5, parkPath)
        }
        for k in 0...150 {
            let f = Double(k) / 150
            pen.disc(mx + 40 * (f - 0.5), Double(lawn.y) + f * Double(lawn.height), 2.5, parkPath)
        }
        pen.disc(DemoTown.pond.x, DemoTown.pond.y, DemoTown.pond.radius + 3, parkPath)
        pen.disc(DemoTown.pond.x, DemoTown.pond.y, DemoTown.pond.radius, water)

        // The square: lawn, a ring path round a fountain, paths to its corners.
        let q = DemoTown.square
        pen.rect(Rect(x: q.x0 + 10, y: q.y0 + 10, width: q.x1 - q.x0 - 20, height: q.y1 - q.y0 - 20), park)
        let cx = Double(q.x0 + q.x1) / 2, cy = Double(q.y0 + q.y1) / 2
        for k in 0...200 {
            let f = Double(k) / 200
            for (x0, y0) in [(q.x0 + 10, q.y0 + 10), (q.x1 - 10, q.y0 + 10), (q.x0 + 10, q.y1 - 10), (q.x1 - 10, q.y1 - 10)] {
                pen.disc(Double(x0) + (cx - Double(x0)) * f, Double(y0) + (cy - Double(y0)) * f, 2.5, parkPath)
            }
        }
        pen.disc(cx, cy, 30, parkPath)
        pen.disc(cx, cy, 25, park)
        pen.disc(cx, cy, 11, parkPath)
        pen.disc(cx, cy, 8, water)
    }

    /// Streets and avenues: every casing first, then every surface, so crossings join cleanly.
    /// Avenues stop at the river except the bridges; the park interrupts the avenue through it.
    static func drawStreets(_ pen: inout Pen) {
        for casing in [true, false] {
            for y in DemoTown.streets {
                let arterial = DemoTown.arterialStreets.contains(y)
                pen.road(Rect(x: 0, y: y, width: DemoTown.width, height: 0), arterial: arterial, casing: casing)
            }
            let north = DemoTown.northBank + 6, south = DemoTown.southBank - 6
            for x in DemoTown.avenues {
                let arterial = DemoTown.arterialAvenues.contains(x)
                let crosses = DemoTown.bridges.contains(x)
                var spans = crosses ? [(0, DemoTown.height)] : [(0, north), (south, DemoTown.height)]
                if x == DemoTown.parkAvenue {
                    spans = [(0, DemoTown.park.y0 + 6), (DemoTown.park.y1 - 6, north), (south, DemoTown.height)]
                }
                if x == DemoTown.tunnelAvenue {
                    spans = [(0, DemoTown.tunnelNorthPortal), (DemoTown.tunnelSouthPortal, DemoTown.height)]
                }
                for (y0, y1) in spans {
                    pen.road(Rect(x: x, y: y0, width: 0, height: y1 - y0), arterial: arterial, casing: casing)
                }
            }
        }
    }

    /// The bridges over the water (darker parapets), and the tunnel under it: a faint roadway
    /// between dashed walls, from portal to portal.
    static func drawCrossings(_ pen: inout Pen) {
        for x in DemoTown.bridges {
            let r = DemoTown.river(atX: Double(x))
            let y0 = Int(r.center - r.halfWidth) - 24, y1 = Int(r.center + r.halfWidth) + 24
            let wide = DemoTown.arterialAvenues.contains(x)
            let half = (wide ? DemoTown.arterialWidth : DemoTown.streetWidth) / 2
            pen.rect(Rect(x: x - half - 4, y: y0, width: 2 * half + 8, height: y1 - y0), bridgeCasing)
            pen.rect(Rect(x: x - half, y: y0 - 4, width: 2 * half, height: y1 - y0 + 8), wide ? arterial : street)
        }
        let x = DemoTown.tunnelAvenue, half = DemoTown.arterialWidth / 2
        let y0 = DemoTown.tunnelNorthPortal, y1 = DemoTown.tunnelSouthPortal
        pen.rect(Rect(x: x - half, y: y0, width: 2 * half, height: y1 - y0), Color(r: 0xFF, g: 0xFF, b: 0xFF, a: 110))
        for y in stride(from: y0, to: y1, by: 12) {
            let dash = Rect(x: 0, y: y, width: 2, height: min(7, y1 - y))
            pen.rect(Rect(x: x - half - 2, y: dash.y, width: 2, height: dash.height), bridgeCasing)
            pen.rect(Rect(x: x + half, y: dash.y, width: 2, height: dash.height), bridgeCasing)
        }
        // The portals: a dark mouth across the roadway at each end.
        pen.rect(Rect(x: x - half - 3, y: y0 - 3, width: 2 * half + 6, height: 6), bridgeCasing)
        pen.rect(Rect(x: x - half - 3, y: y1 - 3, width: 2 * half + 6, height: 6), bridgeCasing)
    }

    /// The bus line along the route (a white edge, then the colour) and its stops: white discs
    /// ringed in the line's colour, the terminal larger.
    static func drawLine(_ pen: inout Pen, _ town: DemoTown) {
        let route = town.route
        for (radius, colour) in [(5.0, Color.white), (3.0, line)] {
            var s = 0.0
            while s <= route.length {
                let p = route.point(at: s)
                pen.disc(p.x, p.y, radius, colour)
                s += 1
            }
        }
        for (stop, size) in [(DemoTown.stopA, 1.0), (DemoTown.stopB, 1.0), (DemoTown.terminal, 1.4)] {
            pen.disc(stop.x, stop.y, 9 * size, .white)
            pen.disc(stop.x, stop.y, 7.5 * size, line)
            pen.disc(stop.x, stop.y, 4.5 * size, .white)
        }
    }

    /// A small integer hash (no state: the same lot gets the same building everywhere).
    static func hash(_ a: Int, _ b: Int, _ c: Int) -> UInt32 {
        var h = UInt32(truncatingIfNeeded: a) &* 0x9E37_79B1 ^ UInt32(truncatingIfNeeded: b) &* 0x85EB_CA77
            ^ UInt32(truncatingIfNeeded: c) &* 0xC2B2_AE3D
        h ^= h >> 15
        h = h &* 0x2C1B_3C6D
        h ^= h >> 13
        return h
    }
}

/// Drawing onto the map: whole-pixel rectangles and anti-aliased discs.
struct Pen {
    let target: PixelBuffer
    let discs = DiscRasterizer()

    init(_ target: PixelBuffer) { self.target = target }

    func rect(_ r: Rect, _ c: Color) { target.fill(r, with: c) }

    func disc(_ x: Double, _ y: Double, _ radius: Double, _ c: Color) {
        discs.fill(Disc(centerX: x, centerY: y, radius: radius), SolidPaint(c), into: target, clip: target.bounds)
    }

    /// A street along `axis` (a zero-height rectangle for an east–west street through its centre
    /// line, zero-width for a north–south one): its casing 2 px wider on each side, or its surface.
    func road(_ axis: Rect, arterial: Bool, casing: Bool) {
        let half = (arterial ? DemoTown.arterialWidth : DemoTown.streetWidth) / 2 + (casing ? 2 : 0)
        let colour = casing ? (arterial ? DemoMap.arterialCasing : DemoMap.streetCasing) : (arterial ? DemoMap.arterial : DemoMap.street)
        if axis.height == 0 {
            rect(Rect(x: axis.x, y: axis.y - half, width: axis.width, height: 2 * half), colour)
        } else {
            rect(Rect(x: axis.x - half, y: axis.y, width: 2 * half, height: axis.height), colour)
        }
    }
}
