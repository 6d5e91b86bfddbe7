import DisplayCore
import Glibc
import Raster
import Syscall

/// The dot's display through atomic KMS with the dot on an overlay plane: the primary plane
/// holds the map (the canvas, copied into two dumb buffers in turn as the legacy output does),
/// an overlay holds the dot's premultiplied ARGB8888 picture (three small dumb buffers in turn,
/// so one is always free to paint while one is on screen and one is queued), and each frame is
/// one non-blocking commit of both. The legacy output (`KMSOutput`) stays the path for cards
/// without atomic or without a usable overlay; `choose` decides once, at start.
///
/// Life: `choose` (from a legacy output not yet started: the same card, connector, mode and
/// buffers; the test commit) → draw the first frame → `start()` (modeset commit) → per frame:
/// paint the sprite, `showSprite`/`hideSprite`, draw the canvas, `present(damage:)`; on events
/// `handleEvents()` → `close()` (the overlay off, the console's CRTC back).
public final class AtomicKMSOutput: KMSDisplay, SpritePlane {
    public let card: AtomicCard
    public let connector: ConnectorInfo
    public let crtc: CrtcInfo
    public let mode: DisplayMode
    public let format: PixelFormat
    /// The panel's turn: the canvas, the map and the sprite are turned in software on their way
    /// to the planes (hardware rotation cannot be tested here).
    public let rotation: Rotation
    /// The commit in flight, the frames that waited for it, what reached the screen.
    public private(set) var scanout = ScanoutQueue()
    public var statistics: ScanoutQueue.Statistics { scanout.statistics }
    public var scanoutStatistics: ScanoutQueue.Statistics? { scanout.statistics }
    public var presentation: PresentationCount { scanout.presentation }
    /// The largest picture in canvas (logical) pixels: the plane's buffers, turned.
    public let spriteWidth: Int
    public let spriteHeight: Int
    /// Where the sprite is painted on a turned panel, in canvas orientation; nil unturned (painted
    /// straight into the plane's buffer).
    let turnedSprite: OwnedPixelBuffer?

    var planes: AtomicPlanes
    var shadow: DisplayCanvas
    private(set) var maps: [ScanoutBuffer]
    var sprites: [ScanoutBuffer]
    var modeBlob: UInt32
    var request = AtomicRequest()
    private var damage: Damage
    /// The map buffer on screen, or queued to be.
    private(set) var front = 0
    /// Sprite buffers: on screen, queued in the commit in flight, being painted.
    private var spriteShown: Int?
    private var spriteQueued: Int?
    var spriteDrawing = 0
    /// The overlay as the next commit leaves it, and whether that differs from the last commit.
    var sprite = SpriteState()
    var spriteChanged = false
    /// The driver refused the dot's plane at run time; `dotGranted`: the last plane decision gave
    /// the dot its plane.
    var spriteRefused = false
    var dotGranted = true
    public var takesSprites: Bool { !spriteRefused && dotGranted }
    /// The pictures fixed on the screen on planes of their own, their buffers, what the scene
    /// asked for last, the planes given up (switched off by the next whole commit), the decision.
    var onPlanes: [PictureState] = []
    var pictureBuffers: [ScanoutBuffer] = []
    var pictureRequests: (pictures: [Overlay], names: [String]) = ([], [])
    var planesOff: [AtomicPlanes.Plane] = []
    var retiredBuffers: [ScanoutBuffer] = []
    public internal(set) var grants = PlaneGrants(dot: true, pictures: [])
    public internal(set) var generation = 0
    /// A commit is in flight: until its event arrives, none of its buffers is drawn into.
    var pending: Bool { scanout.inFlight }
    private var saved: SavedCrtc?
    private(set) var started = false
    private(set) var closed = false
    var blanked = false
    private var unplugged = false
    let log: (String) -> Void
    private let clock: () -> MonotonicInstant
    /// The writeback connector's buffer (made on the first capture) and where the kernel writes
    /// the capture's out-fence.
    var captureBuffer: ScanoutBuffer?
    /// On a turned panel, the capture turned back into canvas orientation.
    var turnedCapture: OwnedPixelBuffer?
    let fence = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    /// The map pictures the primary plane scrolls over, once a view asked for them; nil: none.
    var pictures: MapPictures?
    /// Whether the commit in flight changed the primary plane's framebuffer (the one it replaces
    /// stays on screen until it completes).
    var primarySwitchPending = false

