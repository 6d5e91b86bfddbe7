import Raster
import Syscall

/// What the atomic output drives and the property ids it sets: the connector, the CRTC, the
/// primary plane holding the map and the overlay holding the dot. Found once, when the planes
/// output is chosen; a property id of 0 is one the driver does not have (left out of commits).
struct AtomicPlanes {
    struct Plane {
        var id: UInt32
        var fb = UInt32(0), crtc = UInt32(0)
        var srcX = UInt32(0), srcY = UInt32(0), srcW = UInt32(0), srcH = UInt32(0)
        var crtcX = UInt32(0), crtcY = UInt32(0), crtcW = UInt32(0), crtcH = UInt32(0)
        /// "pixel blend mode" and the value of its "Pre-multiplied" choice.
        var blend = UInt32(0), premultiplied = UInt64(0)
        /// "alpha" (set opaque: 0xffff) and "zpos" (set to its top) where the driver offers them.
        var alpha = UInt32(0)
        var zpos = UInt32(0), zposTop = UInt64(0), zposBottom = UInt64(0)
        /// The zpos set in commits: the top unless layers above need higher ones.
        var zposValue = UInt64(0)
        /// Where the controller stacks the plane among the others (see `stacking`).
        var stack = (rank: 1, zpos: UInt64(0))

        init(id: UInt32, ids: [String: UInt32]) {
            self.id = id
            fb = ids["FB_ID"] ?? 0; crtc = ids["CRTC_ID"] ?? 0
            srcX = ids["SRC_X"] ?? 0; srcY = ids["SRC_Y"] ?? 0; srcW = ids["SRC_W"] ?? 0; srcH = ids["SRC_H"] ?? 0
            crtcX = ids["CRTC_X"] ?? 0; crtcY = ids["CRTC_Y"] ?? 0; crtcW = ids["CRTC_W"] ?? 0; crtcH = ids["CRTC_H"] ?? 0
        }

        /// The properties every plane of an atomic driver has; the name of the first missing one.
        var missing: String? {
            let needed: [(String, UInt32)] = [("FB_ID", fb), ("CRTC_ID", crtc), ("SRC_X", srcX), ("SRC_Y", srcY),
                                              ("SRC_W", srcW), ("SRC_H", srcH), ("CRTC_X", crtcX), ("CRTC_Y", crtcY),
                                              ("CRTC_W", crtcW), ("CRTC_H", crtcH)]
            return needed.first { $0.1 == 0 }?.0
        }

        /// `width`×`height` of `fb` from (`sourceX`, `sourceY`) at (`x`, `y`) on `crtcID`;
        /// framebuffer 0 switches the plane off.
        func show(_ fb: UInt32, on crtcID: UInt32, x: Int, y: Int, width: Int, height: Int,
                  sourceX: Int = 0, sourceY: Int = 0, in r: inout AtomicRequest) {
            if fb == 0 {
                r.set(id, self.fb, 0)
                r.set(id, crtc, 0)
                return
            }
            r.set(id, self.fb, UInt64(fb))
            r.set(id, crtc, UInt64(crtcID))
            r.set(id, srcX, UInt64(sourceX) << 16)
            r.set(id, srcY, UInt64(sourceY) << 16)
            r.set(id, srcW, UInt64(width) << 16)
            r.set(id, srcH, UInt64(height) << 16)
            r.set(id, crtcX, signed: x)
            r.set(id, crtcY, signed: y)
            r.set(id, crtcW, UInt64(width))
            r.set(id, crtcH, UInt64(height))
        }

        /// Blending as the pictures are painted (premultiplied), opaque plane alpha, its place in the stack.
        func blending(in r: inout AtomicRequest) {
            r.set(id, blend, premultiplied)
            r.set(id, alpha, 0xFFFF)
            r.set(id, zpos, zposValue)
        }

        /// The blending, alpha and zpos properties `info` offers (premultiplied blending required
        /// where the plane has a blend mode), and its place in the stack: overlays under cursor
        /// planes, then by a fixed zpos, then by id (the order drivers without zpos use, vkms's).
        mutating func blendingProperties(of info: PlaneInfo) throws(PlanesRefusal) {
            if let blend = info.property("pixel blend mode"), case .enumeration(let choices) = blend.kind {
                guard let pre = choices.first(where: { $0.name == "Pre-multiplied" }) else {
                    throw PlanesRefusal("\(info.type?.rawValue ?? "") plane \(info.id) cannot blend premultiplied pixels (\(blend.allowedText))")
                }
                self.blend = blend.id
                premultiplied = pre.value
            }
            if let alpha = info.property("alpha"), !alpha.immutable { self.alpha = alpha.id }
            var fixed = UInt64(0)
            if let zpos = info.property("zpos") {
                if !zpos.immutable, case .range(let bottom, let top) = zpos.kind {
                    self.zpos = zpos.id
                    zposTop = top
                    zposBottom = bottom
                    zposValue = top
                } else {
                    fixed = zpos.value
                }
            }
            stack = (info.type == .cursor ? 2 : 1, fixed)
        }
    }

