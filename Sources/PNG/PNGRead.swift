import Raster

/// Reading PNG files into what the renderer uses: alpha masks for `image`/`headingImage`, and
/// opaque XRGB8888 frames for maps.
public enum PNGRead {
    /// The alpha channel of a PNG, for a tinted sprite. A PNG without an alpha channel is refused:
    /// tinting it would paint a solid square, never what was meant.
    public static func alphaMask(path: String) throws(PNGError) -> AlphaMask {
        try alphaMask(decodeRGBA(.file(path)), name: path)
    }

    public static func alphaMask(bytes: [UInt8], name: String = "<memory>") throws(PNGError) -> AlphaMask {
        try alphaMask(decodeRGBA(.memory(bytes, name: name)), name: name)
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
    public static func rgba(path: String) throws(PNGError) -> RGBAImage { try decodeRGBA(.file(path)) }
    public static func rgba(bytes: [UInt8], name: String = "<memory>") throws(PNGError) -> RGBAImage {
        try decodeRGBA(.memory(bytes, name: name))
    }

    /// A PNG as an opaque XRGB8888 frame (a map). Transparent parts are composited onto
    /// `background` here, once, with the same rule as every other blend in PulseDot (8-bit sRGB
    /// values as they are, rounded): libpng's own compositing works in linear light and would give
    /// a different colour than the live renderer.
    public static func opaqueFrame(path: String, background: Color) throws(PNGError) -> OwnedPixelBuffer {
        opaqueFrame(try decodeRGBA(.file(path)), background: background)
    }

    public static func opaqueFrame(bytes: [UInt8], name: String = "<memory>", background: Color) throws(PNGError) -> OwnedPixelBuffer {
        opaqueFrame(try decodeRGBA(.memory(bytes, name: name)), background: background)
    }

    static func opaqueFrame(_ image: RGBAImage, background: Color) -> OwnedPixelBuffer {
        let frame = OwnedPixelBuffer(width: image.width, height: image.height, format: .xrgb8888)
        let buffer = frame.buffer
        image.rgba.withUnsafeBufferPointer { src in
            for y in 0..<image.height {
                let row = buffer.row(y).assumingMemoryBound(to: UInt8.self)
                for x in 0..<image.width {
                    let s = (y * image.width + x) * 4
                    let a = Int(src[s + 3])
                    // Little-endian XRGB8888: bytes B, G, R, X.
                    row[x * 4 + 0] = over(src[s + 2], background.b, a)
                    row[x * 4 + 1] = over(src[s + 1], background.g, a)
                    row[x * 4 + 2] = over(src[s + 0], background.r, a)
                    row[x * 4 + 3] = 0xFF
                }
            }
        }
        return frame
    }

    @inline(__always)
    private static func over(_ c: UInt8, _ bg: UInt8, _ a: Int) -> UInt8 {
        UInt8((Int(c) * a + Int(bg) * (255 - a) + 127) / 255)
    }
}
