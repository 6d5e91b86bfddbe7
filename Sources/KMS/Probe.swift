import CDRM
import Glibc
import JSON
import Raster
import Syscall

/// What `pulsedot probe` reports about one card: everything needed to pick a connector, a mode,
/// a format and an update strategy, or to see why none works.
public struct CardProbe: JSONReport, Sendable {
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
    /// 0: DRM_CLIENT_CAP_ATOMIC accepted; else the errno (EOPNOTSUPP: the driver is legacy-only).
    public var atomicErrno: Int32

    public init(path: String, driver: String, capabilities: CardCapabilities, connectors: [ConnectorInfo],
                crtcs: [Crtc], planes: [PlaneInfo], dirtyErrno: Int32, atomicErrno: Int32) {
        self.path = path; self.driver = driver; self.capabilities = capabilities; self.connectors = connectors
        self.crtcs = crtcs; self.planes = planes; self.dirtyErrno = dirtyErrno; self.atomicErrno = atomicErrno
    }

    /// Reads everything from `card`. The DirtyFB question needs a framebuffer: a small dumb buffer
    /// is made for it and freed again (nothing is shown).
    public static func read(_ card: DRMCard) throws(KMSError) -> CardProbe {
        let caps = card.capabilities()
        // First: an atomic client sees the planes' atomic-only properties too.
        let atomic = card.enableAtomic()
        let res: CardResources
        let planes: [PlaneInfo]
        do {
            res = try card.resources()
            planes = try card.planes()
        } catch {
            throw KMSError.classify(error, device: card.path)
        }
        let crtcs = res.crtcs.map { Crtc(info: $0, vblankErrno: card.waitVBlank(crtcIndex: $0.index, frames: 0)) }
        var dirty = ENOTSUP
        if caps.dumbBuffers, let b = try? card.createBuffer(width: 64, height: 64, format: .xrgb8888) {
            do {
                try card.dirty(framebuffer: b.framebuffer, clips: DamageRegion(Rect(x: 0, y: 0, width: 64, height: 64)))
                dirty = 0
            } catch {
                dirty = error.errno
            }
            card.destroyBuffer(b)
        }
        return CardProbe(path: card.path, driver: card.driver, capabilities: caps, connectors: res.connectors,
                         crtcs: crtcs, planes: planes, dirtyErrno: dirty, atomicErrno: atomic)
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
        out += "  atomic: \(atomicErrno == 0 ? "yes" : "no (\(SyscallError.message(errno: atomicErrno)))")\n"
        out += "  cursor size limit: \(cursorText)\n"
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
        out += planesText
        return out
    }

    // MARK: JSON

    /// The report as one object, written where `writer` is: `pulsedot probe` puts every card's in
    /// one array.
    public func writeJSON<Output>(to writer: inout JSONWriter<Output>) {
        writer.object { w in
            w.field("device", path)
            w.field("driver", driver)
            w.field("dumbBuffers", capabilities.dumbBuffers)
            w.field("preferShadow", capabilities.preferShadow)
            w.field("dirtyFB", dirtyErrno == 0 ? "yes" : dirtyErrno == ENOSYS ? "no" : "unknown")
            w.field("atomic", atomicErrno == 0)
            w.field("cursorWidth", capabilities.cursorWidth)
            w.field("cursorHeight", capabilities.cursorHeight)
            w.array("connectors") { w in
                for c in connectors {
                    w.object { w in
                        w.field("name", c.name)
                        w.field("id", c.id)
                        w.field("status", c.state.rawValue)
                        w.field("widthMM", c.widthMM)
                        w.field("heightMM", c.heightMM)
                        w.field("panelOrientation", c.orientation?.rawValue)
                        w.field("rotation", c.orientation?.rotation.degrees)
                        w.array("modes") { w in
                            for m in c.modes {
                                w.object { w in
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
                }
            }
            w.array("crtcs") { w in
                for c in crtcs {
                    w.object { w in
                        w.field("id", c.info.id)
                        w.field("index", c.info.index)
                        w.field("mode", c.info.mode?.description)
                        w.field("vblank", c.vblankErrno == 0 ? "yes" : (c.vblankErrno == EOPNOTSUPP ? "no" : "unknown"))
                    }
                }
            }
            w.array("primaryPlanes") { w in
                for p in planes where p.isPrimary {
                    w.object { w in
                        w.field("id", p.id)
                        w.field("possibleCrtcs", p.possibleCrtcs)
                        w.array("formats") { w in
                            for f in p.formats { w.value(FourCC.describe(f)) }
                        }
                    }
                }
            }
            writePlanes(to: &w)
        }
    }
}
