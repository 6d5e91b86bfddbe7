import Raster

/// How a framebuffer's pixels are laid out, decoded from its bitfields. PulseDot draws XRGB8888
/// and converts on copy-out: to XRGB8888 and RGB565 through Raster's copy-out, and to the red/blue
/// swapped variants (and an alpha byte forced opaque) through `FramebufferLayout.copy`.
public struct FramebufferLayout: Equatable, Sendable, CustomStringConvertible {
    /// The container: 32 bits (xrgb8888) or 16 bits (rgb565) a pixel.
    public let container: PixelFormat
    /// Red in the low bits, blue in the high bits (XBGR8888, BGR565).
    public let swapsRedAndBlue: Bool
    /// The top byte is alpha (transp 8@24): written 0xFF, so the display never sees a
    /// transparent pixel.
    public let hasAlpha: Bool

    public init(container: PixelFormat, swapsRedAndBlue: Bool = false, hasAlpha: Bool = false) {
        self.container = container; self.swapsRedAndBlue = swapsRedAndBlue; self.hasAlpha = hasAlpha
    }

    public static let xrgb8888 = FramebufferLayout(container: .xrgb8888)
    public static let argb8888 = FramebufferLayout(container: .xrgb8888, hasAlpha: true)
    public static let xbgr8888 = FramebufferLayout(container: .xrgb8888, swapsRedAndBlue: true)
    public static let abgr8888 = FramebufferLayout(container: .xrgb8888, swapsRedAndBlue: true, hasAlpha: true)
    public static let rgb565 = FramebufferLayout(container: .rgb565)
    public static let bgr565 = FramebufferLayout(container: .rgb565, swapsRedAndBlue: true)

    public var bytesPerPixel: Int { container.bytesPerPixel }

    /// Whether Raster's copy-out writes this layout as it is.
    public var isNative: Bool { !swapsRedAndBlue && !hasAlpha }

    /// "XRGB8888", "BGR565": DRM's names, most significant channel first.
    public var description: String {
        switch (container, swapsRedAndBlue) {
        case (.xrgb8888, false): return hasAlpha ? "ARGB8888" : "XRGB8888"
        case (.xrgb8888, true): return hasAlpha ? "ABGR8888" : "XBGR8888"
        case (.rgb565, false): return "RGB565"
        case (.rgb565, true): return "BGR565"
        }
    }

    /// The layout of a framebuffer, or why PulseDot cannot write it: a line naming what the driver
    /// reports (bits per pixel and every bitfield), for `FBDevError.unsupportedLayout`.
    public static func decode(_ v: VariableScreenInfo, _ f: FixedScreenInfo) -> Result<FramebufferLayout, LayoutRejection> {
        func reject(_ why: String) -> Result<FramebufferLayout, LayoutRejection> {
            .failure(LayoutRejection(layout: "\(describe(v)) (\(why))"))
        }
        guard f.type == FixedScreenInfo.typePackedPixels else { return reject("not packed pixels: type \(f.type)") }
        guard f.visual == FixedScreenInfo.visualTrueColor else {
            return reject(f.visual == 3 ? "a palette (pseudocolor)" : "visual \(f.visual), not truecolor")
        }
        guard v.grayscale == 0 else { return reject("greyscale") }
        guard v.nonstd == 0 else { return reject("non-standard format \(v.nonstd)") }
        guard ![v.red, v.green, v.blue, v.transp].contains(where: { $0.msbRight }) else { return reject("bits in reverse order") }
        let rgb = (v.red, v.green, v.blue)
        switch v.bitsPerPixel {
        case 32:
            let alpha: Bool
            if v.transp.length == 0 { alpha = false }
            else if v.transp == Bitfield(offset: 24, length: 8) { alpha = true }
            else { return reject("alpha \(v.transp)") }
            if rgb == (Bitfield(offset: 16, length: 8), Bitfield(offset: 8, length: 8), Bitfield(offset: 0, length: 8)) {
                return .success(alpha ? .argb8888 : .xrgb8888)
            }
            if rgb == (Bitfield(offset: 0, length: 8), Bitfield(offset: 8, length: 8), Bitfield(offset: 16, length: 8)) {
                return .success(alpha ? .abgr8888 : .xbgr8888)
            }
            return reject("channels not in 8-bit bytes")
        case 16:
            guard v.transp.length == 0 else { return reject("alpha \(v.transp), e.g. ARGB1555") }
            if rgb == (Bitfield(offset: 11, length: 5), Bitfield(offset: 5, length: 6), Bitfield(offset: 0, length: 5)) {
                return .success(.rgb565)
            }
            if rgb == (Bitfield(offset: 0, length: 5), Bitfield(offset: 5, length: 6), Bitfield(offset: 11, length: 5)) {
                return .success(.bgr565)
            }
            return reject(v.green.length == 5 ? "15-bit colour, e.g. RGB555" : "not 5-6-5")
        default:
            return reject("\(v.bitsPerPixel) bits per pixel")
        }
    }

    /// "16 bpp, red 5@11 green 6@5 blue 5@0": what the driver reports, as `fbset -i` would.
    public static func describe(_ v: VariableScreenInfo) -> String {
        var text = "\(v.bitsPerPixel) bpp, red \(v.red) green \(v.green) blue \(v.blue)"
        if v.transp.length > 0 { text += " transp \(v.transp)" }
        return text
    }
}

/// Why a layout is not written: the driver's layout and the reason, in one phrase.
public struct LayoutRejection: Error, Equatable, Sendable {
    public let layout: String
}
