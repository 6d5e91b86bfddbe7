import Compositor
import DisplayCore

// The plane layers as the frame step drives them: it decides between them and the canvas.
extension PlaneDot: DotPlaneLayer {}

extension PlaneMap: MapPlaneLayer {
    public var pans: Bool { plane.scrollsMap }
}
