import Compositor
@testable import Config
@testable import Demo
import Foundation
import GPSD
@testable import Geo
import LocationDot
import PNG
@testable import Positioning
import Raster
@testable import Scene
import TestSupport
import TileDecode
import Tiles
import Transit
import XCTest

/// The headless demo: the files it hands the daemon (the town as MBTiles among them), the frames
/// and `frames.jsonl` it renders through the daemon's own view of those tiles, and the contact
/// sheet of the lap's moments.
final class DemoPlaybackTests: XCTestCase {
    /// One demo run for every test here (a 640×400 canvas, a frame a second, to keep it quick).
    struct Run {
        let demo: DemoPlayback
        let sheetPath: String
        let lines: [[String: Any]]
    }

    nonisolated(unsafe) static var shared: Run?

    private func demoRun() throws -> Run {
        if let shared = Self.shared { return shared }
        let dir = try TestEnvironment.temporaryDirectory("demo-playback").path + "/out"
        let demo = DemoPlayback(files: DemoFiles(directory: dir, lapSeconds: 40),
                             overrides: ["display.mode=640x400", "display.pngFps=1"])
        let sheet = try demo.run()
        let text = try String(contentsOfFile: dir + "/frames.jsonl", encoding: .utf8)
        let lines = try text.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let made = Run(demo: demo, sheetPath: sheet, lines: lines)
        Self.shared = made
        return made
    }

    private var town: DemoTown { DemoTown() }
    /// The town's drawing, to compare tiles and frames with (drawn once: it takes a moment).
    static let drawn = DemoMap.draw()

    func testTheConfigurationNamesTheDriveAndTheTiles() throws {
        let r = try demoRun()
        let files = r.demo.files
        // As the demo reads it: the file, then the dot's images decoded and the map's files opened.
        var settings = try r.demo.loadConfiguration().settings
        let map = try MapFiles.open(&settings)
        XCTAssertEqual(settings.map.tiles.path, files.tilesPath)
        XCTAssertNil(settings.map.imagePath)
        XCTAssertNil(settings.map.bounds)
        XCTAssertEqual(settings.map.zoom, 17)
        XCTAssertEqual(settings.map.follow, .center)
        XCTAssertEqual(settings.source.source, .replay(path: files.drivePath))
        XCTAssertEqual(settings.source.replaySpeed, files.drive.timeline.duration / 40)
        XCTAssertEqual(settings.source.staleAfter, DemoDrive.staleAfter / settings.source.replaySpeed, accuracy: 1e-12)
        XCTAssertNotNil(settings.dot.style.headingImage)
        // The feed and its index cache beside the configuration, as the tiles are.
        XCTAssertEqual(settings.transit.gtfs, files.feedPath)
        XCTAssertEqual(settings.transit.cache, files.transitCachePath)
        XCTAssertTrue(settings.transit.autoTrip, "the display demo tells each lap's run from the fixes")
        XCTAssertNil(settings.transit.trip)
        XCTAssertEqual(settings.transit.banner, .top)
        XCTAssertTrue(FileManager.default.fileExists(atPath: files.transitCachePath), "the index is built where the configuration says")

        // The tile set as the daemon opened it: PNG tiles of 256 px at zoom 17 only, credited,
        // its tile block the town's, and the daemon's projection the town's to the last bit.
        let set = try XCTUnwrap(map.tiles)
        XCTAssertEqual(set.kind, .mbtiles)
        XCTAssertEqual(set.tileSize, 256)
        XCTAssertEqual(set.metadata.format, .png)
        XCTAssertEqual(set.metadata.minZoom, 17)
        XCTAssertEqual(set.metadata.maxZoom, 17)
        XCTAssertEqual(set.metadata.name, DemoTiles.name)
        XCTAssertEqual(set.metadata.attribution, "Made-up town © PulseDot")
        XCTAssertEqual(set.metadata.bounds, town.bounds, "the bounds must round-trip to the last bit")
        let range = set.tileRange(zoom: 17)
        XCTAssertEqual([range.firstColumn, range.firstRow, range.columns, range.rows],
                       [DemoTown.firstColumn, DemoTown.firstRow, DemoTown.columns, DemoTown.rows])
        // The demo plays on any screen up to 4K (the tile pool holds the view and its ring).
        XCTAssertNil(set.cacheProblem(cacheBytes: settings.map.tiles.cacheBytes, canvasWidth: 3840, canvasHeight: 2160))
        let scene = try DotScene(settings: settings, files: map, canvasWidth: 640, canvasHeight: 400, scale: 1, staleAfter: 20)
        XCTAssertEqual(scene.projection, town.projection)
        let start = try XCTUnwrap(map.tileStart)
        XCTAssertEqual(start.latitude, town.center.latitude, accuracy: 1e-9)
        XCTAssertEqual(start.longitude, town.center.longitude, accuracy: 1e-9)
    }

