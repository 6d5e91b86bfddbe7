import Raster

/// Where finished frames go: a panel through DRM/KMS, a legacy framebuffer with its console, PNG
/// files, or nowhere. The one seam that `pulsedot run` and `pulsedot show` drive: the loop draws
/// into `canvas`, hands over what changed, and polls `pollDescriptor` for the display's events.
/// Every call throws one concrete error, `DisplayFailure`, saying whether to wait and open the
/// display again.
///
/// What only some displays can do is an optional capability, asked for by its accessor (nil: the
/// display has none), never by casting: hot-plug (`hotplug`), switching the panel off
/// (`blanking`), keeping a record of its frames (`recorder`), and hardware planes (`spritePlane`,
/// `mapScrollPlane`, and `picturePlanes`, which decides which layers above the map hold one).
public protocol Display: AnyObject {
    /// "/dev/dri/card0 (bochs) Virtual-1 1024x768", "png:/srv/frames 1280x800": for STATUS and the log.
    var displayName: String { get }
    /// The logical canvas's size: the panel turned by the configured rotation (a 1280x800 panel
    /// at 90° gives 800x1280).
    var canvasWidth: Int { get }
    var canvasHeight: Int { get }
    /// The panel's physical lines, which choose the default `scale`.
    var physicalHeight: Int { get }
    /// The mode driven, as `pulsedot probe` and the configuration write it: "1024x768@60" for a
    /// KMS mode, the frame size "1280x800" where there is no refresh to tell.
    var modeDescription: String { get }
    /// The pixel format the display scans out (the canvas itself is always XRGB8888).
    var scanoutFormat: PixelFormat { get }
    /// The logical canvas: an XRGB8888 frame in RAM of the canvas size, never scan-out memory.
    /// The display allocates one on first use unless the caller's own frame was adopted.
    var canvas: PixelBuffer { get }
    /// Makes the caller's XRGB8888 frame of the canvas size the canvas (a renderer that owns its
    /// frame), so frames are not copied twice. Call before `start()`; the caller keeps it alive
    /// until `close()`.
    func adopt(canvas: PixelBuffer)
    /// Copies into scan-out memory through `copier` from now on (the canvas's drawer, which
    /// narrows only what it drew over the map); displays that keep no scan-out memory ignore it.
    func route(copyOut copier: CanvasCopier)
    /// A descriptor to add to the loop's poll set for readability, or nil when there is none;
    /// when it is readable, call `handleEvents()`.
    var pollDescriptor: Int32? { get }
    /// Shows the whole canvas for the first time (mode set, console put aside). Draw the first
    /// frame before calling it.
    func start() throws(DisplayFailure)
    /// Pushes the part of the canvas that changed since the last call (logical pixels). When the
    /// display cannot take it now (a flip still in flight) it keeps the damage for the next call.
    func present(damage: DamageRegion) throws(DisplayFailure)
    func handleEvents() throws(DisplayFailure)
    /// Whether everything handed over is on its way to the screen: no damage waits for a flip or
    /// a vblank still in flight. A still frame is shown once this holds after its `present`.
    var isSettled: Bool { get }
    /// Frames that reached the screen so far and the time spent waiting for it to take them.
    var presentation: PresentationCount { get }
    /// The scan-out queue's counters (frames handed over, presentations queued, frames that
    /// waited, refusals, pixels written); nil for displays without scan-out buffers of their own.
    var scanoutStatistics: ScanoutQueue.Statistics? { get }
    /// Puts the display back as it was (the console) and frees everything. Safe to call twice.
    func close()

