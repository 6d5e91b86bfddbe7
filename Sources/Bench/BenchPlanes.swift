import Compositor
import DisplayCore
import FrameBench
import Raster
import Scene

/// `bench --composition planes`: the daemon's plane layers — `PlaneDot` for the dot, and while the
/// view pans `PlaneMap` for the map — given to the frame step as a display with planes gives them,
/// over planes in memory: a sprite plane of three pictures painted in turn, and a primary plane
/// scrolling over two map pictures of the canvas plus `PlaneMap.margin` on every side.
public final class BenchPlanes {
    let sprites: MemorySpritePlane
    let pictures: MemoryMapPlane?
    public let dot: PlaneDot
    public let map: PlaneMap?

    /// Planes for `step`; `painter` draws the map pictures when the view pans (nil: it stands still).
    init(_ options: BenchOptions, step: FrameStep, painter: (any MapPicturePainter)?) {
        let side = min(512, options.width, options.height)
        sprites = MemorySpritePlane(side: side)
        dot = PlaneDot(plane: sprites, style: options.style, scale: options.scale)
        step.dotPlane = dot
        if let painter {
            let m = PlaneMap.margin
            let plane = MemoryMapPlane(width: options.width + 2 * m, height: options.height + 2 * m, format: options.format)
            pictures = plane
            map = PlaneMap(plane: plane, painter: painter, viewWidth: options.width, viewHeight: options.height)
            step.mapPlane = map
        } else {
            pictures = nil
            map = nil
        }
    }

    /// Where the last frame put the dot's picture (nil: that frame's dot went into the canvas).
    public var spritePlace: Rect? { sprites.place }
    /// The picture on the sprite plane (its top-left `spritePlace`'s size holds the dot).
    public var spritePicture: PixelBuffer { sprites.pictures[sprites.shown].buffer }

    /// The canvas-sized window of the map picture on the primary plane; nil while the canvas is shown.
    public var shownPicture: PixelBuffer? {
        guard let pictures, pictures.showsPicture else { return nil }
        let p = pictures.pictures[pictures.current].buffer, bpp = p.format.bytesPerPixel
        return PixelBuffer(base: p.row(pictures.window.y) + pictures.window.x * bpp, width: p.width - 2 * PlaneMap.margin,
                           height: p.height - 2 * PlaneMap.margin, stride: p.stride, format: p.format)
    }

    /// Pixels drawn into map pictures since the last call.
    func takeDrawn() -> Int {
        guard let pictures else { return 0 }
        defer { pictures.drawn = 0 }
        return pictures.drawn
    }
}

/// A sprite plane in memory: three pictures painted in turn (one on screen, one queued, one to paint).
final class MemorySpritePlane: SpritePlane {
    let pictures: [OwnedPixelBuffer]
    private var next = 0
    private(set) var shown = 0
    private(set) var place: Rect?
    let spriteWidth: Int
    let spriteHeight: Int

    init(side: Int) {
        pictures = (0..<3).map { _ in OwnedPixelBuffer(width: side, height: side, format: .xrgb8888) }
        spriteWidth = side
        spriteHeight = side
    }

    var takesSprites: Bool { true }
    var spriteBuffer: PixelBuffer { pictures[next].buffer }

    func showSprite(x: Int, y: Int, width: Int, height: Int) {
        place = Rect(x: x, y: y, width: width, height: height)
        shown = next
        next = next == 2 ? 0 : next + 1
    }

    func hideSprite() { place = nil }
    func composedScreen() -> PixelBuffer? { nil }
}

/// A primary plane in memory scrolling over two map pictures in the scan-out format.
final class MemoryMapPlane: MapScrollPlane {
    let pictures: [OwnedPixelBuffer]
    private(set) var current = 0
    private(set) var window = (x: 0, y: 0)
    private(set) var showsPicture = false
    /// Pixels of pictures shown since `BenchPlanes.takeDrawn`.
    var drawn = 0

    init(width: Int, height: Int, format: PixelFormat) {
        pictures = (0..<2).map { _ in OwnedPixelBuffer(width: width, height: height, format: format) }
    }

    var scrollsMap: Bool { true }
    var pictureWidth: Int { pictures[0].buffer.width }
    var pictureHeight: Int { pictures[0].buffer.height }
    func sparePicture() -> PixelBuffer { pictures[current ^ 1].buffer }

    func showSparePicture(windowX x: Int, windowY y: Int) {
        current ^= 1
        window = (x, y)
        showsPicture = true
        drawn += pictureWidth * pictureHeight
    }

    func moveWindow(toX x: Int, y: Int) {
        window = (x, y)
        showsPicture = true
    }

    func showCanvas() { showsPicture = false }
}
