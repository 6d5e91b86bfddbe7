import DisplayCore
import Glibc
import Raster
import Syscall

/// The dot's display through a legacy framebuffer (/dev/fb*). As with KMS, everything is drawn
/// into `canvas`, a canvas in RAM in logical (rotated) coordinates, and `present(damage:)`
/// copies only what changed into the mapping, which is written and never read.
///
/// When the virtual screen holds two screens and the driver pans, frames alternate between them
/// with FBIOPAN_DISPLAY (the back one gets two frames' damage); otherwise the visible screen is
/// updated in place. Where the driver has FBIO_WAITFORVSYNC, a pan counts as shown once the next
/// vblank has passed and an in-place copy waits for one; the wait runs on a thread of its own
/// (`VSyncWaiter`), its end arrives on `pollDescriptor`, and a wait that overruns `vsyncBound`
/// leaves the pacing to the caller's frame timer, said once. Without it the timer paces alone.
///
/// Life: `init` (read the screen information, check the layout, map) → draw the first frame into
/// `canvas` → `start()` → per frame: draw, `present(damage:)` → `close()` on every exit path (pans
/// back to where the console was).
public final class FBDevOutput: BlankingOutput {
    public let device: FramebufferDevice
    public let fixed: FixedScreenInfo
    /// The screen information as found: the pan offsets are put back on close.
    public let original: VariableScreenInfo
    public let layout: FramebufferLayout
    /// The panel's size (the framebuffer's visible resolution).
    public let width: Int
    public let height: Int
    public let rotation: Rotation
    public let update: UpdateMode
    public private(set) var strategy: FBDevStrategy
    public private(set) var pacing: FBDevPacing = .timer
    /// Pans (queued), frames that waited for a vblank (deferred), what reached the screen.
    public private(set) var scanout = ScanoutQueue()
    public var statistics: ScanoutQueue.Statistics { scanout.statistics }
    public var scanoutStatistics: ScanoutQueue.Statistics? { scanout.statistics }
    public var presentation: PresentationCount { scanout.presentation }
    /// FBIO_WAITFORVSYNC calls that returned at a vblank.
    public private(set) var vsyncWaits = 0
    /// The virtual console put into graphics mode while the framebuffer is driven, so its cursor
    /// and messages never land on the dot; nil: leave the console alone (tests, a second screen).
    public var console: VirtualConsole?

    public var canvasWidth: Int { shadow.width }
    public var canvasHeight: Int { shadow.height }
    private var shadow: DisplayCanvas
    private var memory: UnsafeMutableRawPointer
    /// Two screens for `flip` (at y 0 and y = height of the virtual screen), else the visible one.
    private var screens: [PixelBuffer]
    private let visible: PixelBuffer
    /// The screen shown (flip).
    private var front = 0
    private var damage: Damage
    private var started = false
    private var closed = false
    private var panned = false
    /// Night blanking powered the screen down with FBIOBLANK.
    private var poweredDown = false
    private let log: (String) -> Void
    /// Monotonic nanoseconds: tells a real vsync wait from one that returns at once, and one
    /// that overruns.
    private let clock: () -> Int64
    private var vsync: VSyncWaiter?
    /// In place: the damage is copied when the vblank asked for has come.
    private var copyAfterVSync = false
    /// The longest a vblank wait may take before the frame timer paces instead: a few frames even
    /// at 24 Hz, and far from anything a working driver does.
    public static let vsyncBound: Int64 = 200_000_000

    public var canvas: PixelBuffer { shadow.buffer() }

    public func adopt(canvas frame: PixelBuffer) {
        precondition(!started, "adopt(canvas:) after start()")
        shadow.adopt(frame)
    }
    public func route(copyOut copier: CanvasCopier) { shadow.route(through: copier) }

    /// A frame's damage into a screen: in the panel's own layout through the canvas's drawer
    /// (when one was routed), in any other layout converted here.
    private func copy(_ region: DamageRegion, from frame: PixelBuffer, to screen: PixelBuffer) -> Copied {
        if layout.isNative { return shadow.copyOut(region: region, to: screen, rotation: rotation) }
        return Copied(region) { layout.copy(region: $0, from: frame, to: screen, rotation: rotation) }
    }

    /// The end of a vblank wait, while FBIO_WAITFORVSYNC paces; nothing else to poll.
    public var pollDescriptor: Int32? { pacing == .vsync && started ? vsync?.descriptor : nil }
    /// "/dev/fb0 (bochs-drmdrmfb)": how messages name this output.
    public var name: String { Self.name(device.path, fixed) }

