import Glibc
import Raster
import Syscall

extension AtomicKMSOutput {
    /// The side of the dot's square sprite buffers at most: a halo at scale 2 with the entrance
    /// pop fits; a larger dot (or one with a wide accuracy disc) is drawn into the map that frame.
    public static let largestSprite = 512

    /// Makes the planes output from `legacy` (opened, not started: it gives up its card and
    /// buffers) when the card composes the dot on an overlay: atomic modesetting, a primary plane
    /// and an ARGB8888 overlay for the CRTC, and a TEST_ONLY commit of the whole state with the
    /// sprite partly off the screen accepted. Otherwise `legacy` is left as it was (its card as
    /// a legacy client) and the reason comes back.
    public static func choose(from legacy: KMSOutput,
                              log: @escaping (String) -> Void = { _ in },
                              clock: @escaping () -> MonotonicInstant = { MonotonicInstant.now() })
        -> Result<AtomicKMSOutput, PlanesRefusal> {
        guard let card = legacy.card.atomic else { return .failure(PlanesRefusal("this card has no atomic interface")) }
        // The plane list alone: the resources would probe every connector again (DDC, slow).
        let planes: [PlaneInfo]
        do { planes = try card.planes() } catch { return .failure(PlanesRefusal("\(error)")) }
        // Before asking for atomic: a card without a plane for the dot keeps a descriptor that never asked.
        guard AtomicPlanes.spritePlane(in: planes, crtc: legacy.crtc, driver: card.driver) != nil else {
            let cursor = AtomicPlanes.hostCursorDrivers.contains(card.driver) ? " (its cursor plane is drawn by the host, apart from the screen)" : ""
            return .failure(PlanesRefusal("\(card.driver) has no ARGB8888 overlay plane for CRTC \(legacy.crtc.id)\(cursor)"))
        }
        let atomicErrno = card.enableAtomic()
        if atomicErrno != 0 {
            return .failure(PlanesRefusal("\(card.driver) refuses atomic modesetting (\(SyscallError.message(errno: atomicErrno)))"))
        }
        do {
            var planes = try AtomicPlanes.find(card: card, planes: try planeList(card),
                                               connector: legacy.connector, crtc: legacy.crtc)
            planes.writeback = AtomicPlanes.writeback(card: card, for: legacy.crtc)
            return .success(try build(legacy: legacy, card: card, planes: planes, log: log, clock: clock))
        } catch {
            card.disableAtomic()
            return .failure(error)
        }
    }

    /// The planes with the properties an atomic client sees (CRTC_X and the like appear only now).
    private static func planeList(_ card: AtomicCard) throws(PlanesRefusal) -> [PlaneInfo] {
        do { return try card.planes() } catch { throw PlanesRefusal("\(error)") }
    }

    private static func build(legacy: KMSOutput, card: AtomicCard, planes chosen: AtomicPlanes,
                              log: @escaping (String) -> Void, clock: @escaping () -> MonotonicInstant) throws(PlanesRefusal) -> AtomicKMSOutput {
        let mode = legacy.mode
        // A cursor plane shows a buffer of the cursor's size (64×64 where the driver does not say).
        let caps = card.capabilities()
        let cursor = (width: min(caps.cursorWidth ?? 64, largestSprite), height: min(caps.cursorHeight ?? 64, largestSprite))
        let side = min(largestSprite, mode.width, mode.height)
        let spriteSize = chosen.isCursor ? cursor : (side, side)
        var sprites: [ScanoutBuffer] = []
        var extraMap: ScanoutBuffer?
        var blob: UInt32 = 0
        func release() {
            for b in sprites { card.destroyBuffer(b) }
            if let extraMap { card.destroyBuffer(extraMap) }
            if blob != 0 { card.destroyBlob(blob) }
        }
        do {
            for _ in 0..<3 { sprites.append(try card.createSpriteBuffer(width: spriteSize.0, height: spriteSize.1)) }
            // `update = damage` left the legacy output one buffer: commits flip between two.
            if legacy.bufferCount < 2 { extraMap = try card.createBuffer(width: mode.width, height: mode.height, format: legacy.format) }
            blob = try card.createModeBlob(mode)
        } catch {
            release()
            throw PlanesRefusal("allocating the sprite's buffers: \(error)")
        }
        var planes = chosen
        func test() throws(SyscallError) {
            var request = AtomicRequest()
            let probe = SpriteState(framebuffer: sprites[0].framebuffer, x: -spriteSize.0 / 4, y: -spriteSize.1 / 4,
                                    width: spriteSize.0, height: spriteSize.1)
            planes.full(modeBlob: blob, active: true, map: PrimaryState(framebuffer: legacy.firstFramebuffer), width: mode.width, height: mode.height,
                        sprite: probe, in: &request)
            try card.commit(request, flags: [.testOnly, .allowModeset])
        }
        do throws(SyscallError) {
            do throws(SyscallError) { try test() } catch {
                // A writeback connector that cannot share the CRTC (vc4's is a CRTC of its own):
                // the dot's plane without it, screenshots then drawn in software.
                guard planes.writeback != nil else { throw error }
                planes.writeback = nil
                try test()
            }
        } catch {
            release()
            throw PlanesRefusal("the test commit with the dot on \(planes.isCursor ? "cursor" : "overlay") plane \(planes.overlay.id) was refused: \(error)")
        }
        log("\(legacy.name): " + (planes.writeback.map { "writeback connector \($0.connector) attached for screenshots" }
            ?? "no writeback connector shares the CRTC; screenshots are drawn in software"))
        var maps = legacy.handOver()
        if let extraMap { maps.append(extraMap) }
        return AtomicKMSOutput(card: card, connector: legacy.connector, crtc: legacy.crtc, mode: mode, format: legacy.format,
                               rotation: legacy.rotation, planes: planes, maps: maps, sprites: sprites, modeBlob: blob, log: log, clock: clock)
    }
}
