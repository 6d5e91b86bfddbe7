@testable import Config
import Foundation
import Glibc
import GPSD
@testable import Geo
import PNG
import Raster
@testable import Systemd
import TestSupport
import XCTest

/// The [source], [display], [map] and [log] keys: defaults, what each accepts, and the one-line
/// error for what it refuses.
final class ConfigKeysTests: XCTestCase {
    func testEveryKeyOfIssueFive() {
        XCTAssertEqual(SettingsTable.sections, ["dot", "source", "display", "map", "log", "metrics", "transit", "realtime", "kiosk"])
        XCTAssertEqual(SettingsTable.keys(in: "source").map(\.name),
                       ["gpsd", "position", "replay", "replaySpeed", "gpsDevice", "staleAfter", "silenceTimeout"])
        XCTAssertEqual(SettingsTable.keys(in: "display").map(\.name),
                       ["output", "device", "connector", "mode", "format", "rotation", "update", "composition", "fps", "pngFps",
                        "blank", "blankCommand", "unblankCommand", "brightness", "dim", "backlight", "ambientSensor", "ambientCurve",
                        "brightnessSmoothing"])
        XCTAssertEqual(SettingsTable.keys(in: "map").map(\.name),
                       ["image", "bounds", "background", "center", "zoom", "follow", "offMap", "tiles", "tileScheme", "cacheMegabytes", "attribution"])
        XCTAssertEqual(SettingsTable.keys(in: "log").map(\.name), ["level", "summaryEvery"])
        XCTAssertEqual(SettingsTable.keys(in: "metrics").map(\.name), ["textfile", "every"])
        XCTAssertEqual(Set(SettingsTable.keys.map(\.qualifiedName)).count, SettingsTable.keys.count, "no key twice")
        XCTAssertEqual(Set(SettingsTable.keys.map(\.section)), Set(SettingsTable.sections), "no key outside the sections")
        for key in SettingsTable.keys {
            XCTAssertFalse(key.allowed.isEmpty || key.meaning.isEmpty, key.qualifiedName)
        }
    }

    func testDefaults() {
        let s = Settings()
        XCTAssertEqual(s.source.source, .gpsd(GPSDEndpoint(host: "127.0.0.1", port: 2947)))
        XCTAssertEqual(s.source.replaySpeed, 1)
        XCTAssertNil(s.source.gpsDevice)
        XCTAssertEqual(s.source.staleAfter, 30)
        XCTAssertEqual(s.source.silenceTimeout, 10)
        XCTAssertEqual(s.display.output, .auto)
        XCTAssertNil(s.display.device)
        XCTAssertNil(s.display.connector)
        XCTAssertNil(s.display.mode)
        XCTAssertTrue(s.display.headlessFrameSize == (1280, 800))
        XCTAssertEqual(s.display.format, .xrgb8888)
        XCTAssertNil(s.display.rotation)
        XCTAssertEqual(s.display.update, .auto)
        XCTAssertEqual(s.display.composition, .auto)
        XCTAssertEqual(s.display.fps, 60)
        XCTAssertEqual(s.display.pngFps, 2)
        XCTAssertNil(s.map.imagePath)
        XCTAssertNil(s.map.bounds)
        XCTAssertEqual(s.map.background, Color(r: 0xE5, g: 0xE3, b: 0xDF))
        XCTAssertNil(s.map.center)
        XCTAssertEqual(s.map.zoom, 16)
        XCTAssertEqual(s.map.follow, .off)
        XCTAssertEqual(s.map.offMap, .hide)
        XCTAssertEqual(s.log.level, .info)
        XCTAssertEqual(s.log.summaryEvery, 60)
        XCTAssertEqual(s.metrics.textfile, "/run/pulsedot/metrics.prom")
        XCTAssertEqual(s.metrics.every, 10)
        let shown = Dictionary(uniqueKeysWithValues: SettingsTable.keys.map { ($0.qualifiedName, $0.defaultText) })
        XCTAssertEqual(shown["source.gpsd"], "127.0.0.1:2947")
        XCTAssertEqual(shown["source.position"], "none")
        XCTAssertEqual(shown["display.output"], "auto")
        XCTAssertEqual(shown["display.rotation"], "auto")
        XCTAssertEqual(shown["map.center"], "auto")
        XCTAssertEqual(shown["log.level"], "info")
    }

