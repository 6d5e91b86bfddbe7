import Foundation
import Raster
import TestSupport
import TileDecode
import Tiles
import XCTest

/// `pulsedot run` over the maps GDAL made (TileInteropFixture), headless: at fixed positions, the
/// frame around the dot is the source image at those coordinates — PNG tiles exactly, JPEG tiles
/// as TurboJPEG decodes the same tile bytes — and where the tiles have no data, the map's colour.
///
/// One daemon per tile set; each further position (and zoom) is a SIGHUP to a rewritten
/// configuration, so the first frame after each reload is checked too.
final class TileInteropRunTests: XCTestCase {
    typealias Fixture = TileInteropFixture

    /// Made once for the class: five GDAL runs are the slow part.
    nonisolated(unsafe) private static var shared: Fixture?

    private func fixture() throws -> Fixture {
        if let shared = Self.shared { return shared }
        let made = try Fixture()
        Self.shared = made
        return made
    }

    override class func tearDown() {
        shared?.remove()
        shared = nil
        super.tearDown()
    }

    private var dir: URL!

    override func setUpWithError() throws {
        dir = try TestEnvironment.temporaryDirectory("tile-interop-run")
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    /// No source pixel has blue 255 with red 255 and green 0.
    static let background = Fixture.RGB(r: 255, g: 0, b: 255)
    static let width = 640, height = 400

    /// Where the dot is, in source image pixels (fractions: between pixel centres), and the zoom shown.
    struct Stop {
        var column: Double, row: Double, zoom: Int
        var coordinate: (latitude: Double, longitude: Double) {
            let side = Double(Fixture.tilePixels << Fixture.zoom)
            return Fixture.coordinate(worldX: (Double(Fixture.firstColumn * Fixture.tilePixels) + column) / side,
                                      worldY: (Double(Fixture.firstRow * Fixture.tilePixels) + row) / side)
        }
    }

    // The middle, then near the south-east corner and the west edge, where the view stops at the
    // map's edge and the dot is off the canvas's middle.

    func testPNGMBTilesAreTheSourceAroundTheDot() throws {
        let z = Fixture.mbtilesZoom
        try run(.mbtilesPNG, stops: [Stop(column: 300.3, row: 200.7, zoom: z), Stop(column: 1000.6, row: 740.2, zoom: z),
                                     Stop(column: 20.35, row: 380.8, zoom: z)])
    }

    /// One level deeper than the file: its tiles enlarged, each source pixel 4×4 screen pixels.
    func testPNGMBTilesOneZoomDeeperAreTheSourceEnlarged() throws {
        let z = Fixture.mbtilesZoom
        try run(.mbtilesPNG, stops: [Stop(column: 612.7, row: 455.4, zoom: z + 1), Stop(column: 70.2, row: 700.9, zoom: z + 1)])
        XCTAssertEqual(countLines(containing: "zoom \(z + 1) is drawn from zoom \(z) tiles enlarged 2x"), 2,
                       "said once per view:\n\(lastLog)")
    }

    func testJPEGMBTilesAreTurboJPEGsDecodeAroundTheDot() throws {
        let z = Fixture.mbtilesZoom
        try run(.mbtilesJPEG, stops: [Stop(column: 500.5, row: 300.25, zoom: z), Stop(column: 990.1, row: 20.6, zoom: z),
                                      Stop(column: 8.9, row: 760.1, zoom: z)])
    }

    func testXYZFolderIsTheSourceAroundTheDot() throws {
        let z = Fixture.zoom
        try run(.xyzFolder, stops: [Stop(column: 400.4, row: 333.6, zoom: z), Stop(column: 1010.3, row: 750.7, zoom: z),
                                    Stop(column: 3.6, row: 5.2, zoom: z)])
    }

    func testTMSFolderIsTheSourceAroundTheDot() throws {
        let z = Fixture.zoom
        try run(.tmsFolder, stops: [Stop(column: 700.8, row: 120.1, zoom: z), Stop(column: 30.3, row: 740.4, zoom: z),
                                    Stop(column: 512.5, row: 384.5, zoom: z)])
    }

    // MARK: -

    private var lastLog = ""

    private func countLines(containing text: String) -> Int {
        lastLog.split(separator: "\n").filter { $0.contains(text) }.count
    }

    private func config(_ product: Fixture.Product, _ stop: Stop, frames: URL, path: String) -> String {
        let c = stop.coordinate
        return """
            [source]
            position = \(c.latitude),\(c.longitude)
            [display]
            output = png:\(frames.path)
            mode = \(Self.width)x\(Self.height)
            fps = 10
            pngFps = 10
            [map]
            tiles = \(path)
            tileScheme = \(product == .tmsFolder ? "tms" : "xyz")
            zoom = \(stop.zoom)
            follow = center
            background = #FF00FF
            attribution = none

            """
    }

    /// Starts the daemon at the first stop, reloads to each further one, and checks the first
    /// frame each view writes.
    private func run(_ product: Fixture.Product, stops: [Stop], file: StaticString = #filePath, line: UInt = #line) throws {
        let fixture = try fixture()
        let frames = dir.appendingPathComponent("frames")
        let path = fixture.path(product)
        var daemon: RunningDaemon!
        for (i, stop) in stops.enumerated() {
            let text = config(product, stop, frames: frames, path: path)
            var before = 0
            if i == 0 {
                daemon = try RunningDaemon(config: text, in: dir)
            } else {
                try daemon.reload(text, count: i)
                // Every line so far is the old view's: the reload was said before the new one drew.
                before = daemon.frames(in: frames).count
            }
            let c = stop.coordinate
            // The drawn position has been through the projection and back: the same to a nanodegree.
            let here = { (l: FrameLine) in abs((l.lat ?? 0) - c.latitude) < 1e-9 && abs((l.lon ?? 0) - c.longitude) < 1e-9 }
            let seen = try daemon.waitForFrames(in: frames, "a frame at \(c) (zoom \(stop.zoom))") {
                $0.dropFirst(before).contains(where: here)
            }
            let frame = try XCTUnwrap(seen.dropFirst(before).first(where: here))
            try check(frame, in: frames, product: product, stop: stop, fixture: fixture, file: file, line: line)
        }
        lastLog = daemon.log
        let format = product == .mbtilesJPEG ? "JPEG" : "PNG"
        XCTAssertEqual(countLines(containing: "<6>map \(path): \(format) tiles of 256 px, zoom "), stops.count,
                       "the new map said at each reload:\n\(lastLog)", file: file, line: line)
        XCTAssertFalse(lastLog.contains("colour shows there"), "every tile in view is readable:\n\(lastLog)", file: file, line: line)
        XCTAssertEqual(daemon.stop().status, 0, daemon.log, file: file, line: line)
    }

    /// The frame's dot is where the test's Web Mercator puts it with `follow = center`, and every
    /// pixel away from the dot is the map's pixel there.
    private func check(_ frame: FrameLine, in frames: URL, product: Fixture.Product, stop: Stop, fixture: Fixture,
                       file: StaticString, line: UInt) throws {
        XCTAssertEqual(frame.state, "live", "\(frame)", file: file, line: line)
        let sourceZoom = product == .mbtilesPNG || product == .mbtilesJPEG ? Fixture.mbtilesZoom : Fixture.zoom
        let level = try XCTUnwrap(fixture.produced[product]?[sourceZoom], file: file, line: line)
        let scale = 1 << (stop.zoom - sourceZoom)
        let c = stop.coordinate
        let dot = TiledView.worldPixel(latitude: c.latitude, longitude: c.longitude, zoom: stop.zoom)
        let ox = TiledView.offset(dot: dot.x, canvas: Self.width, start: level.west * 256 * scale,
                                  length: (level.east - level.west + 1) * 256 * scale)
        let oy = TiledView.offset(dot: dot.y, canvas: Self.height, start: level.north * 256 * scale,
                                  length: (level.south - level.north + 1) * 256 * scale)
        let x = try XCTUnwrap(frame.x, file: file, line: line), y = try XCTUnwrap(frame.y, file: file, line: line)
        XCTAssertEqual(x, dot.x - Double(ox), accuracy: 0.01, "\(frame)", file: file, line: line)
        XCTAssertEqual(y, dot.y - Double(oy), accuracy: 0.01, "\(frame)", file: file, line: line)

        let picture = try FramePicture(frames, frame)
        XCTAssertEqual(picture.width, Self.width, file: file, line: line)
        XCTAssertEqual(picture.height, Self.height, file: file, line: line)
        let jpeg = product == .mbtilesJPEG ? try MBTiles(path: fixture.path(product)) : nil
        var decoded: [TileID: [Fixture.RGB]] = [:]
        let side = Double(Fixture.tilePixels << stop.zoom)
        var checked = 0, nearDot = 0, wrong = 0, firstWrong = ""
        for cy in 0..<Self.height {
            for cx in 0..<Self.width {
                let distance = hypot(Double(cx) + 0.5 - x, Double(cy) + 0.5 - y)
                guard distance > TiledView.dotReach else { continue }
                let wx = cx + ox, wy = cy + oy
                let expected: Fixture.RGB
                if let jpeg {
                    let id = TileID(z: stop.zoom, x: wx >> 8, y: wy >> 8)
                    if decoded[id] == nil { decoded[id] = try decode(jpeg.read(id), id) }
                    expected = decoded[id]![(wy & 255) * 256 + (wx & 255)]
                } else {
                    let p = Fixture.sourcePosition(worldX: (Double(wx) + 0.5) / side, worldY: (Double(wy) + 0.5) / side)
                    let outside = max(-p.x, p.x - Double(Fixture.width), -p.y, p.y - Double(Fixture.height))
                    if outside <= -2 {
                        expected = Fixture.color(column: Int(p.x), row: Int(p.y))
                    } else if outside > 1 {
                        expected = Self.background
                    } else {
                        continue
                    }
                }
                checked += 1
                if distance < TiledView.dotReach + 30 { nearDot += 1 }
                let seen = picture.rgb(cx, cy)
                if seen != expected {
                    if wrong == 0 { firstWrong = "canvas (\(cx), \(cy)) = world (\(wx), \(wy)) is \(seen), not \(expected)" }
                    wrong += 1
                }
            }
        }
        XCTAssertEqual(wrong, 0, "\(product.rawValue) zoom \(stop.zoom) at \(c), \(frame.file): \(wrong) of \(checked) pixels wrong; first: \(firstWrong)",
                       file: file, line: line)
        XCTAssertGreaterThan(checked, Self.width * Self.height / 2, "most of the frame is checked", file: file, line: line)
        XCTAssertGreaterThan(nearDot, 2000, "pixels just outside the dot are checked", file: file, line: line)
    }

    /// A tile's bytes as the daemon decodes them (TileDecoder: TurboJPEG), as colours.
    private func decode(_ read: TileRead, _ id: TileID) throws -> [Fixture.RGB] {
        guard case let .bytes(bytes) = read else { throw TestFailure("tile \(id): \(read), not bytes") }
        let slot = OwnedPixelBuffer(width: 256, height: 256, format: .xrgb8888)
        try withExtendedLifetime(slot) {
            _ = try TileDecoder(tileSize: .px256, background: Color(r: 255, g: 0, b: 255)).decode(bytes, into: slot.buffer)
        }
        let raw = slot.bytes
        return (0..<256 * 256).map { Fixture.RGB(r: raw[$0 * 4 + 2], g: raw[$0 * 4 + 1], b: raw[$0 * 4]) }
    }
}
