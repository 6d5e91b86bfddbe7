import Glibc
import PNG
import Raster
import Scene
import Syscall

/// `output = png:DIR` for headless testbeds: frames are rendered at `fps` like on a panel, and
/// written as `DIR/frame-NNNNNN.png` at `pngFps` (and once per SIGUSR1), each with one line in
/// `DIR/frames.jsonl` saying what the frame shows, so a test rig can assert it:
/// `{"file":"frame-000001.png","t":0.5,"state":"live","lat":45.5,"lon":-73.5,"x":640.2,"y":400.7,"accuracyPx":0,"heading":null}`
/// — `t` in seconds since the daemon started, `lat`/`lon` the position drawn, `x`/`y` the dot's
/// centre in logical canvas pixels, `accuracyPx` the accuracy disc's radius (0: none), `heading`
/// in degrees or null. Unknown values are null. Each start begins a new `frames.jsonl` and
/// numbers frames from 1 again (overwriting older files of the same name).
public final class PNGFrames {
    public let directory: String
    private let index: FileDescriptor
    public private(set) var written = 0
    let period: Double
    private var nextDue: Double

    /// Creates `directory` if needed and starts `frames.jsonl`; the first frame is due at `now`.
    public init(directory: String, pngFps: Double, now: Double) throws(SyscallError) {
        self.directory = directory
        try Directory.create(directory)
        index = try FileDescriptor.open(directory + "/frames.jsonl", O_WRONLY | O_CREAT | O_TRUNC | O_APPEND)
        period = 1 / pngFps
        nextDue = now
    }

    deinit { index.close() }

    /// Whether the regular cadence wants a frame at `now`.
    public func isDue(at now: Double) -> Bool { now >= nextDue }

    /// Writes `frame` and its line. `regular`: a frame of the cadence (which then moves on; a late
    /// one does not cause a burst), else an extra one (SIGUSR1). Returns the file's path.
    @discardableResult
    public func write(_ frame: PixelBuffer, showing scene: SceneFrame, t: Double, now: Double,
                      regular: Bool) throws -> String {
        if regular {
            nextDue += period
            if nextDue <= now { nextDue = now + period }
        }
        written += 1
        let name = "frame-" + Self.padded(written) + ".png"
        let path = directory + "/" + name
        try PNGWrite.frame(frame, to: path)
        let line = Array((Self.jsonLine(file: name, t: t, scene: scene) + "\n").utf8)
        // withUnsafeBytes only rethrows untyped errors: the typed one travels in a Result.
        _ = try line.withUnsafeBytes { bytes in Result { () throws(SyscallError) -> Int in try index.write(bytes) } }.get()
        return path
    }

    static func jsonLine(file: String, t: Double, scene: SceneFrame) -> String {
        func number(_ v: Double?) -> String {
            guard let v, v.isFinite else { return "null" }
            return "\(v)"
        }
        let look = scene.appearance
        var out = "{\"file\":\"\(file)\",\"t\":\(number(t)),\"state\":\"\(scene.phase.rawValue)\""
        out += ",\"lat\":\(number(scene.position?.latitude)),\"lon\":\(number(scene.position?.longitude))"
        out += ",\"x\":\(number(scene.center?.x)),\"y\":\(number(scene.center?.y))"
        out += ",\"accuracyPx\":\(number(look.map { $0.accuracyRadiusPx }))"
        out += ",\"heading\":\(number(look?.heading))}"
        return out
    }

    static func padded(_ n: Int) -> String {
        let s = String(n)
        return s.count >= 6 ? s : String(repeating: "0", count: 6 - s.count) + s
    }
}
