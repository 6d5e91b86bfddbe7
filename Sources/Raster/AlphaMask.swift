/// An 8-bit coverage mask (0 = transparent, 255 = opaque): a decoded `image`/`headingImage` alpha
/// channel, or a shape rendered once and reused. Owned, immutable after creation.
public struct AlphaMask: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public let alpha: [UInt8]

    public init(width: Int, height: Int, alpha: [UInt8]) {
        precondition(width >= 0 && height >= 0 && alpha.count == width * height,
                     "alpha mask \(width)x\(height) needs \(width * height) bytes, got \(alpha.count)")
        self.width = width; self.height = height; self.alpha = alpha
    }
}
