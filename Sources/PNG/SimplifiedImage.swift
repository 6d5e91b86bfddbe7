import CPNG

// The libpng simplified API (`png_image_*`): it reports errors through the struct instead of
// longjmp, which Swift cannot survive. Everything here is 8-bit sRGB; 16-bit files are reduced to
// 8 bits on read (treated as sRGB, not as the API's default linear light).

// The format bits, spelled out: Swift does not import png.h's composite macros reliably.
let formatFlagAlpha: UInt32 = 0x01
let formatFlagColor: UInt32 = 0x02
let formatFlagLinear: UInt32 = 0x04
let formatRGB: UInt32 = formatFlagColor
let formatRGBA: UInt32 = formatFlagColor | formatFlagAlpha
let formatFlagBGR: UInt32 = 0x10
let formatBGRA: UInt32 = formatRGBA | formatFlagBGR
let flag16BitSRGB: UInt32 = 0x04

/// Where a PNG comes from: a file by path, or bytes in memory (named for messages).
enum PNGSource {
    case file(String)
    case bytes(UnsafeRawBufferPointer, name: String)

    var name: String {
        switch self {
        case .file(let path): return path
        case .bytes(_, let name): return name
        }
    }
}

/// A decoded image as straight-alpha 8-bit sRGB RGBA bytes, rows top-down, no padding.
public struct RGBAImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public let rgba: [UInt8]
    /// Whether the file itself has an alpha channel (an alpha-less file decodes with alpha 255).
    public let fileHasAlpha: Bool

    public init(width: Int, height: Int, rgba: [UInt8], fileHasAlpha: Bool = true) {
        precondition(rgba.count == width * height * 4, "RGBA image \(width)x\(height) needs \(width * height * 4) bytes")
        self.width = width; self.height = height; self.rgba = rgba; self.fileHasAlpha = fileHasAlpha
    }
}

/// The largest image PulseDot decodes: 2^28 pixels (1 GiB as XRGB8888), so a corrupt or hostile
/// header cannot ask for an absurd allocation.
public let maximumPNGPixels = 1 << 28

func message(of image: png_image) -> String {
    var copy = image.message
    return withUnsafeBytes(of: &copy) { raw in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}

func newImage() -> png_image {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    return image
}

func readProblem(_ libpngMessage: String, source: PNGSource) -> String {
    // For a file libpng reports fopen's strerror text alone ("No such file or directory"); otherwise a
    // description of what in the data is wrong.
    if case .file = source, libpngMessage.hasPrefix("No such file") {
        return "no such file (a PNG image is expected here)"
    }
    return "not a readable PNG (\(libpngMessage))"
}

/// Encodes 8-bit sRGB rows (3 or 4 channels) to PNG, in memory or to a file.
func encode(width: Int, height: Int, channels: Int, bytes: [UInt8], to path: String?) throws(PNGError) -> [UInt8] {
    let name = path ?? "<memory>"
    guard width > 0, height > 0, bytes.count == width * height * channels else {
        throw PNGError(file: name, problem: "cannot encode an image of \(width)x\(height) pixels from \(bytes.count) bytes")
    }
    var image = newImage()
    image.width = UInt32(width)
    image.height = UInt32(height)
    image.format = channels == 4 ? formatRGBA : formatRGB
    let stride = Int32(width * channels)
    if let path {
        let ok = bytes.withUnsafeBytes { png_image_write_to_file(&image, path, 0, $0.baseAddress, stride, nil) }
        guard ok != 0 else {
            let why = message(of: image)
            png_image_free(&image)
            throw PNGError(file: path, problem: "cannot write PNG (\(why))")
        }
        return []
    }
    var size = 0
    _ = bytes.withUnsafeBytes { png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, stride, nil) }
    guard size > 0 else {
        let why = message(of: image)
        png_image_free(&image)
        throw PNGError(file: name, problem: "cannot encode PNG (\(why))")
    }
    var out = [UInt8](repeating: 0, count: size)
    var written = size
    let ok = out.withUnsafeMutableBytes { dst in
        bytes.withUnsafeBytes { png_image_write_to_memory(&image, dst.baseAddress, &written, 0, $0.baseAddress, stride, nil) }
    }
    guard ok != 0 else {
        let why = message(of: image)
        png_image_free(&image)
        throw PNGError(file: name, problem: "cannot encode PNG (\(why))")
    }
    return Array(out.prefix(written))
}
