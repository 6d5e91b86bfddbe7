import Compositor
import Config
import Daemon
import DisplayCore
import GPSD
import Geo
import Location
import Outputs
import PNG
import Positioning
import Raster
import Scene
import Shaping
import Syscall
import Systemd
import Transit

/// `pulsedot demo` without a display: the daemon's own view (`SceneView`: the scene with its motion
/// and truth, the tiled map, the renderer) fed by the replay `demo.conf` names, on a clock that
/// only this loop advances, so one lap of the drive renders in moments instead of in real time and
/// every run gives the same pictures (each frame waits for the tiles in view, as `png:` output
/// does, so no frame depends on how fast the tile worker happened to be). It writes what
/// `output = png:DIR` writes — PNG frames at `pngFps` and `frames.jsonl` saying what each shows,
/// the town's bus trip (its next stop) among it — plus a contact sheet of chosen moments (moving,
/// stopped, stale, the fix again) and the dot's cycle (`dot-cycle.png`).
public struct DemoPlayback {
    public let files: DemoFiles
    /// `--set` overrides, applied after `demo.conf` as the daemon would.
    public let overrides: [String]
    public var tileWidth = 360
    public var tileHeight = 270
    public var columns = 4
    public var gutter = 4
    public var gutterColor = Color.white

    public init(files: DemoFiles, overrides: [String] = []) {
        self.files = files
        self.overrides = overrides
    }

    /// A moment of the lap the contact sheet shows, in demo seconds since the first fix.
    public struct Moment: Equatable, Sendable {
        public let name: String
        public let time: Double
    }

    public var sheetPath: String { files.directory + "/contact-sheet.png" }
    public var cyclePath: String { files.directory + "/dot-cycle.png" }

    /// The sheet's tiles, in time order: each state the drive goes through.
    public var moments: [Moment] {
        let tl = files.drive.timeline, stale = files.staleAfter
        func demo(_ driveTime: Double) -> Double { driveTime / files.replaySpeed }
        let lost = demo(tl.lastFixBefore)
        return [
            Moment(name: "first fix (the pop)", time: 0.12),
            Moment(name: "leaving the terminal", time: demo(tl.departs + 7)),
            Moment(name: "on the avenue", time: demo((tl.departs + tl.stopA.lowerBound) / 2 + 8)),
            Moment(name: "at stop A", time: demo((tl.stopA.lowerBound + tl.stopA.upperBound) / 2)),
            Moment(name: "on the bridge", time: demo(tl.onBridge)),
            Moment(name: "at stop B", time: demo((tl.stopB.lowerBound + tl.stopB.upperBound) / 2)),
            Moment(name: "nearing the tunnel", time: demo(tl.lastFixBefore - 4)),
            Moment(name: "no fix, not stale yet", time: lost + stale * 0.6),
            Moment(name: "stale", time: lost + stale + 1.5),
            Moment(name: "fix again (the pop, a large error)", time: demo(tl.firstFixAfter) + 0.1),
            Moment(name: "the error settling", time: demo(tl.firstFixAfter + 9)),
            Moment(name: "back at the terminal", time: demo(tl.arrives) + 0.5),
        ]
    }

    /// When the headless demo stops: the lap, and a moment at the terminal.
    public var endTime: Double { files.drive.timeline.duration / files.replaySpeed + 1 }

    /// Writes the demo's files, one lap of frames with `frames.jsonl`, the contact sheet and the
    /// dot's cycle; returns the contact sheet's path.
    public func run() throws(DemoError) -> String {
        try files.write()
        let settings = try loadConfiguration().settings
        let size = settings.display.headlessFrameSize
        let player = try DemoPlayer(settings: settings, width: size.width, height: size.height, physicalHeight: size.height,
                                    demoFeed: files.feedPath)
        defer { player.close() }
        let frames: PNGFrames
        do {
            frames = try PNGFrames(directory: files.directory, width: size.width, height: size.height,
                                   pngFps: settings.display.pngFps, now: 0, log: Journal(level: .error))
        } catch { throw DemoError(error) }
        let count = Int((endTime * settings.display.pngFps).rounded(.down))
        for k in 0...count {
            let t = Double(k) / settings.display.pngFps
            try player.show(at: t)
            var stamp = player.view.last.stamp(sinceStart: t, monotonic: t)
            stamp.transit = player.transit?.stamp
            do {
                _ = try withExtendedLifetime(player) { () throws(PNGFrames.WriteError) in
                    try frames.write(player.view.renderer.wholeCanvas(), showing: stamp, regular: true)
                }
            } catch { throw DemoError(error) }
        }
        let sheet = try contactSheet(settings: settings, physicalHeight: size.height)
        do {
            try withExtendedLifetime(sheet) { () throws(PNGError) in try PNGWrite.frame(sheet.buffer, to: sheetPath) }
        } catch { throw DemoError(error) }
        var cycle = DemoCycle()
        cycle.style = settings.dot.style
        cycle.scale = settings.dot.scale ?? 2
        try cycle.write(to: cyclePath)
        return sheetPath
    }

