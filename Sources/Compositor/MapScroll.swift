import Raster

/// A view of a whole map frame shown as a window of a larger picture on a display plane: the view
/// moves by moving the window, and only when the window would leave the picture is the map drawn
/// anew into the other picture, centred on the view. Pure arithmetic and one copy, shared by the
/// daemon and the benchmark.
///
/// Over a map image, offsets are clamped as `FrameRenderer.scrollBackground` clamps them, so a
/// window shows exactly the pixels the renderer's canvas would hold over the same frame. A map
/// without edges (tiles, whose view may go past the last tile) is not clamped: every picture is
/// centred on the view.
public struct MapScroll: Sendable {
    public let viewWidth: Int
    public let viewHeight: Int
    /// The map's size; `Int.max` along both axes for a map without edges (`clamps` false).
    public let mapWidth: Int
    public let mapHeight: Int
    /// Whether views and pictures stay inside the map's size.
    public let clamps: Bool
    /// The part of each picture that holds map: the view with `margin` on every side, no larger
    /// than the map or the picture.
    public let usedWidth: Int
    public let usedHeight: Int
    /// The map pixel at the top-left of the picture on screen; nil: none drawn yet.
    public private(set) var origin: (x: Int, y: Int)?

    public enum Step: Equatable, Sendable {
        /// The picture on screen, its window at (x, y).
        case move(x: Int, y: Int)
        /// Draw the map from (originX, originY) into the spare picture and show it, its window at
        /// (windowX, windowY).
        case redraw(originX: Int, originY: Int, windowX: Int, windowY: Int)
    }

    /// Nil when the picture leaves no room to scroll along either axis (or is smaller than the view).
    public init?(viewWidth: Int, viewHeight: Int, mapWidth: Int, mapHeight: Int,
                 pictureWidth: Int, pictureHeight: Int, margin: Int) {
        guard mapWidth >= viewWidth, mapHeight >= viewHeight, pictureWidth >= viewWidth, pictureHeight >= viewHeight else { return nil }
        self.viewWidth = viewWidth
        self.viewHeight = viewHeight
        self.mapWidth = mapWidth
        self.mapHeight = mapHeight
        clamps = true
        usedWidth = min(viewWidth + 2 * margin, mapWidth, pictureWidth)
        usedHeight = min(viewHeight + 2 * margin, mapHeight, pictureHeight)
        guard usedWidth > viewWidth || usedHeight > viewHeight else { return nil }
    }

    /// Over a map without edges: nil when the picture leaves no room to scroll.
    public init?(viewWidth: Int, viewHeight: Int, pictureWidth: Int, pictureHeight: Int, margin: Int) {
        guard pictureWidth >= viewWidth, pictureHeight >= viewHeight else { return nil }
        self.viewWidth = viewWidth
        self.viewHeight = viewHeight
        mapWidth = .max
        mapHeight = .max
        clamps = false
        usedWidth = min(viewWidth + 2 * margin, pictureWidth)
        usedHeight = min(viewHeight + 2 * margin, pictureHeight)
        guard usedWidth > viewWidth || usedHeight > viewHeight else { return nil }
    }

    /// What shows the view whose top-left is map pixel (`x`, `y`).
    public mutating func step(offsetX x: Int, offsetY y: Int) -> Step {
        let vx = clamps ? min(max(x, 0), mapWidth - viewWidth) : x
        let vy = clamps ? min(max(y, 0), mapHeight - viewHeight) : y
        if let o = origin, vx - o.x >= 0, vx - o.x <= usedWidth - viewWidth, vy - o.y >= 0, vy - o.y <= usedHeight - viewHeight {
            return .move(x: vx - o.x, y: vy - o.y)
        }
        var ox = vx - (usedWidth - viewWidth) / 2, oy = vy - (usedHeight - viewHeight) / 2
        if clamps {
            ox = min(max(ox, 0), mapWidth - usedWidth)
            oy = min(max(oy, 0), mapHeight - usedHeight)
        }
        origin = (ox, oy)
        return .redraw(originX: ox, originY: oy, windowX: vx - ox, windowY: vy - oy)
    }

    /// The pictures no longer hold the map (the canvas was shown meanwhile): the next step redraws.
    public mutating func forget() { origin = nil }

    /// Draws the used part of a picture: the map from (`originX`, `originY`), narrowed to the
    /// picture's format (look.md's tables for RGB565). Pixels of the picture beyond the used part
    /// are left as they are (never shown).
    public func draw(_ map: PixelBuffer, originX: Int, originY: Int, into picture: PixelBuffer) {
        Self.copy(map, originX: originX, originY: originY, width: usedWidth, height: usedHeight, into: picture)
    }

    /// The `width`×`height` region of `map` from (`originX`, `originY`) into the top-left of
    /// `picture`, narrowed to its format.
    static func copy(_ map: PixelBuffer, originX: Int, originY: Int, width: Int, height: Int, into picture: PixelBuffer) {
        precondition(map.format == .xrgb8888 && originX >= 0 && originY >= 0
                     && originX + width <= map.width && originY + height <= map.height,
                     "the map picture lies outside the \(map.width)x\(map.height) map")
        let source = PixelBuffer(base: map.row(originY) + originX * 4, width: width, height: height,
                                 stride: map.stride, format: .xrgb8888)
        source.copyOut(region: source.bounds, to: picture, rotation: .r0)
    }
}