    func testSourceIsOneOfThreeAndTheLastSetWins() throws {
        XCTAssertEqual(try settings("source.gpsd=[::1]:3000").source.source, .gpsd(GPSDEndpoint(host: "::1", port: 3000)))
        XCTAssertEqual(try settings("source.gpsd=gps.local").source.source, .gpsd(GPSDEndpoint(host: "gps.local", port: 2947)))
        let p = try settings("source.gpsd=10.0.0.1:2947", "source.position=-33.8568,151.2153")
        XCTAssertEqual(p.source.source, .position(GeoPoint(latitude: -33.8568, longitude: 151.2153)))
        XCTAssertEqual(p.value(of: SettingsTable.key(section: "source", name: "gpsd")!), "127.0.0.1:2947", "gpsd is no longer in effect")
        XCTAssertEqual(try settings("source.position=1,2", "source.gpsd=10.0.0.1").source.source,
                       .gpsd(GPSDEndpoint(host: "10.0.0.1", port: 2947)))
        XCTAssertEqual(try settings("source.position=1,2", "source.position=none").source.source, .gpsd(.default))
        XCTAssertEqual(try settings("source.position=1,2", "source.replay=none").source.source,
                       .position(GeoPoint(latitude: 1, longitude: 2)), "none only clears its own choice")
        assertSetError("source.gpsd=::1", "source.gpsd = ::1: not a gpsd address: an IPv6 address needs brackets (expected HOST:PORT or [IPv6]:PORT)")
        assertSetError("source.gpsd=host:0", "source.gpsd = host:0: not a gpsd address: port must be 1-65535 (expected HOST:PORT or [IPv6]:PORT)")
        assertSetError("source.position=45.5", "source.position = 45.5: not a position (expected LAT,LON in decimal degrees, e.g. 45.5017,-73.5673)")
        assertSetError("source.position=91,0", "source.position = 91,0: latitude 91 is not a latitude (allowed: -90 to 90 degrees)")
        assertSetError("source.position=88,0", "source.position = 88,0: latitude 88 is beyond Web Mercator's limit of ±85.05112878° (polar regions cannot be drawn on the map)")
        assertSetError("source.position=0,181", "source.position = 0,181: longitude 181 is not a longitude (allowed: -180 to 180 degrees)")
    }

    func testGpsdClientConfiguration() throws {
        let s = try settings("source.gpsd=[::1]:3000", "source.gpsDevice=/dev/ttyACM0", "source.silenceTimeout=2.5")
        let c = try XCTUnwrap(s.source.gpsdClientConfiguration)
        XCTAssertEqual(c.endpoint, GPSDEndpoint(host: "::1", port: 3000))
        XCTAssertEqual(c.device, "/dev/ttyACM0")
        XCTAssertEqual(c.silenceTimeout, .milliseconds(2500))
        XCTAssertNil(try settings("source.position=1,2").source.gpsdClientConfiguration)
    }

    func testReplayFileMustBeReadable() throws {
        let dir = try TestEnvironment.temporaryDirectory("config-replay").path
        try Data("$GPRMC\n".utf8).write(to: URL(fileURLWithPath: dir + "/drive.nmea"))
        XCTAssertEqual(try settings("source.replay=\(dir)/drive.nmea", "source.replaySpeed=4").source.source, .replay(path: dir + "/drive.nmea"))
        XCTAssertEqual(try settings("source.replaySpeed=0.5").source.replaySpeed, 0.5)
        assertSetError("source.replay=\(dir)/gone.nmea",
                    "source.replay = \(dir)/gone.nmea: cannot be read (No such file or directory; an NMEA file or a gpsd JSON log is expected here)")
        assertSetError("source.replay=\(dir)", "source.replay = \(dir): cannot be read (a folder, not a regular file; an NMEA file or a gpsd JSON log is expected here)")
        assertSetError("source.replaySpeed=0", "source.replaySpeed = 0: out of range (value > 0)")
    }

