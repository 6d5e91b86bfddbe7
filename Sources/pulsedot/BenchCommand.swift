import Bench
import FrameBench
import Daemon
import Raster
import Syscall

// `pulsedot bench`: argument parsing only; the benchmark lives in Daemon's Bench*.swift (see BENCHMARKS.md).

let benchUsage = Usage(command: "bench", summary: "measure the frame path (damage, paint, copy-out) over a textured map", options: [
    .valued("width", "W", "frame width in pixels (default 1920, from 16 to 16384)"),
    .valued("height", "H", "frame height in pixels (default 1080, from 16 to 16384)"),
    .valued("format", "xrgb8888|rgb565", "the pixel format copied out to (default xrgb8888)"),
    .valued("rotation", "0|90|180|270", "turn the frame clockwise on its way to the panel; width and height are the panel's (default 0)"),
    .valued("scale", "S", "pixels per point (default 1, from 0.25 to 8)"),
    .valued("frames", "N", "how many frames (default 180, from 1 to 1000000)"),
    .valued("scene", "static|moving|pan|copy|drive", "what moves (default moving; copy: a plain full-frame copy-out, the baseline; drive: through a city of tiles, following the dot)"),
    .valued("tiles", "PATH", "the drive scene's MBTiles file (default: the made-up city, written once to /var/tmp)"),
    .valued("look", "stock|default", "the dot's look: stock iOS, or the README defaults (default stock)"),
    .valued("tile-format", "png|jpeg", "the drive scene's tiles (default png)"),
    .valued("write-city", "PATH", "only write the made-up city the drive scene drives through, as an MBTiles file, and stop"),
    .valued("city-tiles", "COLUMNSxROWS", "the city's size in zoom-17 tiles (default 72x60: 4,320 tiles)"),
    .valued("composition", "software|planes", "the dot painted into the frame, or as its own picture for a display plane, the frame holding the map alone (default software)"),
    .flag("route", "a bus route along the dot's path, drawn into the map, its travelled part moved once a second"),
    .valued("vehicles", "N", "N vehicles' markers moving over the map as a stop kiosk draws them (default 0, at most 100; software composition, moving or static scene)"),
    .valued("count-from", "N", "frames from N on run through the step callgrind's --toggle-collect counts (deploy/bench/bench-guard; default: none)"),
    .flag("no-hash", "skip each frame's hash (counting runs: the hash costs more than the frame)"),
    .flag("json", "the report as one JSON object"),
    .flag("verify", "render every frame again the plain way and compare; exit 2 when any differs"),
], notes: "See BENCHMARKS.md.")

