import Glibc
import KMS
import Raster
import Syscall

/// An in-memory DRM card: dumb buffers are heap memory (with a padded pitch, as real drivers
/// have), and a simulated panel shows what a real one would — either the scanned-out buffer as
/// it is (bochs-like: writes show directly) or only what setCrtc, page flips and DirtyFB pushed
/// (virtio-gpu, SPI and USB panels). Calls are logged and failures can be injected. Waiting for
/// events takes time only on the card's own clock, so nothing depends on how fast the test runs.
final class FakeCard: DRMCard {
    let path: String
    let driver: String
    var eventDescriptor: Int32 { -1 }

    var resourcesValue: CardResources
    var caps = CardCapabilities(dumbBuffers: true, preferShadow: true)
    /// 0 or the errno a vblank wait gives.
    var vblankErrno: Int32 = EOPNOTSUPP
    /// 0 or the errno DirtyFB gives.
    var dirtyErrno: Int32 = ENOSYS
    /// 0 or the errno setting DRM_CLIENT_CAP_ATOMIC gives; `atomicEnabled` says whether it was set.
    var atomicErrno: Int32 = EOPNOTSUPP
    private(set) var atomicEnabled = false
    /// The panel only changes on setCrtc, flips and DirtyFB (virtio-gpu and the like).
    var needsFlush = false
    /// Errors to return from the next calls of that name ("setCrtc", "pageFlip", "dirty", …).
    var failures: [String: [Int32]] = [:]
    /// The card's clock: the outputs' clock in the tests. Only waits for events advance it.
    private(set) var now = MonotonicInstant(nanoseconds: 5_000_000_000)
    /// How long after a wait begins a flip in flight signals its event; nil: never (a panel that
    /// stopped refreshing).
    var flipEventAfter: Duration? = .milliseconds(16)
    /// Waits that end early without an event (a signal), each after this long, before any other.
    var interruptedWaits: [Duration] = []
    /// The timeout of every `waitForEvents`, in order.
    private(set) var eventWaits: [Int32] = []

    private(set) var log: [String] = []
    private(set) var buffers: [UInt32: ScanoutBuffer] = [:]
    private(set) var scanout: UInt32 = 0
    private(set) var pendingFlip: UInt32?
    private(set) var restored: SavedCrtc?
    private(set) var closed = false
    /// The panel's pixels (XRGB8888 or RGB565 values widened to UInt32 as stored), used when
    /// `needsFlush`.
    private(set) var pushed: [UInt32] = []
    private var nextID: UInt32 = 100
    let consoleFramebuffer: UInt32 = 7

    init(path: String = "/dev/dri/card0", driver: String = "fake", resources: CardResources) {
        self.path = path
        self.driver = driver
        self.resourcesValue = resources
    }

    /// One connected 64x48 panel (and a 32x24 mode), one CRTC, a primary plane with `formats`.
    static func simple(formats: [UInt32] = [FourCC.xrgb8888], orientation: PanelOrientation? = nil,
                       path: String = "/dev/dri/card0") -> FakeCard {
        let modes = [DisplayMode(width: 32, height: 24, refreshMilliHz: 60000),
                     DisplayMode(width: 64, height: 48, refreshMilliHz: 60000, preferred: true)]
        let connector = ConnectorInfo(id: 1, name: "Virtual-1", state: .connected, orientation: orientation,
                                      modes: modes, currentCrtc: 10, possibleCrtcs: 1)
        let res = CardResources(connectors: [connector], crtcs: [CrtcInfo(id: 10, index: 0)],
                                planes: [PlaneInfo(id: 20, isPrimary: true, possibleCrtcs: 1, formats: formats)])
        return FakeCard(path: path, resources: res)
    }

    private func fail(_ call: String) -> SyscallError? {
        guard var list = failures[call], !list.isEmpty else { return nil }
        let code = list.removeFirst()
        failures[call] = list
        return SyscallError(call: call, object: path, errno: code)
    }

