import DisplayCore
import Glibc
import Raster
import Syscall

/// The dot's display through DRM/KMS dumb buffers. Everything is drawn into `canvas`, a RAM
/// canvas in logical (rotated) coordinates; `present(damage:)` copies only what changed into
/// scan-out memory, which is written and never read (uncached, write-combined mappings).
///
/// Life: `Discovery.open` (choose card, connector, mode, CRTC, format; allocate) → draw the first
/// frame into `canvas` → `start()` (save the CRTC, fill every buffer, modeset, choose the update
/// strategy) → per frame: draw, `present(damage:)`; when `pollDescriptor` is readable,
/// `handleEvents()` → `close()` on every exit path (lets a flip in flight finish, restores the saved
/// CRTC: the console).
public final class KMSOutput {
    public let card: DRMCard
    public let connector: ConnectorInfo
    public let crtc: CrtcInfo
    public let mode: DisplayMode
    /// The format actually scanned out (after any fallback).
    public let format: PixelFormat
    public let rotation: Rotation
    public let update: UpdateMode
    public private(set) var strategy: UpdateStrategy = .flip
    public private(set) var strategyReason = ""
    /// The flip in flight, the frames that waited for it, what reached the screen.
    public private(set) var scanout = ScanoutQueue()
    public var statistics: ScanoutQueue.Statistics { scanout.statistics }
    public var scanoutStatistics: ScanoutQueue.Statistics? { scanout.statistics }
    public var presentation: PresentationCount { scanout.presentation }
    /// DirtyFB calls made (damage strategy).
    public private(set) var dirtyCalls = 0

    public var canvasWidth: Int { shadow.width }
    public var canvasHeight: Int { shadow.height }
    private var shadow: DisplayCanvas
    private var buffers: [ScanoutBuffer] = []
    /// The buffer on screen, or queued to be (a flip in flight).
    private var front = 0
    private var damage: Damage
    private var saved: SavedCrtc?
    private var started = false
    private var closed = false
    private var dirtyWorks = true
    /// Night blanking switched the connector off with DPMS (and must switch it on again).
    private var poweredDown = false
    /// A hot-plug check found the connector unplugged: it gets its mode again when it is back.
    private var unplugged = false
    private let log: (String) -> Void
    private let clock: () -> MonotonicInstant
    public var canvas: PixelBuffer { shadow.buffer() }

    public func adopt(canvas frame: PixelBuffer) {
        precondition(!started, "adopt(canvas:) after start()")
        shadow.adopt(frame)
    }
    public func route(copyOut copier: CanvasCopier) { shadow.route(through: copier) }
    public var pollDescriptor: Int32? { strategy == .flip && started ? card.eventDescriptor : nil }
    /// "card0 (bochs) Virtual-1" — how messages name this output.
    public var name: String { "\(card.path) (\(card.driver)) \(connector.name)" }

    /// Chooses connector, mode, CRTC and format on `card` and allocates the dumb buffers (two
    /// unless `update = damage`); the canvas comes on first use or by `adopt(canvas:)`. Nothing is
    /// shown until `start()`. `clock` times `close()`'s wait for a flip in flight.
    public init(card: DRMCard, resources: CardResources, configuration: KMSConfiguration,
                log: @escaping (String) -> Void = { _ in },
                clock: @escaping () -> MonotonicInstant = { MonotonicInstant.now() }) throws(KMSError) {
        let device = "\(card.path) (\(card.driver))"
        guard card.capabilities().dumbBuffers else { throw .noDumbBuffers(device: device) }
        self.card = card
        self.log = log
        self.clock = clock
        update = configuration.update
        connector = try Selection.connector(named: configuration.connector, in: resources.connectors, device: device)
        mode = try Selection.mode(configuration.mode, of: connector, device: device)
        crtc = try Selection.crtc(for: connector, in: resources, device: device)
        let chosen = Selection.format(configuration.format, planeFormats: resources.primaryFormats(for: crtc), device: device)
        format = chosen.format
        if let note = chosen.note { log(note) }
        let turn = Selection.rotation(configured: configuration.rotation, orientation: connector.orientation)
        rotation = turn.rotation
        let logical = rotation.logicalSize(physicalWidth: mode.width, physicalHeight: mode.height)
        shadow = DisplayCanvas(width: logical.width, height: logical.height)
        damage = Damage(bounds: Rect(x: 0, y: 0, width: logical.width, height: logical.height))
        let count = configuration.update == .damage ? 1 : 2
        do {
            for _ in 0..<count {
                buffers.append(try card.createBuffer(width: mode.width, height: mode.height, format: format))
            }
        } catch {
            for b in buffers { card.destroyBuffer(b) }
            buffers = []
            throw KMSError.classify(error, device: device)
        }
        log("\(device) \(connector.name): \(mode) \(format.rawValue) on CRTC \(crtc.id), rotation \(rotation.degrees) (\(turn.source)); canvas \(logical.width)x\(logical.height)")
    }

