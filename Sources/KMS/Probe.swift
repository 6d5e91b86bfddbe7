import Glibc
import Raster
import Syscall

/// What `pulsedot probe` reports about one card: everything needed to pick a connector, a mode,
/// a format and an update strategy, or to see why none works.
public struct CardProbe: Sendable {
    public struct Crtc: Sendable {
        public var info: CrtcInfo
        /// 0: a vblank query worked; else the errno (EOPNOTSUPP: the driver has no vblank;
        /// EINVAL: the CRTC is off, so it cannot tell).
        public var vblankErrno: Int32
    }

    public var path: String
    public var driver: String
    public var capabilities: CardCapabilities
    public var connectors: [ConnectorInfo]
    public var crtcs: [Crtc]
    public var planes: [PlaneInfo]
    /// 0: DirtyFB accepted; else the errno (ENOSYS: none; EACCES: not DRM master, unknown).
    public var dirtyErrno: Int32

    public init(path: String, driver: String, capabilities: CardCapabilities, connectors: [ConnectorInfo],
                crtcs: [Crtc], planes: [PlaneInfo], dirtyErrno: Int32) {
        self.path = path; self.driver = driver; self.capabilities = capabilities; self.connectors = connectors
        self.crtcs = crtcs; self.planes = planes; self.dirtyErrno = dirtyErrno
    }

    /// Reads everything from `card`. The DirtyFB question needs a framebuffer: a small dumb buffer
    /// is made for it and freed again (nothing is shown).
    public static func read(_ card: DRMCard) throws(KMSError) -> CardProbe {
        let caps = card.capabilities()
        let res: CardResources
        do { res = try card.resources() } catch { throw KMSError.classify(error, device: card.path) }
        let crtcs = res.crtcs.map { Crtc(info: $0, vblankErrno: card.waitVBlank(crtcIndex: $0.index, frames: 0)) }
        var dirty = ENOTSUP
        if caps.dumbBuffers, let b = try? card.createBuffer(width: 64, height: 64, format: .xrgb8888) {
            do {
                try card.dirty(framebuffer: b.framebuffer, clip: Rect(x: 0, y: 0, width: 64, height: 64))
                dirty = 0
            } catch {
                dirty = error.errno
            }
            card.destroyBuffer(b)
        }
        return CardProbe(path: card.path, driver: card.driver, capabilities: caps, connectors: res.connectors,
                         crtcs: crtcs, planes: res.planes, dirtyErrno: dirty)
    }

    static func vblankText(_ code: Int32) -> String {
        switch code {
        case 0: return "yes"
        case EOPNOTSUPP, ENOTSUP: return "no (the driver has none)"
        case EINVAL: return "unknown (CRTC off)"
        default: return "unknown (\(SyscallError.message(errno: code)))"
        }
    }

    static func dirtyText(_ code: Int32) -> String {
        switch code {
        case 0: return "yes"
        case ENOSYS: return "no (not needed: writes show directly)"
        case EACCES, EPERM: return "unknown (another DRM master holds the device)"
        default: return "unknown (\(SyscallError.message(errno: code)))"
        }
    }

    // MARK: Text