    func testGpsDeviceAndTimes() throws {
        XCTAssertEqual(try settings("source.gpsDevice=/dev/ttyACM0").source.gpsDevice, "/dev/ttyACM0")
        XCTAssertNil(try settings("source.gpsDevice=/dev/ttyACM0", "source.gpsDevice=all").source.gpsDevice)
        assertSetError("source.gpsDevice=/dev/" + String(repeating: "x", count: 60),
                    "source.gpsDevice = /dev/\(String(repeating: "x", count: 60)): receiver path \"/dev/\(String(repeating: "x", count: 60))\" is too long for gpsd's 80-character watch request")
        assertSetError("source.gpsDevice=", "source.gpsDevice = : not a receiver path (expected a device path such as /dev/ttyACM0, or all)")
        XCTAssertEqual(try settings("source.staleAfter=15s").source.staleAfter, 15)
        XCTAssertEqual(try settings("source.staleAfter=inf").source.staleAfter, .infinity)
        XCTAssertEqual(try settings("source.silenceTimeout=2.5").source.silenceTimeout, 2.5)
        assertSetError("source.staleAfter=0", "source.staleAfter = 0: out of range (value > 0, in seconds, or inf)")
        assertSetError("source.silenceTimeout=inf", "source.silenceTimeout = inf: not a duration (allowed: value > 0, in seconds)")
    }

    func testDisplay() throws {
        XCTAssertEqual(try settings("display.output=kms").display.output, .kms)
        XCTAssertEqual(try settings("display.output=fbdev").display.output, .fbdev)
        XCTAssertEqual(try settings("display.output=none").display.output, .none)
        XCTAssertEqual(try settings("display.output=png:/tmp/frames").display.output, .png(directory: "/tmp/frames"))
        assertSetError("display.output=png:", "display.output = png:: png: needs a directory (e.g. png:/var/lib/pulsedot/frames)")
        assertSetError("display.output=drm", "display.output = drm: not one of auto, kms, fbdev, none, png:DIR")
        XCTAssertEqual(try settings("display.device=/dev/dri/card1").display.device, "/dev/dri/card1")
        assertSetError("display.device=card0", "display.device = card0: not a device path (expected an absolute path such as /dev/dri/card0 or /dev/fb0, or auto)")
        XCTAssertEqual(try settings("display.connector=HDMI-A-1").display.connector, "HDMI-A-1")
        assertSetError("display.connector=HDMI A", "display.connector = HDMI A: not a connector name (expected the kernel's name such as HDMI-A-1 or DSI-1, or auto)")

        let m = try settings("display.mode=800x480@59.94").display.mode
        XCTAssertEqual(m, DisplaySettings.Mode(width: 800, height: 480, refreshMilliHz: 59940))
        XCTAssertEqual(m?.description, "800x480@59.94")
        XCTAssertEqual(try settings("display.mode=1920x1080@60").display.mode?.description, "1920x1080@60")
        let headless = try settings("display.output=none", "display.mode=640x360")
        XCTAssertTrue(headless.display.headlessFrameSize == (640, 360))
        assertSetError("display.mode=1280*800", "display.mode = 1280*800: not a mode (expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 1280x800@60)")
        assertSetError("display.mode=0x800", "display.mode = 0x800: out of range (width and height from 1 to 16384)")
        assertSetError("display.mode=800x480@0", "display.mode = 800x480@0: out of range (refresh above 0 and below 1000 Hz)")

        XCTAssertEqual(try settings("display.format=rgb565").display.format, .rgb565)
        assertSetError("display.format=rgb888", "display.format = rgb888: not one of xrgb8888, rgb565")
        XCTAssertEqual(try settings("display.rotation=270").display.rotation, .r270)
        XCTAssertNil(try settings("display.rotation=90", "display.rotation=auto").display.rotation)
        XCTAssertEqual(try settings("display.update=damage").display.update, .damage)
        assertSetError("display.update=vsync", "display.update = vsync: not one of auto, flip, damage")
        XCTAssertEqual(try settings("display.composition=planes").display.composition, .planes)
        XCTAssertEqual(try settings("display.composition=software").display.composition, .software)
        assertSetError("display.composition=overlay", "display.composition = overlay: not one of auto, software, planes")
        XCTAssertEqual(Composition.software.phrase, "software composition")
        XCTAssertEqual(Composition.planes.phrase, "planes composition")
        XCTAssertEqual(try settings("display.fps=30").display.fps, 30)
        XCTAssertEqual(try settings("display.pngFps=0.5").display.pngFps, 0.5)
        assertSetError("display.fps=0", "display.fps = 0: out of range (1 ≤ value ≤ 240, in frames per second)")
        assertSetError("display.pngFps=0", "display.pngFps = 0: out of range (0 < value ≤ 240, in frames per second)")
    }

