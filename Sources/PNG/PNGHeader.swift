import CPNG
import Raster

/// A PNG whose header libpng has read and whose pixels it has not, seen from inside `readPNG`:
/// the size is known before the pixels need a place, so they can go straight where they are used
/// (a map frame allocated to fit, a map tile's slot that must match) with no copy in between.
struct PNGHeader {
    let image: UnsafeMutablePointer<png_image>
    let name: String
    let width: Int
    let height: Int
    /// Whether the file itself has an alpha channel (palette transparency counts).
    let hasAlpha: Bool

    /// The pixels as straight-alpha 8-bit sRGB RGBA.
    func rgba() throws(PNGError) -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        // withUnsafeMutableBytes rethrows untyped: the error comes out as a value.
        let decoded = pixels.withUnsafeMutableBytes { out in
            Result { () throws(PNGError) in try finish(format: formatRGBA, into: out.baseAddress!, rowStride: width * 4) }
        }
        try decoded.get()
        return RGBAImage(width: width, height: height, rgba: pixels, fileHasAlpha: hasAlpha)
    }

    /// The pixels in `slot` (XRGB8888, exactly this size) made opaque by `composeOpaque`. libpng
    /// writes B, G, R, A straight into the slot's rows, XRGB8888's byte order with alpha where X
    /// goes, so nothing is allocated on the way. After an error the slot is partly written.
    func opaqueFrame(into slot: PixelBuffer, background: Color) throws(PNGError) {
        precondition(slot.format == .xrgb8888 && slot.width == width && slot.height == height,
                     "\(name): a \(width)x\(height) PNG cannot be decoded into a \(slot.width)x\(slot.height) \(slot.format) slot")
        try finish(format: formatBGRA, into: slot.base, rowStride: slot.stride)
        composeOpaque(slot, background: background)
    }

    private func finish(format: UInt32, into pixels: UnsafeMutableRawPointer, rowStride: Int) throws(PNGError) {
        image.pointee.format = format
        // The stride is counted in components, which are bytes in these 8-bit formats.
        guard png_image_finish_read(image, nil, pixels, Int32(rowStride), nil) != 0 else {
            throw PNGError(file: name, problem: "cannot decode PNG (\(message(of: image.pointee)))")
        }
    }
}

/// Reads a PNG's header and hands it to `body`, which may decode the pixels once; libpng's state
/// is freed afterwards either way. The png_image stays at one address from the header to the
/// pixels: libpng keeps a pointer to it from the start (its error handler finds the image through
/// it), so the struct must not be copied in between. Bytes in memory must stay valid as long.
func readPNG<R>(_ source: PNGSource, _ body: (PNGHeader) throws(PNGError) -> R) throws(PNGError) -> R {
    var image = newImage()
    return try withUnsafeMutablePointer(to: &image) { (image: UnsafeMutablePointer<png_image>) throws(PNGError) -> R in
        defer { png_image_free(image) } // a no-op once finish_read has freed the state itself
        let began: Int32
        switch source {
        case .file(let path): began = png_image_begin_read_from_file(image, path)
        case .bytes(let bytes, _): began = png_image_begin_read_from_memory(image, bytes.baseAddress, bytes.count)
        }
        guard began != 0 else {
            throw PNGError(file: source.name, problem: readProblem(message(of: image.pointee), source: source))
        }
        let width = Int(image.pointee.width), height = Int(image.pointee.height)
        guard width > 0, height > 0, width * height <= maximumPNGPixels else {
            throw PNGError(file: source.name, problem: "image of \(width)x\(height) pixels is larger than the \(maximumPNGPixels) pixels PulseDot decodes")
        }
        let hasAlpha = image.pointee.format & formatFlagAlpha != 0
        // A 16-bit file is taken as sRGB like every other, not as the API's default linear light.
        if image.pointee.format & formatFlagLinear != 0 { image.pointee.flags |= flag16BitSRGB }
        return try body(PNGHeader(image: image, name: source.name, width: width, height: height, hasAlpha: hasAlpha))
    }
}

func readPNG<R>(_ bytes: [UInt8], name: String, _ body: (PNGHeader) throws(PNGError) -> R) throws(PNGError) -> R {
    // withUnsafeBytes rethrows untyped: the error comes out as a value.
    try bytes.withUnsafeBytes { raw in
        Result { () throws(PNGError) in try readPNG(.bytes(raw, name: name), body) }
    }.get()
}
