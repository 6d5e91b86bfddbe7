import CDRM
import Glibc
import Raster
import Syscall

/// A real DRM device, through libdrm's legacy mode-setting calls (they work wherever dumb buffers
/// do; atomic fails on some boards).
public final class LibDRMCard: DRMCard {
    public let path: String
    public let driver: String
    public let fd: FileDescriptor
    /// Where the page-flip callback counts completions: the flip's user data. Heap memory so its
    /// address stays put while the kernel holds it.
    let flipCounter: UnsafeMutablePointer<UInt32>
    private var closed = false

    public var eventDescriptor: Int32 { fd.rawValue }

    public init(path: String) throws(KMSError) {
        self.path = path
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, O_RDWR | O_NONBLOCK)
        } catch {
            if error.errno == ENOENT { throw .noDevice("\(path) does not exist") }
            throw KMSError.classify(error, device: path)
        }
        let version: UnsafeMutablePointer<drmVersion>
        do { version = try pointerCall("DRM_IOCTL_VERSION", path) { drmGetVersion(fd.rawValue) } } catch {
            fd.close()
            throw .notADRMDevice(path: path, error)
        }
        driver = version.pointee.name.map { String(cString: $0) } ?? "unknown"
        drmFreeVersion(version)
        // Without this the plane list leaves out primary planes, whose formats are what matter.
        _ = drmSetClientCap(fd.rawValue, PD_CLIENT_CAP_UNIVERSAL_PLANES, 1)
        self.fd = fd
        flipCounter = .allocate(capacity: 1)
        flipCounter.initialize(to: 0)
    }

    deinit { close() }

    public func close() {
        if closed { return }
        closed = true
        fd.close()
        flipCounter.deallocate()
    }

    public func capabilities() -> CardCapabilities {
        var dumb: UInt64 = 0, shadow: UInt64 = 0
        let hasDumb = drmGetCap(fd.rawValue, PD_CAP_DUMB_BUFFER, &dumb) == 0 && dumb != 0
        let prefersShadow = drmGetCap(fd.rawValue, PD_CAP_DUMB_PREFER_SHADOW, &shadow) == 0 && shadow != 0
        var width: UInt64 = 0, height: UInt64 = 0
        let hasWidth = drmGetCap(fd.rawValue, PD_CAP_CURSOR_WIDTH, &width) == 0
        let hasHeight = drmGetCap(fd.rawValue, PD_CAP_CURSOR_HEIGHT, &height) == 0
        return CardCapabilities(dumbBuffers: hasDumb, preferShadow: prefersShadow,
                                cursorWidth: hasWidth ? Int(width) : nil, cursorHeight: hasHeight ? Int(height) : nil)
    }

    // MARK: Reading what the card has

    public func resources() throws(SyscallError) -> CardResources {
        let raw = fd.rawValue
        let res = try pointerCall("drmModeGetResources", path) { drmModeGetResources(raw) }
        defer { drmModeFreeResources(res) }
        let crtcIDs = Array(UnsafeBufferPointer(start: res.pointee.crtcs, count: Int(res.pointee.count_crtcs)))
        var crtcs: [CrtcInfo] = []
        for (index, id) in crtcIDs.enumerated() {
            guard let c = drmModeGetCrtc(raw, id) else { continue }
            let mode = c.pointee.mode_valid != 0 ? Self.mode(c.pointee.mode) : nil
            crtcs.append(CrtcInfo(id: id, index: index, mode: mode, framebuffer: c.pointee.buffer_id))
            drmModeFreeCrtc(c)
        }
        var connectors: [ConnectorInfo] = []
        for id in UnsafeBufferPointer(start: res.pointee.connectors, count: Int(res.pointee.count_connectors)) {
            // GetConnector (not ...Current) probes the outputs: that is what picks up a hot-plug.
            guard let c = drmModeGetConnector(raw, id) else { continue }
            defer { drmModeFreeConnector(c) }
            connectors.append(connectorInfo(c.pointee, crtcIDs: crtcIDs))
        }
        // Without a plane list the card is still driven (XRGB8888 assumed); probe shows the error.
        return CardResources(connectors: connectors, crtcs: crtcs, planes: (try? planeList(inFormats: false)) ?? [])
    }

    private func connectorInfo(_ c: drmModeConnector, crtcIDs: [UInt32]) -> ConnectorInfo {
        let raw = fd.rawValue
        let typeName = drmModeGetConnectorTypeName(c.connector_type).map { String(cString: $0) } ?? "Unknown"
        let state: ConnectionState
        switch c.connection {
        case DRM_MODE_CONNECTED: state = .connected
        case DRM_MODE_DISCONNECTED: state = .disconnected
        default: state = .unknown
        }
        let modes = UnsafeBufferPointer(start: c.modes, count: Int(c.count_modes)).map(Self.mode)
        var current: UInt32?
        if c.encoder_id != 0, let e = drmModeGetEncoder(raw, c.encoder_id) {
            if e.pointee.crtc_id != 0 { current = e.pointee.crtc_id }
            drmModeFreeEncoder(e)
        }
        var possible: UInt32 = 0
        for eid in UnsafeBufferPointer(start: c.encoders, count: Int(c.count_encoders)) {
            if let e = drmModeGetEncoder(raw, eid) {
                possible |= e.pointee.possible_crtcs
                drmModeFreeEncoder(e)
            }
        }
        var orientation: PanelOrientation?
        if let name = enumProperty(object: c.connector_id, type: PD_OBJECT_CONNECTOR, named: "panel orientation") {
            orientation = PanelOrientation(rawValue: name)
        }
        return ConnectorInfo(id: c.connector_id, name: "\(typeName)-\(c.connector_type_id)", state: state,
                             widthMM: Int(c.mmWidth), heightMM: Int(c.mmHeight), orientation: orientation,
                             modes: modes, currentCrtc: current, possibleCrtcs: possible)
    }

    /// The enum name of the object's property `name` ("Upside Down"), or nil.
    private func enumProperty(object: UInt32, type: UInt32, named name: String) -> String? {
        propertyLookup(object: object, type: type, named: name) { prop, value in
            for e in UnsafeBufferPointer(start: prop.enums, count: Int(prop.count_enums)) where e.value == value {
                return Self.string(e.name)
            }
            return nil
        }
    }

    /// The value of the object's property `name`, or nil when it has none.
    private func numericProperty(object: UInt32, type: UInt32, named name: String) -> UInt64? {
        propertyLookup(object: object, type: type, named: name) { _, value in value }
    }

    private func propertyLookup<T>(object: UInt32, type: UInt32, named name: String,
                                   _ read: (drmModePropertyRes, UInt64) -> T?) -> T? {
        let raw = fd.rawValue
        guard let props = drmModeObjectGetProperties(raw, object, type) else { return nil }
        defer { drmModeFreeObjectProperties(props) }
        for i in 0..<Int(props.pointee.count_props) {
            guard let prop = drmModeGetProperty(raw, props.pointee.props[i]) else { continue }
            defer { drmModeFreeProperty(prop) }
            if Self.string(prop.pointee.name) == name { return read(prop.pointee, props.pointee.prop_values[i]) }
        }
        return nil
    }

    static func mode(_ m: drmModeModeInfo) -> DisplayMode {
        var milliHz = Int(m.vrefresh) * 1000
        let pixels = Int(m.htotal) * Int(m.vtotal)
        if m.clock > 0 && pixels > 0 {
            // clock is in kHz; interlaced modes show two fields per frame, double-scanned half.
            // In Int64: clock times 10^6 passes 2^31 for every real mode, and Int is 32 bits on armhf.
            var v = Int((Int64(m.clock) * 1_000_000 + Int64(pixels / 2)) / Int64(pixels))
            if m.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { v *= 2 }
            if m.flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0 { v /= 2 }
            milliHz = v
        }
        var mode = DisplayMode(width: Int(m.hdisplay), height: Int(m.vdisplay), refreshMilliHz: milliHz,
                               preferred: m.type & PD_MODE_TYPE_PREFERRED != 0,
                               userDefined: m.type & PD_MODE_TYPE_USERDEF != 0)
        mode.timings = m
        return mode
    }

    /// A fixed-size C char array (imported as a tuple) up to its first NUL.
    static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { bytes in
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }

    // MARK: Mode setting

    public func saveCrtc(_ crtc: UInt32) throws(SyscallError) -> SavedCrtc {
        let raw = fd.rawValue
        let c = try pointerCall("drmModeGetCrtc", path) { drmModeGetCrtc(raw, crtc) }
        defer { drmModeFreeCrtc(c) }
        let mode = c.pointee.mode_valid != 0 ? Self.mode(c.pointee.mode) : nil
        return SavedCrtc(crtc: crtc, framebuffer: c.pointee.buffer_id, x: c.pointee.x, y: c.pointee.y, mode: mode)
    }

    public func restoreCrtc(_ saved: SavedCrtc, connector: UInt32) throws(SyscallError) {
        let raw = fd.rawValue
        var conn = connector
        if var timings = saved.mode?.timings, saved.framebuffer != 0 {
            try negativeErrnoCall("drmModeSetCrtc (restore)", path) {
                drmModeSetCrtc(raw, saved.crtc, saved.framebuffer, saved.x, saved.y, &conn, 1, &timings)
            }
        } else {
            // It was off: switch it off again rather than leave PulseDot's last frame up.
            try negativeErrnoCall("drmModeSetCrtc (off)", path) { drmModeSetCrtc(raw, saved.crtc, 0, 0, 0, nil, 0, nil) }
        }
    }

    public func setCrtc(_ crtc: UInt32, framebuffer: UInt32, connector: UInt32, mode: DisplayMode) throws(SyscallError) {
        let raw = fd.rawValue
        guard var timings = mode.timings else {
            throw SyscallError(call: "drmModeSetCrtc", object: "\(path): mode \(mode) has no timings", errno: EINVAL)
        }
        var conn = connector
        try negativeErrnoCall("drmModeSetCrtc", path) { drmModeSetCrtc(raw, crtc, framebuffer, 0, 0, &conn, 1, &timings) }
    }

    // MARK: Buffers

    public func createBuffer(width: Int, height: Int, format: PixelFormat) throws(SyscallError) -> ScanoutBuffer {
        try createBuffer(width: width, height: height, format: format, fourcc: FourCC.of(format))
    }

    /// A dumb buffer of `format`'s size per pixel whose framebuffer says `fourcc` (ARGB8888 for
    /// a sprite laid out as XRGB8888 with alpha in the fourth byte).
    func createBuffer(width: Int, height: Int, format: PixelFormat, fourcc: UInt32) throws(SyscallError) -> ScanoutBuffer {
        let raw = fd.rawValue
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        let bpp = UInt32(format.bytesPerPixel * 8)
        try negativeErrnoCall("DRM_IOCTL_MODE_CREATE_DUMB", "\(path) \(width)x\(height) \(bpp) bpp") {
            drmModeCreateDumbBuffer(raw, UInt32(width), UInt32(height), bpp, 0, &handle, &pitch, &size)
        }
        var fb: UInt32 = 0
        do {
            var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
            var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
            var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
            try negativeErrnoCall("drmModeAddFB2", "\(path) \(FourCC.name(fourcc)) \(width)x\(height)") {
                withUnsafePointer(to: &handles) { h in
                    withUnsafePointer(to: &pitches) { p in
                        withUnsafePointer(to: &offsets) { o in
                            drmModeAddFB2(raw, UInt32(width), UInt32(height), fourcc,
                                          UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                                          UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                                          UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self), &fb, 0)
                        }
                    }
                }
            }
            var offset: UInt64 = 0
            try negativeErrnoCall("DRM_IOCTL_MODE_MAP_DUMB", path) { drmModeMapDumbBuffer(raw, handle, &offset) }
            let map = try MappedMemory.map(fd, length: Int(size), offset: offset, what: "dumb buffer \(handle)")
            let pixels = PixelBuffer(base: map.base, width: width, height: height, stride: Int(pitch), format: format)
            return ScanoutBuffer(handle: handle, framebuffer: fb, pixels: pixels, byteCount: Int(size))
        } catch {
            if fb != 0 { _ = drmModeRmFB(raw, fb) }
            _ = drmModeDestroyDumbBuffer(raw, handle)
            throw error
        }
    }

    public func destroyBuffer(_ buffer: ScanoutBuffer) {
        MappedMemory(base: buffer.pixels.base, length: buffer.byteCount).unmap()
        _ = drmModeRmFB(fd.rawValue, buffer.framebuffer)
        _ = drmModeDestroyDumbBuffer(fd.rawValue, buffer.handle)
    }

    // MARK: Presenting

    public func pageFlip(crtc: UInt32, framebuffer: UInt32) throws(SyscallError) {
        let raw = fd.rawValue, counter = UnsafeMutableRawPointer(flipCounter)
        try negativeErrnoCall("drmModePageFlip", path) { drmModePageFlip(raw, crtc, framebuffer, PD_PAGE_FLIP_EVENT, counter) }
    }

    public func dirty(framebuffer: UInt32, clips: DamageRegion) throws(SyscallError) {
        let raw = fd.rawValue
        // On the stack: a frame's clips allocate nothing.
        try withUnsafeTemporaryAllocation(of: drmModeClip.self, capacity: DamageRegion.capacity) { c throws(SyscallError) in
            for i in 0..<clips.count {
                let r = clips[i]
                c[i] = drmModeClip(x1: UInt16(clamping: r.x), y1: UInt16(clamping: r.y),
                                   x2: UInt16(clamping: r.maxX), y2: UInt16(clamping: r.maxY))
            }
            let base = c.baseAddress!, count = UInt32(clips.count)
            try negativeErrnoCall("drmModeDirtyFB", path) { drmModeDirtyFB(raw, framebuffer, base, count) }
        }
    }

    public func connectorState(_ connector: UInt32) throws(SyscallError) -> ConnectorState {
        let raw = fd.rawValue
        let c = try pointerCall("drmModeGetConnectorCurrent", "\(path) connector \(connector)") { drmModeGetConnectorCurrent(raw, connector) }
        defer { drmModeFreeConnector(c) }
        let state: ConnectionState
        switch c.pointee.connection {
        case DRM_MODE_CONNECTED: state = .connected
        case DRM_MODE_DISCONNECTED: state = .disconnected
        default: state = .unknown
        }
        let link = numericProperty(object: connector, type: PD_OBJECT_CONNECTOR, named: "link-status")
        let modes = UnsafeBufferPointer(start: c.pointee.modes, count: Int(c.pointee.count_modes)).map(Self.mode)
        return ConnectorState(state: state, linkBad: link == PD_LINK_STATUS_BAD, modes: modes)
    }

    public func setDPMS(connector: UInt32, on: Bool) throws(SyscallError) {
        guard let property = propertyLookup(object: connector, type: PD_OBJECT_CONNECTOR, named: "DPMS", { prop, _ in prop.prop_id }) else {
            throw SyscallError(call: "drmModeConnectorSetProperty DPMS", object: "\(path) connector \(connector): no DPMS property", errno: ENOENT)
        }
        let raw = fd.rawValue
        try negativeErrnoCall("drmModeConnectorSetProperty DPMS", path) {
            drmModeConnectorSetProperty(raw, connector, property, on ? PD_DPMS_ON : PD_DPMS_OFF)
        }
    }

    public func waitVBlank(crtcIndex: Int, frames: Int) -> Int32 {
        let r = pd_wait_vblank(fd.rawValue, UInt32(crtcIndex), UInt32(frames))
        return r == 0 ? 0 : -r
    }

    public func waitForEvents(timeoutMilliseconds: Int32) throws(SyscallError) -> Bool {
        try fd.waitUntilReadable(timeoutMilliseconds: timeoutMilliseconds)
    }

    public func handleEvents() throws(SyscallError) -> Int {
        flipCounter.pointee = 0
        let r = pd_handle_events(fd.rawValue)
        if r == -EAGAIN || r == -EWOULDBLOCK { return 0 }
        if r < 0 { throw SyscallError(call: "drmHandleEvent", object: path, errno: -r) }
        return Int(flipCounter.pointee)
    }
}
