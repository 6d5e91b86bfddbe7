/// The two pixel layouts PulseDot paints and scans out.
/// Its name in messages is its raw value: Embedded Swift has no reflection to print a case by
/// its name, and says "(cannot print value in embedded Swift)" instead.
public enum PixelFormat: String, Equatable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// 32 bits per pixel, little-endian B, G, R, X bytes in memory (DRM_FORMAT_XRGB8888).
    case xrgb8888
    /// 16 bits per pixel, little-endian, red in bits 11-15, green 5-10, blue 0-4 (DRM_FORMAT_RGB565).
    case rgb565

    public var description: String { rawValue }

    public var bytesPerPixel: Int {
        switch self {
        case .xrgb8888: return 4
        case .rgb565: return 2
        }
    }
}

/// A view of pixels someone else owns (a heap frame, a dumb buffer mapping, an fbdev mapping):
/// `height` rows of `stride` bytes, each row starting with `width` pixels of `format`.
/// It never allocates and never frees.
public struct PixelBuffer: @unchecked Sendable {
    public let base: UnsafeMutableRawPointer
    public let width: Int
    public let height: Int
    /// Bytes from the start of one row to the start of the next (≥ width × bytesPerPixel).
    public let stride: Int
    public let format: PixelFormat

    public init(base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, format: PixelFormat) {
        precondition(width >= 0 && height >= 0 && stride >= width * format.bytesPerPixel,
                     "pixel buffer \(width)x\(height) \(format) does not fit a stride of \(stride) bytes")
        self.base = base; self.width = width; self.height = height; self.stride = stride; self.format = format
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// Start of row `y`.
    @inline(__always)
    public func row(_ y: Int) -> UnsafeMutableRawPointer { base + y * stride }
}

/// A frame in RAM that owns its pixels: the canvas everything is drawn into, a decoded map,
/// a rendered PNG. Allocated once; drawing into it never allocates.
public final class OwnedPixelBuffer: @unchecked Sendable {
    public let buffer: PixelBuffer

    public init(width: Int, height: Int, format: PixelFormat) {
        let stride = width * format.bytesPerPixel
        let bytes = max(1, stride * height)
        let base = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        buffer = PixelBuffer(base: base, width: width, height: height, stride: stride, format: format)
    }

    deinit { buffer.base.deallocate() }

    public var bytes: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: buffer.base, count: buffer.stride * buffer.height)
    }
}