    deinit { close() }

    /// Gives this output's dumb buffers to another output of the same card (the atomic one) before
    /// `start()`: this one is then closed without touching the card, which the other now owns.
    var bufferCount: Int { buffers.count }
    var firstFramebuffer: UInt32 { buffers[0].framebuffer }

    func handOver() -> [ScanoutBuffer] {
        precondition(!started && !closed, "handOver() after start() or close()")
        closed = true
        let given = buffers
        buffers = []
        return given
    }

    // MARK: Starting

    public func startScanout() throws(KMSError) {
        precondition(!started && !closed, "KMSOutput.start() called twice or after close()")
        // Both buffers get the whole first frame: with two, the back buffer is two frames old and
        // only damage is copied from then on.
        let frame = canvas
        for b in buffers { frame.copyOut(region: frame.bounds, to: b.pixels, rotation: rotation) }
        do {
            if saved == nil { saved = try card.saveCrtc(crtc.id) }
            try card.setCrtc(crtc.id, framebuffer: buffers[0].framebuffer, connector: connector.id, mode: mode)
        } catch {
            throw KMSError.classify(error, device: card.path)
        }
        started = true
        front = 0
        // The first DirtyFB flushes the whole first frame where the driver needs it, and tells
        // whether it has DirtyFB at all.
        let dirtyErrno = try probeDirty()
        let vblankErrno = update == .auto ? card.waitVBlank(crtcIndex: crtc.index, frames: 1) : 0
        (strategy, strategyReason) = UpdateStrategy.choose(update, vblankErrno: vblankErrno, dirtyErrno: dirtyErrno)
        dirtyWorks = dirtyErrno == 0
        log("\(name): \(strategyReason)")
        if strategy == .damage, buffers.count == 2 {
            card.destroyBuffer(buffers.removeLast())
        }
    }

    private func probeDirty() throws(KMSError) -> Int32 {
        do {
            try card.dirty(framebuffer: buffers[0].framebuffer, clips: DamageRegion(Rect(x: 0, y: 0, width: mode.width, height: mode.height)))
            dirtyCalls += 1
            return 0
        } catch {
            if error.errno == EACCES || error.errno == EPERM || error.errno == ENODEV {
                throw KMSError.classify(error, device: card.path)
            }
            return error.errno
        }
    }

    // MARK: Frames

    public func presentDamage(damage rect: DamageRegion) throws(KMSError) {
        precondition(started && !closed, "KMSOutput.present before start() or after close()")
        damage.add(rect)
        // One flip in flight: until its event arrives both buffers may be on screen, so neither is
        // written; the damage waits in `damage.current`.
        guard scanout.begin() else { return }
        switch strategy {
        case .damage: try presentInPlace()
        case .flip: try presentByFlip()
        }
    }

    private func presentInPlace() throws(KMSError) {
        let region = damage.current
        if region.isEmpty { return }
        // The panel rectangles written, each its own DirtyFB clip.
        var written = DamageRegion()
        for i in 0..<region.count {
            written.add(shadow.copyOut(region: region[i], to: buffers[0].pixels, rotation: rotation))
        }
        scanout.copied(written.area)
        damage.endFrame()
        // Without DirtyFB the scan-out buffer is what the controller reads: written is shown.
        guard dirtyWorks else {
            scanout.shown()
            return
        }
        do {
            try card.dirty(framebuffer: buffers[0].framebuffer, clips: written)
            dirtyCalls += 1
            scanout.shown()
        } catch {
            if error.errno == ENOSYS || error.errno == EOPNOTSUPP {
                dirtyWorks = false
                scanout.shown()
                log("\(name): DirtyFB failed (\(error.message)); no longer calling it")
                return
            }
            throw KMSError.classify(error, device: card.path)
        }
    }

    private func presentByFlip() throws(KMSError) {
        if damage.current.isEmpty { return }
        let back = 1 - front
        let written = shadow.copyOut(region: damage.union, to: buffers[back].pixels, rotation: rotation)
        scanout.copied(written.area)
        do {
            try card.pageFlip(crtc: crtc.id, framebuffer: buffers[back].framebuffer)
        } catch {
            if error.errno == EBUSY {
                // Keep this frame's damage: the back buffer is written again in full next time,
                // and the other buffer still misses it.
                scanout.refusedBusy()
                return
            }
            throw KMSError.classify(error, device: card.path)
        }
        scanout.queued(at: clock())
        front = back
        damage.endFrame()
    }

