import Config
import Glibc
import Location
import PNG
import Raster
import Syscall

/// What the demo gives the daemon: the built-in drive as a gpsd JSON log (`drive.json`), the
/// built-in map as a tile set (`town.mbtiles`, as a city's map is installed), the town's bus line
/// as a GTFS feed (`town-gtfs/`) and a configuration naming them (`demo.conf`). `pulsedot demo
/// --display` runs the daemon's own loop on that configuration, the headless demo renders from
/// it, and `pulsedot run --config DIR/demo.conf` plays it again.
public struct DemoFiles: Sendable {
    public let directory: String
    /// Demo seconds one lap takes; the drive is replayed at its length over this.
    public let lapSeconds: Double
    public let drive: DemoDrive

    /// About this much demo time is written to `drive.json` (laps back to back, at most
    /// `maxLaps`), so the display demo keeps driving a while before the replay ends and the dot
    /// goes stale for good.
    public static let playingTime = 600.0
    public static let maxLaps = 30

    public init(directory: String, lapSeconds: Double, drive: DemoDrive = DemoDrive()) {
        self.directory = directory
        self.lapSeconds = lapSeconds
        self.drive = drive
    }

    public var replaySpeed: Double { drive.timeline.duration / lapSeconds }
    /// `DemoDrive.staleAfter` (drive time) on the demo's clock.
    public var staleAfter: Double { DemoDrive.staleAfter / replaySpeed }
    public var laps: Int { min(max(1, Int((Self.playingTime / lapSeconds).rounded(.up))), Self.maxLaps) }

    public var configPath: String { directory + "/demo.conf" }
    public var drivePath: String { directory + "/drive.json" }
    public var tilesPath: String { directory + "/town.mbtiles" }
    public var beamPath: String { directory + "/heading.png" }
    public var feedPath: String { directory + "/town-gtfs" }
    /// Where the daemon keeps the feed's index: beside the feed, so the demo writes nowhere else.
    public var transitCachePath: String { directory + "/transit-cache" }

    /// Writes the files (creating the directory); returns the configuration's path.
    @discardableResult
    public func write() throws(DemoError) -> String {
        do { try Directory.create(directory) } catch { throw DemoError(error) }
        let map = DemoMap.draw(drive.town)
        try withExtendedLifetime(map) { () throws(DemoError) in try DemoTiles.write(map.buffer, town: drive.town, to: tilesPath) }
        do { try PNGWrite.rgba(DemoBeam.image(), to: beamPath) } catch { throw DemoError(error) }
        try DemoFeed(drive: drive).write(to: feedPath)
        do {
            try Self.writeText(Self.gpsdLog(drive.fixes(laps: laps)), to: drivePath)
            try Self.writeText(configuration, to: configPath)
        } catch { throw DemoError(error) }
        return configPath
    }

    /// The configuration, its paths relative to its own directory (so the directory can move).
    public var configuration: String {
        """
        # The pulsedot demo: a bus on its loop through a made-up town, written by `pulsedot demo`.
        # Play it again with the daemon: pulsedot run --config \(configPath)
        # One lap takes \(formatNumber(lapSeconds)) s (the drive's \(formatNumber(drive.timeline.duration)) s replayed \
        \(formatNumber((replaySpeed * 100).rounded() / 100))× faster); \(laps) laps, then the dot goes stale.

        [dot]
        # A beam along the course while the bus moves faster than headingMinSpeed.
        headingImage = heading.png

        [source]
        replay = drive.json
        replaySpeed = \(formatNumber(replaySpeed))
        # \(formatNumber(DemoDrive.staleAfter)) s of the drive's time, so the tunnel's dropout reaches the stale look.
        staleAfter = \(formatNumber(staleAfter))

        [map]
        # The town as 256-px PNG tiles at zoom 17, credited in the corner (attribution = auto).
        tiles = town.mbtiles
        zoom = \(DemoTown.zoom)
        # Room for a 4K screen's view and the ring around it; the pool only fills with tiles shown,
        # and the whole town is \(DemoTown.columns * DemoTown.rows) tiles (\(DemoTown.columns * DemoTown.rows / 4) MiB).
        cacheMegabytes = 64
        background = \(formatColor(DemoMap.land))
        follow = center

        [transit]
        # The town's bus line as its agency would publish it (GTFS, in town-gtfs): a run of its trip
        # round the loop every lap, each told from the fixes (the shape they follow, the run the
        # clock says), followed fix by fix, its line on the map and a banner naming the next stops.
        gtfs = town-gtfs
        trip = auto
        # The feed's index, built by the first run and reused while the feed is the same.
        cache = transit-cache

        [metrics]
        # A demo is no fleet's screen: nothing for node_exporter.
        textfile = none

        """
    }

    /// gpsd's TPV lines for the fixes, and a fixless TPV (mode 1) for each second without one,
    /// as gpsd reports a receiver that lost the sky.
    static func gpsdLog(_ fixes: [(time: Double, fix: Fix?)]) -> String {
        var out = ""
        out.reserveCapacity(fixes.count * 150)
        for (time, fix) in fixes {
            let stamp = FixTime(secondsSinceEpoch: DemoDrive.startTime.secondsSinceEpoch + Int64(time))
            guard let fix else {
                out += "{\"class\":\"TPV\",\"mode\":1,\"time\":\"\(stamp)\"}\n"
                continue
            }
            out += "{\"class\":\"TPV\",\"mode\":\(fix.mode.rawValue),\"time\":\"\(stamp)\",\"lat\":\(fix.latitude),\"lon\":\(fix.longitude)"
            if let track = fix.track { out += ",\"track\":\(track)" }
            if let speed = fix.speed { out += ",\"speed\":\(speed)" }
            if let eph = fix.horizontalError { out += ",\"eph\":\(eph)" }
            out += "}\n"
        }
        return out
    }

    static func writeText(_ text: String, to path: String) throws(SyscallError) {
        let fd = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC)
        defer { fd.close() }
        _ = try text.withUTF8Bytes { (bytes) throws(SyscallError) in try fd.write(bytes) }
    }
}
