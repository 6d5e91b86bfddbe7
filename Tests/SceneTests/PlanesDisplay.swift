import Compositor
import DisplayCore
import DisplayDoubles
import Raster

/// A display composing in memory as a display controller does: the primary plane shows the
/// canvas's copy or a map picture from its window, the sprite blended over it, and the pictures
/// granted planes (`offersPicturePlanes`) over both.
final class PlanesDisplay: TestDisplay, SpritePlane, MapScrollPlane, PicturePlanes {
    let copy: OwnedPixelBuffer
    let sprite = OwnedPixelBuffer(width: 300, height: 300, format: .xrgb8888)
    private(set) var spriteShown: Rect?
    private var spriteNext: Rect?
    let pictures: [OwnedPixelBuffer]
    private var next: (index: Int, x: Int, y: Int)?
    private(set) var shown: (index: Int, x: Int, y: Int)?
    private(set) var canvasCopies = 0, pictureSwitches = 0, windowMoves = 0
    var takesSprites = true
    var scrollsMap = true
    var offersScrolling = true
    /// Planes for pictures above the dot's; `refusesPictures`: a driver refusing every one.
    var offersPicturePlanes = false
    var refusesPictures = false
    private(set) var grants = PlaneGrants(dot: true, pictures: [])
    private(set) var generation = 0
    private var picturesNext: [Overlay] = []
    private(set) var picturesShown: [Overlay] = []

    init(width: Int, height: Int, margin: Int) {
        copy = OwnedPixelBuffer(width: width, height: height, format: .xrgb8888)
        pictures = (0..<2).map { _ in OwnedPixelBuffer(width: width + 2 * margin, height: height + 2 * margin, format: .xrgb8888) }
        super.init(name: "planes", width: width, height: height)
    }
    override var spritePlane: SpritePlane? { self }
    override func mapScrollPlane(margin: Int) -> MapScrollPlane? { offersScrolling ? self : nil }
    override var picturePlanes: (any PicturePlanes)? { offersPicturePlanes ? self : nil }

    /// The display taking its planes back on its own (a refused commit): everything composited.
    func revokePlanes() {
        grants = PlaneGrants(dot: false, pictures: grants.pictures.map { _ in false })
        takesSprites = false
        picturesNext = []
        spriteNext = nil
        generation += 1
    }

    /// The dot on plane 0, each picture on one of the planes above; refused pictures take the dot along.
    private(set) var assignments = 0
    func assign(pictures: [Overlay], names: [String]) -> PlaneGrants {
        assignments += 1
        let granted = GreedyPlanes.assign(layers: 1 + pictures.count, planes: 2 + pictures.count,
                                          canUse: { layer, plane in (layer == 0) == (plane == 0) },
                                          overlaps: { _, _ in true }, test: { layer, _, _ in layer == 0 || !refusesPictures })
        grants = PlaneGrants(dot: granted[0] != nil, pictures: pictures.indices.map { granted[$0 + 1] != nil })
        takesSprites = grants.dot
        picturesNext = pictures.indices.filter { granted[$0 + 1] != nil }.map { pictures[$0] }
        return grants
    }
    override func start() { present(damage: DamageRegion(Rect(x: 0, y: 0, width: canvasWidth, height: canvasHeight))) }
    override func present(damage: DamageRegion) {
        if next == nil, !damage.isEmpty || shown != nil {
            // Back from a picture, the whole canvas; else what changed.
            let r = shown != nil ? canvas.bounds : damage.bounds
            copy.buffer.copy(r, from: canvas)
            canvasCopies += 1
        }
        if let n = next, n.index != shown?.index { pictureSwitches += 1 } else if next != nil, next! != shown! { windowMoves += 1 }
        shown = next
        spriteShown = spriteNext
        picturesShown = picturesNext
    }

    var spriteWidth: Int { 300 }
    var spriteHeight: Int { 300 }
    var spriteBuffer: PixelBuffer { sprite.buffer }
    func showSprite(x: Int, y: Int, width: Int, height: Int) { spriteNext = Rect(x: x, y: y, width: width, height: height) }
    func hideSprite() { spriteNext = nil }
    func composedScreen() -> PixelBuffer? { nil }

    var pictureWidth: Int { pictures[0].buffer.width }
    var pictureHeight: Int { pictures[0].buffer.height }
    var showsPicture: Bool { next != nil }
    func sparePicture() -> PixelBuffer { pictures[shown.map { 1 - $0.index } ?? 0].buffer }
    func showSparePicture(windowX x: Int, windowY y: Int) { next = (shown.map { 1 - $0.index } ?? 0, x, y) }
    func moveWindow(toX x: Int, y: Int) {
        precondition(x >= 0 && y >= 0 && x + canvasWidth <= pictureWidth && y + canvasHeight <= pictureHeight, "window (\(x), \(y)) off the picture")
        next = (next!.index, x, y)
    }
    func showCanvas() { next = nil }

    /// What the screen shows.
    func screen() -> OwnedPixelBuffer {
        let out = OwnedPixelBuffer(width: canvasWidth, height: canvasHeight, format: .xrgb8888)
        if let s = shown {
            let p = pictures[s.index].buffer
            out.buffer.copy(out.buffer.bounds, from: PixelBuffer(base: p.row(s.y) + s.x * 4, width: canvasWidth, height: canvasHeight,
                                                                 stride: p.stride, format: .xrgb8888))
        } else {
            out.buffer.copy(out.buffer.bounds, from: copy.buffer)
        }
        if let r = spriteShown {
            DotSprite.blend(PixelBuffer(base: sprite.buffer.base, width: r.width, height: r.height, stride: sprite.buffer.stride,
                                        format: .xrgb8888), over: out.buffer, atX: r.x, y: r.y)
        }
        for p in picturesShown { p.draw(into: out.buffer, clip: out.buffer.bounds) }
        return out
    }
}
