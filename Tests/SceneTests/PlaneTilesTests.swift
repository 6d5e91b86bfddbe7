@testable import Config
import Compositor
import DisplayCore
import Foundation
import Geo
import Location
import Outputs
import PNG
import Raster
import Scene
import Syscall
import TestSupport
import TileDecode
import Tiles
import XCTest

/// A tiled map panned on the display's primary plane, as a map image is: while the dot is on its
/// own plane the screen (picture window, sprite over it) is the software frame over the tiles,
/// off the tiles too; tiles that arrive while a picture is shown are drawn into the spare picture
/// at the same origin and shown; a dot that needs the canvas brings the canvas back, drawn from
/// the tiles; a snapshot draws the canvas the screen hides.
final class PlaneTilesTests: XCTestCase {
    /// One column of 4 PNG tiles at zoom 17 whose every pixel says where it is: narrower than the
    /// view, so the view goes off the tiles on both sides (the map's colour there).
    private static let first = TileID(z: 17, x: 38_746, y: 46_888)

    /// The tile set `settings()` wrote, opened.
    private var files = MapFiles()

    private func settings() throws -> Settings {
        let dir = try TestEnvironment.temporaryDirectory("plane-tiles")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("town.mbtiles").path
        let f = Self.first, nw = f.bounds, se = TileID(z: 17, x: f.x, y: f.y + 3).bounds
        let writer = try MBTilesWriter(path: path, metadata: [
            ("name", "town"), ("format", "png"), ("minzoom", "17"), ("maxzoom", "17"),
            ("bounds", "\(nw.west),\(se.south),\(se.east),\(nw.north)"),
        ])
        let tile = OwnedPixelBuffer(width: 256, height: 256, format: .xrgb8888)
        for row in 0..<4 { for column in 0..<1 {
            for y in 0..<256 { for x in 0..<256 {
                tile.buffer.row(y).storeBytes(of: 0xFF00_0000 | UInt32(x) << 16 | UInt32(y) << 8 | UInt32(column * 16 + row),
                                              toByteOffset: x * 4, as: UInt32.self)
            } }
            try writer.add(TileID(z: 17, x: f.x + column, y: f.y + row), bytes: try PNGWrite.frame(tile.buffer))
        } }
        try writer.finish()
        var s = Settings()
        s.map.tiles.path = path
        files = MapFiles(tiles: try TileSet.open(path: path, scheme: .xyz, measure: TileDimensions.of))
        s.map.tiles.attribution = .none
        s.map.zoom = 17
        s.map.follow = .center
        return s
    }

    /// The middle of the second tile: where the view starts and the dot is first.
    private static var start: GeoPoint {
        let b = TileID(z: 17, x: first.x, y: first.y + 1).bounds
        return GeoPoint(latitude: (b.north + b.south) / 2, longitude: (b.west + b.east) / 2)
    }

    private func view(_ s: Settings, waiting: Bool = false) throws(SceneView.SetupError) -> SceneView {
        try SceneView(settings: s, files: files, canvasWidth: 300, canvasHeight: 180, physicalHeight: 180, map: nil, staleAfter: 30,
                      center: Self.start, waitForTiles: waiting)
    }

    /// Pixels that differ outside `except` (the sprite's place).
    private func differing(_ a: PixelBuffer, _ b: PixelBuffer, except: Rect?) -> Int {
        var n = 0
        for y in 0..<a.height { for x in 0..<a.width where !(except?.contains(x: x, y: y) ?? false) {
            if a.pixel(x: x, y: y) & 0xFF_FFFF != b.pixel(x: x, y: y) & 0xFF_FFFF { n += 1 }
        } }
        return n
    }

