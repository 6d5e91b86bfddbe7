/// A display whose monitors come and go: the kernel says so by uevents for `hotplugDevice`.
public protocol DisplayHotplug: AnyObject {
    /// The device node whose kernel uevents concern this display ("/dev/dri/card0").
    var hotplugDevice: String { get }
    /// Looks at the driven output again after a uevent for `hotplugDevice`, without probing the
    /// monitor anew (the kernel has just done that).
    func recheckConnector() throws(DisplayFailure) -> ConnectorCheck
}

/// A display with a panel that night blanking switches off.
public protocol DisplayBlanking: AnyObject {
    /// Switches the panel off (or, where it cannot be, shows black) until `unblank()`; the caller
    /// draws nothing meanwhile.
    func blank() throws(DisplayFailure) -> BlankOutcome
    /// Switches the panel back on; the caller then presents the whole canvas.
    func unblank() throws(DisplayFailure)
}

/// A display that keeps a record of its frames (PNG files with `frames.jsonl`).
public protocol FrameRecorder: AnyObject {
    /// What the next presented frame shows: the moment and the dot, written beside the frame.
    func stamp(_ frame: FrameStamp)
    /// Takes an extra frame into the record at the next `present` (a snapshot).
    func recordNextFrame()
}