    func testTheTilesAreTheTownsDrawingTileForTile() throws {
        let r = try demoRun()
        let file = try MBTiles(path: r.demo.files.tilesPath)
        defer { file.close() }
        XCTAssertEqual(try file.tileCount(), DemoTown.columns * DemoTown.rows)
        // Nothing outside the town: the tiles beyond each edge are not in the file.
        for (column, row) in [(-1, 0), (0, -1), (DemoTown.columns, 0), (0, DemoTown.rows)] {
            XCTAssertNil(try file.tile(DemoTiles.id(column: column, row: row)), "\(column), \(row)")
        }
        let decoder = TileDecoder(tileSize: .px256, background: DemoMap.land)
        let slot = OwnedPixelBuffer(width: 256, height: 256, format: .xrgb8888)
        var differing: [String] = []
        withExtendedLifetime(Self.drawn) {
            for row in 0..<DemoTown.rows {
                for column in 0..<DemoTown.columns {
                    let id = DemoTiles.id(column: column, row: row)
                    guard let bytes = try? file.tile(id), (try? decoder.decode(bytes, into: slot.buffer)) == .png else {
                        differing.append("\(id): missing or not a PNG")
                        continue
                    }
                    let drawing = DemoTiles.window(Self.drawn.buffer, column: column, row: row)
                    let rows = (0..<256).filter { memcmp(slot.buffer.row($0), drawing.row($0), 256 * 4) != 0 }
                    if !rows.isEmpty { differing.append("\(id): \(rows.count) rows differ") }
                }
            }
        }
        XCTAssertEqual(differing, [])
    }

    func testTheDriveFileIsTheDriveAsTheReplayReadsIt() throws {
        let r = try demoRun()
        let files = r.demo.files
        let log = try ReplayLog.load(path: files.drivePath)
        XCTAssertEqual(log.format, .gpsdJSON)
        XCTAssertEqual(log.skips.total, 0, log.summary)
        XCTAssertEqual(log.records.count, files.laps * files.drive.samples.count)
        for (record, sample) in zip(log.records, files.drive.samples) {
            XCTAssertEqual(record.offset, sample.time)
            XCTAssertEqual(record.fix, sample.fix, "at \(sample.time) s")
        }
    }