    public var name: String { "\(card.path) (\(card.driver)) \(connector.name)" }
    public var canvasWidth: Int { shadow.width }
    public var canvasHeight: Int { shadow.height }
    public var hotplugDevice: String { card.path }
    public var canvas: PixelBuffer { shadow.buffer() }
    public var spritePlane: SpritePlane? { self }
    public var spriteBuffer: PixelBuffer { turnedSprite?.buffer ?? sprites[spriteDrawing].pixels }
    public var pollDescriptor: Int32? { started ? card.eventDescriptor : nil }
    public var isSettled: Bool {
        !pending && !spriteChanged && !(pictures?.changed ?? false) && (showsPicture || damage.current.isEmpty)
    }
    /// Whether a commit is queued and its event not yet read.
    public var isCommitPending: Bool { pending }

    init(card: AtomicCard, connector: ConnectorInfo, crtc: CrtcInfo, mode: DisplayMode, format: PixelFormat,
         rotation: Rotation, planes: AtomicPlanes, maps: [ScanoutBuffer], sprites: [ScanoutBuffer], modeBlob: UInt32,
         log: @escaping (String) -> Void, clock: @escaping () -> MonotonicInstant) {
        self.card = card; self.connector = connector; self.crtc = crtc; self.mode = mode; self.format = format
        self.rotation = rotation
        self.planes = planes; self.maps = maps; self.sprites = sprites; self.modeBlob = modeBlob
        self.log = log; self.clock = clock
        let sprite = rotation.logicalSize(physicalWidth: sprites[0].pixels.width, physicalHeight: sprites[0].pixels.height)
        spriteWidth = sprite.width
        spriteHeight = sprite.height
        turnedSprite = rotation == .r0 ? nil : OwnedPixelBuffer(width: sprite.width, height: sprite.height, format: .xrgb8888)
        let logical = rotation.logicalSize(physicalWidth: mode.width, physicalHeight: mode.height)
        shadow = DisplayCanvas(width: logical.width, height: logical.height)
        damage = Damage(bounds: Rect(x: 0, y: 0, width: logical.width, height: logical.height))
    }

    deinit {
        close()
        fence.deallocate()
    }

    public func adopt(canvas frame: PixelBuffer) {
        precondition(!started, "adopt(canvas:) after start()")
        shadow.adopt(frame)
    }
    public func route(copyOut copier: CanvasCopier) { shadow.route(through: copier) }

    /// The whole canvas is to go out again (it was behind a map picture).
    func canvasBehind() { damage.add(Rect(x: 0, y: 0, width: shadow.width, height: shadow.height)) }

    // MARK: Starting

    public func startScanout() throws(KMSError) {
        precondition(!started && !closed, "AtomicKMSOutput.start() called twice or after close()")
        let frame = canvas
        for b in maps { frame.copyOut(region: frame.bounds, to: b.pixels, rotation: rotation) }
        do {
            if saved == nil { saved = try card.saveCrtc(crtc.id) }
            front = 0
            try commitWhole(active: true)
        } catch {
            throw KMSError.classify(error, device: card.path)
        }
        started = true
        pictures?.committed()
        spriteCommitted()
        spriteShown = spriteQueued
        spriteQueued = nil
        damage.endFrame()
        scanout.shown()
        log("\(name): atomic commits, the dot on \(planes.isCursor ? "cursor plane \(planes.overlay.id) (\(spriteWidth)x\(spriteHeight))" : "overlay plane \(planes.overlay.id)") over the map on primary plane \(planes.primary.id)")
    }