    func testMap() throws {
        let dir = try TestEnvironment.temporaryDirectory("config-map").path
        try PNGWrite.rgb(width: 3, height: 2, rgb: [UInt8](repeating: 200, count: 18), to: dir + "/route.png")
        let s = try settings("map.image=\(dir)/route.png", "map.bounds=-73.6,45.49,-73.54,45.52", "map.follow=center", "map.offMap=edge")
        XCTAssertEqual(s.map.imagePath, dir + "/route.png")
        XCTAssertEqual(s.map.bounds, GeoBounds(west: -73.6, south: 45.49, east: -73.54, north: 45.52))
        XCTAssertEqual(s.map.follow, .center)
        XCTAssertEqual(s.map.offMap, .edge)
        XCTAssertEqual(try settings("map.bounds=177,-19,-178,-16").map.bounds?.crossesAntimeridian, true)
        // The file is read by its users (SceneTests' MapFilesTests): a path is all the key holds.
        XCTAssertEqual(try settings("map.image=\(dir)/gone.png").map.imagePath, dir + "/gone.png")
        assertSetError("map.image=", "map.image = : empty path (expected a PNG file, or none)")
        assertSetError("map.bounds=1,2,3", "map.bounds = 1,2,3: not bounds (expected WEST,SOUTH,EAST,NORTH in decimal degrees, e.g. -73.60,45.49,-73.54,45.52)")
        assertSetError("map.bounds=0,10,1,5", "map.bounds = 0,10,1,5: bounds 0,10,1,5 enclose no area (need SOUTH < NORTH and WEST ≠ EAST; WEST > EAST crosses the antimeridian)")
        assertSetError("map.bounds=0,80,1,86", "map.bounds = 0,80,1,86: latitude 86 is beyond Web Mercator's limit of ±85.05112878° (polar regions cannot be drawn on the map)")

        XCTAssertEqual(try settings("map.center=45.5017,-73.5673").map.center, GeoPoint(latitude: 45.5017, longitude: -73.5673))
        XCTAssertNil(try settings("map.center=1,1", "map.center=auto").map.center)
        assertSetError("map.center=-89.9,0", "map.center = -89.9,0: latitude -89.9 is beyond Web Mercator's limit of ±85.05112878° (polar regions cannot be drawn on the map)")
        XCTAssertEqual(try settings("map.zoom=17.5").map.zoom, 17.5)
        assertSetError("map.zoom=-1", "map.zoom = -1: out of range (0 ≤ value ≤ 30)")
        XCTAssertEqual(try settings("map.background=#F2EFE9").map.background, Color(r: 0xF2, g: 0xEF, b: 0xE9))
        assertSetError("map.background=#F2EFE980", "map.background = #F2EFE980: must be opaque (expected #RRGGBB, or alpha FF)")
        assertSetError("map.follow=always", "map.follow = always: not one of off, edge, center")
        assertSetError("map.offMap=wrap", "map.offMap = wrap: not one of hide, edge")
    }

