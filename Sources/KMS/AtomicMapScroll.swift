import DisplayCore
import Glibc
import Raster
import Syscall

/// Two map pictures larger than the screen for the primary plane, and which of them (or the
/// canvas) it shows from which window: the state behind `AtomicKMSOutput`'s `MapScrollPlane`.
struct MapPictures {
    var buffers: [ScanoutBuffer]
    /// The picture and window the next commit shows (nil: the canvas), and the last committed.
    var next: (index: Int, x: Int, y: Int)?
    var committedState: (index: Int, x: Int, y: Int)?
    /// False after the driver refused a window: the canvas from then on.
    var scrolls = true

    /// Whether the next commit must set the primary plane anew.
    var changed: Bool {
        switch (next, committedState) {
        case (nil, nil): return false
        case let (n?, c?): return n != c
        default: return true
        }
    }

    /// Whether the next commit puts another framebuffer on the primary plane.
    var switches: Bool { next?.index != committedState?.index }

    mutating func committed() { committedState = next }

    /// The window refused: the committed state is what the screen keeps, and scrolling ends.
    mutating func refused() {
        next = committedState
        scrolls = false
    }
}

extension AtomicKMSOutput: MapScrollPlane {
    /// What the primary plane shows from the next commit: the picture and its window, or the
    /// canvas's copy `canvas` (default: the one on screen).
    func primaryState(canvas: Int) -> PrimaryState {
        if let p = pictures, let n = p.next { return PrimaryState(framebuffer: p.buffers[n.index].framebuffer, x: n.x, y: n.y) }
        return PrimaryState(framebuffer: maps[canvas].framebuffer)
    }

    var primaryState: PrimaryState { primaryState(canvas: front) }

    /// Two pictures of the canvas's size plus `margin` on every side (within the driver's
    /// largest framebuffer), made once, and a test commit showing one from a window off its
    /// corner, the map alone. Nil with one line said when the driver cannot, or the dot is not on
    /// its plane.
    public func mapScrollPlane(margin: Int) -> MapScrollPlane? {
        if let pictures { return pictures.scrolls ? self : nil }
        guard takesSprites, !closed else { return nil }
        if rotation != .r0 {
            log("\(name): map pictures are not turned: on a panel turned \(rotation.degrees)° the map moves in the canvas")
            pictures = MapPictures(buffers: [], scrolls: false)
            return nil
        }
        let limit = card.largestFramebuffer()
        let width = min(mode.width + 2 * margin, limit?.width ?? Int.max)
        let height = min(mode.height + 2 * margin, limit?.height ?? Int.max)
        guard width > mode.width || height > mode.height else {
            log("\(name): the driver's framebuffers are at most \(limit?.width ?? 0)x\(limit?.height ?? 0); the map moves in the canvas")
            pictures = MapPictures(buffers: [], scrolls: false)
            return nil
        }
        var made: [ScanoutBuffer] = []
        do throws(SyscallError) {
            for _ in 0..<2 { made.append(try card.createBuffer(width: width, height: height, format: format)) }
            request.removeAll()
            let probe = PrimaryState(framebuffer: made[0].framebuffer, x: width - mode.width, y: height - mode.height)
            // The map alone first: the layers above it are decided after, over its worst window.
            planes.full(modeBlob: modeBlob, active: true, map: probe, width: mode.width, height: mode.height,
                        sprite: SpriteState(), in: &request)
            try card.commit(request, flags: [.testOnly, .allowModeset])
        } catch {
            for b in made { card.destroyBuffer(b) }
            log("\(name): the primary plane cannot scroll a \(width)x\(height) map picture (\(error)); the map moves in the canvas")
            pictures = MapPictures(buffers: [], scrolls: false)
            return nil
        }
        let bytes = made.reduce(0) { $0 + $1.byteCount }
        log("\(name): the map scrolls on primary plane \(planes.primary.id): two \(width)x\(height) \(format) pictures, \(bytes / 1024) KiB")
        pictures = MapPictures(buffers: made)
        return self
    }

    public var scrollsMap: Bool { pictures?.scrolls ?? false }
    public var pictureWidth: Int { pictures?.buffers.first?.pixels.width ?? 0 }
    public var pictureHeight: Int { pictures?.buffers.first?.pixels.height ?? 0 }
    public var showsPicture: Bool { pictures?.next != nil }

    public func sparePicture() -> PixelBuffer {
        precondition(scrollsMap, "sparePicture() without map pictures")
        // The picture the commit in flight takes off the screen is still scanned out until it completes.
        if pending && primarySwitchPending { finishPendingCommit() }
        return pictures!.buffers[spareIndex].pixels
    }

    /// The picture neither committed nor about to be: a picture chosen but not yet committed may
    /// be drawn again.
    private var spareIndex: Int {
        guard let p = pictures else { return 0 }
        if let c = p.committedState { return 1 - c.index }
        return p.next?.index ?? 0
    }

    public func showSparePicture(windowX x: Int, windowY y: Int) {
        precondition(scrollsMap, "showSparePicture without map pictures")
        pictures!.next = (spareIndex, x, y)
    }

    public func moveWindow(toX x: Int, y: Int) {
        guard let n = pictures?.next else { preconditionFailure("moveWindow with no picture shown") }
        precondition(x >= 0 && y >= 0 && x + mode.width <= pictureWidth && y + mode.height <= pictureHeight,
                     "a window at (\(x), \(y)) leaves the \(pictureWidth)x\(pictureHeight) picture")
        pictures!.next = (n.index, x, y)
    }

    public func showCanvas() {
        guard pictures?.next != nil else { return }
        pictures!.next = nil
        // Both copies of the canvas are behind: the whole of it goes out, into each in turn.
        canvasBehind()
    }
}
