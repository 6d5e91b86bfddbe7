import Foundation
import PNG

/// Finding the dot in a screendump by colour: the inner dot is `annotationColor` drawn at the
/// breath's opacity (0.8…1) over the white ring, and its edge pixels blend further toward white.
/// A pixel counts when it lies near that colour line from the full colour to 30 % white; the map
/// holds no such colours (FieldTrialRoute), the halo and the accuracy disc are much paler.
struct DotColor: CustomStringConvertible {
    let r: Int, g: Int, b: Int
    let name: String
    let whiteShare: Double
    let tolerance: Int

    init(hex: String, name: String, whiteShare: Double = 0.3, tolerance: Int = 14) {
        let v = Int(hex.dropFirst(), radix: 16)!
        r = (v >> 16) & 255; g = (v >> 8) & 255; b = v & 255
        self.name = name
        self.whiteShare = whiteShare
        self.tolerance = tolerance
    }

    var description: String { "\(name) \(String(format: "#%02X%02X%02X", r, g, b))" }

    static let blue = DotColor(hex: "#007AFF", name: "annotationColor")
    static let red = DotColor(hex: "#FF3B30", name: "reloaded annotationColor")
    /// Stale, the dot is opaque (no breath), and a grey is easy to meet: a narrower match.
    static let stale = DotColor(hex: "#8E8E93", name: "staleColor", whiteShare: 0.15, tolerance: 8)

    /// Whether (pr, pg, pb) is this colour mixed with at most `whiteShare` white, within
    /// `tolerance` on every channel.
    func matches(_ pr: Int, _ pg: Int, _ pb: Int) -> Bool {
        // The share of white that best explains the pixel, along the channel that moves most.
        let dr = 255 - r, dg = 255 - g, db = 255 - b
        let span = max(dr, dg, db)
        var t = 0.0
        if span > 0 {
            t = dr == span ? Double(pr - r) / Double(dr) : dg == span ? Double(pg - g) / Double(dg) : Double(pb - b) / Double(db)
            t = min(max(t, 0), whiteShare)
        }
        let er = Double(r) + Double(dr) * t, eg = Double(g) + Double(dg) * t, eb = Double(b) + Double(db) * t
        let tol = Double(tolerance)
        return abs(Double(pr) - er) <= tol && abs(Double(pg) - eg) <= tol && abs(Double(pb) - eb) <= tol
    }
}

struct DotSighting: CustomStringConvertible {
    let x: Double
    let y: Double
    /// Pixels of the inner dot's colour: its area, which the breath and the entrance pop change.
    let count: Int

    var description: String { String(format: "(%.1f, %.1f) %d px", x, y, count) }

    func distance(to p: (x: Double, y: Double)) -> Double { hypot(x - p.x, y - p.y) }
}

extension RGBAImage {
    /// The centroid of the pixels of `color` within `radius` of `near` (the whole screen when nil);
    /// nil when fewer than `minimum` such pixels are there.
    func findDot(_ color: DotColor, near: (x: Double, y: Double)? = nil, radius: Double = 90,
                 minimum: Int = 12) -> DotSighting? {
        var x0 = 0, y0 = 0, x1 = width, y1 = height
        if let near {
            x0 = max(0, Int(near.x - radius)); y0 = max(0, Int(near.y - radius))
            x1 = min(width, Int(near.x + radius) + 1); y1 = min(height, Int(near.y + radius) + 1)
        }
        guard x0 < x1, y0 < y1 else { return nil }
        var sx = 0.0, sy = 0.0, n = 0
        rgba.withUnsafeBufferPointer { px in
            for y in y0..<y1 {
                var i = (y * width + x0) * 4
                for x in x0..<x1 {
                    if color.matches(Int(px[i]), Int(px[i + 1]), Int(px[i + 2])) {
                        sx += Double(x) + 0.5; sy += Double(y) + 0.5; n += 1
                    }
                    i += 4
                }
            }
        }
        return n < minimum ? nil : DotSighting(x: sx / Double(n), y: sy / Double(n), count: n)
    }

    /// The area of the ring's disc around `near`: white pixels (the opaque ring) and pixels of the
    /// inner dot's colour. The breath only changes the inner dot, which covers the ring's middle,
    /// so this stays constant — except during the entrance pop, which scales the whole view.
    func discArea(_ color: DotColor, near: (x: Double, y: Double), radius: Double = 90) -> Int {
        let x0 = max(0, Int(near.x - radius)), y0 = max(0, Int(near.y - radius))
        let x1 = min(width, Int(near.x + radius) + 1), y1 = min(height, Int(near.y + radius) + 1)
        guard x0 < x1, y0 < y1 else { return 0 }
        var n = 0
        rgba.withUnsafeBufferPointer { px in
            for y in y0..<y1 {
                var i = (y * width + x0) * 4
                for _ in x0..<x1 {
                    let r = px[i], g = px[i + 1], b = px[i + 2]
                    if (r >= 250 && g >= 250 && b >= 250) || color.matches(Int(r), Int(g), Int(b)) { n += 1 }
                    i += 4
                }
            }
        }
        return n
    }

    /// The share of pixels exactly equal to (r, g, b): how much of the screen still shows the map.
    func share(of r: UInt8, _ g: UInt8, _ b: UInt8) -> Double {
        var n = 0
        rgba.withUnsafeBufferPointer { px in
            var i = 0
            while i < px.count {
                if px[i] == r && px[i + 1] == g && px[i + 2] == b { n += 1 }
                i += 4
            }
        }
        return Double(n) / Double(width * height)
    }
}

/// The route as the daemon can draw it: the polyline through the fixes fed, on the screen. The
/// dot glides along straight segments between fixes, so it must lie on this polyline (not on
/// the streets' corners, which it cuts).
struct ScreenPolyline {
    let points: [(x: Double, y: Double)]

    /// The distance from `p` to the polyline and how far along it the nearest point lies (pixels).
    func nearest(_ p: (x: Double, y: Double)) -> (distance: Double, along: Double) {
        guard points.count > 1 else {
            return points.first.map { (hypot(p.x - $0.x, p.y - $0.y), 0) } ?? (.infinity, 0)
        }
        var best = (distance: Double.infinity, along: 0.0)
        var walked = 0.0
        for i in 1..<points.count {
            let a = points[i - 1], b = points[i]
            let dx = b.x - a.x, dy = b.y - a.y
            let length2 = dx * dx + dy * dy
            let t = length2 > 0 ? min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / length2, 0), 1) : 0
            let d = hypot(p.x - (a.x + dx * t), p.y - (a.y + dy * t))
            let length = length2.squareRoot()
            if d < best.distance - 1e-9 { best = (d, walked + t * length) }
            walked += length
        }
        return best
    }
}