    /// `demo.conf` with the overrides, as the daemon reads it (the dot's images decoded); refuses
    /// overrides that would replace the demo's own drive or map.
    public func loadConfiguration() throws(DemoError) -> Configuration {
        var configuration: Configuration
        do { configuration = try Configuration.load(path: files.configPath, overrides: overrides) } catch { throw DemoError(error) }
        do { try DotImages.load(&configuration.settings) } catch { throw DemoError(error) }
        let settings = configuration.settings
        guard case .replay(let path) = settings.source.source, path == files.drivePath else {
            throw DemoError(description: "the demo plays its own drive: [source] cannot be overridden")
        }
        guard settings.map.tiles.path == files.tilesPath, settings.map.imagePath == nil, settings.map.bounds == nil else {
            throw DemoError(description: "the demo draws its own map: [map] tiles, image and bounds cannot be overridden")
        }
        return configuration
    }

    /// `moments` in a grid, `columns` wide, each tile a view of its own (the dot centred, as
    /// `follow = center` keeps it) drawn at the scale of the full frames.
    public func contactSheet(settings: Settings, physicalHeight: Int) throws(DemoError) -> OwnedPixelBuffer {
        let moments = self.moments
        let rows = (moments.count + columns - 1) / columns
        let sheet = OwnedPixelBuffer(width: columns * tileWidth + (columns + 1) * gutter,
                                     height: rows * tileHeight + (rows + 1) * gutter, format: .xrgb8888)
        sheet.buffer.fill(sheet.buffer.bounds, with: gutterColor)
        var tileSettings = settings
        tileSettings.map.follow = .center
        // The banner takes the share of a tile's width it takes of a frame's: at the frame's own
        // scale it would cover a tile, which shows a corner of a frame, not all of it.
        let frameWidth = settings.display.headlessFrameSize.width
        let bannerScale = settings.dot.scale(forDisplayLines: physicalHeight) * Double(tileWidth) / Double(max(frameWidth, tileWidth))
        let player = try DemoPlayer(settings: tileSettings, width: tileWidth, height: tileHeight, physicalHeight: physicalHeight,
                                    bannerScale: bannerScale, demoFeed: files.feedPath)
        defer { player.close() }
        for (i, moment) in moments.enumerated() {
            try player.show(at: moment.time)
            let x = gutter + (i % columns) * (tileWidth + gutter), y = gutter + (i / columns) * (tileHeight + gutter)
            let tile = PixelBuffer(base: sheet.buffer.row(y) + x * 4, width: tileWidth, height: tileHeight,
                                   stride: sheet.buffer.stride, format: .xrgb8888)
            withExtendedLifetime(player) { tile.copy(tile.bounds, from: player.view.renderer.wholeCanvas()) }
        }
        return sheet
    }
}

/// A `SceneView` and the replay feeding it on the demo's own clock (seconds from 0): `show(at:)`
/// hands over every fix due by then, as the run loop's source does, and draws that instant with
/// every tile in view decoded and, when `[transit]` names a trip, the trip's line and banner as
/// those fixes leave them (made before the frame, where the loop has them made on its worker).
final class DemoPlayer {
    let view: SceneView
    let transit: InlineTransit?
    private var replay: ReplaySource

    /// `bannerScale`: the banner's, when the view stands for a larger screen (nil: the view's);
    /// `demoFeed`: the demo's own feed, whose `trip = auto` is drawn as its first run.
    init(settings given: Settings, width: Int, height: Int, physicalHeight: Int, bannerScale: Double? = nil,
         demoFeed: String? = nil) throws(DemoError) {
        var settings = given
        let files: MapFiles
        do { files = try MapFiles.open(&settings) } catch { throw DemoError(error) }
        guard case .replay(let path) = settings.source.source else {
            throw DemoError(description: "the demo needs its replay")
        }
        let log: ReplayLog
        do { log = try ReplayLog.load(path: path) } catch { throw DemoError(error) }
        replay = ReplaySource(log: log, speed: settings.source.replaySpeed, start: MonotonicInstant(nanoseconds: 0))
        do {
            view = try SceneView(settings: settings, files: files, canvasWidth: width, canvasHeight: height, physicalHeight: physicalHeight,
                                 map: nil, staleAfter: settings.source.staleAfter, center: nil, waitForTiles: true)
        } catch { throw DemoError(error) }
        // The service day is the drive's, whatever the machine's date.
        do {
            // One lap is drawn: the first run of the trip, the one `trip = auto` tells on the display.
            var followed = settings.transit
            if followed.autoTrip, let demoFeed, followed.gtfs == demoFeed {
                followed.autoTrip = false
                followed.trip = DemoFeed.firstRun
            }
            transit = try InlineTransit(settings: followed, view: view, now: Double(DemoDrive.startTime.secondsSinceEpoch))
        } catch {
            view.close()
            throw DemoError(error)
        }
        transit?.bannerScale = bannerScale
    }

    /// Stops the view's tile worker.
    func close() { view.close() }

    func show(at t: Double) throws(DemoError) {
        let now = MonotonicInstant(nanoseconds: Int64((t * 1e9).rounded()))
        while let event = replay.next(now: now) {
            guard case .fix(let fix) = event else { continue }
            view.add(fix)
            // The receiver's clock, not the sped-up replay's: the drive's own seconds between fixes.
            transit?.add(fix, time: fix.time.map { Double($0.secondsSinceEpoch) } ?? fix.receivedAt.seconds)
        }
        do { try transit?.show() } catch { throw DemoError(error) }
        _ = view.draw(at: t)
    }
}

public struct DemoError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(description: String) { self.description = description }

    /// A step's own error, said as it is.
    public init<E: Error & CustomStringConvertible>(_ error: E) { description = error.description }
}
