import Compositor
import Config
import Daemon
import GTFS
import DisplayCore
import GTFSRealtime
import Geo
import Kiosk
import Location
import Outputs
import PNG
import Raster
import Scene
import Syscall
import Systemd
import Transit

/// `pulsedot demo --kiosk`: the stop kiosk at the town's Place d'Armes, its loop served every
/// quarter lap, with a made-up live feed — the buses where the timetable puts them, one running
/// two minutes late, the next cancelled, the one after not stopping here, and an alert for the
/// stop. Drawn by the daemon's own kiosk pieces (`InlineKiosk`) on a clock only this loop moves,
/// so every run gives the same frames: PNG frames with `frames.jsonl` in DIR/kiosk, and the last
/// frame as DIR/kiosk.png.
public struct DemoKiosk {
    public let files: DemoFiles
    public let overrides: [String]
    /// Demo seconds drawn.
    public var seconds = 60.0
    /// Frames per second written.
    public var pngFps = 2.0

    /// The kiosk's stop: the loop's stop B.
    public static let stop = DemoFeed.places[3]
    /// Seconds between fetches of the made-up feeds (`[realtime] every`).
    static let every = 15.0

    public init(files: DemoFiles, overrides: [String] = []) {
        self.files = files
        self.overrides = overrides
    }

    public var framesDirectory: String { files.directory + "/kiosk" }
    public var picturePath: String { files.directory + "/kiosk.png" }
    public var feedPath: String { files.directory + "/kiosk-gtfs" }

    var feed: DemoFeed { DemoFeed(drive: files.drive) }
    /// A bus every quarter lap, from an hour before the drive's start to an hour after.
    var headway: Int { max(60, feed.headway / 4) }
    var startOfDay: Int64 { DemoDrive.startTime.secondsSinceEpoch - DemoDrive.startTime.secondsSinceEpoch % 86_400 }
    /// On the drive's clock (seconds from its start, as the feed's stop_times count them).
    var firstRun: Int { -3600 }
    var driveStart: Int64 { DemoDrive.startTime.secondsSinceEpoch }
    var runs: Int { 7200 / headway }