    func testFramesGoLiveThenStaleThenLiveWithTheDotOnTheRouteOverTheTown() throws {
        let r = try demoRun()
        let files = r.demo.files
        XCTAssertEqual(r.lines.count, Int(r.demo.endTime) + 1)
        var states: [String] = []
        for line in r.lines where states.last != line["state"] as? String { states.append(line["state"] as! String) }
        XCTAssertEqual(states, ["live", "stale", "live"])

        let viewport = MapViewport(follow: .center, offMap: .hide, canvasWidth: 640, canvasHeight: 400, projection: town.projection)
        let lost = files.drive.samples[Int(files.drive.timeline.lastFixBefore)].fix!
        var stale = 0
        var offsets: [ViewOffset] = []
        for line in r.lines {
            let lat = try XCTUnwrap(line["lat"] as? Double), lon = try XCTUnwrap(line["lon"] as? Double)
            let p = town.projection.point(for: GeoPoint(latitude: lat, longitude: lon))
            // On the route, give or take the receiver's wander (3 m at most, 3.6 px).
            XCTAssertLessThan(town.route.distance(toNearest: p).away, 4, "\(line)")
            // Where the view (following the dot) puts it on the canvas.
            let offset = viewport.offset(following: p, from: ViewOffset(x: 0, y: 0))
            XCTAssertEqual(try XCTUnwrap(line["x"] as? Double), p.x - Double(offset.x), accuracy: 1e-6)
            XCTAssertEqual(try XCTUnwrap(line["y"] as? Double), p.y - Double(offset.y), accuracy: 1e-6)
            offsets.append(offset)
            if line["state"] as? String == "stale" {
                stale += 1
                XCTAssertEqual(lat, lost.latitude, accuracy: 1e-9)
                XCTAssertEqual(lon, lost.longitude, accuracy: 1e-9)
                XCTAssertTrue(line["heading"] is NSNull, "a stale dot shows no heading")
            }
        }
        XCTAssertGreaterThanOrEqual(stale, 3)

        // Under the dot, the town's own pixels where the view is: a frame's bottom-left corner
        // (away from the dot, the banner at the top and the credit at the bottom right), the
        // trip's line drawn over the map left out, is the drawing at the frame's offset, in every
        // frame, so each frame waited for its tiles and put them in their places.
        var tilesUnderCorners = Set<Int>()
        var compared = 0
        for (k, offset) in offsets.enumerated() {
            let frame = try PNGRead.rgba(path: files.directory + "/frame-" + String(format: "%06d", k + 1) + ".png")
            XCTAssertEqual(frame.width, 640)
            var wrong = 0
            for y in stride(from: 400 - 48, to: 400, by: 3) {
                for x in stride(from: 0, to: 48, by: 3) {
                    let onMap = MapPoint(x: Double(offset.x + x), y: Double(offset.y + y))
                    if town.route.distance(toNearest: onMap).away < 16 { continue }
                    compared += 1
                    let o = (y * frame.width + x) * 4
                    let got = UInt32(frame.rgba[o]) << 16 | UInt32(frame.rgba[o + 1]) << 8 | UInt32(frame.rgba[o + 2])
                    let want = Self.drawn.buffer.pixel(x: offset.x + x, y: offset.y + y) & 0xFF_FFFF
                    if got != want { wrong += 1 }
                }
            }
            XCTAssertEqual(wrong, 0, "frame \(k + 1) at offset \(offset)")
            tilesUnderCorners.insert(((offset.y + 400 - 48) / 256) * DemoTown.columns + offset.x / 256)
        }
        XCTAssertGreaterThan(compared, offsets.count * 100, "the corners are mostly off the line")
        // The view travels: its corner alone passes over many of the town's tiles in a lap.
        XCTAssertGreaterThanOrEqual(tilesUnderCorners.count, 15)
    }

    func testTheMomentsShowEachState() throws {
        let r = try demoRun()
        let settings = try r.demo.loadConfiguration().settings
        let player = try DemoPlayer(settings: settings, width: 360, height: 270, physicalHeight: 800)
        defer { player.close() }
        var seen: [String: SceneFrame] = [:]
        for m in r.demo.moments {
            try player.show(at: m.time)
            seen[m.name] = player.view.last
        }
        XCTAssertEqual(seen.count, 12)
        XCTAssertEqual(r.demo.moments.map(\.time), r.demo.moments.map(\.time).sorted())
        func look(_ name: String) throws -> DotAppearance { try XCTUnwrap(seen[name]?.appearance, name) }
        XCTAssertNotEqual(try look("first fix (the pop)").popScale, 1, "the pop is under way")
        for moving in ["leaving the terminal", "on the avenue", "on the bridge", "nearing the tunnel"] {
            XCTAssertNotNil(try look(moving).heading, moving)
            XCTAssertEqual(seen[moving]?.phase, .live)
        }
        for standing in ["at stop A", "at stop B", "back at the terminal"] {
            XCTAssertNil(try look(standing).heading, standing)
            XCTAssertEqual(seen[standing]?.phase, .live)
        }
        XCTAssertEqual(seen["no fix, not stale yet"]?.phase, .live)
        XCTAssertEqual(seen["stale"]?.phase, .stale)
        XCTAssertEqual(try look("stale").staleness, 1)
        let back = try look("fix again (the pop, a large error)")
        XCTAssertEqual(seen["fix again (the pop, a large error)"]?.phase, .live)
        XCTAssertNotEqual(back.popScale, 1, "the pop when the fix returns")
        XCTAssertGreaterThan(back.accuracyRadiusPx, 50)
        XCTAssertEqual(back.haloOpacity, 0, "a large error hides the halo")
        XCTAssertLessThan(try look("the error settling").accuracyRadiusPx, back.accuracyRadiusPx)
    }