    /// Monitors that come and go; nil: nothing is ever unplugged (files, a framebuffer, whose
    /// kernel interface sends nothing).
    var hotplug: (any DisplayHotplug)? { get }
    /// Night blanking; nil: there is no panel to switch off (files, memory).
    var blanking: (any DisplayBlanking)? { get }
    /// A record of the frames kept by the display itself (PNG files with `frames.jsonl`); nil:
    /// a snapshot is the caller's to write.
    var recorder: (any FrameRecorder)? { get }
    /// A plane for the dot above the canvas when the display composes it in hardware; nil: the
    /// dot is painted into the canvas.
    var spritePlane: SpritePlane? { get }
    /// The primary plane as a scrolling window over map pictures of the canvas's size plus
    /// `margin` on every side, when the display can show them that way: made on the first call
    /// (buffers, a test commit; said in the log), the same plane after; nil: the map pans in the
    /// canvas. Asked when a view is made, never per frame.
    func mapScrollPlane(margin: Int) -> MapScrollPlane?
    /// Which layers above the map (the dot, pictures fixed on the screen) get planes of their
    /// own; nil: the display has no planes for pictures (a fixed picture is then composited, and
    /// the dot with it).
    var picturePlanes: (any PicturePlanes)? { get }
}

extension Display {
    /// `present(damage:)` with one changed rectangle.
    public func present(damage rect: Rect) throws(DisplayFailure) { try present(damage: DamageRegion(rect)) }
    public func route(copyOut copier: CanvasCopier) {}
    /// A display without events of its own (files, memory) has nothing to poll.
    public var pollDescriptor: Int32? { nil }
    public func handleEvents() throws(DisplayFailure) {}
    /// A display that takes every frame at once (files, memory) is always settled.
    public var isSettled: Bool { true }
    public var scanoutStatistics: ScanoutQueue.Statistics? { nil }
    public var hotplug: (any DisplayHotplug)? { nil }
    public var blanking: (any DisplayBlanking)? { nil }
    public var recorder: (any FrameRecorder)? { nil }
    public var spritePlane: SpritePlane? { nil }
    public func mapScrollPlane(margin: Int) -> MapScrollPlane? { nil }
    public var picturePlanes: (any PicturePlanes)? { nil }
}

/// The moment a presented frame shows, and what it shows: displays that keep a record of their
/// frames (PNG files with `frames.jsonl`) write it down; panels ignore it. Plain values, so
/// making one per frame costs a few stores.
/// The transit state a frame was drawn in: the trip, its next stop, the progress along it.
/// Immutable, replaced when a fix moves it on.
public final class TransitStamp: Sendable {
    public let trip: String
    public let nextStopID: String?
    public let nextStopName: String?
    /// Metres along the trip's line; nil before the first fix on it.
    public let distanceAlong: Double?
    public let atStop: Bool
    public let offRoute: Bool

    public init(trip: String, nextStopID: String?, nextStopName: String?, distanceAlong: Double?, atStop: Bool, offRoute: Bool) {
        self.trip = trip
        self.nextStopID = nextStopID
        self.nextStopName = nextStopName
        self.distanceAlong = distanceAlong
        self.atStop = atStop
        self.offRoute = offRoute
    }
}

public struct FrameStamp: Sendable {
    /// Seconds since the daemon started.
    public var sinceStart: Double
    /// The monotonic clock, in seconds (the animation clock).
    public var monotonic: Double
    /// The fix state drawn: "nofix", "live", "stale".
    public var state: String
    /// The position drawn, in degrees; nil without one.
    public var latitude: Double?
    public var longitude: Double?
    /// The dot's centre in logical canvas pixels; nil when no dot is drawn.
    public var x: Double?
    public var y: Double?
    /// The accuracy disc's radius in pixels (0: none); nil without a dot.
    public var accuracyRadiusPx: Double?
    /// The heading drawn, in degrees clockwise from north; nil: none.
    public var heading: Double?
    /// Where the vehicle is on its trip; nil: no trip followed. A reference made once per fix,
    /// so a frame only retains it: no String is built per frame.
    public var transit: TransitStamp?
    /// What a stop kiosk shows; nil: no kiosk. Retained, not built, per frame.
    public var kiosk: KioskStamp?

    public init(sinceStart: Double, monotonic: Double, state: String = "nofix", latitude: Double? = nil,
                longitude: Double? = nil, x: Double? = nil, y: Double? = nil, accuracyRadiusPx: Double? = nil,
                heading: Double? = nil) {
        self.sinceStart = sinceStart
        self.monotonic = monotonic
        self.state = state
        self.latitude = latitude
        self.longitude = longitude
        self.x = x
        self.y = y
        self.accuracyRadiusPx = accuracyRadiusPx
        self.heading = heading
    }
}