    func capabilities() -> CardCapabilities { caps }

    func resources() throws(SyscallError) -> CardResources {
        if let e = fail("resources") { throw e }
        return resourcesValue
    }

    /// The planes as set in `resourcesValue`; atomic-only properties only once atomic was enabled,
    /// as the kernel hides them from other clients.
    func planes() throws(SyscallError) -> [PlaneInfo] {
        if let e = fail("planes") { throw e }
        log.append("planes")
        return resourcesValue.planes.map { p in
            var p = p
            if !atomicEnabled { p.properties.removeAll { $0.atomicOnly } }
            return p
        }
    }

    func enableAtomic() -> Int32 {
        log.append("enableAtomic")
        if atomicErrno == 0 { atomicEnabled = true }
        return atomicErrno
    }

    func saveCrtc(_ crtc: UInt32) throws(SyscallError) -> SavedCrtc {
        log.append("saveCrtc \(crtc)")
        return SavedCrtc(crtc: crtc, framebuffer: consoleFramebuffer, mode: DisplayMode(width: 64, height: 48, refreshMilliHz: 60000))
    }

    func restoreCrtc(_ saved: SavedCrtc, connector: UInt32) throws(SyscallError) {
        log.append("restoreCrtc \(saved.crtc) fb \(saved.framebuffer)")
        restored = saved
        scanout = saved.framebuffer
    }

    func setCrtc(_ crtc: UInt32, framebuffer: UInt32, connector: UInt32, mode: DisplayMode) throws(SyscallError) {
        if let e = fail("setCrtc") { throw e }
        log.append("setCrtc \(crtc) fb \(framebuffer) \(mode)")
        scanout = framebuffer
        push(Rect(x: 0, y: 0, width: mode.width, height: mode.height))
    }

    func createBuffer(width: Int, height: Int, format: PixelFormat) throws(SyscallError) -> ScanoutBuffer {
        if let e = fail("createBuffer") { throw e }
        // Pad the pitch the way drivers do, so stride handling is exercised.
        let pitch = (width * format.bytesPerPixel + 63) / 64 * 64 + 64
        let size = pitch * height
        let base = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        // Garbage, so a buffer that was not fully written shows it.
        base.initializeMemory(as: UInt8.self, repeating: 0xA5, count: size)
        nextID += 1
        let b = ScanoutBuffer(handle: nextID, framebuffer: nextID + 1000,
                              pixels: PixelBuffer(base: base, width: width, height: height, stride: pitch, format: format),
                              byteCount: size)
        buffers[b.framebuffer] = b
        log.append("createBuffer \(width)x\(height) \(format.rawValue)")
        if pushed.isEmpty { pushed = [UInt32](repeating: 0xDEAD, count: width * height) }
        return b
    }

    func destroyBuffer(_ buffer: ScanoutBuffer) {
        log.append("destroyBuffer fb \(buffer.framebuffer)")
        buffers[buffer.framebuffer] = nil
        buffer.pixels.base.deallocate()
    }

    func pageFlip(crtc: UInt32, framebuffer: UInt32) throws(SyscallError) {
        if let e = fail("pageFlip") { throw e }
        if pendingFlip != nil { throw SyscallError(call: "drmModePageFlip", object: path, errno: EBUSY) }
        log.append("pageFlip fb \(framebuffer)")
        pendingFlip = framebuffer
    }

    func dirty(framebuffer: UInt32, clips: DamageRegion) throws(SyscallError) {
        if let e = fail("dirty") { throw e }
        if dirtyErrno != 0 { throw SyscallError(call: "drmModeDirtyFB", object: path, errno: dirtyErrno) }
        let parts = (0..<clips.count).map { clips[$0] }
        log.append("dirty fb \(framebuffer) " + parts.map(\.description).joined(separator: " "))
        if framebuffer == scanout { for clip in parts { push(clip) } }
    }