    // MARK: Frames

    public func presentDamage(damage rect: DamageRegion) throws(KMSError) {
        precondition(started && !closed, "AtomicKMSOutput.present before start() or after close()")
        // A picture on screen leaves the canvas behind it; `showCanvas` brings all of it back.
        if !showsPicture { damage.add(rect) }
        guard scanout.begin() else { return }
        let copies = !showsPicture && !damage.current.isEmpty
        let primaryChanged = pictures?.changed ?? false
        if blanked || (!copies && !spriteChanged && !primaryChanged) { return }
        request.removeAll()
        var back = front
        if copies {
            back = 1 - front
            let written = shadow.copyOut(region: damage.union, to: maps[back].pixels, rotation: rotation)
            scanout.copied(written.area)
        }
        if copies || primaryChanged {
            planes.primaryOnly(primaryState(canvas: back), width: mode.width, height: mode.height, in: &request)
        }
        if spriteChanged { planes.spriteOnly(sprite, in: &request) }
        do {
            try card.commit(request, flags: [.nonblocking, .event])
        } catch {
            if error.errno == EBUSY {
                scanout.refusedBusy()
                return
            }
            if primaryChanged, showsPicture, error.errno == EINVAL || error.errno == ERANGE {
                // A window the test commit did not cover: scrolling is given up, said once; the
                // screen keeps what it shows until the view draws the canvas again.
                log("\(name): the driver refused the map's window at (\(pictures?.next?.x ?? 0), \(pictures?.next?.y ?? 0)) (\(error.message)); the map moves in the canvas from now on")
                pictures?.refused()
                return
            }
            guard spriteChanged, sprite.framebuffer != 0, error.errno == EINVAL || error.errno == ERANGE else {
                throw KMSError.classify(error, device: card.path)
            }
            // A place or size the test commit did not cover: the plane is given up, said once,
            // and the dot goes back into the canvas from the next frame.
            log("\(name): the driver refused the dot's plane at (\(sprite.x), \(sprite.y)) \(sprite.width)x\(sprite.height) (\(error.message)); composing in software from now on")
            spriteRefused = true
            sprite = SpriteState()
            try presentDamage(damage: DamageRegion())
            return
        }
        scanout.queued(at: clock())
        primarySwitchPending = copies || (pictures?.switches ?? false)
        front = back
        if copies { damage.endFrame() }
        pictures?.committed()
        spriteCommitted()
    }

    /// The sprite just committed is queued; painting moves to a buffer neither shown nor queued.
    private func spriteCommitted() {
        guard spriteChanged else { return }
        spriteChanged = false
        if sprite.framebuffer != 0 { spriteQueued = spriteDrawing }
        for i in sprites.indices where i != spriteShown && i != spriteQueued {
            spriteDrawing = i
            return
        }
    }

    public func readEvents() throws(KMSError) {
        let completed: Int
        do { completed = try card.handleEvents() } catch { throw KMSError.classify(error, device: card.path) }
        eventsRead(completed)
    }

    /// `completed` commit events read: the commit in flight is on the screen, and with it its
    /// sprite buffer.
    private func eventsRead(_ completed: Int) {
        if completed > 0 {
            scanout.completed(completed, at: clock())
            primarySwitchPending = false
            if let q = spriteQueued { spriteShown = q }
            if sprite.framebuffer == 0 { spriteShown = nil }
            spriteQueued = nil
        }
    }

    // MARK: Hot-plug and blanking