    func testTheScreenIsTheSoftwareFrameOverTheTilesAndTilesThatArriveReachIt() throws {
        let s = try settings()
        let display = PlanesDisplay(width: 300, height: 180, margin: PlaneMap.margin)
        let driven = try DrivenDisplay.start(display, now: 0) { _, _, _ throws(SceneView.SetupError) in try view(s) }.get()
        XCTAssertNotNil(driven.view.planeMap, "tiles pan on the plane")
        let software = try view(s, waiting: true)
        var t = 1.0
        /// `ready`: the tiles of the view decoded before the frame (as the bench does between
        /// frames), so a frame never depends on how fast the worker is.
        func frame(lat: Double, lon: Double, error: Double = 3, ready: Bool = false) throws {
            let fix = Fix(latitude: lat, longitude: lon, mode: .threeD, horizontalError: error,
                          receivedAt: MonotonicInstant(nanoseconds: Int64(t * 1e9)))
            driven.view.add(fix)
            software.add(fix)
            _ = software.draw(at: t)
            if ready { driven.view.tiles?.preload(offset: software.last.offset) }
            try driven.present(driven.view.draw(at: t), frame: FrameStamp(sinceStart: t, monotonic: t))
            t += 0.1
        }
        let (lat, lon) = (Self.start.latitude, Self.start.longitude)
        // The view holds still while the tiles are decoded: the first picture is drawn at the
        // start, the tiles asked for microseconds before, and each arrival inside it is drawn
        // into the other picture at the same window. (A loop preempted for longer than a decode
        // between the two finds the tiles there already: no arrival left to see.)
        let drawn = display.pictureSwitches
        XCTAssertEqual(drawn, 1)
        let start = display.screen()
        // A pixel inside the tiles' one column (x 22…277 of the view), not off the map where the
        // colour shows whatever arrived: whether the first picture was drawn before any tile.
        let bare = start.buffer.pixel(x: 30, y: 10) & 0xFF_FFFF == s.map.background.rgb24
        try frame(lat: lat, lon: lon)
        let firstWindow = try XCTUnwrap(display.shown)
        let tiles = try XCTUnwrap(driven.view.tiles)
        let deadline = Date().addingTimeInterval(30)
        var screen = display.screen()
        while tiles.tilesHeld < 3 || differing(screen.buffer, software.renderer.canvas.buffer, except: display.spriteShown) > 0,
              Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            try frame(lat: lat, lon: lon)
            screen = display.screen()
        }
        XCTAssertEqual(tiles.tilesHeld, 3, "every tile of the picture (and the ring)")
        XCTAssertEqual(differing(screen.buffer, software.renderer.canvas.buffer, except: display.spriteShown), 0,
                       "the tiles that arrived reached the screen")
        if bare { XCTAssertGreaterThan(display.pictureSwitches, drawn, "an arrival drew the other picture") }
        XCTAssertEqual([display.shown?.x, display.shown?.y], [firstWindow.x, firstWindow.y], "the window stayed")
        XCTAssertEqual(display.canvasCopies, 0, "the canvas never went out")
        XCTAssertLessThan(driven.view.last.offset.x, 0, "the view is wider than the tiles")
        XCTAssertEqual(screen.buffer.pixel(x: 3, y: 90) & 0xFF_FFFF, screen.buffer.pixel(x: 296, y: 90) & 0xFF_FFFF, "the map's colour on both sides")

        // South across re-centres; frames 20…24 with a disc too wide for the plane bring the
        // canvas back.
        var inCanvas: [Int] = []
        let switches = display.pictureSwitches
        for n in 0..<70 {
            let copies = display.canvasCopies
            try frame(lat: lat - Double(n) * 0.00007, lon: lon, error: (20..<25).contains(n) ? 2000 : 3, ready: true)
            if display.shown == nil { inCanvas.append(n) } else {
                XCTAssertEqual(display.canvasCopies, copies, "frame \(n): the canvas copied while a picture is shown")
            }
            XCTAssertEqual(driven.view.last.offset, software.last.offset, "frame \(n)")
            screen = display.screen()
            XCTAssertEqual(withExtendedLifetime(screen) { differing(screen.buffer, software.renderer.canvas.buffer, except: display.spriteShown) },
                           0, "frame \(n): the map exactly, outside the dot's picture (picture shown: \(display.shown != nil))")
        }
        XCTAssertGreaterThan(driven.view.last.offset.y, 600, "the view moved south")
        // The disc grows and shrinks over a few frames after the error does.
        XCTAssertTrue(inCanvas.count >= 3 && inCanvas.allSatisfy { (20..<40).contains($0) }, "only the wide disc's frames: \(inCanvas)")
        XCTAssertGreaterThanOrEqual(display.pictureSwitches - switches, 3, "re-centres along the way and after the disc")