    var connector: UInt32
    var connectorCrtc: UInt32
    var crtc: UInt32
    var crtcMode: UInt32
    var crtcActive: UInt32
    var primary: Plane
    /// The dot's plane: an overlay, or a cursor plane where the card has no overlay for it.
    var overlay: Plane
    /// Whether `overlay` is a cursor plane: it shows its whole buffer of the cursor's size.
    var isCursor = false
    /// A writeback connector kept on the CRTC beside the panel, so a capture needs no modeset.
    var writeback: Writeback?
    /// Planes for pictures fixed on the screen, in stacking order (bottom to top).
    var pictureCandidates: [Plane] = []

    struct Writeback {
        var connector: UInt32
        var crtc: UInt32
        var fb: UInt32
        var fencePointer: UInt32
    }

    /// Drivers whose cursor plane the host draws apart from the screen (and shows only 64×64 of):
    /// what is on it never reaches a screendump or a recording, so it never holds the dot.
    static let hostCursorDrivers = ["virtio_gpu", "vmwgfx", "qxl"]

    /// The plane for the dot on `crtc`: the first overlay that takes ARGB8888, else such a cursor
    /// plane (not on a driver whose host draws the cursor); nil when there is none.
    static func spritePlane(in planes: [PlaneInfo], crtc: CrtcInfo, driver: String) -> PlaneInfo? {
        let mask = UInt32(1) << UInt32(crtc.index)
        func takesTheDot(_ p: PlaneInfo, _ type: PlaneType) -> Bool {
            p.type == type && p.possibleCrtcs & mask != 0 && p.formats.contains(FourCC.argb8888)
        }
        if let overlay = planes.first(where: { takesTheDot($0, .overlay) }) { return overlay }
        if hostCursorDrivers.contains(driver) { return nil }
        return planes.first { takesTheDot($0, .cursor) }
    }

    /// The planes for `crtc` on `card`: its primary and the dot's (`spritePlane`).
    /// Throws a one-line reason when the card cannot compose the dot on a plane.
    static func find(card: AtomicCard, planes: [PlaneInfo], connector: ConnectorInfo, crtc: CrtcInfo) throws(PlanesRefusal) -> AtomicPlanes {
        let mask = UInt32(1) << UInt32(crtc.index)
        guard let primary = planes.first(where: { $0.type == .primary && $0.possibleCrtcs & mask != 0 }) else {
            throw PlanesRefusal("no primary plane for CRTC \(crtc.id)")
        }
        guard let overlay = spritePlane(in: planes, crtc: crtc, driver: card.driver) else {
            throw PlanesRefusal("no overlay or cursor plane for CRTC \(crtc.id) takes ARGB8888")
        }
        let c: [String: UInt32], k: [String: UInt32], primaryIDs: [String: UInt32], overlayIDs: [String: UInt32]
        do throws(SyscallError) {
            c = try card.propertyIDs(of: connector.id, .connector)
            k = try card.propertyIDs(of: crtc.id, .crtc)
            primaryIDs = try card.propertyIDs(of: primary.id, .plane)
            overlayIDs = try card.propertyIDs(of: overlay.id, .plane)
        } catch {
            throw PlanesRefusal("reading the planes' properties: \(error)")
        }
        let p = Plane(id: primary.id, ids: primaryIDs)
        var o = Plane(id: overlay.id, ids: overlayIDs)
        if let m = p.missing ?? o.missing { throw PlanesRefusal("the planes have no \(m) property") }
        guard let connectorCrtc = c["CRTC_ID"], let mode = k["MODE_ID"], let active = k["ACTIVE"] else {
            throw PlanesRefusal("the connector or CRTC lacks CRTC_ID, MODE_ID or ACTIVE")
        }
        try o.blendingProperties(of: overlay)
        return AtomicPlanes(connector: connector.id, connectorCrtc: connectorCrtc, crtc: crtc.id, crtcMode: mode,
                            crtcActive: active, primary: p, overlay: o, isCursor: overlay.type == .cursor, writeback: nil,
                            pictureCandidates: pictureCandidates(card: card, planes: planes, crtc: crtc, except: overlay.id))
    }

