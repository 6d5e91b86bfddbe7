import Raster
/// A display that a single-threaded frame loop drives (KMS, fbdev): the loop draws into `canvas`
/// and hands over what changed; the output turns, converts and pushes it. The seam the daemon's
/// poll loop and `pulsedot show` share. Errors are the output's own (`KMSError`, …), which say
/// whether to retry.
public protocol FrameOutput: AnyObject {
    /// The logical canvas's size: the panel turned by the configured rotation (a 1280x800 panel
    /// at 90° gives 800x1280).
    var canvasWidth: Int { get }
    var canvasHeight: Int { get }
    /// The logical canvas: an XRGB8888 frame in RAM of the canvas size. Never scan-out memory.
    /// The output allocates one on first use unless the caller's own frame was adopted.
    var canvas: PixelBuffer { get }
    /// Makes the caller's XRGB8888 frame of the canvas size the canvas (a renderer that owns its
    /// shadow frame), so frames are not copied twice. Call before `start()`; the caller keeps it
    /// alive until `close()`.
    func adopt(canvas: PixelBuffer)
    /// A descriptor to add to the loop's poll set for readability, or nil when there is none;
    /// when it is readable, call `handleEvents()`.
    var pollDescriptor: Int32? { get }
    /// Shows the whole canvas for the first time (mode set, console put aside). Draw the first
    /// frame before calling it.
    func start() throws
    /// Pushes the part of the canvas that changed since the last call (logical pixels). When the
    /// output cannot take it now (a flip still in flight) it keeps the damage for the next call.
    func present(damage: Rect) throws
    func handleEvents() throws
    /// Puts the display back as it was (the console) and frees everything. Safe to call twice.
    func close()
}