        // A snapshot: the canvas the screen hides, drawn from the tiles.
        XCTAssertNotNil(display.shown)
        let snapshot = try XCTUnwrap(driven.view.planeDot).screen(canvas: driven.view.currentCanvas())
        withExtendedLifetime(snapshot.picture) {
            XCTAssertEqual(differing(snapshot.picture.buffer, software.renderer.canvas.buffer, except: display.spriteShown), 0)
        }
    }

    func testAMapCreditInTheCanvasKeepsTheMapAndTheDotInTheCanvas() throws {
        var s = try settings()
        s.map.tiles.attribution = .text("© Town")
        for refusing in [false, true] {
            // No planes for pictures, or a driver refusing them.
            let display = PlanesDisplay(width: 300, height: 180, margin: PlaneMap.margin)
            display.offersPicturePlanes = refusing
            display.refusesPictures = refusing
            let driven = try DrivenDisplay.start(display, now: 0) { _, _, _ throws(SceneView.SetupError) in try view(s) }.get()
            XCTAssertNil(driven.view.planeMap, "the credit would vanish under a panned picture")
            XCTAssertNil(driven.view.planeDot, "the dot on its plane would cover the credit it must stay under")
            XCTAssertEqual(driven.view.renderer.screenLayers.count, 1)
            XCTAssertTrue(driven.view.takeNotes().contains { $0.contains("the map's credit is composited in the canvas, and the dot with it") })
            XCTAssertEqual(driven.view.layersOnPlanes.map { "\($0.layer) \($0.onPlane)" }, ["map false", "dot false", "credit false"])
        }
    }

    func testACreditOnItsOwnPlaneLetsTheMapPanAndTheScreenIsTheSoftwareFrame() throws {
        var s = try settings()
        s.map.tiles.attribution = .text("© Town")
        let display = PlanesDisplay(width: 300, height: 180, margin: PlaneMap.margin)
        display.offersPicturePlanes = true
        let driven = try DrivenDisplay.start(display, now: 0) { _, _, _ throws(SceneView.SetupError) in try view(s) }.get()
        XCTAssertNotNil(driven.view.planeMap, "the map pans on the primary plane under the credit's plane")
        XCTAssertNotNil(driven.view.planeDot)
        XCTAssertTrue(driven.view.renderer.screenLayers.isEmpty, "the credit is not drawn into the canvas as well")
        XCTAssertEqual(display.grants, PlaneGrants(dot: true, pictures: [true]))
        XCTAssertEqual(driven.view.layersOnPlanes.map { "\($0.layer) \($0.onPlane)" }, ["map true", "dot true", "credit true"])
        let software = try view(s, waiting: true)
        XCTAssertEqual(software.renderer.screenLayers.count, 1, "the model draws the credit in its canvas")
        let lockstep = Lockstep(driven: driven, software: software, display: display, differing: differing)
        let frame = lockstep.frame, mismatched = lockstep.mismatched
        // Until the picture's tiles have arrived.
        try lockstep.settle()
        for n in 0..<30 {
            try frame(n)
            let screen = display.screen()
            XCTAssertNotNil(display.shown, "frame \(n): a map picture on the primary plane")
            XCTAssertEqual(display.picturesShown.count, 1)
            XCTAssertEqual(withExtendedLifetime(screen) { differing(screen.buffer, software.renderer.canvas.buffer, except: display.spriteShown) },
                           0, "frame \(n): the map and the credit exactly, outside the dot's picture")
        }
        XCTAssertEqual(display.canvasCopies, 0, "the canvas never went out")
        XCTAssertEqual(display.assignments, 1, "decided once, never per frame")
        // A new picture for the credit: decided again, the new one on the plane.
        let credit = try XCTUnwrap(driven.view.credit)
        let replaced = credit.picture
        credit.replace(with: Overlay(width: 20, height: 6, x: 270, y: 170))
        try frame(29)
        XCTAssertEqual(display.assignments, 2)
        XCTAssertTrue(display.picturesShown.first === credit.picture)
        credit.replace(with: replaced)
        try frame(29)
        XCTAssertEqual(display.assignments, 3)
        // A snapshot without a writeback: the canvas, the sprite and the credit composed in software.
        let snapshot = try XCTUnwrap(driven.view.screen())
        XCTAssertEqual(snapshot.source, "composed in software")
        withExtendedLifetime(snapshot.picture) {
            XCTAssertEqual(differing(snapshot.picture.buffer, software.renderer.canvas.buffer, except: display.spriteShown), 0)
        }

        // The display takes its planes back (a refused commit): the next frame draws the map, the
        // dot and the credit into the canvas, which goes out whole.
        display.revokePlanes()
        try frame(30)
        XCTAssertNil(driven.view.planeDot)
        XCTAssertEqual(driven.view.renderer.screenLayers.count, 1, "the credit back in the canvas")
        XCTAssertNil(display.shown, "the canvas on the primary plane")
        XCTAssertTrue(display.picturesShown.isEmpty)
        let screen = display.screen()
        XCTAssertEqual(withExtendedLifetime(screen) { differing(screen.buffer, software.renderer.canvas.buffer, except: nil) }, 0,
                       "the software frame, dot and credit included")
        XCTAssertEqual(driven.view.layersOnPlanes.map { "\($0.layer) \($0.onPlane)" }, ["map false", "dot false", "credit false"])
    }

    /// A view on the planes display and its software model, fed the same fixes frame by frame
    /// (the dot driven south `n` × 7.8 m), and how far the display's screen is from the model.
    private final class Lockstep {
        let driven: DrivenDisplay
        let software: SceneView
        let display: PlanesDisplay
        let differing: (PixelBuffer, PixelBuffer, Rect?) -> Int
        var t = 1.0

        init(driven: DrivenDisplay, software: SceneView, display: PlanesDisplay, differing: @escaping (PixelBuffer, PixelBuffer, Rect?) -> Int) {
            self.driven = driven
            self.software = software
            self.display = display
            self.differing = differing
        }

        func frame(_ n: Int) throws {
            let fix = Fix(latitude: PlaneTilesTests.start.latitude - Double(n) * 0.00007, longitude: PlaneTilesTests.start.longitude,
                          mode: .threeD, horizontalError: 3, receivedAt: MonotonicInstant(nanoseconds: Int64(t * 1e9)))
            driven.view.add(fix)
            software.add(fix)
            _ = software.draw(at: t)
            driven.view.tiles?.preload(offset: software.last.offset)
            try driven.present(driven.view.draw(at: t), frame: FrameStamp(sinceStart: t, monotonic: t))
            t += 0.1
        }

        func mismatched() -> Int {
            let screen = display.screen()
            return withExtendedLifetime(screen) { differing(screen.buffer, software.renderer.canvas.buffer, display.spriteShown) }
        }

        /// Frames at the start until the screen is the model (the tiles decoded off the loop arrived).
        func settle() throws {
            let deadline = Date().addingTimeInterval(30)
            try frame(0)
            while mismatched() > 0, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.02)
                try frame(0)
            }
        }
    }

    /// A translucent banner along the top, as the transit worker makes one (premultiplied).
    private func bannerPicture(_ shade: UInt32) -> Overlay {
        let o = Overlay(width: 300, height: 24)
        for y in 0..<24 { for x in 0..<300 { o.setPixel(x: x, y: y, 0xEB00_0000 | (shade * UInt32(x % 7 + 1) / 8) << 8 | 0x10) } }
        return o
    }

    /// The banner on a plane of its own, under the credit's: the map still pans and the dot keeps
    /// its plane; the screen is the software frame with the banner composited in it; a new banner
    /// is decided again; taken away, its plane is freed; refused, it is composited with the dot.
    func testABannerOnItsOwnPlaneUnderTheCreditLetsTheMapPan() throws {
        var s = try settings()
        s.map.tiles.attribution = .text("© Town")
        let display = PlanesDisplay(width: 300, height: 180, margin: PlaneMap.margin)
        display.offersPicturePlanes = true
        let driven = try DrivenDisplay.start(display, now: 0) { _, _, _ throws(SceneView.SetupError) in try view(s) }.get()
        let software = try view(s, waiting: true)
        driven.view.showBanner(bannerPicture(200), atBottom: false)
        software.showBanner(bannerPicture(200), atBottom: false)
        XCTAssertEqual(display.grants, PlaneGrants(dot: true, pictures: [true, true]), "the dot, the banner, the credit")
        XCTAssertNotNil(driven.view.planeMap, "the map pans on the primary plane under the banner's plane")
        XCTAssertNotNil(driven.view.planeDot)
        XCTAssertTrue(driven.view.renderer.screenLayers.isEmpty, "neither picture drawn into the canvas as well")
        XCTAssertEqual(driven.view.layersOnPlanes.map { "\($0.layer) \($0.onPlane)" }, ["map true", "dot true", "banner true", "credit true"])
        XCTAssertEqual(software.renderer.screenLayers.count, 2, "the model composites both, the credit on top")
        let lockstep = Lockstep(driven: driven, software: software, display: display, differing: differing)
        let frame = lockstep.frame, mismatched = lockstep.mismatched
        try lockstep.settle()
        for n in 0..<20 {
            try frame(n)
            XCTAssertEqual(display.picturesShown.count, 2)
            XCTAssertEqual(mismatched(), 0, "frame \(n): the map, the banner and the credit exactly, outside the dot's picture")
        }
        let assigned = display.assignments
        // The next stop: a new banner, decided again with its pixels; the screen follows.
        driven.view.showBanner(bannerPicture(90), atBottom: false)
        software.showBanner(bannerPicture(90), atBottom: false)
        try frame(20)
        XCTAssertEqual(display.assignments, assigned + 1)
        XCTAssertEqual(mismatched(), 0, "the new banner on its plane")
        // No trip: the banner goes, its plane with it.
        driven.view.showBanner(nil, atBottom: false)
        software.showBanner(nil, atBottom: false)
        try frame(21)
        XCTAssertEqual(display.grants, PlaneGrants(dot: true, pictures: [true]))
        XCTAssertEqual(display.picturesShown.count, 1)
        XCTAssertNil(driven.view.banner)
        XCTAssertEqual(mismatched(), 0, "without the banner")

        // A driver refusing pictures: the banner and the credit in the canvas, the dot with them.
        let refusing = PlanesDisplay(width: 300, height: 180, margin: PlaneMap.margin)
        refusing.offersPicturePlanes = true
        refusing.refusesPictures = true
        let other = try DrivenDisplay.start(refusing, now: 0) { _, _, _ throws(SceneView.SetupError) in try view(s) }.get()
        other.view.showBanner(bannerPicture(200), atBottom: true)
        XCTAssertNil(other.view.planeDot, "the dot may pass under the banner: composited with it")
        XCTAssertNil(other.view.planeMap)
        XCTAssertEqual(other.view.renderer.screenLayers.count, 2)
        XCTAssertTrue(other.view.renderer.screenLayers.last === other.view.credit, "the credit above the banner")
        XCTAssertEqual(other.view.banner?.picture.y, 180 - 24)
        XCTAssertEqual(other.view.layersOnPlanes.map { "\($0.layer) \($0.onPlane)" }, ["map false", "dot false", "banner false", "credit false"])
    }

    /// A map that says when it changed inside the picture last drawn, and records each drawing.
    private final class ChangingMap: MapPicturePainter {
        var edges: (width: Int, height: Int)? { nil }
        var pictureOutdated = false
        private(set) var drawn: [[Int]] = []
        private(set) var forgotten = 0
        func drawPicture(originX: Int, originY: Int, width: Int, height: Int, into picture: PixelBuffer) {
            drawn.append([originX, originY, width, height])
            pictureOutdated = false
        }
        func forgetPicture() { forgotten += 1 }
    }

    func testAPictureOutdatedOnScreenIsDrawnAnewIntoTheSparePictureAtTheSameOriginAndWindow() throws {
        let display = PlanesDisplay(width: 300, height: 180, margin: PlaneMap.margin)
        let map = ChangingMap()
        let plane = try XCTUnwrap(PlaneMap(plane: display, painter: map, viewWidth: 300, viewHeight: 180))
        func show(_ x: Int, _ y: Int) {
            plane.show(offsetX: x, offsetY: y)
            display.present(damage: DamageRegion())
        }
        show(-500, 40)
        XCTAssertEqual(map.drawn, [[-628, -88, 556, 436]], "centred on the view, off the map and unclamped")
        let first = try XCTUnwrap(display.shown)
        show(-499, 41)
        XCTAssertEqual(map.drawn.count, 1, "a move")
        map.pictureOutdated = true
        show(-498, 41)
        XCTAssertEqual(map.drawn.last, [-628, -88, 556, 436], "the same origin")
        let again = try XCTUnwrap(display.shown)
        XCTAssertNotEqual(again.index, first.index, "into the spare picture, never the one on screen")
        XCTAssertEqual([again.x, again.y], [130, 129])
        show(-497, 41)
        XCTAssertEqual(map.drawn.count, 2, "up to date again: a move")
        XCTAssertEqual(display.shown?.index, again.index)
        plane.leave()
        XCTAssertEqual(map.forgotten, 1, "the picture's tiles need not be kept once the canvas is back")
    }
}

private extension Color {
    var rgb24: UInt32 { UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b) }
}
