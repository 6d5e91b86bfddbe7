import DisplayCore
import Glibc
import Raster
import Syscall

/// Which layers above the map hold planes: the dot on its own plane (chosen with the output),
/// pictures fixed on the screen (the map's credit, a banner) on the overlays above it. Decided by
/// `GreedyPlanes`, one TEST_ONLY commit of the whole state per layer: the primary plane at its
/// worst (a map picture's window at its far corner when the map scrolls), the dot partly off the
/// screen, the pictures at their places. Committed with the rest of the state in whole commits
/// only (start, this decision, blanking, a reconnect): a picture never moves, so frames leave
/// its plane alone.
extension AtomicKMSOutput: PicturePlanes {
    public var picturePlanes: (any PicturePlanes)? { self }

    @discardableResult
    public func assign(pictures: [Overlay], names: [String]) -> PlaneGrants {
        precondition(pictures.count == names.count, "a name for every picture")
        pictureRequests = (pictures, names)
        guard !closed else { return grants }
        if started { finishPendingCommit() }
        decide(after: nil)
        if started {
            do { try commitWholeState(active: !blanked) } catch {
                log("\(name): the layers' planes could not be committed: \(error)")
            }
        }
        return grants
    }

    /// The decision again with what the scene asked for last (`after`: why, for the log).
    func decide(after reason: String?) {
        let previous = onPlanes
        let retiring = pictureBuffers
        onPlanes = []
        pictureBuffers = []
        let (pictures, names) = pictureRequests
        // Each non-empty picture in a buffer of its own, turned as the panel is.
        var made: [(index: Int, buffer: ScanoutBuffer, place: Rect)] = []
        for (i, p) in pictures.enumerated() where p.width > 0 && p.height > 0 {
            let size = rotation.logicalSize(physicalWidth: p.width, physicalHeight: p.height)
            do throws(SyscallError) {
                // At least 64×64 and rounded up: drivers have a smallest framebuffer (vkms's is
                // 20×20: a 16-line credit is refused); the plane shows the picture's top-left part.
                let b = try card.createSpriteBuffer(width: max(64, (size.width + 63) / 64 * 64),
                                                    height: max(64, (size.height + 7) / 8 * 8))
                paint(p, into: b.pixels)
                made.append((i, b, rotation.map(rect: p.frame, logicalWidth: shadow.width, logicalHeight: shadow.height)))
            } catch {
                log("\(name): no buffer for the \(names[i])'s plane: \(error)")
            }
        }
        let dotLayer = spriteRefused ? 0 : 1
        let stack = ([planes.overlay] + planes.pictureCandidates)
            .sorted { ($0.stack.rank, $0.stack.zpos, $0.id) < ($1.stack.rank, $1.stack.zpos, $1.id) }
        let probeSide = (sprites[0].pixels.width, sprites[0].pixels.height)
        let probe = SpriteState(framebuffer: sprites[0].framebuffer, x: -probeSide.0 / 4, y: -probeSide.1 / 4,
                                width: probeSide.0, height: probeSide.1)
        var refusals: [Int: String] = [:]
        func state(_ granted: [Int?]) -> (dot: AtomicPlanes.Plane, dotOn: Bool, pictures: [PictureState]) {
            var order: [(layer: Int, plane: Int)] = []
            for (layer, plane) in granted.enumerated() { if let plane { order.append((layer, plane)) } }
            var dot = planes.overlay
            var shown: [PictureState] = []
            for (k, o) in order.enumerated() {
                var plane = stack[o.plane]
                if plane.zpos != 0 { plane.zposValue = max(plane.zposBottom, plane.zposTop - UInt64(order.count - 1 - k)) }
                if o.layer < dotLayer { dot = plane } else {
                    let m = made[o.layer - dotLayer]
                    shown.append(PictureState(plane: plane, framebuffer: m.buffer.framebuffer, place: m.place))
                }
            }
            return (dot, dotLayer == 1 && granted[0] != nil, shown)
        }
        let granted = GreedyPlanes.assign(
            layers: dotLayer + made.count, planes: stack.count,
            canUse: { layer, plane in (layer < dotLayer) == (stack[plane].id == planes.overlay.id) },
            overlaps: { below, above in
                below < dotLayer || !made[below - dotLayer].place.intersection(made[above - dotLayer].place).isEmpty
            },
            test: { layer, plane, before in
                var trial = before
                trial[layer] = plane
                let s = state(trial)
                var candidate = planes
                candidate.overlay = s.dot
                request.removeAll()
                candidate.full(modeBlob: modeBlob, active: true, map: worstPrimary, width: mode.width, height: mode.height,
                               sprite: s.dotOn ? probe : SpriteState(), pictures: s.pictures, off: planesOff, in: &request)
                do throws(SyscallError) { try card.commit(request, flags: [.testOnly, .allowModeset]) } catch {
                    refusals[layer] = error.message
                    return false
                }
                return true
            })
        let chosen = state(granted)
        planes.overlay = chosen.dot
        onPlanes = chosen.pictures
        for (k, m) in made.enumerated() {
            if granted[dotLayer + k] != nil { pictureBuffers.append(m.buffer) } else { card.destroyBuffer(m.buffer) }
        }
        let kept = Set(onPlanes.map { $0.plane.id })
        planesOff += previous.filter { !kept.contains($0.plane.id) }.map { $0.plane }
        // The old buffers stay until the next whole commit has taken them off the screen.
        retiredBuffers += retiring
        if dotLayer == 1 { dotGranted = granted[0] != nil }
        if !takesSprites, sprite.framebuffer != 0 {
            sprite = SpriteState()
            spriteChanged = true
        }
        var onPicture = [Bool](repeating: true, count: pictures.count)
        for (k, m) in made.enumerated() { onPicture[m.index] = granted[dotLayer + k] != nil }
        for (i, p) in pictures.enumerated() where p.width > 0 && p.height > 0 && !made.contains(where: { $0.index == i }) {
            onPicture[i] = false
        }
        grants = PlaneGrants(dot: takesSprites, pictures: onPicture)
        var parts = ["the map on primary plane \(planes.primary.id)" + (scrollsMap ? " (a window over its pictures)" : "")]
        if dotLayer == 1 {
            parts.append(dotGranted ? "the dot on \(planes.isCursor ? "cursor" : "overlay") plane \(planes.overlay.id)"
                                    : "the dot composited" + (refusals[0].map { " (refused: \($0))" } ?? " (under a composited picture it may cross)"))
        }
        for (k, m) in made.enumerated() {
            let label = names[m.index]
            if let plane = granted[dotLayer + k] {
                parts.append("the \(label) on overlay plane \(stack[plane].id)")
            } else {
                parts.append("the \(label) composited" + (refusals[dotLayer + k].map { " (refused: \($0))" } ?? " (no plane above the ones under it)"))
            }
        }
        if let reason, dotLayer == 1, !dotGranted, let why = refusals[0] {
            log("\(name): after \(reason) the driver refuses the dot's plane (\(why)); composing in software from now on")
        }
        log("\(name): planes: " + parts.joined(separator: ", "))
    }

