import Foundation
import Glibc
import PNG
import Raster
import TestSupport
import Tiles
import XCTest

/// Each reload of a tiled map stops one tile worker and starts another. The old worker's
/// descriptors must be closed exactly once: a second close of the same number, once the kernel
/// may have handed it to another file (the new map's database, the DRM card), would close that
/// file instead. Watched from outside with strace, over reloads and the exit.
final class TileReloadDescriptorTests: XCTestCase {
    static let strace = "/usr/bin/strace"

    private var dir: URL!

    override func setUpWithError() throws {
        dir = try TestEnvironment.temporaryDirectory("tile-reload-fds")
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    func testReloadsCloseEachTileDescriptorOnce() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.strace) else {
            let message = "\(Self.strace) is missing: sudo deploy/install-deps --test (strace)"
            if let ci = ProcessInfo.processInfo.environment["CI"], !ci.isEmpty { throw TestFailure(message) }
            throw XCTSkip(message)
        }
        // 3×3 PNG tiles at zoom 14, in Berlin.
        let map = dir.appendingPathComponent("map.mbtiles").path
        let (nw, se) = try SmallTileMap.write(to: map)

        let frames = dir.appendingPathComponent("frames")
        let config = dir.appendingPathComponent("pulsedot.conf").path
        func write(zoom: Int) throws {
            try """
                [source]
                position = \((nw.north + se.south) / 2),\((nw.west + se.east) / 2)
                \(ConfigSnippet.pngDisplay(frames.path, mode: "320x200", fps: 10, pngFps: 5))
                [map]
                tiles = map.mbtiles
                zoom = \(zoom)

                """.write(toFile: config, atomically: true, encoding: .utf8)
        }
        try write(zoom: 14)
        let trace = dir.appendingPathComponent("close.trace").path
        let child = try ChildProcess(Self.strace, ["-f", "-qq", "-e", "trace=close", "-o", trace,
                                                   try TestEnvironment.pulsedotBinary(), "run", "--config", config],
                                     label: "strace pulsedot run")
        defer { child.terminate() }
        func waitForLog(_ text: String, occurrences: Int = 1) throws {
            let ok = ChildProcess.waitUntil(timeout: 30) { child.stderr.components(separatedBy: text).count > occurrences || !child.isRunning }
            guard ok, child.stderr.components(separatedBy: text).count > occurrences else {
                if child.stderr.contains("Operation not permitted") { throw XCTSkip("strace cannot trace here: \(child.stderr)") }
                throw TestFailure("pulsedot run did not log \"\(text)\" (running: \(child.isRunning)):\n\(child.stderr)")
            }
        }
        try waitForLog("first fix")
        // strace's child is the daemon: signals go to it, not to strace.
        let children = try String(contentsOfFile: "/proc/\(child.pid)/task/\(child.pid)/children", encoding: .utf8)
        let daemon = try XCTUnwrap(Int32(children.split(separator: " ").first ?? ""), "strace's child: \(children)")
        for i in 1...4 {
            try write(zoom: 14 + i % 2)
            kill(daemon, SIGHUP)
            try waitForLog("configuration reloaded", occurrences: i)
        }
        kill(daemon, SIGTERM)
        XCTAssertEqual(child.wait(timeout: 20), 0, child.stderr)
        let closes = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { $0.contains("close(") }
        XCTAssertGreaterThan(closes.count, 8, "strace saw the closes")
        let bad = closes.filter { $0.contains("EBADF") }
        XCTAssertEqual(bad, [], "descriptors closed twice (or never opened) over 4 reloads")
    }
}