    public var text: String {
        var out = "\(path): driver \(driver)\n"
        out += "  dumb buffers: \(capabilities.dumbBuffers ? "yes" : "no")\(capabilities.preferShadow ? " (driver prefers a shadow frame)" : "")\n"
        out += "  DirtyFB: \(Self.dirtyText(dirtyErrno))\n"
        for c in connectors {
            out += "  connector \(c.name): \(c.state.rawValue)"
            if c.widthMM > 0 || c.heightMM > 0 { out += ", \(c.widthMM)x\(c.heightMM) mm" }
            if let o = c.orientation { out += ", panel orientation \(o.rawValue)" }
            out += "\n"
            if !c.modes.isEmpty {
                let modes = c.modes.map { m in
                    "\(m)\(m.preferred ? "*" : "")\(m.userDefined ? " (user)" : "")"
                }
                out += "    modes (* preferred): \(modes.joined(separator: " "))\n"
            }
        }
        for c in crtcs {
            out += "  crtc \(c.info.id) (index \(c.info.index)): "
            out += c.info.mode.map { "on, \($0)" } ?? "off"
            out += ", vblank: \(Self.vblankText(c.vblankErrno))\n"
        }
        for p in planes where p.isPrimary {
            let on = crtcs.filter { p.possibleCrtcs & (1 << UInt32($0.info.index)) != 0 }.map { "\($0.info.id)" }
            out += "  primary plane \(p.id) (crtc \(on.joined(separator: ","))): formats \(p.formats.map(FourCC.describe).joined(separator: " "))\n"
        }
        return out
    }

    // MARK: JSON

    public var json: String {
        let w = JSONText()
        w.object {
            w.field("device", path)
            w.field("driver", driver)
            w.field("dumbBuffers", capabilities.dumbBuffers)
            w.field("preferShadow", capabilities.preferShadow)
            w.field("dirtyFB", dirtyErrno == 0 ? "yes" : dirtyErrno == ENOSYS ? "no" : "unknown")
            w.key("connectors")
            w.array(connectors) { c in
                w.object {
                    w.field("name", c.name)
                    w.field("id", Int(c.id))
                    w.field("status", c.state.rawValue)
                    w.field("widthMM", c.widthMM)
                    w.field("heightMM", c.heightMM)
                    w.field("panelOrientation", c.orientation?.rawValue)
                    w.field("rotation", c.orientation?.rotation.degrees)
                    w.key("modes")
                    w.array(c.modes) { m in
                        w.object {
                            w.field("name", m.description)
                            w.field("width", m.width)
                            w.field("height", m.height)
                            w.field("refreshMilliHz", m.refreshMilliHz)
                            w.field("preferred", m.preferred)
                            w.field("userDefined", m.userDefined)
                        }
                    }
                }
            }
            w.key("crtcs")
            w.array(crtcs) { c in
                w.object {
                    w.field("id", Int(c.info.id))
                    w.field("index", c.info.index)
                    w.field("mode", c.info.mode?.description)
                    w.field("vblank", c.vblankErrno == 0 ? "yes" : (c.vblankErrno == EOPNOTSUPP ? "no" : "unknown"))
                }
            }
            w.key("primaryPlanes")
            w.array(planes.filter(\.isPrimary)) { p in
                w.object {
                    w.field("id", Int(p.id))
                    w.field("possibleCrtcs", Int(p.possibleCrtcs))
                    w.key("formats")
                    w.array(p.formats) { f in w.value(FourCC.describe(f)) }
                }
            }
        }
        return w.text
    }
}

/// Just enough JSON writing for the probe report (no Foundation in this target). A class: the
/// nested closures that write fields all append to one text.
final class JSONText {
    private(set) var text = ""
    private var needsComma = false

    func object(_ body: () -> Void) {
        separate(); text += "{"; needsComma = false
        body()
        text += "}"; needsComma = true
    }

    func array<C: Collection>(_ items: C, _ body: (C.Element) -> Void) {
        separate(); text += "["; needsComma = false
        for item in items { body(item) }
        text += "]"; needsComma = true
    }

    func key(_ k: String) {
        separate(); text += Self.quote(k) + ":"; needsComma = false
    }

    func value(_ s: String?) {
        separate(); text += s.map(Self.quote) ?? "null"; needsComma = true
    }

    func field(_ k: String, _ v: String?) { key(k); value(v) }
    func field(_ k: String, _ v: Int?) { key(k); separate(); text += v.map(String.init) ?? "null"; needsComma = true }
    func field(_ k: String, _ v: Bool) { key(k); separate(); text += v ? "true" : "false"; needsComma = true }

    private func separate() {
        if needsComma { text += "," }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
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
