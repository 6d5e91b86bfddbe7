@testable import Config
import Compositor
import DisplayCore
import Foundation
@testable import Geo
import Location
import Outputs
import PNG
import Raster
@testable import Scene
import Syscall
import TestSupport
import XCTest

/// A map image panned on the display's primary plane: while the dot is on its own plane the view
/// moves by the plane's window over map pictures, the canvas untouched, and the screen — picture
/// window with the sprite over it — is the software frame; a dot that needs the canvas brings the
/// canvas back, whole, and the pictures take over again after.
final class PlaneMapTests: XCTestCase {
    private static func pixel(_ p: PixelBuffer, _ x: Int, _ y: Int) -> UInt32 { p.row(y).load(fromByteOffset: x * 4, as: UInt32.self) & 0xFF_FFFF }

    /// The largest channel difference, and the number of differing pixels outside `except`.
    private func compare(_ a: PixelBuffer, _ b: PixelBuffer, except: Rect?) -> (worst: Int, outside: Int) {
        var worst = 0, outside = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = Self.pixel(a, x, y), q = Self.pixel(b, x, y)
                if p == q { continue }
                for shift: UInt32 in [0, 8, 16] { worst = max(worst, abs(Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF))) }
                if !(except?.contains(x: x, y: y) ?? false) { outside += 1 }
            }
        }
        return (worst, outside)
    }

    /// A 900×700 textured map spanning 0…0.04° E, 0…0.03° N, followed at its centre.
    private func mapSettings() throws -> (Settings, MapImage) {
        let dir = try TestEnvironment.temporaryDirectory("plane-map")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let (w, h) = (900, 700)
        var rgb: [UInt8] = []
        rgb.reserveCapacity(w * h * 3)
        for y in 0..<h { for x in 0..<w { rgb += [UInt8((x * 7 + y) & 0xFF), UInt8((y * 5 + x / 3) & 0xFF), UInt8((x ^ y) & 0xFF)] } }
        let path = dir.appendingPathComponent("map.png").path
        try PNGWrite.rgb(width: w, height: h, rgb: rgb, to: path)
        var s = Settings()
        s.map.imagePath = path
        s.map.bounds = GeoBounds(west: 0, south: 0, east: 0.04, north: 0.03)
        s.map.follow = .center
        return (s, try MapImage(path: path, background: s.map.background))
    }

    private func view(_ s: Settings, _ map: MapImage, _ w: Int, _ h: Int) throws(SceneView.SetupError) -> SceneView {
        try SceneView(settings: s, files: MapFiles(imageSize: (map.width, map.height)), canvasWidth: w, canvasHeight: h, physicalHeight: h, map: map, staleAfter: 30, center: nil)
    }

    func testTheScreenIsTheSoftwareFrameWhileTheMapPansOnThePlaneAcrossReCentres() throws {
        let (settings, map) = try mapSettings()
        let display = PlanesDisplay(width: 240, height: 180, margin: PlaneMap.margin)
        let driven = try DrivenDisplay.start(display, now: 0) { w, h, _ throws(SceneView.SetupError) in try view(settings, map, w, h) }.get()
        XCTAssertNotNil(driven.view.planeMap)
        var software = try view(settings, map, 240, 180)
        var inCanvas: [Int] = [], worstBlend = 0
        for n in 0..<90 {
            let t = 1 + Double(n) * 0.1
            if n == 60 {
                // A reload: a new view on the same display (and a new software frame to hold it to).
                driven.view = try view(settings, map, 240, 180)
                software = try view(settings, map, 240, 180)
            }
            // Frames 30…34 with a wide accuracy disc: it does not fit the plane, so the canvas shows the map.
            let error = (30..<35).contains(n) ? 2000.0 : 3.0
            let fix = Fix(latitude: 0.008 + Double(n) * 0.00012, longitude: 0.009 + Double(n) * 0.00025, mode: .threeD,
                          horizontalError: error, receivedAt: MonotonicInstant(nanoseconds: Int64(t * 1e9)))
            driven.view.add(fix)
            software.add(fix)
            let copiesBefore = display.canvasCopies
            try driven.present(driven.view.draw(at: t), frame: FrameStamp(sinceStart: t, monotonic: t))
            _ = software.draw(at: t)
            if display.shown == nil { inCanvas.append(n) } else {
                XCTAssertEqual(display.canvasCopies, copiesBefore, "frame \(n): the canvas copied while a picture is shown")
            }
            XCTAssertEqual(driven.view.last.offset, software.last.offset, "frame \(n)")
            let screen = display.screen()
            let d = withExtendedLifetime(screen) { compare(screen.buffer, software.renderer.canvas.buffer, except: display.spriteShown) }
            worstBlend = max(worstBlend, d.worst)
            XCTAssertEqual(d.outside, 0, "frame \(n): the map exactly, outside the dot's picture (picture shown: \(display.shown != nil))")
        }
        // The sprite is the dot painted over black and over white: each 8-bit paint rounds, so
        // its blend over the map is a step or three from the dot painted over the map itself.
        XCTAssertLessThanOrEqual(worstBlend, 3, "the sprite's blend")
        // The disc grows and shrinks over a few frames after the error does.
        XCTAssertTrue(inCanvas.count >= 3 && inCanvas.allSatisfy { (30..<40).contains($0) },
                      "only the frames with the wide disc drew the canvas: \(inCanvas)")
        XCTAssertGreaterThanOrEqual(display.pictureSwitches, 4, "re-centres crossed (the first picture, after the disc, after the reload, and along the way)")
        XCTAssertGreaterThan(display.windowMoves, 60, "most frames only move the window")
    }

    func testASnapshotDrawsTheCanvasTheScreenHidesAndADisplayThatStopsScrollingGetsTheCanvasBack() throws {
        let (settings, map) = try mapSettings()
        let display = PlanesDisplay(width: 240, height: 180, margin: PlaneMap.margin)
        let driven = try DrivenDisplay.start(display, now: 0) { w, h, _ throws(SceneView.SetupError) in try view(settings, map, w, h) }.get()
        let software = try view(settings, map, 240, 180)
        func frame(_ n: Int) throws {
            let t = 1 + Double(n) * 0.1
            let fix = Fix(latitude: 0.01 + Double(n) * 0.0002, longitude: 0.01 + Double(n) * 0.0003, mode: .threeD,
                          horizontalError: 3, receivedAt: MonotonicInstant(nanoseconds: Int64(t * 1e9)))
            driven.view.add(fix)
            software.add(fix)
            try driven.present(driven.view.draw(at: t), frame: FrameStamp(sinceStart: t, monotonic: t))
            _ = software.draw(at: t)
        }
        for n in 0..<10 { try frame(n) }
        XCTAssertNotNil(display.shown)
        let snapshot = try XCTUnwrap(driven.view.planeDot).screen(canvas: driven.view.currentCanvas())
        XCTAssertEqual(snapshot.source, "composed in software")
        withExtendedLifetime(snapshot.picture) {
            XCTAssertLessThanOrEqual(compare(snapshot.picture.buffer, software.renderer.canvas.buffer, except: nil).worst, 2)
            XCTAssertEqual(compare(snapshot.picture.buffer, software.renderer.canvas.buffer, except: display.spriteShown).outside, 0)
        }

        display.scrollsMap = false
        try frame(10)
        XCTAssertNil(display.shown, "the canvas back")
        func mapOutsideTheDotDiffers() -> Int {
            let screen = display.screen()
            return withExtendedLifetime(screen) { compare(screen.buffer, software.renderer.canvas.buffer, except: display.spriteShown).outside }
        }
        XCTAssertEqual(mapOutsideTheDotDiffers(), 0)
        try frame(11)
        XCTAssertEqual(mapOutsideTheDotDiffers(), 0)
    }

    func testNoPanningWithoutAFollowingViewOrWhereTheDisplayCannotScroll() throws {
        var (settings, map) = try mapSettings()
        let display = PlanesDisplay(width: 240, height: 180, margin: PlaneMap.margin)
        display.offersScrolling = false
        let driven = try DrivenDisplay.start(display, now: 0) { w, h, _ throws(SceneView.SetupError) in try view(settings, map, w, h) }.get()
        XCTAssertNil(driven.view.planeMap)
        settings.map.follow = .off
        let other = PlanesDisplay(width: 240, height: 180, margin: PlaneMap.margin)
        let still = try DrivenDisplay.start(other, now: 0) { w, h, _ throws(SceneView.SetupError) in try view(settings, map, w, h) }.get()
        XCTAssertNil(still.view.planeMap, "a view that never moves keeps the canvas")
    }
}
