import Glibc
import JSON
import Syscall

/// What `pulsedot probe` reports about one framebuffer: enough to see whether PulseDot can draw
/// on it, how (pan or in place, vsync or timer) and, if not, why.
public struct FramebufferProbe: JSONReport, Sendable {
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

    /// The report as one object, written where `writer` is: `pulsedot probe` puts every
    /// framebuffer's in one array.
    public func writeJSON<Output>(to writer: inout JSONWriter<Output>) {
        let v = variable
        writer.object { w in
            w.field("device", path)
            w.field("id", fixed.id)
            w.field("width", v.xres)
            w.field("height", v.yres)
            w.field("virtualWidth", v.xresVirtual)
            w.field("virtualHeight", v.yresVirtual)
            w.field("bitsPerPixel", v.bitsPerPixel)
            w.field("lineLength", fixed.lineLength)
            w.field("memoryLength", fixed.memoryLength)
            switch layout {
            case .success(let l):
                w.field("format", l.description.lowercased())
            case .failure(let r):
                w.null("format")
                w.field("unsupported", r.layout)
            }
            for (name, b) in [("red", v.red), ("green", v.green), ("blue", v.blue), ("transp", v.transp)] {
                w.object(name) { w in
                    w.field("offset", b.offset)
                    w.field("length", b.length)
                }
            }
            w.field("pan", panProblem.isEmpty)
            w.field("vsync", vsyncText.hasPrefix("yes") ? "yes" : vsyncText.hasPrefix("no") ? "no" : "unknown")
        }
    }
}