    func testTheContactSheetHasItsTilesAndTheirColours() throws {
        let r = try demoRun()
        let sheet = try PNGRead.rgba(path: r.sheetPath)
        XCTAssertEqual(sheet.width, 4 * 360 + 5 * 4)
        XCTAssertEqual(sheet.height, 3 * 270 + 4 * 4)
        func tile(_ i: Int) -> [UInt8] {
            let x0 = 4 + (i % 4) * 364, y0 = 4 + (i / 4) * 274
            var bytes: [UInt8] = []
            for y in y0..<(y0 + 270) { bytes += sheet.rgba[(y * sheet.width + x0) * 4 ..< (y * sheet.width + x0 + 360) * 4] }
            return bytes
        }
        let tiles = (0..<12).map(tile)
        XCTAssertEqual(Set(tiles.map { $0.hashValue }).count, 12, "two tiles show the same picture")
        // The dot is centred in its tile: blue at the stop, grey when stale.
        func centre(_ i: Int) -> (Int, Int, Int) {
            let x = 4 + (i % 4) * 364 + 180, y = 4 + (i / 4) * 274 + 135
            let o = (y * sheet.width + x) * 4
            return (Int(sheet.rgba[o]), Int(sheet.rgba[o + 1]), Int(sheet.rgba[o + 2]))
        }
        let names = r.demo.moments.map(\.name)
        let stop = centre(names.firstIndex(of: "at stop A")!), stale = centre(names.firstIndex(of: "stale")!)
        // The breath lightens the blue a little.
        XCTAssertLessThanOrEqual(stop.0, 40); XCTAssertEqual(stop.1, 130, accuracy: 15); XCTAssertGreaterThanOrEqual(stop.2, 245)
        XCTAssertEqual(stale.0, 0x8E, accuracy: 2); XCTAssertEqual(stale.1, 0x8E, accuracy: 2); XCTAssertEqual(stale.2, 0x93, accuracy: 2)
        XCTAssertEqual(try PNGRead.rgba(path: r.demo.cyclePath).height, 248)

        // Every moment under the trip's banner (dark, across the tile's top) with its line on the
        // map below it, ahead in the route's colour or travelled in its faded one.
        let route = Color(r: 0xAF, g: 0x52, b: 0xDE), travelled = RouteStyle(color: route).faded
        let lineColours: Set<[UInt8]> = [[route.r, route.g, route.b], [travelled.r, travelled.g, travelled.b]]
        for i in 0..<12 {
            let x0 = 4 + (i % 4) * 364, y0 = 4 + (i / 4) * 274
            let o = ((y0 + 3) * sheet.width + x0 + 3) * 4
            XCTAssertLessThan(Int(sheet.rgba[o]) + Int(sheet.rgba[o + 1]) + Int(sheet.rgba[o + 2]), 3 * 0x40, names[i])
            var line = 0
            for y in (y0 + 120)..<(y0 + 270) {
                for x in x0..<(x0 + 360) where lineColours.contains(Array(sheet.rgba[(y * sheet.width + x) * 4 ..< (y * sheet.width + x) * 4 + 3])) {
                    line += 1
                }
            }
            XCTAssertGreaterThan(line, 300, names[i])
        }
    }

