import Foundation
import PNG
import TestSupport
import XCTest

/// A map image followed at its centre, with the dot on its plane: the view pans by the primary
/// plane's source rectangle over two map pictures larger than the screen, and the screen the
/// display controller composed is the map's own pixels at the view, re-centre after re-centre.
extension KMSPlanesTests {
    /// The map: every pixel says where it is (red x mod 256, green y mod 256, blue the 256-pixel
    /// blocks), so a screen tells which part of the map it shows.
    static let panMap = (width: 1800, height: 1400)
    static let panStart = (lat: 45.5, lon: -73.6)
    /// West, south, east, north: the start 562 px from the left edge and 434 px from the bottom.
    static let panBounds = (-73.6 - 562.0 / 1800 * 0.012, 45.5 - 434.0 / 1400 * 0.0085,
                            -73.6 - 562.0 / 1800 * 0.012 + 0.012, 45.5 - 434.0 / 1400 * 0.0085 + 0.0085)

    /// Files for the guest: the map and a drive north-east across it (40 fixes, about 15 px east
    /// and 10 px north apart, replayed at twice real time: 20 s of driving, 600 px east).
    static func panFiles() throws -> [(String, String)] {
        let dir = try TestEnvironment.temporaryDirectory("planes-pan")
        let (w, h) = panMap
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h { for x in 0..<w {
            let i = (y * w + x) * 3
            rgb[i] = UInt8(x & 255); rgb[i + 1] = UInt8(y & 255); rgb[i + 2] = UInt8((x >> 8) << 4 | (y >> 8))
        } }
        let map = dir.appendingPathComponent("map.png")
        try PNGWrite.rgb(width: w, height: h, rgb: rgb, to: map.path)
        let drive = dir.appendingPathComponent("drive.nmea")
        try DriveNMEA.straight(from: panStart.lat, panStart.lon, count: 40).write(to: drive)
        return [(map.path, "/pan/map.png"), (drive.path, "/pan/drive.nmea")]
    }

    func checkTheMapPansOnThePrimaryPlane(_ vm: QEMUMachine, file: StaticString = #filePath, line: UInt = #line) throws {
        let b = Self.panBounds
        let pid = try vm.spawn("STATE_DIRECTORY=/tmp pulsedot run --set display.output=kms --set display.composition=planes "
            + "--set display.fps=20 --set map.image=/pan/map.png --set map.bounds=\(b.0),\(b.1),\(b.2),\(b.3) "
            + "--set map.follow=center --set source.replay=/pan/drive.nmea --set source.replaySpeed=2 "
            // The breath off: the inner dot's colour fully opaque, so it is found on the screen.
            + "--set delayBetweenPulseCycles=inf")
        let log = try vm.waitForOutput(pid, containing: "the map scrolls on primary plane")
        XCTAssertTrue(log.contains("two 1280x1024 xrgb8888 pictures"), log, file: file, line: line)
        XCTAssertTrue(log.contains("composes the dot on a hardware plane"), log, file: file, line: line)

        // A second client watches the primary plane while the view follows the drive.
        var windows: [[Int]] = []
        var framebuffers: Set<Int> = []
        let start = Date()
        // Until the window has been seen in four places and on both pictures: each look is a
        // command in the guest, slower on a loaded host, and the drive lasts 20 s.
        while Date().timeIntervalSince(start) < 16 && (Set(windows.map { $0[0] }).count < 4 || framebuffers.count < 2) {
            if let p = try planes(vm).first(where: { $0.type == "primary" }), let fb = p.int("FB_ID"), fb != 0 {
                framebuffers.insert(fb)
                windows.append([p.int("SRC_X") ?? -1, p.int("SRC_Y") ?? -1, p.int("SRC_W") ?? -1])
            }
        }
        XCTAssertTrue(windows.allSatisfy { $0[2] == 1024 << 16 }, "the screen's width of the picture: \(windows)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(Set(windows.map { $0[0] }).count, 4, "the window moves: \(windows)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(framebuffers.count, 2, "a re-centre puts the other picture on the plane: \(windows)", file: file, line: line)
        XCTAssertTrue(windows.allSatisfy { $0[0] >= 0 && $0[0] <= 256 << 16 && $0[1] >= 0 && $0[1] <= 256 << 16 },
                      "windows inside the pictures: \(windows)", file: file, line: line)

        // What the controller composed: the map at the view, the dot in the middle.
        let (shot, snapped) = try writebackSnapshot(vm, pid: pid)
        XCTAssertEqual(try vm.stop(pid), 0, file: file, line: line)
        let corner = shot.pixel(0, 0)
        let ox = corner.r | (corner.b >> 4) << 8, oy = corner.g | (corner.b & 15) << 8
        XCTAssertTrue(ox > 50 && ox + 1024 <= Self.panMap.width && oy + 768 <= Self.panMap.height,
                      "the view at map (\(ox), \(oy)) has moved along the drive", file: file, line: line)
        var wrong = 0, first: (Int, Int)?
        for y in 0..<768 {
            for x in 0..<1024 where abs(x - 512) > 150 || abs(y - 384) > 150 {
                let p = shot.pixel(x, y), mx = ox + x, my = oy + y
                if p.r != mx & 255 || p.g != my & 255 || p.b != (mx >> 8) << 4 | (my >> 8) {
                    wrong += 1
                    if first == nil { first = (x, y) }
                }
            }
        }
        XCTAssertEqual(wrong, 0, "screen pixels that are not the map at (\(ox), \(oy)); the first at \(String(describing: first))", file: file, line: line)
        let dot = try XCTUnwrap(shot.centroid(of: (0, 122, 255)), "no dot on the screen at map (\(ox), \(oy)); the daemon said:\n\(snapped)", file: file, line: line)
        XCTAssertEqual(dot.x, 512, accuracy: 1, "follow = center keeps the dot in the middle", file: file, line: line)
        XCTAssertEqual(dot.y, 384, accuracy: 1, file: file, line: line)
        for p in try planes(vm) { XCTAssertEqual(p.int("FB_ID"), 0, "after exit: plane \(p.id) \(p.values)", file: file, line: line) }
    }
}
