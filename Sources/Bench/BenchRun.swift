import Compositor
import FrameBench
import LocationDot
import Raster
import Syscall
import TileMap

/// `pulsedot bench`: N frames made the way the daemon and the KMS output make them — restore the
/// damage (this frame's and the previous frame's dot) from the background, paint the dot, copy the
/// damage into one of two scan-out buffers in turn (written, never read) — over a textured map in
/// RAM. Every frame is computed; nothing is carried from one frame to the next but what the daemon
/// carries (the canvas, last frame's damage).
///
/// `step` is one frame and nothing else (no hashing, no clock): the unit the callgrind script
/// counts. It never allocates; the per-frame records are allocated before the first frame.
public final class BenchRun {
    public let options: BenchOptions
    /// The frames: over a textured map in RAM (`BenchFrames`), or driving through tiles.
    public let frames: BenchFrames?
    public let drive: BenchDrive?
    /// With `composition = planes`: the daemon's plane layers over planes in memory.
    public let planes: BenchPlanes?
    /// Whether each frame's hash is computed (off: `--no-hash`, for counting runs, where the hash
    /// would cost far more than the frame it checks).
    public let hashing: Bool
    /// The first frame that runs through `counted`, the marker `deploy/bench/bench-guard` counts
    /// between (`--count-from`); frames before it warm the caches and the map.
    public let countFrom: Int
    /// The scene's name in the report.
    public var sceneName: String { drive == nil ? options.scene.rawValue : "drive" }

    /// Per frame: pixels redrawn in the canvas, pixels copied out, wall time, hash.
    public private(set) var touched: [Int]
    public private(set) var copied: [Int]
    public private(set) var nanoseconds: [Int64]
    public private(set) var hashes: [UInt64]
    /// With `verify`: frames whose hash differs from the reference painter's, and the first one.
    public private(set) var mismatches = 0
    public private(set) var firstMismatch: Int?
    private let reference: BenchReference?
    /// Whether the frames are being held against the reference painter.
    public var verified: Bool { reference != nil }

    /// `drive`: the tiles file to drive through instead of `options.scene` (no `verify`: the
    /// reference painter has no tiles).
    public init(_ options: BenchOptions, verify: Bool = false, drive tiles: String? = nil, hashing: Bool = true,
                countFrom: Int = .max) throws(BenchError) {
        self.options = options
        self.hashing = hashing || verify
        self.countFrom = countFrom
        if let tiles {
            drive = try BenchDrive(options, tiles: tiles)
            frames = nil
        } else {
            drive = nil
            do { frames = try BenchFrames(options) } catch { throw BenchError(error) }
        }
        if options.composition == .planes {
            let step = drive?.frameStep ?? frames!.frameStep
            // The map pans on the primary plane where the view moves: over tiles, or the larger map.
            let painter: (any MapPicturePainter)? = drive?.map ?? (options.scene == .pan ? frames.map { MapImagePainter(map: $0.map) } : nil)
            planes = BenchPlanes(options, step: step, painter: painter)
        } else {
            planes = nil
        }
        touched = [Int](repeating: 0, count: options.frames)
        copied = [Int](repeating: 0, count: options.frames)
        nanoseconds = [Int64](repeating: 0, count: options.frames)
        hashes = [UInt64](repeating: 0, count: options.frames)
        reference = verify ? frames.map { BenchReference(options, scene: $0.scene, map: $0.map) } : nil
    }

    /// Runs every frame, timing each, hashing what reached the scan-out buffer, and (with
    /// `verify`) comparing it with the reference painter's frame.
    public func run() {
        for n in 0..<options.frames {
            if let drive { drive.prepare(n) }
            let start = MonotonicInstant.now()
            let r = n >= countFrom ? counted(n) : step(n)
            let end = MonotonicInstant.now()
            touched[n] = r.touched
            copied[n] = r.copied
            nanoseconds[n] = end.nanoseconds - start.nanoseconds
            if !hashing { continue }
            hashes[n] = BenchHash.frame(shown(n))
            if let reference, reference.frame(options.scene == .copy ? 0 : n) != hashes[n] {
                mismatches += 1
                if firstMismatch == nil { firstMismatch = n }
            }
        }
    }

    /// A frame from `countFrom` on: the same step behind a function of its own, so that callgrind's
    /// `--toggle-collect` counts exactly these frames in one run.
    @inline(never)
    public func counted(_ n: Int) -> (touched: Int, copied: Int) { step(n) }

    /// One frame (`BenchFrames.step` or `BenchDrive.step`, with the map pictures drawn on the
    /// planes): the unit `deploy/bench/bench-callgrind` counts.
    @inline(never)
    public func step(_ n: Int) -> (touched: Int, copied: Int) {
        let r = drive?.step(n) ?? frames!.step(n)
        guard let planes else { return r }
        return (r.touched, r.copied + planes.takeDrawn())
    }

    /// What frame `n` shows under the dot: its scan-out buffer, or the window of the map picture
    /// on the primary plane.
    public func shown(_ n: Int) -> PixelBuffer {
        if let picture = planes?.shownPicture { return picture }
        return drive?.scanout.shown(n) ?? frames!.scanout.shown(n)
    }
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
