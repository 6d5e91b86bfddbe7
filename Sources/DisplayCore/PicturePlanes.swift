import Raster

/// Planes of the display controller's own for the layers above the map: the dot (on the display's
/// `SpritePlane`) and pictures fixed on the screen (the map's credit, a banner), each a
/// premultiplied picture the controller composes over the primary plane. Which layer gets a plane
/// is decided here, greedily in the scene's order (bottom to top), one TEST_ONLY commit per layer
/// at its worst geometry over what was granted before it — never per frame: when the view is
/// made (start, reload), when a picture changes size, and by the display itself after a
/// reconnect or a refused commit (`generation` then changes).
///
/// A layer refused a plane is the caller's to composite into the canvas, and so is every layer
/// below it that can overlap it: a composited layer must never end up under one it should cover.
/// The dot can be anywhere, so it follows any refused picture into the canvas.
public protocol PicturePlanes: AnyObject {
    /// Decides again which of the dot (when the display takes sprites) and `pictures` (bottom to
    /// top, all above the dot; `names` for the log, "credit", "banner") get planes, frees the
    /// planes of the last decision, copies each granted picture onto its plane (shown from the
    /// next `present`, at the picture's place, never moving) and says the result in one line.
    @discardableResult
    func assign(pictures: [Overlay], names: [String]) -> PlaneGrants
    /// The last decision (nothing granted before the first `assign`).
    var grants: PlaneGrants { get }
    /// Changes each time the display decides again on its own (a refused commit, a reconnect):
    /// the caller then looks at `grants` and composites what lost its plane. Checked per frame
    /// (one comparison); what `assign` returns already counts any change it made.
    var generation: Int { get }
}

/// Which layers above the map hold a plane of their own.
public struct PlaneGrants: Equatable, Sendable {
    /// The dot on the display's sprite plane; false: painted into the canvas.
    public var dot: Bool
    /// One per picture of the last `assign`, in its order: on a plane of its own; false: composited.
    public var pictures: [Bool]
    public init(dot: Bool, pictures: [Bool]) {
        self.dot = dot
        self.pictures = pictures
    }
}

/// The greedy choice itself, apart from any card: layers in the scene's order (the dot first,
/// then the pictures), `test(layer, plane)` asking the driver (one TEST_ONLY commit with the
/// layers granted so far) whether `layer` may go on candidate `plane`. `planes` are the
/// candidates in the controller's stacking order, bottom to top; a layer only takes a plane above
/// the one under it, so the stack keeps the scene's order. A refused layer sends every granted
/// layer below it that `overlaps` it into the canvas too.
public enum GreedyPlanes {
    /// For each layer, the index into `planes` it holds, or nil (composited).
    public static func assign(layers: Int, planes: Int, canUse: (_ layer: Int, _ plane: Int) -> Bool,
                              overlaps: (_ below: Int, _ above: Int) -> Bool,
                              test: (_ layer: Int, _ plane: Int, _ granted: [Int?]) -> Bool) -> [Int?] {
        var granted = [Int?](repeating: nil, count: layers)
        var lowest = 0
        for layer in 0..<layers {
            var taken: Int?
            var candidate = lowest
            while candidate < planes {
                if canUse(layer, candidate), test(layer, candidate, granted) {
                    taken = candidate
                    break
                }
                candidate += 1
            }
            if let taken {
                granted[layer] = taken
                lowest = taken + 1
                continue
            }
            for below in 0..<layer where granted[below] != nil && overlaps(below, layer) { granted[below] = nil }
        }
        return granted
    }
}