    func testLog() throws {
        XCTAssertEqual(try settings("log.level=debug").log.level, .debug)
        XCTAssertEqual(try settings("log.summaryEvery=0").log.summaryEvery, 0)
        assertSetError("log.level=verbose", "log.level = verbose: not one of error, warning, notice, info, debug")
        assertSetError("log.summaryEvery=-5", "log.summaryEvery = -5: out of range (value ≥ 0, in seconds)")
        let info = LogSettings()
        XCTAssertTrue(info.says(.error) && info.says(.notice) && info.says(.info))
        XCTAssertFalse(info.says(.debug))
        XCTAssertEqual(LogLevel.allCases.map(\.syslogPriority), [3, 4, 5, 6, 7])
    }

    func testBlanking() throws {
        let s = try settings("display.blank=23:00-05:30, 12:15-13:00", "display.blankCommand=cec-ctl --standby")
        XCTAssertEqual(s.display.blanking.schedule.spans, [.init(start: 1380, end: 330), .init(start: 735, end: 780)])
        XCTAssertEqual(s.display.blanking.schedule.description, "23:00-05:30,12:15-13:00")
        XCTAssertEqual(s.display.blanking.blankCommand, "cec-ctl --standby")
        XCTAssertNil(s.display.blanking.unblankCommand)
        let schedule = s.display.blanking.schedule
        // Across midnight: on from 23:00 up to, not including, 05:30.
        XCTAssertEqual([1379, 1380, 0, 329, 330, 734, 735, 779, 780].map { schedule.blanks(minuteOfDay: $0) },
                       [false, true, true, true, false, false, true, true, false])
        XCTAssertEqual(try settings("display.blank=18:00-24:00").display.blanking.schedule.spans, [.init(start: 1080, end: 1440)])
        XCTAssertTrue(try settings("display.blank=18:00-24:00").display.blanking.schedule.blanks(minuteOfDay: 1439))
        XCTAssertTrue(try settings("display.blank=none").display.blanking.schedule.spans.isEmpty)
        let allowed = "expected HH:MM-HH:MM in local time, e.g. 23:00-05:30, spans separated by commas, or none"
        assertSetError("display.blank=23:00", "display.blank = 23:00: not a time span: '23:00' (\(allowed))")
        assertSetError("display.blank=25:00-06:00", "display.blank = 25:00-06:00: not a time span: '25:00-06:00' (\(allowed))")
        assertSetError("display.blank=7:00-8:00", "display.blank = 7:00-8:00: not a time span: '7:00-8:00' (\(allowed))")
        assertSetError("display.blank=22:00-06:00,", "display.blank = 22:00-06:00,: not a time span: '' (\(allowed))")
        assertSetError("display.blank=06:00-06:00", "display.blank = 06:00-06:00: '06:00-06:00' is empty (start and end are the same time)")
        assertSetError("display.blankCommand=", "display.blankCommand = : empty command (expected a command line, or none)")
    }