    /// The overlays of `crtc` besides the dot's that take ARGB8888 and blend it premultiplied:
    /// where pictures fixed on the screen (the credit, a banner) may go, in stacking order. A
    /// plane whose properties cannot be read is left out.
    static func pictureCandidates(card: AtomicCard, planes: [PlaneInfo], crtc: CrtcInfo, except dot: UInt32) -> [Plane] {
        let mask = UInt32(1) << UInt32(crtc.index)
        var found: [Plane] = []
        for info in planes where info.type == .overlay && info.id != dot && info.possibleCrtcs & mask != 0
            && info.formats.contains(FourCC.argb8888) {
            guard let ids = try? card.propertyIDs(of: info.id, .plane) else { continue }
            var plane = Plane(id: info.id, ids: ids)
            guard plane.missing == nil, (try? plane.blendingProperties(of: info)) != nil else { continue }
            found.append(plane)
        }
        return found.sorted { ($0.stack.rank, $0.stack.zpos, $0.id) < ($1.stack.rank, $1.stack.zpos, $1.id) }
    }

    /// The whole state: the connector on the CRTC with `modeBlob`, active or not, the map on the
    /// primary plane, the sprite (or nothing) on the overlay, each picture on its plane and the
    /// planes in `off` (ones given up) switched off.
    func full(modeBlob: UInt32, active: Bool, map: PrimaryState, width: Int, height: Int, sprite: SpriteState,
              pictures: [PictureState] = [], off: [Plane] = [], in r: inout AtomicRequest) {
        r.set(connector, connectorCrtc, UInt64(active ? crtc : 0))
        if let w = writeback { r.set(w.connector, w.crtc, UInt64(active ? crtc : 0)) }
        r.set(crtc, crtcMode, UInt64(active ? modeBlob : 0))
        r.set(crtc, crtcActive, active ? 1 : 0)
        for p in off { p.show(0, on: crtc, x: 0, y: 0, width: 0, height: 0, in: &r) }
        if !active {
            primary.show(0, on: crtc, x: 0, y: 0, width: 0, height: 0, in: &r)
            overlay.show(0, on: crtc, x: 0, y: 0, width: 0, height: 0, in: &r)
            for p in pictures { p.plane.show(0, on: crtc, x: 0, y: 0, width: 0, height: 0, in: &r) }
            return
        }
        primaryOnly(map, width: width, height: height, in: &r)
        overlay.blending(in: &r)
        spriteOnly(sprite, in: &r)
        for p in pictures {
            p.plane.blending(in: &r)
            p.plane.show(p.framebuffer, on: crtc, x: p.place.x, y: p.place.y, width: p.place.width, height: p.place.height, in: &r)
        }
    }

    /// The writeback connector, when it takes the CRTC with a modeset-free capture.
    static func writeback(card: AtomicCard, for crtc: CrtcInfo) -> Writeback? {
        guard card.enableWriteback() == 0, let resources = try? card.resources() else { return nil }
        let mask = UInt32(1) << UInt32(crtc.index)
        guard let c = resources.connectors.first(where: { $0.name.hasPrefix("Writeback-") && $0.possibleCrtcs & mask != 0 }),
              let ids = try? card.propertyIDs(of: c.id, .connector),
              let crtcID = ids["CRTC_ID"], let fb = ids["WRITEBACK_FB_ID"], let fence = ids["WRITEBACK_OUT_FENCE_PTR"] else { return nil }
        return Writeback(connector: c.id, crtc: crtcID, fb: fb, fencePointer: fence)
    }

    /// The primary plane showing the screen's `width`×`height` of `map` from its window.
    func primaryOnly(_ map: PrimaryState, width: Int, height: Int, in r: inout AtomicRequest) {
        primary.show(map.framebuffer, on: crtc, x: 0, y: 0, width: width, height: height,
                     sourceX: map.x, sourceY: map.y, in: &r)
    }

    func spriteOnly(_ sprite: SpriteState, in r: inout AtomicRequest) {
        overlay.show(sprite.framebuffer, on: crtc, x: sprite.x, y: sprite.y, width: sprite.width, height: sprite.height, in: &r)
    }
}

/// Where the overlay's picture is: its framebuffer (0: none) and its place on the CRTC.
struct SpriteState: Equatable {
    var framebuffer: UInt32 = 0
    var x = 0, y = 0, width = 0, height = 0
}

/// A picture fixed on the screen on a plane of its own: its framebuffer and its place on the CRTC.
struct PictureState {
    var plane: AtomicPlanes.Plane
    var framebuffer: UInt32
    var place: Rect
}

/// What the primary plane shows: a framebuffer (a copy of the canvas, or a larger map picture)
/// from the window whose top-left is (x, y).
struct PrimaryState: Equatable {
    var framebuffer: UInt32
    var x = 0, y = 0
}

/// Why the dot is not composed on a plane: one line for the log.
public struct PlanesRefusal: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
