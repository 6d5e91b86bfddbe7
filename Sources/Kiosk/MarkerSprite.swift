import Geo
import Raster
import Shaping

/// A vehicle's marker as a picture: a disc in its route's colour inside a white ring, a wedge
/// pointing along its bearing, and its short label in a pill beside it. Painted on the worker
/// (coverage from exact distances, text shaped); a frame only blends it.
public struct MarkerSprite {
    public static let radiusPoints = 9.0, ringPoints = 2.5, wedgePoints = 6.0, labelPoints = 14.0
    /// The faded picture's opacity, of 255, for a vehicle whose place is old.
    public static let fadedAlpha: UInt32 = 110

    public let picture: Overlay
    public let faded: Overlay
    /// The disc's centre inside the picture, pixels.
    public let anchorX: Int
    public let anchorY: Int

    public init(label: String, color: Color, textColor: Color, bearing: Double?, fonts: FontSet, scale: Double) throws(ShapingError) {
        let r = Self.radiusPoints * scale, ring = Self.ringPoints * scale, wedge = Self.wedgePoints * scale
        let reach = Int((r + ring + wedge).rounded(.up)) + 1
        let text = fonts.fitted(label, maxWidth: Int(80 * scale))
        let pad = Int((4 * scale).rounded())
        let pillWidth = text.map { $0.width + 2 * pad } ?? 0
        let width = 2 * reach + (pillWidth > 0 ? pillWidth + pad : 0), height = max(2 * reach, fonts.lineHeight + 2 * pad)
        let picture = Overlay(width: width, height: height)
        let cx = Double(reach), cy = Double(height) / 2
        // Bearing: degrees clockwise from north, so north is up (-y).
        let direction = bearing.map { (PortableMath.sin(PortableMath.radians($0)), -PortableMath.cos(PortableMath.radians($0))) }
        for y in 0..<height {
            for x in 0..<(2 * reach) {
                // 4×4 samples a pixel: edges soft, the wedge's corners too.
                var ringCover = 0, discCover = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        let px = Double(x) + (Double(sx) + 0.5) / 4 - cx, py = Double(y) + (Double(sy) + 0.5) / 4 - cy
                        let d = (px * px + py * py).squareRoot()
                        if d <= r { discCover += 1; continue }
                        if d <= r + ring { ringCover += 1; continue }
                        if let (dx, dy) = direction {
                            // A triangle from the ring out to its tip along the bearing.
                            let along = px * dx + py * dy, across = abs(px * -dy + py * dx)
                            if along > 0, along <= r + ring + wedge, across <= (r + ring + wedge - along) * 0.9, along >= r * 0.5 { ringCover += 1 }
                        }
                    }
                }
                if ringCover > 0 { picture.blend(x: x, y: y, .white, coverage: UInt8(ringCover * 255 / 16)) }
                if discCover > 0 { picture.blend(x: x, y: y, color, coverage: UInt8(discCover * 255 / 16)) }
            }
        }
        if let text {
            let pill = Rect(x: 2 * reach, y: (height - fonts.lineHeight - 2 * pad) / 2, width: pillWidth, height: fonts.lineHeight + 2 * pad)
            picture.fill(pill, with: .white)
            picture.fill(Rect(x: pill.x + 1, y: pill.y + 1, width: pill.width - 2, height: pill.height - 2), with: color)
            try fonts.draw(text, into: picture, x: pill.x + pad, baseline: pill.y + pad + fonts.ascender, color: textColor)
        }
        let faded = Overlay(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let p = picture.pixel(x: x, y: y)
                // Premultiplied: every channel scales alike.
                var out: UInt32 = 0
                for shift in stride(from: 0, through: 24, by: 8) {
                    out |= (((p >> UInt32(shift)) & 0xFF) * Self.fadedAlpha / 255) << UInt32(shift)
                }
                faded.setPixel(x: x, y: y, out)
            }
        }
        self.picture = picture
        self.faded = faded
        anchorX = reach
        anchorY = height / 2
    }
}
