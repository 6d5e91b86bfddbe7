import CDRM
import Glibc
import Syscall

/// Reading planes and their properties from a real card, for the daemon's format check and for
/// probe's plane report.
extension LibDRMCard {
    public func enableAtomic() -> Int32 {
        drmSetClientCap(fd.rawValue, PD_CLIENT_CAP_ATOMIC, 1) == 0 ? 0 : Glibc.errno
    }

    public func planes() throws(SyscallError) -> [PlaneInfo] { try planeList(inFormats: true) }

    /// The planes; with `inFormats` false the IN_FORMATS blob is left unread (the daemon's format
    /// check needs only each plane's type and formats, and must not fail on a blob it never uses).
    func planeList(inFormats readBlob: Bool) throws(SyscallError) -> [PlaneInfo] {
        let raw = fd.rawValue
        let res = try pointerCall("drmModeGetPlaneResources", path) { drmModeGetPlaneResources(raw) }
        defer { drmModeFreePlaneResources(res) }
        var planes: [PlaneInfo] = []
        for id in UnsafeBufferPointer(start: res.pointee.planes, count: Int(res.pointee.count_planes)) {
            let p = try pointerCall("drmModeGetPlane", "\(path) plane \(id)") { drmModeGetPlane(raw, id) }
            let formats = Array(UnsafeBufferPointer(start: p.pointee.formats, count: Int(p.pointee.count_formats)))
            let crtcs = p.pointee.possible_crtcs
            drmModeFreePlane(p)
            let properties = try planeProperties(id)
            let type = properties.first { $0.name == "type" }.flatMap { PlaneType(kernelValue: $0.value) }
            var inFormats: [FormatModifiers]?
            if readBlob, let blob = properties.first(where: { $0.name == "IN_FORMATS" }), blob.value != 0 {
                inFormats = try formatModifiers(plane: id, blob: UInt32(truncatingIfNeeded: blob.value))
            }
            planes.append(PlaneInfo(id: id, type: type, possibleCrtcs: crtcs, formats: formats,
                                    properties: properties, inFormats: inFormats))
        }
        return planes
    }

    private func planeProperties(_ plane: UInt32) throws(SyscallError) -> [PlaneProperty] {
        let raw = fd.rawValue
        let props = try pointerCall("drmModeObjectGetProperties", "\(path) plane \(plane)") {
            drmModeObjectGetProperties(raw, plane, PD_OBJECT_PLANE)
        }
        defer { drmModeFreeObjectProperties(props) }
        var result: [PlaneProperty] = []
        for i in 0..<Int(props.pointee.count_props) {
            let propID = props.pointee.props[i]
            let prop = try pointerCall("drmModeGetProperty", "\(path) plane \(plane) property \(propID)") {
                drmModeGetProperty(raw, propID)
            }
            defer { drmModeFreeProperty(prop) }
            result.append(PlaneProperty(id: propID, name: Self.string(prop.pointee.name), value: props.pointee.prop_values[i],
                                        kind: Self.kind(prop.pointee), immutable: prop.pointee.flags & PD_PROP_IMMUTABLE != 0,
                                        atomicOnly: prop.pointee.flags & PD_PROP_ATOMIC != 0))
        }
        return result
    }

    private static func kind(_ p: drmModePropertyRes) -> PlaneProperty.Kind {
        let values = UnsafeBufferPointer(start: p.values, count: Int(p.count_values))
        let choices = UnsafeBufferPointer(start: p.enums, count: Int(p.count_enums)).map {
            PlaneProperty.Choice(string($0.name), $0.value)
        }
        let flags = p.flags
        if flags & PD_PROP_RANGE != 0, values.count >= 2 { return .range(min: values[0], max: values[1]) }
        if flags & PD_PROP_ENUM != 0 { return .enumeration(choices) }
        if flags & PD_PROP_BITMASK != 0 { return .bitmask(choices) }
        if flags & PD_PROP_BLOB != 0 { return .blob }
        // The newer types are a number in the extended-type bits, not flags of their own.
        switch flags & PD_PROP_EXTENDED_TYPE {
        case PD_PROP_OBJECT: return .object
        case PD_PROP_SIGNED_RANGE where values.count >= 2:
            return .signedRange(min: Int64(bitPattern: values[0]), max: Int64(bitPattern: values[1]))
        default: return .other(flags: flags)
        }
    }

    private func formatModifiers(plane: UInt32, blob: UInt32) throws(SyscallError) -> [FormatModifiers] {
        let raw = fd.rawValue
        let b = try pointerCall("drmModeGetPropertyBlob", "\(path) plane \(plane) IN_FORMATS blob \(blob)") {
            drmModeGetPropertyBlob(raw, blob)
        }
        defer { drmModeFreePropertyBlob(b) }
        let bytes = b.pointee.data.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(b.pointee.length))) } ?? []
        do {
            return try InFormatsBlob.decode(bytes) { modifier in
                guard let name = drmGetFormatModifierName(modifier) else { return nil }
                defer { free(name) }
                return String(cString: name)
            }
        } catch {
            throw SyscallError(call: "IN_FORMATS", object: "\(path) plane \(plane): \(error)", errno: EPROTO)
        }
    }
}
