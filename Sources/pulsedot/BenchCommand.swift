import Bench
import Daemon
import Raster

// `pulsedot bench [--width W --height H] [--format xrgb8888|rgb565] [--scale S] [--frames N]
//   [--scene static|moving|pan|copy] [--look stock|default] [--json] [--verify]`
// Argument parsing only; the benchmark lives in Daemon's Bench*.swift (see BENCHMARKS.md).

func benchCommand(_ argv: ArraySlice<String>) -> Int32 {
    do {
        let args = try Arguments(argv, valued: ["width", "height", "format", "scale", "frames", "scene", "look"],
                                 booleans: ["json", "verify"])
        guard args.positional.isEmpty else { return fail("bench: unexpected argument '\(args.positional[0])'") }
        var o = BenchOptions()
        o.width = try args.int("width", default: o.width, range: 16...16384)
        o.height = try args.int("height", default: o.height, range: 16...16384)
        o.scale = try args.double("scale", default: o.scale, range: 0.25...8)
        o.frames = try args.int("frames", default: o.frames, range: 1...1_000_000)
        if let text = args.value("format") {
            guard let f = PixelFormat(rawValue: text) else { return fail("bench: --format \(text): expected xrgb8888 or rgb565") }
            o.format = f
        }
        if let text = args.value("scene") {
            guard let s = BenchOptions.Scene(rawValue: text) else {
                return fail("bench: --scene \(text): expected static, moving, pan or copy")
            }
            o.scene = s
        }
        if let text = args.value("look") {
            guard let l = BenchOptions.Look(rawValue: text) else { return fail("bench: --look \(text): expected stock or default") }
            o.look = l
        }
        let run = try BenchRun(o, verify: args.has("verify"))
        run.run()
        var out = BenchWriter()
        let report = BenchReport(run)
        if args.has("json") { report.writeJSON(to: &out) } else { report.writeText(to: &out) }
        out.flush()
        if run.mismatches > 0 {
            return fail("bench --verify: \(run.mismatches) of \(o.frames) frames differ from the reference painter (first: frame \(run.firstMismatch ?? 0))")
        }
        return 0
    } catch {
        return fail("bench: \(error)")
    }
}