    func testFramesFollowTheTripStopByStop() throws {
        let r = try demoRun()
        XCTAssertEqual(Set(r.lines.map { $0["trip"] as? String }), [DemoFeed.tripID])
        let names = Dictionary(uniqueKeysWithValues: ([DemoFeed.terminal] + DemoFeed.places).map { ($0.id, $0.name) })
        var order: [String] = []
        var along = 0.0
        for line in r.lines {
            XCTAssertEqual(line["offRoute"] as? Bool, false, "\(line)")
            if let d = line["distanceAlong"] as? Double {
                // Forward only, give or take the receiver's wander.
                XCTAssertGreaterThan(d, along - 5, "\(line)")
                along = max(along, d)
            }
            guard let id = line["nextStopId"] as? String else { continue }
            XCTAssertEqual(line["nextStop"] as? String, names[id])
            if order.last != id { order.append(id) }
        }
        // Each stop in turn, the tunnel's dropout and the bus's speed notwithstanding.
        XCTAssertEqual(order, ["erables", "saint-eloi", "tilleuls", "place-armes", "marche", "belvedere"])
        // Dwelling at stop A, the stop after it is next; back at the terminal, none is.
        let atA = try XCTUnwrap(r.lines.first { $0["atStop"] as? Bool == true && $0["nextStopId"] as? String == "saint-eloi" })
        XCTAssertEqual(try XCTUnwrap(atA["distanceAlong"] as? Double), DemoFeed().calls[1].along * town.metresPerPixel, accuracy: 30)
        let last = try XCTUnwrap(r.lines.last)
        XCTAssertTrue(last["nextStopId"] is NSNull, "\(last)")
        XCTAssertEqual(last["atStop"] as? Bool, true)
    }

    /// The view of the lap's moment at stop A, drawn with `overrides` over the demo's own.
    private func frame(_ overrides: [String]) throws -> (pixels: [UInt32], bannerHeight: Int) {
        let r = try demoRun()
        let settings = try DemoPlayback(files: r.demo.files, overrides: ["display.mode=640x400"] + overrides).loadConfiguration().settings
        let player = try DemoPlayer(settings: settings, width: 640, height: 400, physicalHeight: 400, demoFeed: r.demo.files.feedPath)
        defer { player.close() }
        try player.show(at: try XCTUnwrap(r.demo.moments.first { $0.name == "at stop A" }).time)
        return withExtendedLifetime(player) {
            let canvas = player.view.renderer.wholeCanvas()
            var pixels: [UInt32] = []
            for y in 0..<400 { for x in 0..<640 { pixels.append(canvas.pixel(x: x, y: y) & 0xFF_FFFF) } }
            return (pixels, player.view.banner?.picture.height ?? 0)
        }
    }

    func testTheBannerIsOverTheMapAndTheLineInTheRoutesColourUnderIt() throws {
        let shown = try frame([]), noBanner = try frame(["transit.banner=none"])
        let noTransit = try frame(["transit.gtfs=none", "transit.trip=none"])
        let height = shown.bannerHeight
        XCTAssertGreaterThan(height, 80)
        XCTAssertLessThan(height, 200)
        XCTAssertEqual(noBanner.bannerHeight, 0)
        let purple: UInt32 = 0xAF52DE
        // The banner: most of its pixels are not the map's, the badge in the route's colour; below
        // it, the same picture with or without.
        let split = height * 640
        let differing = zip(shown.pixels[..<split], noBanner.pixels[..<split]).filter { $0 != $1 }.count
        XCTAssertGreaterThan(differing, split * 9 / 10)
        XCTAssertGreaterThan(shown.pixels[..<split].filter { $0 == purple }.count, 400, "the line's badge")
        XCTAssertTrue(shown.pixels[split...].elementsEqual(noBanner.pixels[split...]), "the banner reaches below its own height")
        // The line: the route's colour on the map, which has none of it without the trip.
        XCTAssertGreaterThan(noBanner.pixels.filter { $0 == purple }.count, 1000)
        XCTAssertEqual(noTransit.pixels.filter { $0 == purple }.count, 0)
    }

    func testOverridesCannotReplaceTheDriveOrTheTiles() throws {
        let r = try demoRun()
        for bad in ["source.position=45.5,-73.6", "map.tiles=none", "map.bounds=-73.58,45.49,-73.56,45.51",
                    "map.tiles=\(r.demo.files.drivePath)", "map.image=\(r.demo.files.beamPath)"] {
            let demo = DemoPlayback(files: r.demo.files, overrides: [bad])
            XCTAssertThrowsError(try demo.loadConfiguration(), bad)
        }
        // A deeper zoom is the same tiles enlarged.
        XCTAssertNoThrow(try DemoPlayback(files: r.demo.files, overrides: ["map.follow=edge", "annotationColor=#FF3B30", "map.zoom=18"]).loadConfiguration())
    }
}