    /// What the primary plane shows at its worst: a map picture's window at its far corner when
    /// the map scrolls, else a copy of the canvas.
    private var worstPrimary: PrimaryState {
        guard let p = pictures, p.scrolls, let b = p.buffers.first else { return PrimaryState(framebuffer: maps[front].framebuffer) }
        return PrimaryState(framebuffer: b.framebuffer, x: b.pixels.width - mode.width, y: b.pixels.height - mode.height)
    }

    /// `picture`'s premultiplied pixels into a plane's ARGB8888 buffer, turned as the panel is.
    private func paint(_ picture: Overlay, into target: PixelBuffer) {
        let upright = OwnedPixelBuffer(width: picture.width, height: picture.height, format: .xrgb8888)
        for y in 0..<picture.height {
            let row = upright.buffer.row(y)
            for x in 0..<picture.width { row.storeBytes(of: picture.pixel(x: x, y: y), toByteOffset: x * 4, as: UInt32.self) }
        }
        upright.buffer.copyOut(region: upright.buffer.bounds, to: target, rotation: rotation)
    }

    /// The whole state in one blocking commit. A refusal with pictures on planes (EINVAL,
    /// ERANGE: a state the test commits did not cover) gives the pictures up, and the dot under
    /// them, said once; the rest is committed without them and `generation` tells the scene.
    func commitWhole(active: Bool) throws(SyscallError) {
        func attempt() throws(SyscallError) {
            request.removeAll()
            planes.full(modeBlob: modeBlob, active: active, map: primaryState, width: mode.width, height: mode.height,
                        sprite: sprite, pictures: onPlanes, off: planesOff, in: &request)
            try card.commit(request, flags: [.allowModeset])
        }
        do { try attempt() } catch {
            guard !onPlanes.isEmpty, error.errno == EINVAL || error.errno == ERANGE else { throw error }
            log("\(name): the driver refused the pictures' planes (\(error.message)); they and the dot are composited from now on")
            planesOff += onPlanes.map { $0.plane }
            onPlanes = []
            retiredBuffers += pictureBuffers
            pictureBuffers = []
            dotGranted = false
            sprite = SpriteState()
            spriteChanged = true
            grants = PlaneGrants(dot: false, pictures: grants.pictures.map { _ in false })
            generation += 1
            try attempt()
        }
        planesOff = []
        for b in retiredBuffers { card.destroyBuffer(b) }
        retiredBuffers = []
    }
}