    static func name(_ path: String, _ fixed: FixedScreenInfo) -> String {
        fixed.id.isEmpty ? path : "\(path) (\(fixed.id))"
    }

    /// Reads the screen information, decodes the pixel layout, checks the numbers and maps the
    /// memory. Nothing is written until `start()`. On failure the device is left open: the
    /// caller closes it.
    public init(device: FramebufferDevice, configuration: FBDevConfiguration,
                log: @escaping (String) -> Void = { _ in },
                clock: @escaping () -> Int64 = { MonotonicInstant.now().nanoseconds }) throws(FBDevError) {
        let (v, f) = try device.screenInfo()
        let label = Self.name(device.path, f)
        let layout: FramebufferLayout
        switch FramebufferLayout.decode(v, f) {
        case .success(let l): layout = l
        case .failure(let r): throw .unsupportedLayout(device: label, layout: r.layout)
        }
        let bpp = layout.bytesPerPixel
        guard v.xres > 0, v.yres > 0 else { throw .inconsistent(device: label, detail: "a \(v.xres)x\(v.yres) screen") }
        guard f.lineLength >= (v.xoffset + v.xres) * bpp else {
            throw .inconsistent(device: label, detail: "a line length of \(f.lineLength) bytes is short of \(v.xoffset + v.xres) pixels of \(bpp) bytes")
        }
        guard f.lineLength % bpp == 0 else {
            throw .inconsistent(device: label, detail: "a line length of \(f.lineLength) bytes is not a whole number of \(bpp)-byte pixels")
        }
        guard (v.yoffset + v.yres) * f.lineLength <= f.memoryLength else {
            throw .inconsistent(device: label, detail: "\(f.memoryLength) bytes of memory hold fewer than \(v.yoffset + v.yres) lines of \(f.lineLength) bytes")
        }
        self.device = device
        self.fixed = f
        self.original = v
        self.layout = layout
        self.log = log
        self.clock = clock
        width = v.xres
        height = v.yres
        update = configuration.update
        let turn = configuration.rotation ?? .r0
        rotation = turn
        let logical = turn.logicalSize(physicalWidth: v.xres, physicalHeight: v.yres)
        shadow = DisplayCanvas(width: logical.width, height: logical.height)
        damage = Damage(bounds: Rect(x: 0, y: 0, width: logical.width, height: logical.height))

        let (canFlip, why) = Self.panning(v, f)
        switch configuration.update {
        case .damage: strategy = .damage
        case .auto: strategy = canFlip ? .flip : .damage
        case .flip:
            strategy = canFlip ? .flip : .damage
            if !canFlip { log("\(label): update = flip, but \(why); copying in place") }
        }
        do {
            memory = try device.map(length: f.memoryLength)
        } catch {
            throw FBDevError.classify(error, device: label)
        }
        let base = memory
        func screen(x: Int, y: Int) -> PixelBuffer {
            PixelBuffer(base: base + y * f.lineLength + x * bpp, width: v.xres, height: v.yres,
                        stride: f.lineLength, format: layout.container)
        }
        visible = screen(x: v.xoffset, y: v.yoffset)
        screens = strategy == .flip ? [screen(x: 0, y: 0), screen(x: 0, y: v.yres)] : [visible]

        if let want = configuration.format, want != layout.container {
            log("\(label): format = \(want.rawValue), but the framebuffer is \(layout) (its depth is the kernel's: fbset or the video= option); writing \(layout)")
        }
        if let want = configuration.mode, want.width != v.xres || want.height != v.yres {
            log("\(label): mode = \(want.width)x\(want.height), but the framebuffer is \(v.xres)x\(v.yres) (set by the kernel: the video= option); using \(v.xres)x\(v.yres)")
        }
        log("\(label): \(v.xres)x\(v.yres) \(layout), line length \(f.lineLength), virtual \(v.xresVirtual)x\(v.yresVirtual); rotation \(turn.degrees) (\(configuration.rotation == nil ? "default" : "configured")); canvas \(logical.width)x\(logical.height)")
    }

