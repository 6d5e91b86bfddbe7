import Foundation
import PNG
import TestSupport
import XCTest

/// The frame loop allocates nothing after warm-up, measured: the daemon runs N and then 2N frames
/// (`output = none`, the hidden `--frames N`) under valgrind (`HeapCount`), and the heap's total
/// allocation count must be the same for both — every frame past the first N added none.
final class RunAllocationTests: XCTestCase {
    private func allocations(frames: Int, extra: [String] = [], said: String? = nil) throws -> Int {
        let binary = try TestEnvironment.pulsedotBinary()
        let dir = try TestEnvironment.temporaryDirectory("run-alloc")
        defer { try? FileManager.default.removeItem(at: dir) }
        // An empty file: the defaults, whatever /etc/pulsedot holds on this machine.
        try "".write(to: dir.appendingPathComponent("none.conf"), atomically: true, encoding: .utf8)
        let args = ["run", "--config", dir.appendingPathComponent("none.conf").path,
                    "--set", "display.output=none", "--set", "display.mode=640x400", "--set", "source.position=45.5017,-73.5673",
                    "--set", "log.summaryEvery=0", "--frames", String(frames),
                    // The metrics file is written at start and then every `every` seconds, outside
                    // any frame: one write in both runs, however slow valgrind makes them.
                    "--set", "metrics.textfile=\(dir.path)/pulsedot.prom", "--set", "metrics.every=3600"] + extra
        let run = try HeapCount.run(binary, args)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("\(frames) frames drawn (--frames): stopping"), run.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path + "/pulsedot.prom"), "the metrics file was written: \(run.stderr)")
        if let said { XCTAssertTrue(run.stderr.contains(said), "\(said): \(run.stderr)") }
        return run.allocations
    }

    /// N more frames allocated nothing: the two runs' counts equal but for what start-up does in
    /// an order the machine's load decides — the first frames before or after the source's first
    /// fix (a state change said, or not), two threads meeting the Swift runtime's lazily made type
    /// metadata — a difference of 1 measured (once under CI's load, the N run one more), a few at
    /// most. One allocation a frame would add N.
    private func assertNoAllocationPerFrame(_ once: Int, _ twice: Int, _ n: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertGreaterThan(once, 0, "valgrind counted nothing: the measurement did not run", file: file, line: line)
        // Fewer allocations in the longer run is start-up order (the worker thread), never a frame's.
        XCTAssertLessThanOrEqual(twice - once, 3, "\(n) more frames made \(twice - once) more allocations", file: file, line: line)
    }

    private func requireValgrind() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind") else {
            throw TestFailure("valgrind is needed (sudo deploy/install-deps --test)")
        }
    }

    func testFramesAfterWarmUpAllocateNothing() throws {
        try requireValgrind()
        let n = 60
        let once = try allocations(frames: n)
        let twice = try allocations(frames: 2 * n)
        assertNoAllocationPerFrame(once, twice, n)
    }

    func testFramesWithAMovingViewOverAMapImageAllocateNothing() throws {
        try requireValgrind()
        // The fixed position off-centre on a map image with follow = center: every frame checks
        // the view, the first moves it (the whole window recomposed), the rest restore the map.
        let dir = try TestEnvironment.temporaryDirectory("run-alloc-map")
        defer { try? FileManager.default.removeItem(at: dir) }
        let map = dir.appendingPathComponent("map.png")
        try writeMapImage(to: map, width: 1000, height: 700)
        let extra = ["--set", "map.image=\(map.path)", "--set", "map.bounds=-73.60,45.49,-73.54,45.52",
                     "--set", "map.follow=center", "--set", "source.position=45.50,-73.59"]
        let n = 40
        let once = try allocations(frames: n, extra: extra)
        let twice = try allocations(frames: 2 * n, extra: extra)
        assertNoAllocationPerFrame(once, twice, n)
    }

    func testFramesOverATiledMapAllocateNothingOnceItsTilesAreIn() throws {
        try requireValgrind()
        // A small made-up city in JPEG tiles (the quickest to decode): the first frames ask for
        // the tiles in view and the ring around them, decoded on the worker (whose libjpeg
        // allocations count too); after that the view stands still and frames allocate nothing.
        let dir = try TestEnvironment.temporaryDirectory("run-alloc-tiles")
        defer { try? FileManager.default.removeItem(at: dir) }
        let city = dir.appendingPathComponent("city.mbtiles").path
        let made = try runProgram(try TestEnvironment.pulsedotBinary(), ["bench", "--write-city", city, "--city-tiles", "8x8", "--tile-format", "jpeg"])
        XCTAssertEqual(made.status, 0, made.stderr)
        let extra = ["--set", "map.tiles=\(city)", "--set", "map.zoom=17", "--set", "map.follow=center",
                     "--set", "source.position=52.5560,13.3700"]
        let n = 300
        let once = try allocations(frames: n, extra: extra)
        let twice = try allocations(frames: 2 * n, extra: extra)
        // The tile worker is a second thread: ±1 between runs measured, whatever the frame count.
        // An allocation per frame would add hundreds, one per tile dozens.
        assertNoAllocationPerFrame(once, twice, n)
    }

    func testFramesFollowingATripAllocateNothing() throws {
        try requireValgrind()
        // The Fortaleza feed's index built beforehand, as on a depot machine: the daemon's worker
        // only hashes the feed and loads the trip; the fixed position is the trip's first stop.
        let dir = try TestEnvironment.temporaryDirectory("run-alloc-transit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let feed = TransitImportTests.feed, trip = "D804-T01V01B01-I", cache = dir.path + "/cache"
        let built = try runProgram(try TestEnvironment.pulsedotBinary(), ["transit", "import", feed, "--cache", cache], timeout: 120)
        XCTAssertEqual(built.status, 0, built.stderr)
        let times = try runProgram("/usr/bin/unzip", ["-p", feed, "stop_times.txt"]).stdout.split(whereSeparator: \.isNewline)
        let first = try XCTUnwrap(times.first { $0.hasPrefix(trip + ",") && $0.split(separator: ",", omittingEmptySubsequences: false)[4] == "1" })
        let stopID = first.split(separator: ",", omittingEmptySubsequences: false)[3]
        let stop = try XCTUnwrap(try runProgram("/usr/bin/unzip", ["-p", feed, "stops.txt"]).stdout.split(whereSeparator: \.isNewline)
            .first { $0.hasPrefix(stopID + ",") })
        // stop_lat and stop_lon are the 8th and 7th fields from the end (a name may hold commas).
        let fields = stop.split(separator: ",", omittingEmptySubsequences: false)
        let position = "\(fields[fields.count - 8]),\(fields[fields.count - 7])"
        let extra = ["--set", "transit.gtfs=\(feed)", "--set", "transit.trip=\(trip)", "--set", "transit.cache=\(cache)",
                     "--set", "source.position=\(position)"]
        let n = 300
        let once = try allocations(frames: n, extra: extra, said: "transit: trip \(trip)")
        let twice = try allocations(frames: 2 * n, extra: extra, said: "transit: trip \(trip)")
        assertNoAllocationPerFrame(once, twice, n)
    }

    /// A light grey map with a darker grid every 50 px.
    private func writeMapImage(to url: URL, width: Int, height: Int) throws {
        var rgb = [UInt8](repeating: 0xE0, count: width * height * 3)
        for y in 0..<height { for x in 0..<width where x % 50 == 0 || y % 50 == 0 {
            let i = (y * width + x) * 3
            rgb[i] = 0x90; rgb[i + 1] = 0x90; rgb[i + 2] = 0x90
        } }
        try PNGWrite.rgb(width: width, height: height, rgb: rgb, to: url.path)
    }
}
