import Glibc
import JSON
import PNG
import Systemd
import DisplayCore
import Raster
import Syscall

/// `output = png:DIR` for headless testbeds: frames are rendered at `fps` like on a panel, and
/// written as `DIR/frame-NNNNNN.png` at `pngFps` (and once per SIGUSR1), each with one line in
/// `DIR/frames.jsonl` saying what the frame shows, so a test rig can assert it:
/// `{"file":"frame-000001.png","t":0.5,"state":"live","lat":45.5,"lon":-73.5,"x":640.2,"y":400.7,"accuracyPx":0,"heading":null}`
/// — `t` in seconds since the daemon started, `lat`/`lon` the position drawn, `x`/`y` the dot's
/// centre in logical canvas pixels, `accuracyPx` the accuracy disc's radius (0: none), `heading`
/// in degrees or null. Unknown values are null. Each start begins a new `frames.jsonl` and
/// numbers frames from 1 again (overwriting older files of the same name).
public final class PNGFrames: MemoryFrameDisplay, FrameRecorder {
    public let directory: String
    public let canvasWidth: Int
    public let canvasHeight: Int
    public var memory: DisplayCanvas
    private let log: Journal
    /// An extra frame (SIGUSR1) is wanted at the next present.
    private var extraWanted = false
    /// What the next presented frame shows (`stamp`), for its line in frames.jsonl.
    private var shown: FrameStamp
    /// The last frame could not be written: said once per failing spell.
    private var failing = false
    private let index: FileDescriptor
    public private(set) var written = 0
    let period: Double
    private var nextDue: Double

    /// Creates `directory` if needed and starts `frames.jsonl`; the first frame is due at `now`.
    public init(directory: String, width: Int, height: Int, pngFps: Double, now: Double, log: Journal) throws(SyscallError) {
        self.directory = directory
        canvasWidth = width
        canvasHeight = height
        memory = DisplayCanvas(width: width, height: height)
        self.log = log
        try Directory.create(directory)
        index = try FileDescriptor.open(directory + "/frames.jsonl", O_WRONLY | O_CREAT | O_TRUNC | O_APPEND)
        period = 1 / pngFps
        nextDue = now
        shown = FrameStamp(sinceStart: 0, monotonic: now)
    }

    deinit { index.close() }

    public var displayName: String { "png:\(directory) \(canvasWidth)x\(canvasHeight)" }
    /// No frames are written while blanked (there is no panel to switch off): a testbed sees the gap.
    /// A frame counts as presented once its file and its line are written.
    public private(set) var presentation = PresentationCount()

    public var recorder: (any FrameRecorder)? { self }

    public func recordNextFrame() { extraWanted = true }

    public func stamp(_ frame: FrameStamp) { shown = frame }

    /// Writes a frame when the cadence (or a SIGUSR1) wants one, with the last `stamp`. A frame
    /// that cannot be written (a full disk) is said once and skipped; drawing goes on, and writing
    /// resumes when it can.
    public func present(damage: DamageRegion) {
        let frame = shown
        let extra = extraWanted
        guard extra || isDue(at: frame.monotonic) else { return }
        extraWanted = false
        do {
            let path = try write(canvas, showing: frame, regular: !extra)
            presentation.presented += 1
            if extra { log.notice("snapshot: \(path)") }
            if failing {
                failing = false
                log.notice("png:\(directory): writing frames again")
            }
        } catch {
            // Said once per failing spell: the message names each frame's file, so it never repeats.
            if !failing { log.error("png:\(directory): \(error); frames are skipped until they can be written") }
            failing = true
        }
    }

    /// Whether the regular cadence wants a frame at `now`.
    public func isDue(at now: Double) -> Bool { now >= nextDue }

    /// Writes `frame` and its line. `regular`: a frame of the cadence (which then moves on; a late
    /// one does not cause a burst), else an extra one (SIGUSR1). Returns the file's path.
    @discardableResult
    public func write(_ frame: PixelBuffer, showing stamp: FrameStamp, regular: Bool) throws(WriteError) -> String {
        let now = stamp.monotonic
        if regular {
            nextDue += period
            if nextDue <= now { nextDue = now + period }
        }
        written += 1
        let name = "frame-" + Self.padded(written) + ".png"
        let path = directory + "/" + name
        do { try PNGWrite.frame(frame, to: path) } catch { throw .png(error) }
        let line = Array((Self.jsonLine(file: name, stamp: stamp) + "\n").utf8)
        do { _ = try line.withBytes { (bytes) throws(SyscallError) in try index.write(bytes) } } catch { throw .index(error) }
        return path
    }

    /// A frame's file or its line that could not be written.
    public enum WriteError: Error, CustomStringConvertible {
        case png(PNGError)
        case index(SyscallError)
        public var description: String {
            switch self {
            case .png(let error): return error.description
            case .index(let error): return error.description
            }
        }
    }

    static func jsonLine(file: String, stamp: FrameStamp) -> String {
        JSONWriter.object { w in
            w.field("file", file)
            w.field("t", stamp.sinceStart)
            w.field("state", stamp.state)
            w.field("lat", stamp.latitude)
            w.field("lon", stamp.longitude)
            w.field("x", stamp.x)
            w.field("y", stamp.y)
            w.field("accuracyPx", stamp.accuracyRadiusPx)
            w.field("heading", stamp.heading)
            // Only while a trip is followed: a record without transit keeps its shape.
            if let transit = stamp.transit {
                w.field("trip", transit.trip)
                w.field("nextStopId", transit.nextStopID)
                w.field("nextStop", transit.nextStopName)
                w.field("distanceAlong", transit.distanceAlong)
                w.field("atStop", transit.atStop)
                w.field("offRoute", transit.offRoute)
            }
            if let kiosk = stamp.kiosk {
                w.object("kiosk") { k in
                    k.field("live", kiosk.live)
                    k.field("status", kiosk.status)
                    k.array("rows") { a in
                        for r in kiosk.rows {
                            a.object { o in
                                o.field("trip", r.tripID)
                                o.field("route", r.route)
                                o.field("headsign", r.headsign)
                                o.field("stop", r.stopID)
                                o.field("minutes", r.minutes)
                                o.field("time", r.time)
                                o.field("live", r.live)
                                o.field("cancelled", r.cancelled)
                                o.field("skipped", r.skipped)
                            }
                        }
                    }
                    k.array("markers") { a in
                        for m in kiosk.markers {
                            let p = m.place(at: stamp.monotonic)
                            a.object { o in
                                o.field("vehicle", m.vehicleID)
                                o.field("trip", m.tripID)
                                o.field("along", p.along)
                                o.field("lat", p.latitude)
                                o.field("lon", p.longitude)
                                o.field("old", m.old)
                                o.field("diverted", m.diverted)
                            }
                        }
                    }
                    k.array("alerts") { a in for text in kiosk.alerts { a.value(text) } }
                }
            }
        }
    }

    static func padded(_ n: Int) -> String {
        let s = String(n)
        return s.count >= 6 ? s : String(repeating: "0", count: 6 - s.count) + s
    }
}
