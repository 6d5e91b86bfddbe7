import CDRM
import Glibc
import Raster
import Syscall

/// Atomic commits on a real card: the ioctl called with the request's own arrays.
extension LibDRMCard: AtomicCard {
    public func propertyIDs(of object: UInt32, _ kind: AtomicObject) throws(SyscallError) -> [String: UInt32] {
        let raw = fd.rawValue
        let type: UInt32
        switch kind {
        case .connector: type = PD_OBJECT_CONNECTOR
        case .crtc: type = PD_OBJECT_CRTC
        case .plane: type = PD_OBJECT_PLANE
        }
        let props = try pointerCall("drmModeObjectGetProperties", "\(path) object \(object)") {
            drmModeObjectGetProperties(raw, object, type)
        }
        defer { drmModeFreeObjectProperties(props) }
        var ids: [String: UInt32] = [:]
        for i in 0..<Int(props.pointee.count_props) {
            guard let prop = drmModeGetProperty(raw, props.pointee.props[i]) else { continue }
            ids[Self.string(prop.pointee.name)] = prop.pointee.prop_id
            drmModeFreeProperty(prop)
        }
        return ids
    }

    public func createModeBlob(_ mode: DisplayMode) throws(SyscallError) -> UInt32 {
        guard var timings = mode.timings else {
            throw SyscallError(call: "drmModeCreatePropertyBlob", object: "\(path): mode \(mode) has no timings", errno: EINVAL)
        }
        let raw = fd.rawValue
        var id: UInt32 = 0
        try negativeErrnoCall("drmModeCreatePropertyBlob (MODE_ID)", path) {
            drmModeCreatePropertyBlob(raw, &timings, MemoryLayout<drmModeModeInfo>.size, &id)
        }
        return id
    }

    public func largestFramebuffer() -> (width: Int, height: Int)? {
        guard let res = drmModeGetResources(fd.rawValue) else { return nil }
        defer { drmModeFreeResources(res) }
        return (Int(res.pointee.max_width), Int(res.pointee.max_height))
    }

    public func createSpriteBuffer(width: Int, height: Int) throws(SyscallError) -> ScanoutBuffer {
        try createBuffer(width: width, height: height, format: .xrgb8888, fourcc: FourCC.argb8888)
    }

    public func disableAtomic() {
        _ = drmSetClientCap(fd.rawValue, PD_CLIENT_CAP_WRITEBACK_CONNECTORS, 0)
        _ = drmSetClientCap(fd.rawValue, PD_CLIENT_CAP_ATOMIC, 0)
        _ = drmSetClientCap(fd.rawValue, PD_CLIENT_CAP_UNIVERSAL_PLANES, 1)
    }

    public func enableWriteback() -> Int32 {
        drmSetClientCap(fd.rawValue, PD_CLIENT_CAP_WRITEBACK_CONNECTORS, 1) == 0 ? 0 : Glibc.errno
    }

    public func waitForFence(_ fence: Int32, timeoutMilliseconds: Int32) -> Bool {
        defer { Glibc.close(fence) }
        var p = pollfd(fd: fence, events: Int16(POLLIN), revents: 0)
        while true {
            let r = poll(&p, 1, timeoutMilliseconds)
            if r < 0 && Glibc.errno == EINTR { continue }
            return r > 0
        }
    }

    public func destroyBlob(_ id: UInt32) { _ = drmModeDestroyPropertyBlob(fd.rawValue, id) }

    public func commit(_ request: AtomicRequest, flags: AtomicFlags) throws(SyscallError) {
        var kernel: UInt32 = 0
        if flags.contains(.testOnly) { kernel |= PD_ATOMIC_TEST_ONLY }
        if flags.contains(.nonblocking) { kernel |= PD_ATOMIC_NONBLOCK }
        if flags.contains(.allowModeset) { kernel |= PD_ATOMIC_ALLOW_MODESET }
        if flags.contains(.event) { kernel |= PD_PAGE_FLIP_EVENT }
        let raw = fd.rawValue, counter = UnsafeMutableRawPointer(flipCounter)
        let r = request.objects.withUnsafeBufferPointer { objs in
            request.counts.withUnsafeBufferPointer { counts in
                request.properties.withUnsafeBufferPointer { props in
                    request.values.withUnsafeBufferPointer { values in
                        pd_atomic_commit(raw, kernel, objs.baseAddress, counts.baseAddress, props.baseAddress,
                                         values.baseAddress, UInt32(objs.count), flags.contains(.event) ? counter : nil)
                    }
                }
            }
        }
        if r < 0 {
            throw SyscallError(call: flags.contains(.testOnly) ? "DRM_IOCTL_MODE_ATOMIC (test only)" : "DRM_IOCTL_MODE_ATOMIC",
                               object: path, errno: -r)
        }
    }
}
