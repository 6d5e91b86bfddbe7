import Display
import FBDev
import KMS
import Raster

/// What `pulsedot show` drives: a DRM/KMS display, or a legacy framebuffer with its virtual
/// console put into graphics mode (`--fbdev PATH`). Both are `FrameOutput`s; this adds what the
/// show loop needs beyond the seam: a name, the panel's lines (for the default scale), and
/// whether an error is worth waiting out.
enum ShowOutput {
    case kms(KMSOutput)
    case fbdev(FBDevOutput, VirtualConsole)

    var frame: FrameOutput {
        switch self {
        case .kms(let o): return o
        case .fbdev(let o, _): return o
        }
    }

    var name: String {
        switch self {
        case .kms(let o): return o.name
        case .fbdev(let o, _): return o.name
        }
    }

    /// The panel's physical lines, which choose the default scale.
    var displayLines: Int {
        switch self {
        case .kms(let o): return o.mode.height
        case .fbdev(let o, _): return o.height
        }
    }

    /// `framebuffer`: `--fbdev`'s configuration; `console`: its virtual terminal (kept by the
    /// caller across reopenings, so a missing VT is said once).
    static func open(kms: KMSConfiguration, framebuffer: FBDevConfiguration?, console: VirtualConsole?,
                     log: @escaping (String) -> Void) throws -> ShowOutput {
        if let framebuffer, let console {
            return .fbdev(try FramebufferDiscovery.open(framebuffer, log: log), console)
        }
        return .kms(try Discovery.open(kms, log: log))
    }

    /// Shows the first frame. A framebuffer's console goes into graphics mode first, so its
    /// cursor and messages never land on the dot.
    func start() throws {
        switch self {
        case .kms(let o): try o.start()
        case .fbdev(let o, let console):
            console.enterGraphics()
            try o.start()
        }
    }

    /// The display back as it was: the CRTC (KMS), or the pan offset and then text mode, in which
    /// the console redraws itself (fbdev).
    func close() {
        switch self {
        case .kms(let o): o.close()
        case .fbdev(let o, let console):
            o.close()
            console.leaveGraphics()
        }
    }

    /// Whether waiting (and opening again) can help with `error`; nil: it cannot.
    static func isTransient(_ error: Error) -> Bool {
        switch error {
        case let e as KMSError: return e.recovery != .giveUp
        case let e as FBDevError: return e.recovery == .retry
        default: return false
        }
    }
}
