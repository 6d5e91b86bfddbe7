/// A display that a single-threaded frame loop drives (KMS, fbdev): the loop draws into `canvas`
/// and hands over what changed; the output turns, converts and pushes it. The seam the daemon's
/// poll loop and `pulsedot show` share. Errors are the output's own (`KMSError`, …), which say
/// whether to retry.
public protocol FrameOutput: AnyObject {
    /// The logical canvas: an XRGB8888 frame in RAM, already turned to the configured rotation
    /// (a 1280x800 panel at 90° gives an 800x1280 canvas). Never scan-out memory.
    var canvas: PixelBuffer { get }
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
