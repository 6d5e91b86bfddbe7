/// What a framebuffer driver says about itself, in the terms PulseDot uses: the parts of
/// `struct fb_var_screeninfo` and `struct fb_fix_screeninfo` that decide how pixels are laid out
/// and whether panning can double-buffer. Plain values, so the in-memory device of the tests and
/// the real one speak the same language.

/// Where one colour channel sits in a pixel (`struct fb_bitfield`).
public struct Bitfield: Equatable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var length: Int
    /// Nonzero: the most significant bit is on the right (no driver PulseDot targets does this).
    public var msbRight: Bool

    public init(offset: Int, length: Int, msbRight: Bool = false) {
        self.offset = offset; self.length = length; self.msbRight = msbRight
    }

    /// "8@16": length at offset, as `fbset -i` prints them.
    public var description: String { "\(length)@\(offset)" + (msbRight ? " (msb right)" : "") }
}

/// The variable screen information: the visible and virtual resolution, the pan offset and the
/// pixel layout.
public struct VariableScreenInfo: Equatable, Sendable {
    public var xres: Int
    public var yres: Int
    public var xresVirtual: Int
    public var yresVirtual: Int
    public var xoffset: Int
    public var yoffset: Int
    public var bitsPerPixel: Int
    /// Nonzero: grey levels (or a FOURCC in newer drivers), not RGB.
    public var grayscale: Int
    public var red: Bitfield
    public var green: Bitfield
    public var blue: Bitfield
    public var transp: Bitfield
    /// Nonzero: a non-standard pixel format.
    public var nonstd: Int

    public init(xres: Int, yres: Int, xresVirtual: Int? = nil, yresVirtual: Int? = nil, xoffset: Int = 0, yoffset: Int = 0,
                bitsPerPixel: Int, grayscale: Int = 0, red: Bitfield, green: Bitfield, blue: Bitfield,
                transp: Bitfield = Bitfield(offset: 0, length: 0), nonstd: Int = 0) {
        self.xres = xres; self.yres = yres
        self.xresVirtual = xresVirtual ?? xres; self.yresVirtual = yresVirtual ?? yres
        self.xoffset = xoffset; self.yoffset = yoffset
        self.bitsPerPixel = bitsPerPixel; self.grayscale = grayscale
        self.red = red; self.green = green; self.blue = blue; self.transp = transp; self.nonstd = nonstd
    }
}

/// The fixed screen information: what the memory is and how rows are spaced.
public struct FixedScreenInfo: Equatable, Sendable {
    /// FB_TYPE_PACKED_PIXELS is the only type PulseDot writes.
    public static let typePackedPixels = 0
    /// FB_VISUAL_TRUECOLOR: pixel values are colours, no palette.
    public static let visualTrueColor = 2

    /// The driver's identification ("bochs-drmdrmfb", "cirrusdrmfb", "fb_ili9341").
    public var id: String

    /// A DRM driver's fbdev emulation ("…drmfb"): drawing there shows nothing that KMS on the same
    /// card could not, so it is never the fallback for a card that cannot be driven.
    public var isDRMEmulation: Bool { id.hasSuffix("drmfb") }

    /// Bytes of framebuffer memory that can be mapped.
    public var memoryLength: Int
    public var type: Int
    public var visual: Int
    /// Pan steps in pixels/lines; 0: the driver cannot pan in that direction.
    public var xpanstep: Int
    public var ypanstep: Int
    public var ywrapstep: Int
    /// Bytes from one row to the next (the stride), often more than xres × bytes per pixel.
    public var lineLength: Int

    public init(id: String, memoryLength: Int, type: Int = FixedScreenInfo.typePackedPixels,
                visual: Int = FixedScreenInfo.visualTrueColor, xpanstep: Int = 0, ypanstep: Int = 1,
                ywrapstep: Int = 0, lineLength: Int) {
        self.id = id; self.memoryLength = memoryLength; self.type = type; self.visual = visual
        self.xpanstep = xpanstep; self.ypanstep = ypanstep; self.ywrapstep = ywrapstep; self.lineLength = lineLength
    }
}
