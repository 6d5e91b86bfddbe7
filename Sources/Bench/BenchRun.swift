import Compositor
import DisplayCore
import FrameBench
import LocationDot
import Loop
import Raster
import Syscall
import TileMap

/// `pulsedot bench`: N frames made by the daemon's own code over a textured map in RAM (or a
/// city of tiles): `FrameLoop`, the loop `run` and `show` turn, on virtual time, asks for each
/// frame; the daemon's `FrameStep` draws it (restore the damage, this frame's and the previous
/// frame's dot, from the background; paint the dot); the loop presents it to `BenchDisplay`, which
/// copies the damage into one of two scan-out buffers in turn (written, never read but to hash).
/// Every frame is computed; nothing is carried from one frame to the next but what the daemon
/// carries (the canvas, last frame's damage). A frame never allocates; the per-frame records are
/// allocated before the first frame.
public final class BenchRun {
    public let options: BenchOptions
    /// The frames: over a textured map in RAM (`BenchFrames`), or driving through tiles.
    public var frames: BenchFrames? { client.frames }
    public var drive: BenchDrive? { client.drive }
    /// With `composition = planes`: the daemon's plane layers over planes in memory.
    public var planes: BenchPlanes? { client.planes }
    /// Whether each frame's hash is computed (off: `--no-hash`, for counting runs, where the hash
    /// would cost far more than the frame it checks).
    public var hashing: Bool { client.hashing }
    /// The first frame the loop turns for inside `counted`, the marker `deploy/bench/bench-guard`
    /// counts between (`--count-from`); frames before it warm the caches and the map.
    public let countFrom: Int
    /// The scene's name in the report.
    public var sceneName: String { drive == nil ? options.scene.rawValue : "drive" }

    /// Per frame: pixels redrawn in the canvas, pixels copied out, wall time, hash.
    public var touched: [Int] { client.touched }
    public var copied: [Int] { client.copied }
    public var nanoseconds: [Int64] { client.nanoseconds }
    public var hashes: [UInt64] { client.hashes }
    /// With `verify`: frames beyond `BenchTolerance` of the reference painter's, and the first one.
    public var mismatches: Int { client.mismatches }
    public var firstMismatch: Int? { client.firstMismatch }
    /// With `verify`: frames not byte-equal to the reference painter's (all within the tolerance
    /// unless counted in `mismatches`), and the largest channel difference in the output's units.
    public var inexact: Int { client.inexact }
    public var largestDifference: Int { client.largestDifference }
    /// Whether the frames are being held against the reference painter.
    public var verified: Bool { client.reference != nil }
    /// The display's scan-out queue: every frame handed over by the loop, and the flips.
    public var scanoutStatistics: ScanoutQueue.Statistics { client.display.scanoutStatistics ?? ScanoutQueue.Statistics() }
    /// Seconds of virtual time the loop has turned through.
    public var elapsed: Double { waiting.elapsed }

    private let waiting = VirtualWaiting()
    private let loop: FrameLoop
    private let client: BenchLoop

    /// `drive`: the tiles file to drive through instead of `options.scene` (no `verify`: the
    /// reference painter has no tiles).
    public init(_ options: BenchOptions, verify: Bool = false, drive tiles: String? = nil, hashing: Bool = true,
                countFrom: Int = .max) throws(BenchError) {
        self.options = options
        self.countFrom = countFrom
        let frames: BenchFrames?, drive: BenchDrive?
        if let tiles {
            drive = try BenchDrive(options, tiles: tiles)
            frames = nil
        } else {
            drive = nil
            do { frames = try BenchFrames(options) } catch { throw BenchError(error) }
        }
        var planes: BenchPlanes?
        if options.composition == .planes {
            let step = drive?.frameStep ?? frames!.frameStep
            // The map pans on the primary plane where the view moves: over tiles, or the larger map.
            let painter: (any MapPicturePainter)? = drive?.map ?? (options.scene == .pan ? frames.map { MapImagePainter(map: $0.map) } : nil)
            planes = BenchPlanes(options, step: step, painter: painter)
        }
        let display = BenchDisplay(scanout: drive?.scanout ?? frames!.scanout, renderer: drive?.renderer ?? frames!.renderer,
                                   format: options.format)
        client = BenchLoop(options, frames: frames, drive: drive, planes: planes, display: display,
                           reference: verify ? frames.map { BenchReference(options, scene: $0.scene, map: $0.map) } : nil,
                           hashing: hashing || verify)
        // A second of virtual time past the last frame: the virtual clock's stop never comes first.
        waiting.limit = Double(options.frames) / BenchScene.frameRate + 1
        do { try waiting.setFrameRate(BenchScene.frameRate) } catch { throw BenchError(error) }
        loop = FrameLoop(waiting: waiting)
        client.prepareNext()
    }