    func testMetrics() throws {
        XCTAssertNil(try settings("metrics.textfile=none").metrics.textfile)
        XCTAssertEqual(try settings("metrics.textfile=/var/lib/pulsedot/m.prom").metrics.textfile, "/var/lib/pulsedot/m.prom")
        XCTAssertEqual(try settings("metrics.every=2.5s").metrics.every, 2.5)
        assertSetError("metrics.textfile=/run/pulsedot/metrics.txt",
                       "metrics.textfile = /run/pulsedot/metrics.txt: not a metrics file name (node_exporter reads only files ending in .prom, e.g. /run/pulsedot/metrics.prom)")
        assertSetError("metrics.every=0", "metrics.every = 0: out of range (1 ≤ value ≤ 3600, in seconds)")
        // A relative path in a file is taken from the file's folder, like every other path.
        let c = try Configuration.parse("[metrics]\ntextfile = m.prom\n", file: "/etc/pulsedot/site.conf")
        XCTAssertEqual(c.settings.metrics.textfile, "/etc/pulsedot/m.prom")
        var m = MetricsSettings()
        XCTAssertEqual(m.textfileParts?.directory, "/run/pulsedot")
        XCTAssertEqual(m.textfileParts?.name, "metrics.prom")
        m.textfile = "/m.prom"
        XCTAssertEqual(m.textfileParts?.directory, "/")
        m.textfile = nil
        XCTAssertNil(m.textfileParts)
    }

    func testTransitFeed() throws {
        XCTAssertNil(try settings("transit.gtfs=none").transit.gtfs)
        XCTAssertNil(Settings().transit.gtfs)
        // A zip or a folder: a feed may be either.
        let dir = try TestEnvironment.temporaryDirectory("config-gtfs").path
        try Data("PK".utf8).write(to: URL(fileURLWithPath: dir + "/city.zip"))
        XCTAssertEqual(try settings("transit.gtfs=\(dir)/city.zip").transit.gtfs, dir + "/city.zip")
        XCTAssertEqual(try settings("transit.gtfs=\(dir)").transit.gtfs, dir)
        // Not there yet is no configuration error: the daemon runs without it and takes it up.
        XCTAssertEqual(try settings("transit.gtfs=\(dir)/nope.zip").transit.gtfs, dir + "/nope.zip")
        // Something that is neither a file nor a folder is.
        XCTAssertEqual(mkfifo(dir + "/fifo", 0o600), 0)
        assertSetError("transit.gtfs=\(dir)/fifo", "transit.gtfs = \(dir)/fifo: not a file or folder (a GTFS .zip or folder is expected here)")
        assertSetError("transit.gtfs=", "transit.gtfs = : empty path (expected a GTFS .zip or folder, or none)")
        // A relative path in a file is taken from the file's folder, like every other path.
        let c = try Configuration.parse("[transit]\ngtfs = city.zip\n", file: dir + "/site.conf")
        XCTAssertEqual(c.settings.transit.gtfs, dir + "/city.zip")
    }

    /// What check-config prints must read back as the same settings, for every key.
    func testEveryShownValueParsesBack() throws {
        let dir = try TestEnvironment.temporaryDirectory("config-roundtrip").path
        try PNGWrite.rgb(width: 4, height: 4, rgb: [UInt8](repeating: 9, count: 48), to: dir + "/map.png")
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: dir + "/log.json"))
        for assignments in [
            ["source.replay=\(dir)/log.json", "source.replaySpeed=2.5", "source.gpsDevice=/dev/ttyUSB0", "source.staleAfter=inf",
             "display.output=png:\(dir)/out", "display.mode=1024x600@59.94", "display.rotation=180", "display.format=rgb565",
             "map.image=\(dir)/map.png", "map.bounds=177,-19,-178,-16", "map.follow=edge", "log.level=notice", "log.summaryEvery=0.5",
             "metrics.textfile=none", "metrics.every=30", "display.blank=22:30-06:00,12:00-12:30",
             "display.unblankCommand=/usr/bin/vcgencmd display_power 1"],
            ["source.position=-33.8568,151.2153", "display.device=/dev/fb1", "display.connector=DSI-1", "display.update=flip", "display.composition=planes",
             "map.background=#101010", "map.center=51.5,-0.1", "map.zoom=12.25"],
            ["source.gpsd=[fe80::1]:2948", "display.fps=24", "display.pngFps=0.25"],
        ] {
            var s = Settings()
            try s.set(all: assignments)
            let copy = try assertShownValuesReadBack(s)
            XCTAssertEqual(copy.source.source, s.source.source)
            XCTAssertEqual(copy.display.output, s.display.output)
        }
    }
}
