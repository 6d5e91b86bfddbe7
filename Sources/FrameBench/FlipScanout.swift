import Compositor
import Raster

/// Two scan-out buffers written alternately, as a flipping KMS output writes them: each frame
/// copies out its own damage and the previous frame's (which the other buffer has not seen yet),
/// through the renderer's copy-out, the one the outputs route their copies through. Written,
/// never read but to hash what a frame shows.
public final class FlipScanout {
    public let buffers: [OwnedPixelBuffer]
    public let rotation: Rotation
    private var damage: Damage

    /// Buffers for a `width`×`height` logical canvas, the panel turned by `rotation`.
    public init(width: Int, height: Int, format: PixelFormat, rotation: Rotation = .r0) {
        let panel = rotation.physicalSize(logicalWidth: width, logicalHeight: height)
        var buffers: [OwnedPixelBuffer] = []
        for _ in 0..<2 { buffers.append(OwnedPixelBuffer(width: panel.width, height: panel.height, format: format)) }
        self.buffers = buffers
        self.rotation = rotation
        damage = Damage(bounds: Rect(x: 0, y: 0, width: width, height: height))
    }

    /// Frame `n`'s canvas damage `changed` copied out of `renderer` into its buffer; the pixels written.
    public func present(_ changed: DamageRegion, frame n: Int, from renderer: FrameRenderer) -> Int {
        damage.add(changed)
        let written = renderer.copyOut(damage.union, to: buffers[n & 1].buffer, rotation: rotation)
        damage.endFrame()
        return written.area
    }

    /// The buffer frame `n` was written into.
    public func shown(_ n: Int) -> PixelBuffer { buffers[n & 1].buffer }
}
