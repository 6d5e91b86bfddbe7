import Raster

/// How a display copies its canvas into scan-out memory when the one who draws the canvas can do
/// it more cheaply than narrowing every pixel: a renderer over a map knows which pixels still
/// show the map and takes those from a copy of the map already in the panel's format. The bytes
/// written must be exactly those of `PixelBuffer.copyOut`; only the work differs.
public struct CanvasCopier {
    /// Copies logical `region` of the canvas into `target` (the panel, in its scan-out format)
    /// turned by `rotation`, and returns the panel rectangle written.
    public let copy: (_ region: Rect, _ target: PixelBuffer, _ rotation: Rotation) -> Rect

    public init(copy: @escaping (_ region: Rect, _ target: PixelBuffer, _ rotation: Rotation) -> Rect) {
        self.copy = copy
    }
}
