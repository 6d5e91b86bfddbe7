/// The kernel's own account of an atomic driver's planes: /sys/kernel/debug/dri/N/state (written
/// by drm_atomic_print_new_state). Probe's plane list is checked against it, so the QEMU tests
/// compare with what the kernel says rather than with what someone remembered a driver to have.
struct KMSStateFile {
    struct Plane: Equatable {
        var id: Int
        var name: String
        /// The CRTC's name ("crtc-0"), nil when the plane is off ("(null)").
        var crtc: String?
        var framebuffer: Int
        /// The framebuffer's fourcc ("XR24"), when it has one.
        var format: String?
    }

    var planes: [Plane] = []
    /// CRTC name → object id ("crtc-0" → 35).
    var crtcIDs: [String: Int] = [:]

    /// The "plane[31]: plane-0" / "\tcrtc=crtc-0" / "\tfb=42" / "\t\tformat=XR24 little-endian …"
    /// and "crtc[35]: crtc-0" lines; everything else is left alone.
    init(_ text: String) {
        // Indented lines belong to the header above them; only a plane's are wanted (a CRTC's
        // must not land on the last plane).
        var inPlane = false
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if raw.first?.isWhitespace != true {
                inPlane = false
                guard let (kind, id, name) = Self.header(line) else { continue }
                if kind == "plane" {
                    planes.append(Plane(id: id, name: name, crtc: nil, framebuffer: 0, format: nil))
                    inPlane = true
                }
                if kind == "crtc" { crtcIDs[name] = id }
                continue
            }
            guard inPlane else { continue }
            if line.hasPrefix("crtc=") {
                let v = String(line.dropFirst(5))
                planes[planes.count - 1].crtc = v == "(null)" ? nil : v
            } else if line.hasPrefix("fb=") {
                planes[planes.count - 1].framebuffer = Int(line.dropFirst(3)) ?? -1
            } else if line.hasPrefix("format=") {
                planes[planes.count - 1].format = line.dropFirst(7).split(separator: " ").first.map(String.init)
            }
        }
    }

    /// "plane[31]: plane-0" → ("plane", 31, "plane-0").
    private static func header(_ line: String) -> (String, Int, String)? {
        guard let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]"), open < close,
              line[close...].hasPrefix("]: "), let id = Int(line[line.index(after: open)..<close]) else { return nil }
        let kind = String(line[..<open])
        guard ["plane", "crtc", "connector"].contains(kind) else { return nil }
        return (kind, id, String(line[line.index(close, offsetBy: 3)...]))
    }
}
