import PNG

/// The demo's `headingImage`: a beam like MapKit's course fan, drawn in code — the dot's colour
/// fading from 0.4 opacity at the ring (11 pt out; nearer, the dot hides it) to nothing 48 pt out,
/// 28° either side of straight up (the course), with soft sides. The daemon tints it, turns it to the course and hides it below
/// `headingMinSpeed`, so the moving bus shows which way it goes and a standing one does not.
enum DemoBeam {
    static let size = 96
    static let halfAngle = 28.0
    static let softness = 8.0
    static let ring = 11.0

    static func image() -> RGBAImage {
        var rgba = [UInt8](repeating: 255, count: size * size * 4)
        let c = Double(size) / 2, radius = Double(size) / 2
        for y in 0..<size {
            for x in 0..<size {
                let dx = Double(x) + 0.5 - c, up = c - (Double(y) + 0.5)
                let r = (dx * dx + up * up).squareRoot()
                let off = abs(Polyline.atan2Degrees(dx, up))
                let side = min(max((halfAngle + softness / 2 - off) / softness, 0), 1)
                let fade = min(max((radius - r) / (radius - ring), 0), 1)
                rgba[(y * size + x) * 4 + 3] = UInt8((102 * side * fade).rounded())
            }
        }
        return RGBAImage(width: size, height: size, rgba: rgba)
    }
}