func benchCommand(_ args: Arguments) -> Int32 {
    do throws(BenchError) {
        guard args.positional.isEmpty else { return fail("bench: unexpected argument '\(args.positional[0])'") }
        var tileFormat = BenchCity.Format.png
        if let text = args.value("tile-format") {
            guard let f = BenchCity.Format(rawValue: text) else { return fail("bench: --tile-format \(text): expected png or jpeg") }
            tileFormat = f
        }
        var city = (columns: 72, rows: 60)
        if let text = args.value("city-tiles") {
            let parts = text.split(separator: "x")
            guard parts.count == 2, let c = Int(parts[0]), let r = Int(parts[1]), (8...512).contains(c), (8...512).contains(r) else {
                return fail("bench: --city-tiles \(text): expected COLUMNSxROWS, each 8 to 512")
            }
            city = (c, r)
        }
        if let path = args.value("write-city") {
            try BenchCity.write(to: path, format: tileFormat, columns: city.columns, rows: city.rows)
            print("bench: wrote \(city.columns)x\(city.rows) tiles (\(tileFormat.rawValue)) to \(path)")
            return 0
        }
        var o = BenchOptions()
        do {
            o.width = try args.int("width", default: o.width, range: 16...16384)
            o.height = try args.int("height", default: o.height, range: 16...16384)
            o.scale = try args.double("scale", default: o.scale, range: 0.25...8)
            o.frames = try args.int("frames", default: o.frames, range: 1...1_000_000)
        } catch {
            return fail("bench: \(error)")
        }
        if let text = args.value("format") {
            guard let f = PixelFormat(rawValue: text) else { return fail("bench: --format \(text): expected xrgb8888 or rgb565") }
            o.format = f
        }
        if let text = args.value("rotation") {
            guard let d = Int(text), let r = Rotation(degrees: d) else { return fail("bench: --rotation \(text): expected 0, 90, 180 or 270") }
            o.rotation = r
            (o.width, o.height) = r.logicalSize(physicalWidth: o.width, physicalHeight: o.height)
        }
        var driveTiles: String?
        if let text = args.value("scene"), text == "drive" {
            o.scene = .pan
            if let path = args.value("tiles") {
                driveTiles = path
            } else {
                driveTiles = try cityFile(format: tileFormat, columns: city.columns, rows: city.rows)
            }
            if args.has("verify") { return fail("bench: --verify has no reference for the drive scene (the reference painter draws no tiles)") }
            if o.rotation != .r0 { return fail("bench: --rotation is not measured for the drive scene (its frames are copied out unturned)") }
        } else if let text = args.value("scene") {
            guard let s = BenchOptions.Scene(rawValue: text) else {
                return fail("bench: --scene \(text): expected static, moving, pan, copy or drive")
            }
            o.scene = s
        }
        if let text = args.value("look") {
            guard let l = BenchOptions.Look(rawValue: text) else { return fail("bench: --look \(text): expected stock or default") }
            o.look = l
        }
        if let text = args.value("composition") {
            guard let c = BenchOptions.Composition(rawValue: text) else { return fail("bench: --composition \(text): expected software or planes") }
            if c == .planes {
                if o.rotation != .r0 { return fail("bench: --composition planes keeps rotation 0 (a turned panel composes in software)") }
                if args.has("verify") { return fail("bench: --verify holds whole frames against the reference painter; with planes the frame has no dot") }
            }
            o.composition = c
        }
        if args.has("route") {
            if o.scene == .copy { return fail("bench: --route draws the route into the map; the copy scene copies one frame") }
            o.route = true
        }
        if args.value("vehicles") != nil {
            do { o.vehicles = try args.int("vehicles", default: 0, range: 0...100) } catch { return fail("bench: \(error)") }
            if o.vehicles > 0 {
                guard driveTiles == nil, o.scene == .moving || o.scene == .static, o.composition == .software, !args.has("verify") else {
                    return fail("bench: --vehicles draws markers over the moving or static scene in software (not with --verify, whose reference has none)")
                }
            }
        }
        var countFrom = Int.max
        if args.value("count-from") != nil {
            do { countFrom = try args.int("count-from", default: 0, range: 0...o.frames) } catch { return fail("bench: \(error)") }
        }
        if args.has("no-hash"), args.has("verify") { return fail("bench: --verify compares hashes; it cannot run with --no-hash") }
        let run = try BenchRun(o, verify: args.has("verify"), drive: driveTiles, hashing: !args.has("no-hash"), countFrom: countFrom)
        try run.run()
        var out = BenchWriter()
        let report = BenchReport(run)
        if args.has("json") { report.writeJSON(to: &out) } else { report.writeText(to: &out) }
        out.flush()
        if run.mismatches > 0 {
            return fail("bench --verify: \(run.mismatches) of \(o.frames) frames differ from the reference painter by more than the tolerance (first: frame \(run.firstMismatch ?? 0), largest difference \(run.largestDifference))")
        }
        return 0
    } catch {
        return fail("bench: \(error)")
    }
}

/// The made-up city the drive scene uses unless `--tiles` names a file: written once per size and
/// format to /var/tmp (minutes in a debug build), then reused.
func cityFile(format: BenchCity.Format, columns: Int, rows: Int) throws(BenchError) -> String {
    let path = "/var/tmp/pulsedot-bench-city-v1-\(columns)x\(rows).\(format.rawValue).mbtiles"
    if (try? FileStatus(path: path)) == nil {
        try BenchCity.write(to: path, format: format, columns: columns, rows: rows)
    }
    return path
}
