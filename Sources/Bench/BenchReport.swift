import FrameBench
import Metrics
import Raster
import Syscall
import TileMap
import Tiles

/// What `pulsedot bench` prints, text or JSON, written through one fixed buffer: printing a hash per
/// frame allocates nothing per frame, so memcheck's allocation count for N and 2N frames can be
/// equal.
public struct BenchReport {
    public let run: BenchRun

    public init(_ run: BenchRun) { self.run = run }

    /// The two first frames are full frames (one per scan-out buffer); the means leave them out.
    var steady: Range<Int> { min(2, run.options.frames)..<run.options.frames }

    func mean(_ v: [Int]) -> Int {
        let r = steady
        if r.isEmpty { return 0 }
        var sum = 0
        for i in r { sum += v[i] }
        return (sum + r.count / 2) / r.count
    }

    var bytesPerPixel: Int { run.options.format.bytesPerPixel }

    /// p50, p99 and max of the frame times in nanoseconds (nearest rank).
    var times: (p50: Int64, p99: Int64, max: Int64) {
        var sorted = run.nanoseconds
        if sorted.isEmpty { return (0, 0, 0) }
        sorted.withUnsafeMutableBufferPointer { FrameTimes.heapSort($0.baseAddress!, $0.count) }
        func rank(_ p: Int) -> Int64 { sorted[max(0, (p * sorted.count + 99) / 100 - 1)] }
        return (rank(50), rank(99), sorted[sorted.count - 1])
    }

    public func writeText(to out: inout BenchWriter) {
        let o = run.options
        out.line("pulsedot bench: \(run.sceneName), \(o.format.rawValue) \(o.width)x\(o.height)\(o.rotation == .r0 ? "" : ", turned \(o.rotation.degrees)°"), scale \(o.scale), \(o.look.rawValue) look, \(o.composition.rawValue) composition, \(o.frames) frames")
        for n in 0..<o.frames {
            out.text("frame "); out.int(n)
            if run.hashing { out.text(": hash "); out.hex(run.hashes[n]) } else { out.text(": hash -") }
            out.text(", touched "); out.int(run.touched[n])
            out.text(" px, copied "); out.int(run.copied[n] * bytesPerPixel)
            out.text(" bytes\n")
        }
        let t = times
        out.line("pixels touched per frame: \(mean(run.touched)) (mean after the 2 first full frames)")
        out.line("bytes copied per frame: \(mean(run.copied) * bytesPerPixel) (mean after the 2 first full frames)")
        out.line("frame time: p50 \(Self.ms(t.p50)) ms, p99 \(Self.ms(t.p99)) ms, max \(Self.ms(t.max)) ms (wall time, informational)")
        if run.hashing {
            out.text("hash: "); out.hex(BenchHash.combine(run.hashes)); out.text(" (all frames)\n")
        } else {
            out.line("hash: not computed (--no-hash)")
        }
        if let drive = run.drive {
            let m = drive.map
            out.line("tiles: \(m.tilesDecoded) decoded on the worker, \(m.tilesFailed) failed; cache \(m.cacheSlots) tiles (\(m.cacheBytes >> 20) MiB), \(m.tileSet.path)")
        }
        if run.verified {
            if let first = run.firstMismatch {
                out.line("verify: FAILED: \(run.mismatches) of \(o.frames) frames differ from the reference painter by more than \(BenchTolerance.allowed(o.format)) in a channel, the first is frame \(first) (largest difference \(run.largestDifference))")
            } else if run.inexact == 0 {
                out.line("verify: all \(o.frames) frames equal the reference painter's (full redraw, no damage, no masks)")
            } else {
                out.line("verify: all \(o.frames) frames within \(BenchTolerance.allowed(o.format)) of the reference painter's in every channel (full redraw, no damage, no masks): \(o.frames - run.inexact) equal, \(run.inexact) with a faint halo's profiled edge, largest difference \(run.largestDifference)")
            }
        }
    }

    public func writeJSON(to out: inout BenchWriter) {
        let o = run.options, t = times
        out.text("{\"scene\":\"\(run.sceneName)\",\"format\":\"\(o.format.rawValue)\",\"width\":\(o.width),\"height\":\(o.height)")
        out.text(",\"scale\":\(o.scale),\"look\":\"\(o.look.rawValue)\",\"composition\":\"\(o.composition.rawValue)\",\"frames\":\(o.frames)")
        out.text(",\"pixelsTouchedPerFrame\":\(mean(run.touched)),\"bytesCopiedPerFrame\":\(mean(run.copied) * bytesPerPixel)")
        out.text(",\"frameTimeNs\":{\"p50\":\(t.p50),\"p99\":\(t.p99),\"max\":\(t.max)}")
        out.text(",\"hash\":\""); out.hex(BenchHash.combine(run.hashes)); out.text("\"")
        if let ok = verified { out.text(",\"verified\":\(ok)") }
        out.text(",\"perFrame\":[")
        for n in 0..<o.frames {
            out.text(n == 0 ? "{\"hash\":\"" : ",{\"hash\":\""); out.hex(run.hashes[n])
            out.text("\",\"touched\":"); out.int(run.touched[n])
            out.text(",\"bytesCopied\":"); out.int(run.copied[n] * bytesPerPixel)
            out.text(",\"ns\":"); out.int(Int(run.nanoseconds[n]))
            out.text("}")
        }
        out.text("]}\n")
    }

    /// nil without `--verify`.
    var verified: Bool? { run.verified ? run.mismatches == 0 : nil }

    static func ms(_ ns: Int64) -> String {
        let us = (ns + 500) / 1000
        let frac = us % 1000
        return "\(us / 1000)." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + "\(frac)"
    }
}

/// Text out through one fixed buffer, flushed to a descriptor when full and at the end.
public struct BenchWriter: ~Copyable {
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity = 1 << 16
    private var used = 0
    private let fd: FileDescriptor

    public init(fd: Int32 = 1) {
        buffer = .allocate(capacity: capacity)
        self.fd = FileDescriptor(rawValue: fd, name: fd == 1 ? "standard output" : "descriptor \(fd)")
    }

    deinit { buffer.deallocate() }

    mutating func byte(_ b: UInt8) {
        if used == capacity { flush() }
        buffer[used] = b
        used += 1
    }

    mutating func text(_ s: String) {
        var s = s
        s.withUTF8 { for b in $0 { byte(b) } }
    }

    mutating func line(_ s: String) { text(s); byte(10) }

    mutating func int(_ v: Int) {
        if v < 0 { byte(45); int(-v); return }
        if v >= 10 { int(v / 10) }
        byte(48 + UInt8(v % 10))
    }

    mutating func hex(_ v: UInt64) {
        var shift = 60
        while shift >= 0 {
            let d = UInt8((v >> UInt64(shift)) & 15)
            byte(d < 10 ? 48 + d : 87 + d)
            shift -= 4
        }
    }

    public mutating func flush() {
        if used == 0 { return }
        _ = try? fd.write(UnsafeRawBufferPointer(start: buffer, count: used))
        used = 0
    }
}