    public func checkConnector() throws(KMSError) -> ConnectorCheck {
        precondition(started && !closed, "AtomicKMSOutput.recheckConnector before start() or after close()")
        let same: DisplayMode
        switch try ConnectorRecheck.look(at: connector, on: card, driving: mode, unplugged: &unplugged) {
        case .settled(let check): return check
        case .setAgain(let mode): same = mode
        }
        finishPendingCommit()
        do {
            let blob = try card.createModeBlob(same)
            card.destroyBlob(modeBlob)
            modeBlob = blob
        } catch {
            throw KMSError.classify(error, device: card.path)
        }
        // The layers' planes decided again, as at start: what the driver takes may depend on the output.
        let before = grants
        decide(after: "the reconnect")
        if grants != before { generation += 1 }
        try commitWholeState(active: true)
        unplugged = false
        return .modesetAgain
    }

    /// The CRTC's ACTIVE off: the panel dark, the planes' state kept by the next `unblank`.
    public func switchOff() throws(KMSError) -> BlankOutcome {
        precondition(started && !closed, "AtomicKMSOutput.blank before start() or after close()")
        try commitWholeState(active: false)
        blanked = true
        return .poweredDown
    }

    public func switchOn() throws(KMSError) {
        guard blanked else { return }
        try commitWholeState(active: true)
        blanked = false
    }

    /// A blocking modeset commit of everything, after the commit in flight (if any) is done.
    func commitWholeState(active: Bool) throws(KMSError) {
        finishPendingCommit()
        do { try commitWhole(active: active) } catch { throw KMSError.classify(error, device: card.path) }
        pictures?.committed()
        spriteCommitted()
        spriteShown = active ? spriteQueued : nil
        spriteQueued = nil
    }

    // MARK: Leaving

    /// Waits briefly for a commit in flight, switches the overlay off, puts the saved CRTC back
    /// (the console), frees the buffers and the mode blob and closes the device. Failures are
    /// reported, never thrown.
    public func close() {
        if closed { return }
        closed = true
        if started {
            finishPendingCommit()
            request.removeAll()
            planes.overlay.show(0, on: crtc.id, x: 0, y: 0, width: 0, height: 0, in: &request)
            for p in onPlanes { p.plane.show(0, on: crtc.id, x: 0, y: 0, width: 0, height: 0, in: &request) }
            for p in planesOff { p.show(0, on: crtc.id, x: 0, y: 0, width: 0, height: 0, in: &request) }
            if let w = planes.writeback { request.set(w.connector, w.crtc, 0) }
            do { try card.commit(request, flags: planes.writeback == nil ? [] : [.allowModeset]) } catch {
                if error.errno != ENODEV && error.errno != ENXIO { log("\(name): could not switch the overlay planes off: \(error)") }
            }
            if let saved {
                do { try card.restoreCrtc(saved, connector: connector.id) } catch {
                    if error.errno != ENODEV && error.errno != ENXIO { log("\(name): could not restore the console's CRTC: \(error)") }
                }
            }
        }
        for b in maps + sprites + (pictures?.buffers ?? []) + pictureBuffers + retiredBuffers { card.destroyBuffer(b) }
        pictureBuffers = []
        retiredBuffers = []
        pictures = nil
        if let captureBuffer { card.destroyBuffer(captureBuffer) }
        captureBuffer = nil
        maps = []
        sprites = []
        card.destroyBlob(modeBlob)
        card.close()
    }

    /// The commit in flight let finish (`ScanoutQueue.finishLimit` at most) before a blocking
    /// commit or closing: a commit refused behind it would fail with EBUSY.
    func finishPendingCommit() {
        let outcome = ScanoutQueue.finish(clock: clock, inFlight: { scanout.inFlight }) { (timeout) throws(SyscallError) in
            if try card.waitForEvents(timeoutMilliseconds: timeout) { eventsRead(try card.handleEvents()) }
        }
        switch outcome {
        case .done: return
        case .timedOut:
            log("\(name): the last commit did not complete within \(ScanoutQueue.finishLimit.nanoseconds / 1_000_000) ms; going on anyway")
        case .failed: break
        }
        scanout.abandon()
    }
}
