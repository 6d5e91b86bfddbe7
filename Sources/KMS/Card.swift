import Raster
import Syscall

/// A dumb buffer with its framebuffer and its write-only mapping.
public struct ScanoutBuffer: @unchecked Sendable {
    public var handle: UInt32
    public var framebuffer: UInt32
    /// The mapping as pixels (stride = the driver's pitch). Written, never read.
    public var pixels: PixelBuffer
    public var byteCount: Int

    public init(handle: UInt32, framebuffer: UInt32, pixels: PixelBuffer, byteCount: Int) {
        self.handle = handle; self.framebuffer = framebuffer; self.pixels = pixels; self.byteCount = byteCount
    }
}

/// The CRTC as it was before PulseDot's first modeset: what to put back on exit.
public struct SavedCrtc: Sendable {
    public var crtc: UInt32
    public var framebuffer: UInt32
    public var x: UInt32
    public var y: UInt32
    /// nil when the CRTC was off.
    public var mode: DisplayMode?

    public init(crtc: UInt32, framebuffer: UInt32, x: UInt32 = 0, y: UInt32 = 0, mode: DisplayMode? = nil) {
        self.crtc = crtc; self.framebuffer = framebuffer; self.x = x; self.y = y; self.mode = mode
    }
}

/// The narrow seam between the output logic and the kernel: every DRM call PulseDot makes, in the
/// terms it needs them. `LibDRMCard` talks to a real device through libdrm; the unit tests use an
/// in-memory card. Failures are `SyscallError`s naming the call; `KMSError.classify` turns them
/// into what the caller should do (wait, find the card again, give up).
/// A connector as the kernel last probed it: what a hot-plug check reads.
public struct ConnectorState: Sendable {
    public var state: ConnectionState
    /// `link-status` is BAD: the link failed and wants a modeset.
    public var linkBad: Bool
    public var modes: [DisplayMode]

    public init(state: ConnectionState, linkBad: Bool = false, modes: [DisplayMode] = []) {
        self.state = state
        self.linkBad = linkBad
        self.modes = modes
    }
}

public protocol DRMCard: AnyObject {
    /// This card's atomic interface, when it has one (`AtomicCard` gives itself; the rest none).
    var atomic: (any AtomicCard)? { get }
    /// The device path ("/dev/dri/card0"), for every message.
    var path: String { get }
    /// The kernel driver's name ("bochs", "virtio_gpu", "vc4").
    var driver: String { get }
    /// Becomes readable when page-flip events are pending.
    var eventDescriptor: Int32 { get }

    func capabilities() -> CardCapabilities
    func resources() throws(SyscallError) -> CardResources
    /// Every plane (primary, overlay and cursor) with its properties and IN_FORMATS; fails naming
    /// the call and the plane. `resources()` carries the same list without IN_FORMATS and shrugs
    /// off a failure (a card without one is still driven with XRGB8888), so probe asks here to see
    /// the error.
    func planes() throws(SyscallError) -> [PlaneInfo]
    /// Sets DRM_CLIENT_CAP_ATOMIC on this descriptor: 0 when the driver accepts it, else the errno
    /// (EOPNOTSUPP: no atomic modesetting). It makes atomic-only plane properties visible (FB_ID,
    /// CRTC_ID, SRC_*), which is why only probe asks: the daemon's legacy path stays as it is.
    func enableAtomic() -> Int32
    func saveCrtc(_ crtc: UInt32) throws(SyscallError) -> SavedCrtc
    func restoreCrtc(_ saved: SavedCrtc, connector: UInt32) throws(SyscallError)
    /// A legacy modeset: `framebuffer` on `crtc` with `mode`, driving `connector`.
    func setCrtc(_ crtc: UInt32, framebuffer: UInt32, connector: UInt32, mode: DisplayMode) throws(SyscallError)
    /// Creates a dumb buffer, its framebuffer (with an explicit fourcc) and its mapping.
    func createBuffer(width: Int, height: Int, format: PixelFormat) throws(SyscallError) -> ScanoutBuffer
    func destroyBuffer(_ buffer: ScanoutBuffer)
    /// Queues a flip to `framebuffer` at the next vblank, always with an event; EBUSY while one is
    /// still in flight.
    func pageFlip(crtc: UInt32, framebuffer: UInt32) throws(SyscallError)
    /// drmModeDirtyFB with a clip rectangle per part of `clips` (physical pixels): drivers that
    /// send a frame on (USB and SPI panels, virtual GPUs) send only those. ENOSYS: the driver has none.
    func dirty(framebuffer: UInt32, clips: DamageRegion) throws(SyscallError)
    /// Waits `frames` vblanks on the CRTC at `crtcIndex` (0: just asks). 0 or the errno.
    func waitVBlank(crtcIndex: Int, frames: Int) -> Int32
    /// Waits at most `timeoutMilliseconds` for events to become readable: true when there are
    /// some for `handleEvents`, false when the time ran out or a signal cut the wait short.
    func waitForEvents(timeoutMilliseconds: Int32) throws(SyscallError) -> Bool
    /// Reads pending events; returns how many page flips completed (0 when none was pending).
    func handleEvents() throws(SyscallError) -> Int
    /// The connector's state as the kernel last probed it (drmModeGetConnectorCurrent: no new
    /// probe, which can stall for the DDC of a monitor) and whether its `link-status` is BAD.
    func connectorState(_ connector: UInt32) throws(SyscallError) -> ConnectorState
    /// Sets the connector's legacy DPMS property: On, or Off (the panel powered down, the CRTC's
    /// state kept for On). ENOENT: the connector has no DPMS property.
    func setDPMS(connector: UInt32, on: Bool) throws(SyscallError)
    /// Releases the device. Buffers must have been destroyed first.
    func close()
}
