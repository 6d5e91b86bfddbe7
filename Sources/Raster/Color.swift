/// An 8-bit sRGB colour with straight (not premultiplied) alpha, as configuration writes it.
/// Blending happens on the 8-bit values as they are (no linearisation), like Core Graphics.
public struct Color: Equatable, Hashable, Sendable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    public static let white = Color(r: 255, g: 255, b: 255)
    public static let black = Color(r: 0, g: 0, b: 0)
}