    func waitVBlank(crtcIndex: Int, frames: Int) -> Int32 {
        log.append("waitVBlank \(crtcIndex) \(frames)")
        return vblankErrno
    }

    /// Returns when the flip in flight would signal its event, or after the whole timeout.
    func waitForEvents(timeoutMilliseconds: Int32) throws(SyscallError) -> Bool {
        log.append("waitForEvents \(timeoutMilliseconds)")
        eventWaits.append(timeoutMilliseconds)
        if let e = fail("waitForEvents") { throw e }
        let timeout = Duration.milliseconds(timeoutMilliseconds)
        if !interruptedWaits.isEmpty {
            let early = interruptedWaits.removeFirst()
            precondition(early < timeout, "an interrupted wait ends before its timeout")
            now = now.advanced(by: early)
            return false
        }
        if pendingFlip != nil, let after = flipEventAfter, after <= timeout {
            now = now.advanced(by: after)
            return true
        }
        now = now.advanced(by: timeout)
        return false
    }

    /// What drmModeGetConnectorCurrent says (the card's resources are left as they were: a new
    /// probe is not what a hot-plug check makes).
    var currentState: ConnectionState = .connected
    var linkBad = false
    /// The modes the connector offers now; nil: those of its resources.
    var currentModes: [DisplayMode]?

    func connectorState(_ connector: UInt32) throws(SyscallError) -> ConnectorState {
        if let e = fail("connectorState") { throw e }
        log.append("connector \(connector) current")
        let modes = currentModes ?? resourcesValue.connectors.first { $0.id == connector }?.modes ?? []
        return ConnectorState(state: currentState, linkBad: linkBad, modes: currentState == .connected ? modes : [])
    }

    /// The connector's DPMS state as last set (On from the start); nil errno: the property exists.
    private(set) var dpmsOn = true
    var dpmsErrno: Int32 = 0

    func setDPMS(connector: UInt32, on: Bool) throws(SyscallError) {
        if let e = fail("setDPMS") { throw e }
        if dpmsErrno != 0 { throw SyscallError(call: "drmModeConnectorSetProperty DPMS", object: path, errno: dpmsErrno) }
        log.append("dpms \(connector) \(on ? "on" : "off")")
        dpmsOn = on
    }

    /// Lets `duration` pass on the card's clock (a flip's event arriving later than its request).
    func elapse(_ duration: Duration) { now = now.advanced(by: duration) }

    /// Completes the flip in flight, as its event would.
    func handleEvents() throws(SyscallError) -> Int {
        if let e = fail("handleEvents") { throw e }
        guard let fb = pendingFlip else { return 0 }
        log.append("flip done fb \(fb)")
        pendingFlip = nil
        scanout = fb
        if let b = buffers[fb] { push(b.pixels.bounds) }
        return 1
    }

    func close() {
        log.append("close")
        closed = true
    }

    /// Copies `rect` of the scanned-out buffer to the panel.
    private func push(_ rect: Rect) {
        guard let b = buffers[scanout] else { return }
        let r = rect.intersection(b.pixels.bounds)
        if r.isEmpty { return }
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX { pushed[y * b.pixels.width + x] = Self.read(b.pixels, x, y) }
        }
    }

    static func read(_ p: PixelBuffer, _ x: Int, _ y: Int) -> UInt32 {
        switch p.format {
        case .xrgb8888: return p.row(y).load(fromByteOffset: x * 4, as: UInt32.self)
        case .rgb565: return UInt32(p.row(y).load(fromByteOffset: x * 2, as: UInt16.self))
        }
    }

    /// What the panel shows at physical (x, y).
    func panel(_ x: Int, _ y: Int) -> UInt32 {
        if needsFlush {
            let width = buffers.values.first?.pixels.width ?? 0
            return pushed[y * width + x]
        }
        guard let b = buffers[scanout] else { return 0 }
        return Self.read(b.pixels, x, y)
    }
}
