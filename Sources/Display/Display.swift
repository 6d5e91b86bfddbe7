import Raster

/// Where finished frames go: a panel through DRM/KMS, a legacy framebuffer with its console, PNG
/// files, or nowhere. The one seam that `pulsedot run` and `pulsedot show` drive: the loop draws
/// into `canvas` (or into the buffer the display lends), hands over what changed, and polls
/// `pollDescriptor` for the display's events. Errors thrown are the display's own (`Thrown`,
/// a `DisplayError` saying whether to wait and open the display again); a caller holding any
/// display uses the `checked` calls, which throw them as one concrete `DisplayFailure`.
public protocol Display: AnyObject {
    associatedtype Thrown: Error
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
    /// The scan-out buffer the next `present` shows, lent for drawing into directly when the
    /// display can take frames that way (same format and orientation as the canvas); nil: draw
    /// into `canvas`.
    var lentBuffer: PixelBuffer? { get }
    /// A descriptor to add to the loop's poll set for readability, or nil when there is none;
    /// when it is readable, call `handleEvents()`.
    var pollDescriptor: Int32? { get }
    /// Shows the whole canvas for the first time (mode set, console put aside). Draw the first
    /// frame before calling it.
    func start() throws(Thrown)
    /// Pushes the part of the canvas that changed since the last call (logical pixels). When the
    /// display cannot take it now (a flip still in flight) it keeps the damage for the next call.
    /// `frame` says which moment the canvas shows.
    func present(damage: Rect, frame: FrameStamp) throws(Thrown)
    func handleEvents() throws(Thrown)
    /// Whether everything handed over is on its way to the screen: no damage waits for a flip or
    /// a vblank still in flight. A still frame is shown once this holds after its `present`.
    var isSettled: Bool { get }
    /// Frames that reached the screen so far and the time spent waiting for it to take them.
    var presentation: PresentationCount { get }
    /// The device node whose kernel uevents concern this display ("/dev/dri/card0"); nil: it has
    /// none (a framebuffer, files).
    var hotplugDevice: String? { get }
    /// Looks at the driven output again after a uevent for `hotplugDevice`, without probing the
    /// monitor anew (the kernel has just done that).
    func recheckConnector() throws(Thrown) -> ConnectorCheck
    /// Night blanking: switches the panel off (or, where it cannot be, shows black) until
    /// `unblank()`; the caller draws nothing meanwhile.
    func blank() throws(Thrown) -> BlankOutcome
    /// Switches the panel back on; the caller then presents the whole canvas.
    func unblank() throws(Thrown)
    /// Takes an extra frame into the display's own record at the next `present` and returns
    /// true, when the display keeps frames (PNG files); false: the caller writes a snapshot.
    func recordNextFrame() -> Bool
    /// A plane for the dot above the canvas when the display composes it in hardware; nil: the
    /// dot is painted into the canvas.
    var spritePlane: SpritePlane? { get }
    /// The primary plane as a scrolling window over map pictures of the canvas's size plus
    /// `margin` on every side, when the display can show them that way: made on the first call
    /// (buffers, a test commit; said in the log), the same plane after; nil: the map pans in the
    /// canvas. Asked when a view is made, never per frame.
    func mapScrollPlane(margin: Int) -> MapScrollPlane?
    /// Puts the display back as it was (the console) and frees everything. Safe to call twice.
    func close()

    // The calls above with the error as a `DisplayFailure` (DisplayFailure.swift gives them):
    // requirements rather than extension methods, so they work on `any Display` in Embedded Swift.
    func checkedStart() throws(DisplayFailure)
    func checkedPresent(damage: Rect, frame: FrameStamp) throws(DisplayFailure)
    func checkedHandleEvents() throws(DisplayFailure)
    func checkedRecheckConnector() throws(DisplayFailure) -> ConnectorCheck
    func checkedBlank() throws(DisplayFailure) -> BlankOutcome
    func checkedUnblank() throws(DisplayFailure)
}

extension Display {
    public var lentBuffer: PixelBuffer? { nil }
    public func route(copyOut copier: CanvasCopier) {}
    public func recordNextFrame() -> Bool { false }
    public var spritePlane: SpritePlane? { nil }
    public func mapScrollPlane(margin: Int) -> MapScrollPlane? { nil }
    /// A display without events of its own (files, memory) has nothing to poll.
    public var pollDescriptor: Int32? { nil }
    public func handleEvents() throws(Thrown) {}
    /// A display that takes every frame at once (files, memory) is always settled.
    public var isSettled: Bool { true }
}

/// The moment a presented frame shows, and what it shows: displays that keep a record of their
/// frames (PNG files with `frames.jsonl`) write it down; panels ignore it. Plain values, so
/// making one per frame costs a few stores.
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