    /// Whether two screens fit one above the other and the driver can pan between them; if not,
    /// why not.
    static func panning(_ v: VariableScreenInfo, _ f: FixedScreenInfo) -> (Bool, String) {
        if f.ypanstep == 0 { return (false, "the driver cannot pan (ypanstep 0)") }
        if v.yresVirtual < 2 * v.yres {
            return (false, "the virtual screen (\(v.xresVirtual)x\(v.yresVirtual)) has no room for a second \(v.xres)x\(v.yres) screen")
        }
        if v.yres % f.ypanstep != 0 { return (false, "\(v.yres) lines are not a multiple of the pan step \(f.ypanstep)") }
        if 2 * v.yres * f.lineLength > f.memoryLength {
            return (false, "\(f.memoryLength) bytes of memory do not hold two screens")
        }
        return (true, "")
    }

    deinit { close() }

    // MARK: Starting

    /// Writes the whole first frame into every screen, shows the first (by a pan, which also
    /// proves the driver pans) and finds out whether the driver waits for vsync.
    public func startScanout() throws(FBDevError) {
        precondition(!started && !closed, "FBDevOutput.start() called twice or after close()")
        // Graphics mode before the first frame, so the cursor never blinks on it.
        _ = console?.enterGraphics()
        let frame = canvas
        for s in screens { layout.copy(region: frame.bounds, from: frame, to: s, rotation: rotation) }
        var reason: String
        if strategy == .flip {
            do {
                try device.pan(xoffset: 0, yoffset: height)
                panned = true
                front = 1
                scanout.queuedWithoutEvent()
                reason = "flip by panning between two screens (virtual \(original.xresVirtual)x\(original.yresVirtual))"
            } catch {
                if error.errno == EBUSY || error.errno == ENODEV || error.errno == ENXIO {
                    throw FBDevError.classify(error, device: name)
                }
                strategy = .damage
                screens = [visible]
                layout.copy(region: frame.bounds, from: frame, to: visible, rotation: rotation)
                reason = "damage in place: FBIOPAN_DISPLAY failed (\(error.message))"
            }
        } else {
            let (_, why) = Self.panning(original, fixed)
            reason = update == .auto ? "damage in place: \(why)" : "damage in place (configured)"
        }
        reason += "; " + probeVSync()
        started = true
        log("\(name): framebuffers send no hot-plug events: an unplugged monitor goes unnoticed (KMS output hears it)")
        log("\(name): \(reason)")
    }

    /// Whether FBIO_WAITFORVSYNC waits for a frame (DRM's fbdev emulation answers at once on
    /// drivers without a vblank interrupt), asked through the waiter with a bound so a driver that
    /// never answers cannot hold up the start; sets `pacing` and says why. The first wait ends at
    /// a vblank, so each later one lasts a whole frame where the driver really waits; the shortest
    /// of the later ones decides (one delayed by a busy machine does not pass for a vblank).
    private func probeVSync() -> String {
        let waiter: VSyncWaiter
        do {
            waiter = try VSyncWaiter(device: device, name: device.path)
        } catch {
            pacing = .timer
            return "no thread for FBIO_WAITFORVSYNC (\(error.message)): the frame timer paces"
        }
        vsync = waiter
        var spans: [Int64] = []
        for _ in 0...vsyncProbeWaits {
            let begin = clock()
            waiter.begin(at: begin)
            guard let outcome = waiter.awaitFinished(timeoutMilliseconds: Int32(Self.vsyncBound / 1_000_000)) else {
                waiter.abandon()
                pacing = .timer
                return "FBIO_WAITFORVSYNC did not return within \(Self.vsyncBound / 1_000_000) ms: the frame timer paces"
            }
            if case .failed(let error) = outcome {
                pacing = .timer
                return "no FBIO_WAITFORVSYNC (\(error.message)): the frame timer paces"
            }
            vsyncWaits += 1
            spans.append(clock() - begin)
        }
        // Where the wait returns at once, pacing by it would be no pacing at all.
        guard spans.dropFirst().min() ?? 0 >= shortestFrameNanoseconds else {
            pacing = .timer
            return "FBIO_WAITFORVSYNC returns at once (no vblank interrupt): the frame timer paces"
        }
        pacing = .vsync
        return "paced by FBIO_WAITFORVSYNC"
    }

    // MARK: Frames

    public func presentDamage(damage rect: DamageRegion) throws(FBDevError) {
        precondition(started && !closed, "FBDevOutput.present before start() or after close()")
        scanout.handedOver()
        damage.add(rect)
        if pacing == .vsync, let since = vsync?.outstandingSince {
            guard clock() - since > Self.vsyncBound else {
                // The screen written last may still be on its way out: this damage waits.
                scanout.deferFrame()
                return
            }
            vsync?.abandon()
            pacing = .timer
            log("\(name): FBIO_WAITFORVSYNC did not return within \(Self.vsyncBound / 1_000_000) ms; the frame timer paces from now on")
            if copyAfterVSync {
                copyAfterVSync = false
                copyInPlace()
            }
        }
        if damage.current.isEmpty { return }
        switch strategy {
        case .damage: presentInPlace()
        case .flip: try presentByPanning()
        }
    }