    /// Writes the demo's files and the kiosk's frames; returns the picture's path.
    public func run() throws(DemoError) -> String {
        try files.write()
        try feed.write(feed.files(headway: headway, from: firstRun, to: firstRun + runs * headway), to: feedPath)
        var settings = try DemoPlayback(files: files, overrides: overrides).loadConfiguration().settings
        let stopPlace = files.drive.town.geoPoint(Self.stop.point)
        settings.source.source = .position(stopPlace)
        settings.transit.gtfs = feedPath
        settings.transit.trip = nil
        settings.transit.autoTrip = false
        settings.transit.banner = .none
        settings.kiosk.stops = [Self.stop.id]
        settings.map.follow = .off
        settings.realtime.every = Self.every
        settings.display.pngFps = pngFps

        let report: TransitImporter.Report
        let zone: TimeZoneRules
        do {
            report = try TransitImporter.importFeed(at: feedPath, cacheDirectory: files.transitCachePath) { _ in }
            zone = try TimeZoneRules.load(DemoFeed.timeZone)
        } catch { throw DemoError(error) }
        var mapFiles: MapFiles
        do { mapFiles = try MapFiles.open(&settings) } catch { throw DemoError(error) }
        let size = settings.display.headlessFrameSize
        let view: SceneView
        do {
            // A fixed position never goes stale, as the daemon's own fixed source says.
            view = try SceneView(settings: settings, files: mapFiles, canvasWidth: size.width, canvasHeight: size.height, physicalHeight: size.height,
                                 map: nil, staleAfter: .infinity, center: stopPlace, waitForTiles: true)
        } catch { throw DemoError(error) }
        defer { view.close() }
        view.add(Fix(latitude: stopPlace.latitude, longitude: stopPlace.longitude, mode: .threeD, receivedAt: MonotonicInstant(nanoseconds: 0)))
        var notes: [String] = []
        let kiosk = InlineKiosk(settings: settings, view: view, indexPath: report.path, zone: zone, notes: &notes)
        if let note = notes.first { throw DemoError(description: "kiosk: \(note)") }
        let frames: PNGFrames
        do {
            frames = try PNGFrames(directory: framesDirectory, width: size.width, height: size.height, pngFps: pngFps, now: 0, log: Journal(level: .error))
        } catch { throw DemoError(error) }
        let started = Int64(DemoDrive.startTime.secondsSinceEpoch)
        let count = Int((seconds * pngFps).rounded(.down))
        var lastFetch = -Double.infinity
        for k in 0...count {
            let t = Double(k) / pngFps
            let wall = Double(started) + t
            if t - lastFetch >= Self.every {
                lastFetch = t
                let made = feeds(at: Int64(wall), first: started)
                kiosk.take(.vehiclePositions, made.vehicles, at: wall)
                kiosk.take(.tripUpdates, made.updates, at: wall)
                kiosk.take(.alerts, made.alerts, at: wall)
                if let failure = kiosk.refresh(wall: wall, now: t) { throw DemoError(description: "kiosk: \(failure)") }
            }
            kiosk.frame(now: t)
            _ = view.draw(at: t)
            var stamp = view.last.stamp(sinceStart: t, monotonic: t)
            stamp.kiosk = kiosk.stamp
            do {
                _ = try withExtendedLifetime(view) { () throws(PNGFrames.WriteError) in
                    try frames.write(view.renderer.wholeCanvas(), showing: stamp, regular: true)
                }
            } catch { throw DemoError(error) }
        }
        do {
            try withExtendedLifetime(view) { () throws(PNGError) in try PNGWrite.frame(view.renderer.wholeCanvas(), to: picturePath) }
        } catch { throw DemoError(error) }
        return picturePath
    }

    /// The runs of the demo's kiosk: the late one is the first due at the stop two minutes or
    /// more after `first`, the next is cancelled, the one after skips the stop.
    func roles(first: Int64) -> (late: Int, cancelled: Int, skipping: Int) {
        let leaves = feed.calls[stopCall].departure
        var late = 0
        while late < runs {
            let due: Int64 = driveStart + Int64(firstRun + late * headway + leaves)
            if due > first + 120 { break }
            late += 1
        }
        return (late, late + 1, late + 2)
    }

    /// The index of the kiosk's stop in the trip's calls.
    var stopCall: Int { feed.calls.firstIndex { $0.place.id == Self.stop.id } ?? 0 }

