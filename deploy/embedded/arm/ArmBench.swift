// The benchmark's frame step (FrameBench, the code `pulsedot bench` runs) as a static ARM Linux
// program, compiled as Embedded Swift by deploy/embedded/arm-check. For every configuration it prints one
// line with the same combined hash `pulsedot bench` prints on the host, and it calls
// `pulsedot_frame_begin`/`_end` around each frame step so the instruction-counting QEMU plugin
// (insn-count.c) counts frames alone. Embedded Swift has no command line: the configurations
// come from the environment variable ARM_BENCH, separated by ';', each
// "scene format WxH scale look frames [composition]" (e.g. "moving xrgb8888 1920x1080 1 stock 180",
// "moving xrgb8888 1920x1080 1 stock 360 planes"). Each result
// line ends with the heap allocations made inside frames after the two first.
import FrameBench
import Raster

@_extern(c, "getenv") func c_getenv(_ name: UnsafePointer<CChar>) -> UnsafePointer<CChar>?
@_extern(c, "exp") func c_exp(_ x: Double) -> Double
@_extern(c, "putchar") func c_putchar(_ c: Int32) -> Int32

/// Where the counting plugin reads its count: as each frame step begins and as it ends, so the
/// hashing between frames is not counted. In C (markers.c), so the calls stay calls.
@_extern(c, "pulsedot_frame_begin") func frameBegin(_ frame: Int)
@_extern(c, "pulsedot_frame_end") func frameEnd(_ frame: Int)
@_extern(c, "pulsedot_frame_allocations") func frameAllocations() -> Int

func write(_ text: String) {
    for b in text.utf8 { _ = c_putchar(Int32(b)) }
}

func hex(_ v: UInt64) -> String {
    let digits: [UInt8] = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    for i in stride(from: 60, through: 0, by: -4) { out.append(digits[Int((v >> UInt64(i)) & 15)]) }
    return String(decoding: out, as: UTF8.self)
}

struct Configuration {
    var options = BenchOptions()
    var text: String

    /// "moving xrgb8888 1920x1080 1 stock 180", optionally followed by "planes" or "software"
    init?(_ line: String) {
        let parts = line.split(separator: " ").map(String.init)
        guard parts.count == 6 || parts.count == 7 else { return nil }
        if parts.count == 7 {
            guard let composition = BenchOptions.Composition(rawValue: parts[6]) else { return nil }
            options.composition = composition
        }
        guard let scene = BenchOptions.Scene(rawValue: parts[0]), let format = PixelFormat(rawValue: parts[1]),
              let look = BenchOptions.Look(rawValue: parts[4]), let frames = Int(parts[5]) else { return nil }
        let size = parts[2].split(separator: "x")
        guard size.count == 2, let w = Int(String(size[0])), let h = Int(String(size[1])) else { return nil }
        guard let scale = Int(parts[3]) else { return nil }
        options.scene = scene
        options.format = format
        options.width = w
        options.height = h
        options.scale = Double(scale)
        options.look = look
        options.frames = frames
        text = line
    }
}

@main
struct ArmBench {
    static func main() {
        // The float ABI: a libm result through the C calling convention, compared on the host.
        write("libm exp(1.5) " + hex(c_exp(1.5).bitPattern) + "\n")
        var lines: [String] = []
        if let p = c_getenv("ARM_BENCH") {
            var bytes: [UInt8] = []
            var q = p
            while q.pointee != 0 { bytes.append(UInt8(bitPattern: q.pointee)); q += 1 }
            for line in String(decoding: bytes, as: UTF8.self).split(separator: ";") { lines.append(String(line)) }
        }
        for line in lines {
            guard let c = Configuration(line) else {
                write("bad configuration: " + line + "\n")
                continue
            }
            let frames: BenchFrames
            do {
                frames = try BenchFrames(c.options)
            } catch {
                write("setup failed: " + c.text + "\n")
                continue
            }
            var combined = BenchHash.offset
            var before = frameAllocations()
            for n in 0..<c.options.frames {
                // The two first frames (full redraws, one per scan-out buffer) may still grow scratch.
                if n == 2 { before = frameAllocations() }
                frameBegin(n)
                _ = frames.step(n)
                frameEnd(n)
                combined = (combined ^ frames.hash(n)) &* BenchHash.prime
            }
            let allocations = frameAllocations() - before
            write(c.text + " " + hex(combined) + " allocations " + String(allocations) + "\n")
        }
    }
}
