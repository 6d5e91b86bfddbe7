import Raster

/// What the output tests of every kind (KMS, fbdev) read back: a canvas pixel, and where a turned
/// panel shows it. kms.md's convention, written out independently of Raster's own mapping so the
/// tests hold that mapping to the documented one.
public protocol PanelScene {}

extension PanelScene {
    public static func logical(_ canvas: PixelBuffer, _ x: Int, _ y: Int) -> UInt32 {
        canvas.row(y).load(fromByteOffset: x * 4, as: UInt32.self)
    }

    /// With 90°, logical (x, y) on an H×W canvas lands on physical (W−1−y, x) of the W×H panel.
    public static func physical(_ rotation: Rotation, x: Int, y: Int, panelWidth w: Int, panelHeight h: Int) -> (Int, Int) {
        switch rotation {
        case .r0: return (x, y)
        case .r90: return (w - 1 - y, x)
        case .r180: return (w - 1 - x, h - 1 - y)
        case .r270: return (y, h - 1 - x)
        }
    }
}
