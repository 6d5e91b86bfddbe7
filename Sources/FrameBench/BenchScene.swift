import Geo
/// Where the dot is in each benchmark frame: a pure function of the frame number, so the fast run
/// and the `--verify` reference see exactly the same positions.
///
/// `moving` and `pan` drive the dot at 12 m/s across a map at zoom 17 (Berlin's latitude: about
/// 0.28 px per 60 Hz frame, so every frame is a new sub-pixel position), bouncing inside the canvas
/// so that any number of frames stays on screen. `pan` draws it over a map larger than the canvas
/// with the view following the dot (`follow = center`), the frame redrawn in full whenever the
/// view moves a pixel (every third or fourth frame), as the daemon redraws it.
public struct BenchScene: Sendable {
    public static let frameRate = 60.0
    public static let metresPerSecond = 12.0
    public static let zoom = 17.0
    public static let place = GeoPoint(latitude: 52.52, longitude: 13.405)
    /// Extra map on every side of the canvas for `pan`.
    public static let panMargin = 256

    public let scene: BenchOptions.Scene
    public let canvasWidth: Int
    public let canvasHeight: Int
    /// Pixels the dot travels per frame, along x and y.
    public let stepX: Double
    public let stepY: Double
    private let viewport: MapViewport?

    public init(_ options: BenchOptions) throws(ProjectionError) {
        scene = options.scene
        canvasWidth = options.width
        canvasHeight = options.height
        let projection = try MapProjection.webMercator(center: Self.place, zoom: Self.zoom,
                                                       canvasWidth: options.width, canvasHeight: options.height)
        let perFrame = Self.metresPerSecond * projection.pixelsPerMetre(atLatitude: Self.place.latitude) / Self.frameRate
        // Heading 60° (east-north-east): both axes move by a fraction of a pixel every frame.
        stepX = perFrame * 0.866_025_403_784_438_6
        stepY = -perFrame * 0.5
        if scene == .pan {
            let map = try MapProjection.georeferenced(
                bounds: GeoBounds(west: 13.3, south: 52.5, east: 13.5, north: 52.55),
                imageWidth: options.width + 2 * Self.panMargin, imageHeight: options.height + 2 * Self.panMargin)
            viewport = MapViewport(follow: .center, offMap: .edge, canvasWidth: options.width,
                                   canvasHeight: options.height, projection: map)
        } else {
            viewport = nil
        }
    }

    /// The size of the background frame the scene needs: the canvas, or the larger map for `pan`.
    public var mapWidth: Int { canvasWidth + (scene == .pan ? 2 * Self.panMargin : 0) }
    public var mapHeight: Int { canvasHeight + (scene == .pan ? 2 * Self.panMargin : 0) }

    /// Frame `n`'s dot centre on the canvas and the map pixel at the canvas's top-left.
    public func frame(_ n: Int) -> (x: Double, y: Double, originX: Int, originY: Int) {
        let cx = Double(canvasWidth) / 2, cy = Double(canvasHeight) / 2
        switch scene {
        case .static, .copy:
            return (cx, cy, 0, 0)
        case .moving:
            return (fold(cx + stepX * Double(n), canvasWidth), fold(cy + stepY * Double(n), canvasHeight), 0, 0)
        case .pan:
            let m = Double(Self.panMargin)
            let dot = MapPoint(x: fold(cx + stepX * Double(n), canvasWidth) + m, y: fold(cy + stepY * Double(n), canvasHeight) + m)
            let offset = viewport!.offset(following: dot, from: ViewOffset(x: Self.panMargin, y: Self.panMargin))
            return (dot.x - Double(offset.x), dot.y - Double(offset.y), offset.x, offset.y)
        }
    }

    /// `v` reflected back and forth inside the middle half of 0…size (a bounce, not a wrap).
    private func fold(_ v: Double, _ size: Int) -> Double {
        let lo = Double(size) / 4, span = Double(size) / 2
        var r = (v - lo).truncatingRemainder(dividingBy: 2 * span)
        if r < 0 { r += 2 * span }
        return lo + (r <= span ? r : 2 * span - r)
    }
}
