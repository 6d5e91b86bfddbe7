import Glibc
import KMS
import Raster
import Syscall

/// A `FakeCard` that also takes atomic commits: it keeps each object's committed properties (the
/// state a second client would read), one non-blocking commit in flight until `handleEvents`,
/// and composes its screen as a display controller does: the primary plane's framebuffer, with
/// each other plane's premultiplied ARGB8888 picture over it in stacking order at CRTC_X/CRTC_Y
/// (clipped at the edges). `refusedPlanes` makes it refuse test commits using chosen planes.
/// Legacy calls go to the inner card.
final class FakeAtomicCard: AtomicCard {
    let inner: FakeCard
    /// Property ids: one per name, the same on every object, as the kernel's are.
    static let names = ["FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H", "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H",
                        "pixel blend mode", "alpha", "zpos", "MODE_ID", "ACTIVE",
                        "WRITEBACK_FB_ID", "WRITEBACK_OUT_FENCE_PTR"]
    static func id(_ name: String) -> UInt32 { UInt32(500 + names.firstIndex(of: name)!) }

    /// Committed state: object → property id → value.
    private(set) var state: [UInt32: [UInt32: UInt64]] = [:]
    /// Every commit's flags, in order.
    private(set) var commits: [AtomicFlags] = []
    private(set) var lastRequest: AtomicRequest?
    /// Errnos for the next commits (test-only ones included).
    var commitFailures: [Int32] = []
    /// Errnos for the next test-only commits only.
    var testFailures: [Int32] = []
    private var inFlight: [UInt32: [UInt32: UInt64]]?
    private(set) var atomicDisabled = 0
    private(set) var blobs: Set<UInt32> = []
    private var nextBlob: UInt32 = 900

    init(_ inner: FakeCard) { self.inner = inner }

    /// A 64x48 panel whose CRTC 10 has primary plane 20 (XRGB8888) and overlay 21 (ARGB8888 too,
    /// premultiplied blending, a zpos), with atomic on offer.
    static func withOverlay(blend: [String] = ["None", "Pre-multiplied", "Coverage"]) -> FakeAtomicCard {
        let card = FakeCard.simple()
        card.atomicErrno = 0
        let overlay = PlaneInfo(id: 21, type: .overlay, possibleCrtcs: 1, formats: [FourCC.argb8888, FourCC.xrgb8888],
                                properties: [PlaneProperty(id: id("pixel blend mode"), name: "pixel blend mode", value: 0,
                                                           kind: .enumeration(blend.enumerated().map { .init($1, UInt64($0)) })),
                                             PlaneProperty(id: id("zpos"), name: "zpos", value: 1, kind: .range(min: 1, max: 3))])
        card.resourcesValue.planes[0].type = .primary
        card.resourcesValue.planes.append(overlay)
        return FakeAtomicCard(card)
    }

    /// Adds ARGB8888 overlays `ids` for CRTC 10 (premultiplied blending; a zpos of `zpos`'s range
    /// when given, else none, as on vkms, whose overlays stack by id).
    func addOverlays(_ ids: [UInt32], zpos: ClosedRange<UInt64>? = nil, type: PlaneType = .overlay) {
        for id in ids {
            var properties = [PlaneProperty(id: Self.id("pixel blend mode"), name: "pixel blend mode", value: 0,
                                            kind: .enumeration([.init("None", 0), .init("Pre-multiplied", 1)]))]
            if let zpos { properties.append(PlaneProperty(id: Self.id("zpos"), name: "zpos", value: zpos.lowerBound,
                                                          kind: .range(min: zpos.lowerBound, max: zpos.upperBound))) }
            inner.resourcesValue.planes.append(PlaneInfo(id: id, type: type, possibleCrtcs: 1,
                                                         formats: [FourCC.argb8888, FourCC.xrgb8888], properties: properties))
        }
    }

    /// Planes the driver will not show anything on: a test-only commit giving one a framebuffer
    /// is refused (EINVAL), as a driver refusing the state.
    var refusedPlanes: Set<UInt32> = []

    func value(_ object: UInt32, _ name: String) -> UInt64? { state[object]?[Self.id(name)] }

    static let writebackConnector: UInt32 = 3

    /// Lists a writeback connector for CRTC 10 and offers it to clients that ask.
    func addWriteback() {
        inner.resourcesValue.connectors.append(ConnectorInfo(id: Self.writebackConnector, name: "Writeback-1", state: .unknown,
                                                             modes: [], currentCrtc: nil, possibleCrtcs: 1))
        writebackErrno = 0
    }