    public func readEvents() throws(KMSError) {
        let completed: Int
        do { completed = try card.handleEvents() } catch { throw KMSError.classify(error, device: card.path) }
        scanout.completed(completed, at: clock())
    }

    /// Whether a flip is queued and its event not yet read.
    public var isFlipPending: Bool { scanout.inFlight }

    public var isSettled: Bool { !scanout.inFlight && damage.current.isEmpty }

    // MARK: Hot-plug

    /// After a uevent for this card: the connector is still there, gone, or back (or its link
    /// failed), in which case the same mode is set again — if the monitor there now offers it —
    /// and the caller presents the whole canvas.
    public func checkConnector() throws(KMSError) -> ConnectorCheck {
        precondition(started && !closed, "KMSOutput.recheckConnector before start() or after close()")
        let same: DisplayMode
        switch try ConnectorRecheck.look(at: connector, on: card, driving: mode, unplugged: &unplugged) {
        case .settled(let check): return check
        case .setAgain(let mode): same = mode
        }
        finishPendingFlip()
        do {
            try card.setCrtc(crtc.id, framebuffer: buffers[front].framebuffer, connector: connector.id, mode: same)
        } catch {
            throw KMSError.classify(error, device: card.path)
        }
        unplugged = false
        return .modesetAgain
    }

    // MARK: Night blanking

    /// DPMS Off on the connector (legacy KMS keeps the CRTC's mode for On). Where the connector
    /// has no DPMS or refuses it, the screen is painted black instead. A flip in flight is let
    /// finish first, so no buffer is still queued for a screen being switched off.
    public func switchOff() throws(KMSError) -> BlankOutcome {
        precondition(started && !closed, "KMSOutput.blank before start() or after close()")
        finishPendingFlip()
        do {
            try card.setDPMS(connector: connector.id, on: false)
            poweredDown = true
            return .poweredDown
        } catch {
            if error.errno == ENODEV || error.errno == ENXIO || error.errno == EACCES || error.errno == EPERM {
                throw KMSError.classify(error, device: card.path)
            }
            let shown = buffers[front]
            for y in 0..<shown.pixels.height {
                shown.pixels.row(y).initializeMemory(as: UInt8.self, repeating: 0, count: shown.pixels.width * shown.pixels.format.bytesPerPixel)
            }
            if dirtyWorks { try? card.dirty(framebuffer: shown.framebuffer, clips: DamageRegion(Rect(x: 0, y: 0, width: mode.width, height: mode.height))) }
            return .black(reason: "\(name): DPMS Off failed (\(error.message)); the screen shows black instead")
        }
    }

    /// DPMS On again; the caller then presents the whole canvas.
    public func switchOn() throws(KMSError) {
        guard poweredDown else { return }
        do {
            try card.setDPMS(connector: connector.id, on: true)
            poweredDown = false
        } catch {
            throw KMSError.classify(error, device: card.path)
        }
    }

    // MARK: Leaving

    /// Waits (briefly) for a flip in flight, puts the saved CRTC back (the console returns), then
    /// frees the framebuffers and dumb buffers and closes the device. Failures here are reported,
    /// never thrown: an exit path must run to its end.
    public func close() {
        if closed { return }
        closed = true
        if started { finishPendingFlip() }
        if started, let saved {
            do { try card.restoreCrtc(saved, connector: connector.id) } catch {
                // A device that went away has no console left to restore: nothing worth saying.
                if error.errno != ENODEV && error.errno != ENXIO {
                    log("\(name): could not restore the console's CRTC: \(error)")
                }
            }
        }
        for b in buffers { card.destroyBuffer(b) }
        buffers = []
        card.close()
    }

    /// A flip still in flight holds one of our framebuffers: the restoring modeset would have to
    /// wait in the kernel behind it, and the buffers may only go once nothing will scan them out.
    /// So, as drm-howto's modeset-vsync does before cleaning up, the flip's event is read first,
    /// for `ScanoutQueue.finishLimit` at most; the console is restored all the same.
    private func finishPendingFlip() {
        let outcome = ScanoutQueue.finish(clock: clock, inFlight: { scanout.inFlight }) { (timeout) throws(SyscallError) in
            if try card.waitForEvents(timeoutMilliseconds: timeout) { scanout.completed(try card.handleEvents(), at: clock()) }
        }
        switch outcome {
        case .done: break
        case .timedOut:
            log("\(name): the last page flip did not complete within \(ScanoutQueue.finishLimit.nanoseconds / 1_000_000) ms; restoring the console anyway")
        case .failed(let error):
            if error.errno != ENODEV && error.errno != ENXIO {
                log("\(name): waiting for the last page flip: \(error); restoring the console anyway")
            }
        }
    }
}
