import Foundation
import TestSupport
import XCTest

/// The transit banner on a real kernel driver, in `RunKMSTests`' boot: a bus follows its trip
/// along a street of three stops (its feed, its NMEA drive and one font shipped in the initramfs),
/// and the top of the screen shows, pixel for pixel, what `pulsedot transit banner` draws on the
/// host for the same trip and next stop — first the stop ahead, then, once the bus has arrived
/// there, the stop after it.
struct TransitBannerGuest {
    /// Where the guest finds what the host made.
    static let guestFolder = "/transit"
    static let zone = "/usr/share/zoneinfo/Europe/Warsaw"
    static let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    let host: URL

    static func at(_ y: Double) -> (lat: Double, lon: Double) { BusStreet.at(y) }

    init() throws {
        host = try TestEnvironment.temporaryDirectory("kms-banner")
        let fm = FileManager.default
        try BusStreet.writeFeed(to: host.appendingPathComponent("feed"), lastDay: "20391231", colours: true)
        try fm.createDirectory(at: host.appendingPathComponent("fonts"), withIntermediateDirectories: true)
        // Stopped at A, on to B at 20 m/s, a long stop at B: replayed at 2×, about 5 s, 18 s and 40 s.
        var nmea = DriveNMEA()
        for _ in 0..<10 { nmea.fix(lat: Self.at(0).lat, lon: Self.at(0).lon, knots: 0, course: 0) }
        for y in stride(from: 20.0, through: 700, by: 20) { nmea.fix(lat: Self.at(y).lat, lon: Self.at(y).lon, knots: 38.9, course: 0) }
        for _ in 0..<80 { nmea.fix(lat: Self.at(700).lat, lon: Self.at(700).lon, knots: 0, course: 0) }
        try nmea.write(to: host.appendingPathComponent("drive.nmea"))
        try fm.copyItem(atPath: Self.font, toPath: host.appendingPathComponent("fonts/DejaVuSans.ttf").path)
        // One font, found the same way in the guest and on the host.
        for (name, folder) in [("fonts.conf", host.appendingPathComponent("fonts").path), ("guest-fonts.conf", Self.guestFolder + "/fonts")] {
            try """
                <?xml version="1.0"?>
                <!DOCTYPE fontconfig SYSTEM "fonts.dtd">
                <fontconfig><dir>\(folder)</dir><cachedir>/tmp/fontconfig</cachedir></fontconfig>

                """.write(to: host.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try """
            [display]
            fps = 10
            [dot]
            scale = 1
            delayBetweenPulseCycles = inf
            [source]
            replay = \(Self.guestFolder)/drive.nmea
            replaySpeed = 2
            [metrics]
            textfile = none
            [transit]
            gtfs = \(Self.guestFolder)/feed
            trip = T1
            cache = /tmp/transit
            banner = top
            fonts = DejaVu Sans

            """.write(to: host.appendingPathComponent("bus.conf"), atomically: true, encoding: .utf8)
    }

    /// (host path, guest path) for the initramfs.
    var files: [(String, String)] {
        var out = ["bus.conf", "drive.nmea", "guest-fonts.conf", "fonts/DejaVuSans.ttf"].map { (host.appendingPathComponent($0).path, Self.guestFolder + "/" + $0) }
        for name in ["agency", "calendar", "routes", "trips", "stops", "stop_times", "shapes"] {
            out.append((host.appendingPathComponent("feed/\(name).txt").path, Self.guestFolder + "/feed/\(name).txt"))
        }
        out.append((Self.zone, Self.zone))
        return out
    }

    /// The banner `pulsedot transit banner` draws on the host with stop `next` (1-based) next.
    func expected(next: Int, width: Int) throws -> ScreenImage {
        let binary = try TestEnvironment.pulsedotBinary(), index = host.appendingPathComponent("index.sqlite").path
        if !FileManager.default.fileExists(atPath: index) {
            let made = try runProgram(binary, ["transit", "import", host.appendingPathComponent("feed").path, "--out", index])
            guard made.status == 0 else { throw TestFailure("transit import: \(made.stderr)") }
        }
        let out = host.appendingPathComponent("banner-\(next).png").path
        let r = try runProgram(binary, ["transit", "banner", index, "--trip", "T1", "--next-stop", "\(next)", "--width", "\(width)",
                                        "--scale", "1", "--set", "transit.fonts=DejaVu Sans", "--out", out],
                               environment: ["FONTCONFIG_FILE": host.appendingPathComponent("fonts.conf").path])
        guard r.status == 0 else { throw TestFailure("transit banner: \(r.stderr)") }
        return try ScreenImage.read(out)
    }

    /// Pixels of the banner's rows that differ from `banner`, the middle columns aside (the line
    /// runs north through the screen's middle, under the banner).
    static func differing(_ screen: ScreenImage, _ banner: ScreenImage) -> Int {
        var n = 0
        for y in 0..<banner.height {
            for x in 0..<banner.width where abs(x - screen.width / 2) > 60 {
                if screen.pixel(x, y) != banner.pixel(x, y) { n += 1 }
            }
        }
        return n
    }

    func remove() { try? FileManager.default.removeItem(at: host) }
}

extension RunKMSTests {
    /// The daemon with the bus's configuration; the banner naming B while the bus drives there,
    /// then C once it stands at B; SIGTERM gives the console back.
    func checkTransitBanner(_ vm: QEMUMachine, _ guest: TransitBannerGuest) throws {
        let towardsB = try guest.expected(next: 2, width: 1280), atB = try guest.expected(next: 3, width: 1280)
        XCTAssertGreaterThan(TransitBannerGuest.differing(towardsB, atB), 500, "the two banners differ")
        let folder = TransitBannerGuest.guestFolder
        let pid = try vm.spawn("FONTCONFIG_FILE=\(folder)/guest-fonts.conf STATE_DIRECTORY=/tmp pulsedot run --config \(folder)/bus.conf")
        let log = try vm.waitForOutput(pid, containing: "<5>transit: trip T1 (route 7 – Dworzec) to Dworzec, 3 stops")
        XCTAssertFalse(log.contains("banner fonts not installed"), log)
        let first = try waitForBanner(vm, towardsB)
        XCTAssertEqual(first, 0, "the banner towards B: \((try? vm.backgroundOutput(pid)) ?? "")")
        try vm.waitForOutput(pid, containing: "<5>transit: arrived at Piotrkowska, róg (stop 2 of 3)")
        let second = try waitForBanner(vm, atB)
        XCTAssertEqual(second, 0, "the banner at B: \((try? vm.backgroundOutput(pid)) ?? "")")
        XCTAssertEqual(try vm.stop(pid), 0)
    }

    /// Screendumps until the top of the screen is `banner`; the pixels still differing at the last.
    private func waitForBanner(_ vm: QEMUMachine, _ banner: ScreenImage, timeout: Double = 60) throws -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        var differing = Int.max
        repeat {
            differing = TransitBannerGuest.differing(ScreenImage(try vm.screendump()), banner)
            if differing == 0 { break }
            usleep(300_000)
        } while Date() < deadline
        return differing
    }
}