    // MARK: AtomicCard

    func propertyIDs(of object: UInt32, _ kind: AtomicObject) throws(SyscallError) -> [String: UInt32] {
        switch kind {
        case .connector where object == Self.writebackConnector:
            return ["CRTC_ID": Self.id("CRTC_ID"), "WRITEBACK_FB_ID": Self.id("WRITEBACK_FB_ID"),
                    "WRITEBACK_OUT_FENCE_PTR": Self.id("WRITEBACK_OUT_FENCE_PTR")]
        case .connector: return ["CRTC_ID": Self.id("CRTC_ID")]
        case .crtc: return ["MODE_ID": Self.id("MODE_ID"), "ACTIVE": Self.id("ACTIVE")]
        case .plane:
            var ids: [String: UInt32] = [:]
            for n in Self.names.prefix(10) { ids[n] = Self.id(n) }
            return ids
        }
    }

    func createModeBlob(_ mode: DisplayMode) throws(SyscallError) -> UInt32 {
        nextBlob += 1
        blobs.insert(nextBlob)
        return nextBlob
    }

    func destroyBlob(_ id: UInt32) { blobs.remove(id) }

    func commit(_ request: AtomicRequest, flags: AtomicFlags) throws(SyscallError) {
        commits.append(flags)
        lastRequest = request
        if !commitFailures.isEmpty {
            throw SyscallError(call: "DRM_IOCTL_MODE_ATOMIC", object: path, errno: commitFailures.removeFirst())
        }
        if flags.contains(.testOnly) {
            if !testFailures.isEmpty { throw SyscallError(call: "DRM_IOCTL_MODE_ATOMIC (test only)", object: path, errno: testFailures.removeFirst()) }
            for plane in refusedPlanes where (request.value(of: plane, Self.id("FB_ID")) ?? 0) != 0 {
                throw SyscallError(call: "DRM_IOCTL_MODE_ATOMIC (test only)", object: path, errno: EINVAL)
            }
            return
        }
        if inFlight != nil { throw SyscallError(call: "DRM_IOCTL_MODE_ATOMIC", object: path, errno: EBUSY) }
        var next = state
        var start = 0
        for (i, object) in request.objects.enumerated() {
            let n = Int(request.counts[i])
            for k in start..<start + n { next[object, default: [:]][request.properties[k]] = request.values[k] }
            start += n
        }
        if let pointer = request.value(of: Self.writebackConnector, Self.id("WRITEBACK_OUT_FENCE_PTR")) {
            UnsafeMutablePointer<Int32>(bitPattern: UInt(pointer))?.pointee = 99
        }
        if flags.contains(.nonblocking) { inFlight = next } else { state = next }
    }

    func createSpriteBuffer(width: Int, height: Int) throws(SyscallError) -> ScanoutBuffer {
        try inner.createBuffer(width: width, height: height, format: .xrgb8888)
    }

    func disableAtomic() { atomicDisabled += 1 }

    /// The driver's largest framebuffer (nil: not said).
    var framebufferLimit: (width: Int, height: Int)? = (4096, 4096)
    func largestFramebuffer() -> (width: Int, height: Int)? { framebufferLimit }

    /// 0 offers the writeback connector `resourcesValue` lists ("Writeback-…").
    var writebackErrno: Int32 = EOPNOTSUPP
    func enableWriteback() -> Int32 { writebackErrno }
    /// What a writeback commit captured: the screen as composed then, into the buffer it named.
    func waitForFence(_ fd: Int32, timeoutMilliseconds: Int32) -> Bool {
        guard let fb = value(Self.writebackConnector, "WRITEBACK_FB_ID"), let target = inner.buffers[UInt32(fb)] else { return false }
        for y in 0..<target.pixels.height {
            for x in 0..<target.pixels.width { target.pixels.row(y).storeBytes(of: screen(x, y), toByteOffset: x * 4, as: UInt32.self) }
        }
        state[Self.writebackConnector]?[Self.id("WRITEBACK_FB_ID")] = 0
        return true
    }

    // MARK: The screen

