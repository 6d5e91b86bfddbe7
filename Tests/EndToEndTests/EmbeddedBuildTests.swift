import Foundation
import TestSupport
import XCTest

/// The whole daemon built as Embedded Swift for armhf (and arm64 with
/// `PULSEDOT_EMBEDDED_ARCHES=arm64,armhf`; `deploy/embedded/build-embedded`), run under qemu-user, against
/// the x86-64 build the other tests run: the same bytes from `render`,
/// `demo` (a replayed drive over tiles, every frame and `frames.jsonl`) and `check-config`, and a
/// replayed `run` to PNG frames that draws the same positions and stops cleanly.
final class EmbeddedBuildTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try TestEnvironment.temporaryDirectory("embedded")
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    private func host(_ arguments: [String], timeout: Double = 300) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProgram(try TestEnvironment.pulsedotBinary(), arguments, timeout: timeout)
    }

    private func bytes(_ path: URL) throws -> Data { try Data(contentsOf: path) }

    func testRenderIsBitIdenticalOnARM() throws {
        let looks: [[String]] = [
            ["--at", "0.7"],
            ["--at", "1.25", "--width", "320", "--height", "200", "--format", "rgb565", "--heading", "37.5",
             "--set", "annotationColor=#FF3B30", "--set", "pulseScaleFactor=3.25", "--scale", "1.5"],
        ]
        for arch in EmbeddedBinaries.tested {
            for (i, look) in looks.enumerated() {
                let mine = dir.appendingPathComponent("\(arch)-\(i).png"), theirs = dir.appendingPathComponent("host-\(i).png")
                let run = try EmbeddedBinaries.run(arch, ["render", "--out", mine.path] + look)
                XCTAssertEqual(run.status, 0, "\(arch) render \(look): \(run.stderr)")
                let reference = try host(["render", "--out", theirs.path] + look)
                XCTAssertEqual(reference.status, 0, reference.stderr)
                XCTAssertEqual(try bytes(mine), try bytes(theirs), "\(arch): render \(look.joined(separator: " ")) differs from x86-64")
            }
        }
    }

    func testCheckConfigSaysTheSameOnARM() throws {
        // Numbers in every spelling the parser takes (the C-locale strtod shim), colours, durations.
        let good = dir.appendingPathComponent("good.conf"), bad = dir.appendingPathComponent("bad.conf")
        try """
            [dot]
            annotationColor = #FF3B30
            pulseScaleFactor = 2.5e0
            pulseAnimationDuration = 1.75
            [display]
            fps = 24.5
            mode = 800x480
            [map]
            zoom = 17.25
            [source]
            position = 45.508450,-73.568570
            staleAfter = inf
            """.write(to: good, atomically: true, encoding: .utf8)
        try "[display]\nfps = 2e400\n[dot]\npulseColr = #00FF00\n".write(to: bad, atomically: true, encoding: .utf8)
        for arch in EmbeddedBinaries.tested {
            for (file, expected) in [(good, Int32(0)), (bad, Int32(1))] {
                let mine = try EmbeddedBinaries.run(arch, ["check-config", file.path])
                let theirs = try host(["check-config", file.path])
                XCTAssertEqual(theirs.status, expected, theirs.stdout + theirs.stderr)
                XCTAssertEqual(mine.status, theirs.status, "\(arch) check-config \(file.lastPathComponent): \(mine.stderr)")
                XCTAssertEqual(mine.stdout, theirs.stdout, "\(arch) check-config \(file.lastPathComponent)")
                XCTAssertEqual(mine.stderr, theirs.stderr, "\(arch) check-config \(file.lastPathComponent)")
            }
        }
    }

    func testDemoWritesTheSameFilesOnARM() throws {
        // Every build writes to the same folder (demo.conf names it), moved aside after each.
        let out = dir.appendingPathComponent("demo"), reference = dir.appendingPathComponent("host")
        // Without the trip's banner: its glyphs, FreeType's from the system's fonts, differ from
        // x86-64's by one level in a pixel or two of a frame on armhf. The trip itself (the feed,
        // its index, the line on the map, frames.jsonl's next stops) is compared.
        let arguments = ["demo", "--out", out.path, "--seconds", "5", "--set", "transit.banner=none"]
        let made = try host(arguments)
        XCTAssertEqual(made.status, 0, made.stderr)
        try FileManager.default.moveItem(at: out, to: reference)
        let names = try Self.files(under: reference)
        XCTAssertTrue(names.contains("frames.jsonl") && names.contains("contact-sheet.png") && names.contains("demo.conf")
                      && names.contains("town-gtfs/stop_times.txt"), "\(names)")
        XCTAssertGreaterThan(names.filter { $0.hasPrefix("frame-") }.count, 10, "\(names)")
        for arch in EmbeddedBinaries.tested {
            let run = try EmbeddedBinaries.run(arch, arguments, timeout: 600)
            XCTAssertEqual(run.status, 0, "\(arch) demo: \(run.stderr)")
            XCTAssertEqual(run.stdout, made.stdout, "\(arch): what the demo says")
            XCTAssertEqual(try Self.files(under: out), names, "\(arch): the demo's files")
            for name in names {
                let mine = out.appendingPathComponent(name), theirs = reference.appendingPathComponent(name)
                XCTAssertEqual(try bytes(mine), try bytes(theirs), "\(arch): demo file \(name) differs from x86-64")
            }
            try FileManager.default.moveItem(at: out, to: dir.appendingPathComponent("\(arch)"))
        }
    }

    /// The files in `folder` and its subfolders (the feed, the index cache), as paths below it.
    private static func files(under folder: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder) && !isFolder.boolValue
        }.sorted()
    }

    func testReplayedRunDrawsTheSamePositionsAndStopsCleanlyOnARM() throws {
        let drive = DriveNMEA.straight(from: 45.5, -73.6, count: 8)
        let log = dir.appendingPathComponent("drive.nmea")
        try (drive.lines.joined(separator: "\r\n") + "\r\n").write(to: log, atomically: true, encoding: .utf8)
        func config(_ frames: URL) -> String {
            """
            [source]
            replay = \(log.path)
            replaySpeed = 20
            staleAfter = 600
            \(ConfigSnippet.pngDisplay(frames.path, mode: "320x200", fps: 10, pngFps: 5))
            [map]
            zoom = 18
            """
        }
        func lastFrame(_ frames: URL) throws -> [String: Any] {
            let text = try String(contentsOf: frames.appendingPathComponent("frames.jsonl"), encoding: .utf8)
            let line = try XCTUnwrap(text.split(separator: "\n").last, "no frames in \(frames.path)")
            return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        var results: [String: [String: Any]] = [:]
        for arch in ["host"] + EmbeddedBinaries.tested.map(\.rawValue) {
            let frames = dir.appendingPathComponent("frames-\(arch)")
            let conf = dir.appendingPathComponent("\(arch).conf")
            try config(frames).write(to: conf, atomically: true, encoding: .utf8)
            // 30 frames at 10 fps: the 8 fixes at 20× are all in after 0.4 s.
            let arguments = ["run", "--config", conf.path, "--frames", "30"]
            let run = try arch == "host" ? host(arguments, timeout: 120)
                : EmbeddedBinaries.run(EmbeddedBinaries.Arch(rawValue: arch)!, arguments, timeout: 300)
            XCTAssertEqual(run.status, 0, "\(arch) run: \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("30 frames drawn (--frames): stopping"), "\(arch): \(run.stderr)")
            results[arch] = try lastFrame(frames)
        }
        let reference = try XCTUnwrap(results["host"])
        XCTAssertEqual(reference["state"] as? String, "live", "\(reference)")
        XCTAssertEqual(reference["lat"] as? Double, drive.fixes.last!.lat, "\(reference)")
        XCTAssertEqual(reference["lon"] as? Double, drive.fixes.last!.lon, "\(reference)")
        for arch in EmbeddedBinaries.tested {
            let mine = try XCTUnwrap(results[arch.rawValue])
            for key in ["state", "lat", "lon", "x", "y", "accuracyPx", "heading"] {
                XCTAssertEqual("\(mine[key] ?? "none")", "\(reference[key] ?? "none")", "\(arch): last frame's \(key)")
            }
        }
    }
}