    private func presentInPlace() {
        // Written just after a vblank, a small dot's area is done before the beam reaches it.
        if pacing == .vsync, vsync?.begin(at: clock()) == true {
            copyAfterVSync = true
            return
        }
        copyInPlace()
    }

    private func copyInPlace() {
        let frame = canvas
        scanout.copied(copy(damage.current, from: frame, to: screens[0]).area)
        damage.endFrame()
        scanout.shown()
    }

    private func presentByPanning() throws(FBDevError) {
        let back = 1 - front
        let frame = canvas
        scanout.copied(copy(damage.union, from: frame, to: screens[back]).area)
        do {
            try device.pan(xoffset: 0, yoffset: back * height)
        } catch {
            if error.errno == EBUSY {
                // The back screen is not shown; next time it gets this frame's damage again too.
                scanout.refusedBusy()
                return
            }
            throw FBDevError.classify(error, device: name)
        }
        scanout.queuedWithoutEvent()
        front = back
        damage.endFrame()
        // Drivers latch a pan at the next vblank: until then the old front may still be scanned
        // out, and the next frame would write it. So the pan counts as shown, and the next frame
        // is written, once that vblank has passed.
        if pacing == .vsync, vsync?.begin(at: clock()) == true { return }
        scanout.shown()
    }

    public var isSettled: Bool { damage.current.isEmpty && !copyAfterVSync && vsync?.outstandingSince == nil }

    /// The end of a vblank wait: the pan before it is shown, or the in-place copy waiting for it
    /// is made now, just after the vblank. A failed wait leaves the pacing to the frame timer.
    public func readEvents() throws(FBDevError) {
        guard let waiter = vsync, let since = waiter.outstandingSince, let outcome = waiter.finished() else { return }
        scanout.waited(clock() - since)
        switch outcome {
        case .vblank:
            vsyncWaits += 1
            if !copyAfterVSync { scanout.shown() }
        case .failed(let error):
            if error.errno == ENODEV || error.errno == ENXIO { throw FBDevError.classify(error, device: name) }
            pacing = .timer
            log("\(name): FBIO_WAITFORVSYNC failed (\(error.message)); the frame timer paces from now on")
        }
        if copyAfterVSync {
            copyAfterVSync = false
            copyInPlace()
        }
    }

    // MARK: Night blanking

    /// FBIOBLANK powerdown; where the driver refuses it (efifb, simplefb), every screen is painted
    /// black instead. A copy waiting for a vblank is dropped: its damage is redrawn at unblank.
    public func switchOff() throws(FBDevError) -> BlankOutcome {
        precondition(started && !closed, "FBDevOutput.blank before start() or after close()")
        copyAfterVSync = false
        do {
            try device.setBlanked(true)
            poweredDown = true
            return .poweredDown
        } catch {
            if error.errno == ENODEV || error.errno == ENXIO { throw FBDevError.classify(error, device: name) }
            for s in screens {
                for y in 0..<s.height { s.row(y).initializeMemory(as: UInt8.self, repeating: 0, count: s.width * layout.bytesPerPixel) }
            }
            return .black(reason: "\(name): FBIOBLANK refused (\(error.message)); the screen shows black instead")
        }
    }

    /// Powers the screen up again; the caller then presents the whole canvas.
    public func switchOn() throws(FBDevError) {
        guard poweredDown else { return }
        do {
            try device.setBlanked(false)
            poweredDown = false
        } catch {
            throw FBDevError.classify(error, device: name)
        }
    }

    /// The screen being shown, 0 or 1 (flip).
    public var frontScreen: Int { front }

    // MARK: Leaving

    /// Pans back to where the console was, unmaps and closes the device. Failures are reported,
    /// never thrown: an exit path must run to its end.
    public func close() {
        if closed { return }
        closed = true
        if panned {
            do { try device.pan(xoffset: original.xoffset, yoffset: original.yoffset) } catch {
                log("\(name): could not pan back to the console's screen: \(error)")
            }
        }
        vsync?.close()
        device.close()
        // Text mode last: the console redraws itself on the screen it was panned back to.
        console?.leaveGraphics()
    }
}
