import Glibc
import Syscall

/// What `pulsedot probe` reports about one framebuffer: enough to see whether PulseDot can draw
/// on it, how (pan or in place, vsync or timer) and, if not, why.
public struct FramebufferProbe: Sendable {
    public var path: String
    public var fixed: FixedScreenInfo
    public var variable: VariableScreenInfo
    /// The layout PulseDot would write, or why it would not.
    public var layout: Result<FramebufferLayout, LayoutRejection>
    /// Empty: two screens fit and the driver pans; else why not.
    public var panProblem: String
    /// 0: FBIO_WAITFORVSYNC works; else its errno.
    public var vsyncErrno: Int32
    /// It works and really waits for a vblank (DRM's emulation answers at once without one).
    public var vsyncWaits: Bool

    /// Reads everything from `device` (a vsync wait included: it takes at most a frame). Nothing
    /// is written or panned.
    public static func read(_ device: FramebufferDevice,
                            clock: () -> Int64 = { MonotonicInstant.now().nanoseconds }) throws(FBDevError) -> FramebufferProbe {
        let (v, f) = try device.screenInfo()
        var vsync: Int32 = 0
        var waits = false
        do {
            waits = try device.vsyncWaitsForAFrame(clock: clock)
        } catch {
            vsync = error.errno
        }
        let (canPan, why) = FBDevOutput.panning(v, f)
        return FramebufferProbe(path: device.path, fixed: f, variable: v, layout: FramebufferLayout.decode(v, f),
                                panProblem: canPan ? "" : why, vsyncErrno: vsync, vsyncWaits: waits)
    }

    var layoutText: String {
        switch layout {
        case .success(let l): return "\(l)"
        case .failure(let r): return "unsupported: \(r.layout)"
        }
    }

    var vsyncText: String {
        vsyncErrno == 0 && !vsyncWaits ? "no (it returns at once: no vblank interrupt)" : Self.errnoText(vsyncErrno)
    }

    static func errnoText(_ code: Int32) -> String {
        switch code {
        case 0: return "yes"
        case ENOTTY, EINVAL, EOPNOTSUPP, ENOSYS: return "no (\(SyscallError.message(errno: code)))"
        default: return "unknown (\(SyscallError.message(errno: code)))"
        }
    }

    // MARK: Text

    public var text: String {
        let v = variable
        var out = "\(path): framebuffer \(fixed.id.isEmpty ? "(no id)" : fixed.id)\n"
        out += "  screen: \(v.xres)x\(v.yres), virtual \(v.xresVirtual)x\(v.yresVirtual), offset \(v.xoffset),\(v.yoffset)\n"
        out += "  pixels: \(FramebufferLayout.describe(v)): \(layoutText)\n"
        out += "  line length: \(fixed.lineLength) bytes, memory: \(fixed.memoryLength) bytes\n"
        out += "  double buffering by panning: \(panProblem.isEmpty ? "yes" : "no (\(panProblem))")\n"
        out += "  FBIO_WAITFORVSYNC: \(vsyncText)\n"
        return out
    }

    // MARK: JSON

    public var json: String {
        let v = variable
        var fields: [(String, String)] = [
            ("device", Self.quote(path)),
            ("id", Self.quote(fixed.id)),
            ("width", "\(v.xres)"),
            ("height", "\(v.yres)"),
            ("virtualWidth", "\(v.xresVirtual)"),
            ("virtualHeight", "\(v.yresVirtual)"),
            ("bitsPerPixel", "\(v.bitsPerPixel)"),
            ("lineLength", "\(fixed.lineLength)"),
            ("memoryLength", "\(fixed.memoryLength)"),
        ]
        switch layout {
        case .success(let l):
            fields.append(("format", Self.quote(l.description.lowercased())))
        case .failure(let r):
            fields.append(("format", "null"))
            fields.append(("unsupported", Self.quote(r.layout)))
        }
        for (name, b) in [("red", v.red), ("green", v.green), ("blue", v.blue), ("transp", v.transp)] {
            fields.append((name, "{\"offset\":\(b.offset),\"length\":\(b.length)}"))
        }
        fields.append(("pan", panProblem.isEmpty ? "true" : "false"))
        fields.append(("vsync", Self.quote(vsyncText.hasPrefix("yes") ? "yes" : vsyncText.hasPrefix("no") ? "no" : "unknown")))
        return "{" + fields.map { "\(Self.quote($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
