import Compositor
import LocationDot
import Raster
import Syscall

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
    public let scene: BenchScene
    let map: OwnedPixelBuffer
    let renderer: FrameRenderer
    /// The two "scan-out" buffers, written alternately like a flipping KMS output.
    let targets: [OwnedPixelBuffer]
    private var damage: Damage
    private let clock: DotClock

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

    public init(_ options: BenchOptions, verify: Bool = false) throws {
        self.options = options
        scene = try BenchScene(options)
        map = BenchBackground.make(width: scene.mapWidth, height: scene.mapHeight)
        renderer = try FrameRenderer(width: options.width, height: options.height, style: options.style,
                                     scale: options.scale, background: .frame(map))
        targets = (0..<2).map { _ in OwnedPixelBuffer(width: options.width, height: options.height, format: options.format) }
        damage = Damage(bounds: Rect(x: 0, y: 0, width: options.width, height: options.height))
        clock = DotClock(style: options.style)
        touched = [Int](repeating: 0, count: options.frames)
        copied = [Int](repeating: 0, count: options.frames)
        nanoseconds = [Int64](repeating: 0, count: options.frames)
        hashes = [UInt64](repeating: 0, count: options.frames)
        reference = verify ? BenchReference(options, scene: scene, map: map) : nil
        if options.scene == .copy {
            // The picture the copy scene copies: frame 0, drawn once.
            let f = scene.frame(0)
            renderer.render(clock.appearance(at: 0), centerX: f.x, centerY: f.y)
        }
    }

    /// Runs every frame, timing each, hashing what reached the scan-out buffer, and (with
    /// `verify`) comparing it with the reference painter's frame.
    public func run() {
        for n in 0..<options.frames {
            let start = MonotonicInstant.now()
            let r = step(n)
            let end = MonotonicInstant.now()
            touched[n] = r.touched
            copied[n] = r.copied
            nanoseconds[n] = end.nanoseconds - start.nanoseconds
            hashes[n] = BenchHash.frame(targets[n & 1].buffer)
            if let reference, reference.frame(options.scene == .copy ? 0 : n) != hashes[n] {
                mismatches += 1
                if firstMismatch == nil { firstMismatch = n }
            }
        }
    }

    /// One frame: the unit the benchmark measures. Returns the pixels redrawn in the canvas
    /// and the pixels copied into the scan-out buffer.
    @inline(never)
    public func step(_ n: Int) -> (touched: Int, copied: Int) {
        let target = targets[n & 1].buffer
        if options.scene == .copy {
            return (0, renderer.copyOut(renderer.bounds, to: target).area)
        }
        let f = scene.frame(n)
        if options.scene == .pan {
            renderer.scrollBackground(toX: f.originX, y: f.originY)
            renderer.invalidate()
        }
        let changed = renderer.render(clock.appearance(at: Double(n) / BenchScene.frameRate), centerX: f.x, centerY: f.y)
        damage.add(changed)
        let written = renderer.copyOut(damage.union, to: target)
        damage.endFrame()
        return (changed.area, written.area)
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

    init(_ options: BenchOptions, scene: BenchScene, map: OwnedPixelBuffer) {
        self.scene = scene
        self.map = map
        frame = OwnedPixelBuffer(width: options.width, height: options.height, format: .xrgb8888)
        out = OwnedPixelBuffer(width: options.width, height: options.height, format: options.format)
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
        for y in 0..<h {
            let src = frame.buffer.row(y).assumingMemoryBound(to: UInt32.self)
            switch out.buffer.format {
            case .xrgb8888:
                let dst = out.buffer.row(y).assumingMemoryBound(to: UInt32.self)
                for x in 0..<w { dst[x] = src[x] }
            case .rgb565:
                let dst = out.buffer.row(y).assumingMemoryBound(to: UInt16.self)
                for x in 0..<w { dst[x] = RGB565.narrow(src[x]) }
            }
        }
        return BenchHash.frame(out.buffer)
    }
}

/// FNV-1a 64 over a frame's visible bytes, 8 at a time (X bytes included: the fast and the
/// reference path must agree on them too).
enum BenchHash {
    static let offset: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    static func frame(_ b: PixelBuffer) -> UInt64 {
        var h = offset
        let bytes = b.width * b.format.bytesPerPixel
        for y in 0..<b.height {
            let row = b.row(y)
            var i = 0
            while i + 8 <= bytes {
                h = (h ^ row.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* prime
                i += 8
            }
            while i < bytes {
                h = (h ^ UInt64(row.load(fromByteOffset: i, as: UInt8.self))) &* prime
                i += 1
            }
        }
        return h
    }

    static func combine(_ hashes: [UInt64]) -> UInt64 {
        var h = offset
        for v in hashes { h = (h ^ v) &* prime }
        return h
    }
}
