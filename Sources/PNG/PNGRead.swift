import Raster

/// Reading PNG files into what the renderer uses: alpha masks for `image`/`headingImage`, and
/// opaque XRGB8888 frames for maps.
public enum PNGRead {
    /// The alpha channel of a PNG, for a tinted sprite. A PNG without an alpha channel is refused:
    /// tinting it would paint a solid square, never what was meant.
    public static func alphaMask(path: String) throws(PNGError) -> AlphaMask {
        try alphaMask(readPNG(.file(path)) { (png) throws(PNGError) in try png.rgba() }, name: path)
    }

    public static func alphaMask(bytes: [UInt8], name: String = "<memory>") throws(PNGError) -> AlphaMask {
        try alphaMask(readPNG(bytes, name: name) { (png) throws(PNGError) in try png.rgba() }, name: name)
    }

    private static func alphaMask(_ image: RGBAImage, name: String) throws(PNGError) -> AlphaMask {
        guard image.fileHasAlpha else {
            throw PNGError(file: name, problem: "has no alpha channel; the image must be a PNG with transparency (its alpha is the shape, tinted with annotationColor)")
        }
        var alpha = [UInt8](repeating: 0, count: image.width * image.height)
        for i in 0..<alpha.count { alpha[i] = image.rgba[i * 4 + 3] }
        return AlphaMask(width: image.width, height: image.height, alpha: alpha)
    }

    /// Any PNG as straight-alpha 8-bit sRGB RGBA.
    public static func rgba(path: String) throws(PNGError) -> RGBAImage {
        try readPNG(.file(path)) { (png) throws(PNGError) in try png.rgba() }
    }
    public static func rgba(bytes: [UInt8], name: String = "<memory>") throws(PNGError) -> RGBAImage {
        try readPNG(bytes, name: name) { (png) throws(PNGError) in try png.rgba() }
    }

    /// A PNG as an opaque XRGB8888 frame (a map). Transparent parts are composited onto
    /// `background` here, once, with the same rule as every other blend in PulseDot (8-bit sRGB
    /// values as they are, rounded): libpng's own compositing works in linear light and would give
    /// a different colour than the live renderer.
    public static func opaqueFrame(path: String, background: Color) throws(PNGError) -> OwnedPixelBuffer {
        try readPNG(.file(path)) { (png) throws(PNGError) in try ownFrame(png, background: background) }
    }

    public static func opaqueFrame(bytes: [UInt8], name: String = "<memory>", background: Color) throws(PNGError) -> OwnedPixelBuffer {
        try readPNG(bytes, name: name) { (png) throws(PNGError) in try ownFrame(png, background: background) }
    }

    /// The same into a slot the caller owns (a map tile's), with nothing allocated on PulseDot's
    /// side. `slot` is asked for the place of a `width` x `height` image once the header is read:
    /// an XRGB8888 buffer of exactly that size, or nil to decode nothing (a size the caller
    /// cannot take). Returns the size in the header either way. `bytes` are read until the call
    /// returns; after an error the slot is partly written.
    @discardableResult
    public static func opaqueFrame(bytes: UnsafeRawBufferPointer, name: String = "<memory>", background: Color,
                                   into slot: (_ width: Int, _ height: Int) -> PixelBuffer?) throws(PNGError) -> (width: Int, height: Int) {
        try readPNG(.bytes(bytes, name: name)) { (png) throws(PNGError) in
            if let place = slot(png.width, png.height) { try png.opaqueFrame(into: place, background: background) }
            return (png.width, png.height)
        }
    }

    private static func ownFrame(_ png: PNGHeader, background: Color) throws(PNGError) -> OwnedPixelBuffer {
        let frame = OwnedPixelBuffer(width: png.width, height: png.height, format: .xrgb8888)
        try png.opaqueFrame(into: frame.buffer, background: background)
        return frame
    }
}

/// Makes B, G, R, A pixels (straight alpha) opaque XRGB8888 in place: each one composited onto
/// `background`, X set to 0xFF.
func composeOpaque(_ buffer: PixelBuffer, background: Color) {
    for y in 0..<buffer.height {
        let row = buffer.row(y).assumingMemoryBound(to: UInt8.self)
        for x in 0..<buffer.width {
            let p = row + x * 4
            let a = Int(p[3])
            // Exactly what `over` gives at these two ends, without the divisions.
            if a == 255 { continue }
            if a == 0 {
                p[0] = background.b; p[1] = background.g; p[2] = background.r; p[3] = 0xFF
                continue
            }
            p[0] = over(p[0], background.b, a)
            p[1] = over(p[1], background.g, a)
            p[2] = over(p[2], background.r, a)
            p[3] = 0xFF
        }
    }
}

@inline(__always)
private func over(_ c: UInt8, _ bg: UInt8, _ a: Int) -> UInt8 {
    UInt8((Int(c) * a + Int(bg) * (255 - a) + 127) / 255)
}