    /// The made-up feeds at `wall`: where each running bus is, what is late, cancelled or
    /// skipping, the alert.
    func feeds(at wall: Int64, first: Int64) -> (vehicles: FeedMessage, updates: FeedMessage, alerts: FeedMessage) {
        var header = FeedHeader()
        header.version = "2.0"
        header.timestamp = UInt64(wall)
        var vehicles = FeedMessage(header: header), updates = FeedMessage(header: header), alerts = FeedMessage(header: header)
        let calls = feed.calls, town = files.drive.town, roles = roles(first: first)
        let date = civilDate(startOfDay)
        for r in 0..<runs where r != roles.cancelled {
            let start = firstRun + r * headway
            let delay = r == roles.late ? 120 : 0
            let elapsed = Double(wall - driveStart - Int64(start) - Int64(delay))
            guard elapsed >= 0, elapsed <= Double(calls[calls.count - 1].arrival) else { continue }
            let (along, next) = place(after: elapsed, calls)
            let p = town.route.point(at: along), ahead = town.route.point(at: along + 8)
            let geo = town.geoPoint(p)
            var v = VehiclePosition()
            v.trip = descriptor(start: start, date: date)
            var who = VehicleDescriptor()
            who.id = "car-\(r)"
            v.vehicle = who
            var position = Position()
            position.latitude = Float(geo.latitude)
            position.longitude = Float(geo.longitude)
            position.bearing = Float(Self.bearing(dx: ahead.x - p.x, dy: ahead.y - p.y))
            v.position = position
            v.currentStopSequence = UInt32(next + 1)
            v.timestamp = UInt64(wall)
            var e = FeedEntity()
            e.id = "v\(r)"
            e.vehicle = v
            vehicles.entities.append(e)
        }
        // A frequencies run's delay is given as times (the spec leaves its `delay` undefined).
        var late = TripUpdate()
        late.trip = descriptor(start: firstRun + roles.late * headway, date: date)
        var lateStop = StopTimeUpdate()
        lateStop.stopSequence = 2
        var lateTime = StopTimeEvent()
        lateTime.time = driveStart + Int64(firstRun + roles.late * headway + calls[1].departure + 120)
        lateStop.departure = lateTime
        late.stopTimeUpdates = [lateStop]
        var cancelled = TripUpdate()
        cancelled.trip = descriptor(start: firstRun + roles.cancelled * headway, date: date)
        cancelled.trip.scheduleRelationship = .canceled
        var skipping = TripUpdate()
        skipping.trip = descriptor(start: firstRun + roles.skipping * headway, date: date)
        var skipped = StopTimeUpdate()
        skipped.stopSequence = UInt32(stopCall + 1)
        skipped.scheduleRelationship = .skipped
        skipping.stopTimeUpdates = [skipped]
        for (i, u) in [late, cancelled, skipping].enumerated() {
            var e = FeedEntity()
            e.id = "u\(i)"
            e.tripUpdate = u
            updates.entities.append(e)
        }
        var alert = Alert()
        var selector = EntitySelector()
        selector.stopID = Self.stop.id
        alert.informedEntities = [selector]
        var text = TranslatedString()
        for (language, words) in [("fr", "Place d'Armes : arrêt déplacé de 30 m pendant les travaux"), ("en", "Place d'Armes: stop moved 30 m during the works")] {
            var t = Translation()
            t.language = language
            t.text = words
            text.translations.append(t)
        }
        alert.headerText = text
        var e = FeedEntity()
        e.id = "a0"
        e.alert = alert
        alerts.entities.append(e)
        return (vehicles, updates, alerts)
    }

    func descriptor(start: Int, date: String) -> TripDescriptor {
        var d = TripDescriptor()
        d.tripID = DemoFeed.tripID
        d.startTime = feed.clock(start)
        d.startDate = date
        return d
    }

    /// Pixels along the route `elapsed` seconds into a run, and the index of the call ahead.
    func place(after elapsed: Double, _ calls: [DemoFeed.Call]) -> (Double, Int) {
        for i in 0..<(calls.count - 1) {
            let a = calls[i], b = calls[i + 1]
            if elapsed <= Double(a.departure) { return (a.along, i) }
            if elapsed < Double(b.arrival) {
                let k = (elapsed - Double(a.departure)) / Double(max(1, b.arrival - a.departure))
                return (a.along + (b.along - a.along) * k, i + 1)
            }
        }
        return (calls[calls.count - 1].along, calls.count - 1)
    }

    /// Degrees clockwise from north of a step on the map (y grows southwards): atan2(east, north).
    static func bearing(dx: Double, dy: Double) -> Double {
        let east = dx, north = -dy
        if east == 0 && north == 0 { return 0 }
        var angle: Double
        if north > 0 {
            angle = PortableMath.atan(east / north)
        } else if north < 0 {
            angle = PortableMath.atan(east / north) + (east >= 0 ? PortableMath.pi : -PortableMath.pi)
        } else {
            angle = east > 0 ? PortableMath.pi / 2 : -PortableMath.pi / 2
        }
        angle = angle * 180 / PortableMath.pi
        return angle < 0 ? angle + 360 : angle
    }

    /// YYYYMMDD of the UTC day starting at `instant`.
    func civilDate(_ instant: Int64) -> String { String(CivilDay.date(fromDay: Int(instant / 86_400))) }
}