    /// Runs every frame through the loop, timing each, hashing what reached the scan-out buffer,
    /// and (with `verify`) comparing it with the reference painter's frame.
    public func run() throws(BenchError) {
        try turn(until: min(countFrom, options.frames))
        if client.next < options.frames { try counted() }
    }

    /// The frames from `countFrom` on: the same loop behind a function of its own, so that
    /// callgrind's `--toggle-collect` counts exactly these frames in one run.
    @inline(never)
    public func counted() throws(BenchError) {
        client.counting = true
        defer { client.counting = false }
        try turn(until: options.frames)
    }

    /// The next frame alone, through the loop: the pixels it redrew and copied out.
    public func nextFrame() throws(BenchError) -> (touched: Int, copied: Int) {
        let n = client.next
        try turn(until: n + 1)
        return (touched[n], copied[n])
    }

    private func turn(until end: Int) throws(BenchError) {
        client.end = end
        do { try loop.run(client) } catch { throw BenchError(error) }
    }

    /// What frame `n` shows under the dot (`BenchLoop.shown`).
    public func shown(_ n: Int) -> PixelBuffer { client.shown(n) }
}

/// The straightforward path `--verify` holds the fast one against: every frame drawn from scratch
/// (the whole background copied, the dot drawn by `ReferenceDotPainter`, the whole frame converted
/// pixel by pixel), with no damage, no clip and no state carried between frames.
final class BenchReference {
    let scene: BenchScene
    let map: OwnedPixelBuffer
    let frame: OwnedPixelBuffer
    let out: OwnedPixelBuffer
    let painter: ReferenceDotPainter
    let clock: DotClock
    let rotation: Rotation

    init(_ options: BenchOptions, scene: BenchScene, map: OwnedPixelBuffer) {
        self.scene = scene
        self.map = map
        frame = OwnedPixelBuffer(width: options.width, height: options.height, format: .xrgb8888)
        let panel = options.rotation.physicalSize(logicalWidth: options.width, logicalHeight: options.height)
        out = OwnedPixelBuffer(width: panel.width, height: panel.height, format: options.format)
        rotation = options.rotation
        painter = ReferenceDotPainter(style: options.style, scale: options.scale)
        clock = DotClock(style: options.style)
    }

    /// Frame `n` drawn from nothing; its hash.
    func frame(_ n: Int) -> UInt64 {
        let f = scene.frame(n)
        let w = frame.buffer.width, h = frame.buffer.height
        for y in 0..<h {
            let src = map.buffer.row(y + f.originY).assumingMemoryBound(to: UInt32.self) + f.originX
            let dst = frame.buffer.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w { dst[x] = src[x] }
        }
        painter.paint(into: frame.buffer, centerX: f.x, centerY: f.y, appearance: clock.appearance(at: Double(n) / BenchScene.frameRate))
        // Pixel by pixel to where the turn puts it.
        for y in 0..<h {
            let src = frame.buffer.row(y).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w {
                let p = rotation.map(x: x, y: y, logicalWidth: w, logicalHeight: h)
                switch out.buffer.format {
                case .xrgb8888: out.buffer.row(p.y).assumingMemoryBound(to: UInt32.self)[p.x] = src[x]
                case .rgb565: out.buffer.row(p.y).assumingMemoryBound(to: UInt16.self)[p.x] = RGB565.narrow(src[x])
                }
            }
        }
        return BenchHash.frame(out.buffer)
    }
}