    /// The composed pixel at (x, y): the primary plane's, then every other plane's premultiplied
    /// ARGB8888 picture over it at CRTC_X/CRTC_Y (clipped at the edges), stacked as a driver
    /// does: overlays under cursors, then by zpos, then by id.
    func screen(_ x: Int, _ y: Int) -> UInt32 {
        guard let fb = value(20, "FB_ID"), let map = inner.buffers[UInt32(fb)] else { return 0 }
        // SRC_X/SRC_Y are 16.16 fixed point: the window of a larger framebuffer.
        let wx = Int((value(20, "SRC_X") ?? 0) >> 16), wy = Int((value(20, "SRC_Y") ?? 0) >> 16)
        var pixel = FakeCard.read(map.pixels, x + wx, y + wy)
        for plane in stacking() {
            guard let sfb = value(plane, "FB_ID"), sfb != 0, let sprite = inner.buffers[UInt32(sfb)] else { continue }
            let ox = Int(Int64(bitPattern: value(plane, "CRTC_X") ?? 0)), oy = Int(Int64(bitPattern: value(plane, "CRTC_Y") ?? 0))
            let w = Int(value(plane, "CRTC_W") ?? 0), h = Int(value(plane, "CRTC_H") ?? 0)
            let sx = x - ox, sy = y - oy
            guard sx >= 0, sy >= 0, sx < w, sy < h else { continue }
            let s = FakeCard.read(sprite.pixels, sx, sy)
            let a = s >> 24
            var out: UInt32 = 0
            for shift in [0, 8, 16] as [UInt32] {
                let c = (s >> shift) & 0xFF, d = (pixel >> shift) & 0xFF
                out |= min(255, c + (d * (255 - a) + 127) / 255) << shift
            }
            pixel = out
        }
        return pixel
    }

    /// The planes above the primary, bottom to top.
    func stacking() -> [UInt32] {
        inner.resourcesValue.planes.filter { $0.type != .primary }
            .sorted { a, b in
                let ka = (a.type == .cursor ? 1 : 0, value(a.id, "zpos") ?? 0, a.id), kb = (b.type == .cursor ? 1 : 0, value(b.id, "zpos") ?? 0, b.id)
                return ka < kb
            }
            .map { $0.id }
    }

    // MARK: DRMCard, through the inner card

    var path: String { inner.path }
    var driver: String { inner.driver }
    var eventDescriptor: Int32 { inner.eventDescriptor }
    func capabilities() -> CardCapabilities { inner.capabilities() }
    func resources() throws(SyscallError) -> CardResources { try inner.resources() }
    func planes() throws(SyscallError) -> [PlaneInfo] { try inner.planes() }
    func enableAtomic() -> Int32 { inner.enableAtomic() }
    func saveCrtc(_ crtc: UInt32) throws(SyscallError) -> SavedCrtc { try inner.saveCrtc(crtc) }
    func restoreCrtc(_ saved: SavedCrtc, connector: UInt32) throws(SyscallError) { try inner.restoreCrtc(saved, connector: connector) }
    func setCrtc(_ crtc: UInt32, framebuffer: UInt32, connector: UInt32, mode: DisplayMode) throws(SyscallError) {
        try inner.setCrtc(crtc, framebuffer: framebuffer, connector: connector, mode: mode)
    }
    func createBuffer(width: Int, height: Int, format: PixelFormat) throws(SyscallError) -> ScanoutBuffer {
        try inner.createBuffer(width: width, height: height, format: format)
    }
    func destroyBuffer(_ buffer: ScanoutBuffer) { inner.destroyBuffer(buffer) }
    func pageFlip(crtc: UInt32, framebuffer: UInt32) throws(SyscallError) { try inner.pageFlip(crtc: crtc, framebuffer: framebuffer) }
    func dirty(framebuffer: UInt32, clips: DamageRegion) throws(SyscallError) { try inner.dirty(framebuffer: framebuffer, clips: clips) }
    func waitVBlank(crtcIndex: Int, frames: Int) -> Int32 { inner.waitVBlank(crtcIndex: crtcIndex, frames: frames) }
    func waitForEvents(timeoutMilliseconds: Int32) throws(SyscallError) -> Bool {
        if inFlight != nil { return true }
        return try inner.waitForEvents(timeoutMilliseconds: timeoutMilliseconds)
    }
    /// Completes the commit in flight, as its event would.
    func handleEvents() throws(SyscallError) -> Int {
        if let next = inFlight {
            state = next
            inFlight = nil
            return 1
        }
        return try inner.handleEvents()
    }
    func connectorState(_ connector: UInt32) throws(SyscallError) -> ConnectorState { try inner.connectorState(connector) }
    func setDPMS(connector: UInt32, on: Bool) throws(SyscallError) { try inner.setDPMS(connector: connector, on: on) }
    func close() { inner.close() }
}
