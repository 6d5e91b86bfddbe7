import Config
import GPSD
import Geo
import Glibc
import Metrics
import Outputs
import Positioning
import Scene
import Syscall
import Systemd

/// `pulsedot run`: one poll loop over the frame timer, the display's flip events, the position
/// source, the signals, and the deadlines (gpsd retries and timeouts, replay pacing, the systemd
/// watchdog, display retries, the summary line). No threads; after warm-up a frame allocates
/// nothing.
public final class RunDaemon {
    public struct Options: Sendable {
        /// The configuration file; nil: `Configuration.defaultPath`.
        public var configPath: String?
        /// `--set` overrides, applied again at each reload.
        public var overrides: [String] = []
        /// Exit after this many frames (hidden `--frames N`, for measuring the frame loop).
        public var maxFrames: Int?

        public init(configPath: String? = nil, overrides: [String] = [], maxFrames: Int? = nil) {
            self.configPath = configPath
            self.overrides = overrides
            self.maxFrames = maxFrames
        }
    }

    enum DisplayState {
        case active(ActiveDisplay)
        case waiting(reason: String, retryAt: MonotonicInstant)
    }

    let options: Options
    let log: Journal
    let signals: SignalDescriptor
    let notifier: SystemdNotifier?
    var watchdog: WatchdogCadence?
    var configuration: Configuration
    var settings: Settings { configuration.settings }
    var feed: PositionFeed!
    var map: MapImage?
    var display: DisplayState
    var timer: FrameTimer
    var lastFix: Fix?
    let started: MonotonicInstant
    let frameTimes = FrameTimes()
    var frames = 0
    var lastFrameAt: MonotonicInstant
    var nextSummary: MonotonicInstant?
    var summaryStart: MonotonicInstant
    var shownPhase: FixPhase = .nofix
    var snapshotRequested = false
    var running = true
    /// The last `png:` frame could not be written.
    var pngFailing = false
    /// READY=1 was sent: STATUS updates before it would only be noise.
    var announced = false
    /// signalfd, frame timer, display, source: edited in place each iteration (no allocation).
    var descriptors: [pollfd]

    /// Sets everything up: the source, the map, the display (or the wait for one). `signals` must
    /// already block SIGTERM, SIGINT, SIGHUP and SIGUSR1 (before any thread exists).
    public init(configuration: Configuration, options: Options, signals: SignalDescriptor, log: Journal) throws {
        self.configuration = configuration
        self.options = options
        self.signals = signals
        self.log = log
        HeapPolicy.returnLargeBuffersWhenFreed()
        log.level = configuration.settings.log.level
        for note in configuration.notes { log.notice(note) }
        do {
            notifier = try SystemdNotifier.fromEnvironment()
        } catch {
            log.warning("systemd notification off: \(error)")
            notifier = nil
        }
        watchdog = notifier?.watchdogInterval.map { WatchdogCadence(interval: $0) }
        let now = MonotonicInstant.now()
        started = now
        lastFrameAt = now
        summaryStart = now
        timer = try FrameTimer(rate: configuration.settings.display.fps)
        descriptors = [pollfd](repeating: pollfd(fd: -1, events: Int16(POLLIN), revents: 0), count: 4)
        display = .waiting(reason: "", retryAt: now)
        map = try Self.loadMap(configuration.settings.map, log: log)
        feed = try makeFeed(configuration.settings.source, now: now)
        scheduleSummary(from: now)
    }

    static func loadMap(_ map: MapSettings, log: Journal) throws -> MapImage? {
        guard let path = map.imagePath else { return nil }
        let image = try MapImage(path: path, background: map.background)
        log.info(image.summary)
        return image
    }

    func makeFeed(_ source: SourceSettings, now: MonotonicInstant) throws -> PositionFeed {
        try PositionFeed(source, now: now) { [unowned self] event in self.take(event) }
    }

    // MARK: The loop

    /// Runs until SIGTERM/SIGINT (or `--frames`); returns the exit code.
    public func run() -> Int32 {
        let now = MonotonicInstant.now()
        log.info("pulsedot \(PulseDotVersion.string) running: source \(feed.name), output \(outputSetting), \(formatNumber(settings.display.fps)) fps; configuration \(configuration.file ?? "defaults")")
        feed.start(now: now)
        tryDisplay(now: now)
        notify { n throws(SyscallError) in try n.ready(status: statusText()) }
        announced = true
        while running {
            let before = MonotonicInstant.now()
            prepareDescriptors()
            let timeout = Poll.timeoutMilliseconds(until: nextDeadline(), now: before)
            do {
                _ = try Poll.wait(&descriptors, timeoutMilliseconds: timeout)
            } catch {
                log.error("\(error)")
                return 1
            }
            let now = MonotonicInstant.now()
            if descriptors[0].revents != 0 { readSignals(now: now) }
            if descriptors[2].revents != 0 { displayEvents() }
            if descriptors[3].revents != 0 { feed.handle(revents: descriptors[3].revents, now: now) }
            feed.tick(now: now)
            if descriptors[1].revents != 0, ((try? timer.expirations()) ?? 0) > 0 { frame() }
            if case .waiting(_, let retryAt) = display, now >= retryAt { tryDisplay(now: now) }
            if let due = nextSummary, now >= due { summary(now: now) }
            pingWatchdog(now: now)
        }
        shutdown()
        return 0
    }

    private func prepareDescriptors() {
        descriptors[0].fd = signals.descriptor.rawValue
        descriptors[0].events = Int16(POLLIN)
        // While waiting for a display there is nothing to draw: the timer is not polled (its
        // expirations pile up harmlessly and are read as one).
        if case .active(let d) = display {
            descriptors[1].fd = timer.descriptor.rawValue
            descriptors[2].fd = d.pollDescriptor
        } else {
            descriptors[1].fd = -1
            descriptors[2].fd = -1
        }
        descriptors[1].events = Int16(POLLIN)
        descriptors[2].events = Int16(POLLIN)
        descriptors[3].fd = feed.descriptor
        descriptors[3].events = feed.pollEvents
        for i in 0..<4 { descriptors[i].revents = 0 }
    }

    private func nextDeadline() -> MonotonicInstant? {
        var next = Poll.earliest(feed.deadline, nextSummary)
        if let watchdog { next = Poll.earliest(next, watchdog.nextDue) }
        if case .waiting(_, let retryAt) = display { next = Poll.earliest(next, retryAt) }
        return next
    }

    /// One frame: draw, present, measure, and act on a change of the truth.
    private func frame() {
        guard case .active(let d) = display else { return }
        // What the frame shows is of the moment it is drawn, after the source had its turn.
        let now = MonotonicInstant.now()
        let t = now.seconds
        let damage = d.view.draw(at: t)
        var drawn: MonotonicInstant?
        do {
            switch d.sink {
            case .kms, .fbdev:
                try d.present(damage)
            case .png(let frames):
                // Frame times measure drawing, not PNG encoding (which a panel never does).
                drawn = .now()
                if snapshotRequested || frames.isDue(at: t) { writeFrame(frames, d, now: now) }
            case .none:
                break
            }
        } catch {
            lose(d, "\(error)", now: now)
            return
        }
        if snapshotRequested { writeSnapshot(d, now: now) }
        let end = MonotonicInstant.now()
        frameTimes.add(nanoseconds: now.duration(to: drawn ?? end).nanoseconds)
        lastFrameAt = end
        frames += 1
        if d.view.last.phase != shownPhase { phaseChanged(to: d.view.last.phase, now: now) }
        if let max = options.maxFrames, frames >= max {
            log.info("\(frames) frames drawn (--frames): stopping")
            running = false
        }
    }

    /// A `png:` frame and its line. A frame that cannot be written (a full disk) is said once and
    /// skipped; the daemon draws on and writes again when it can.
    private func writeFrame(_ frames: PNGFrames, _ d: ActiveDisplay, now: MonotonicInstant) {
        let extra = snapshotRequested
        snapshotRequested = false
        do {
            let path = try frames.write(d.view.renderer.shadow.buffer, showing: d.view.last,
                                        t: started.duration(to: now).seconds, now: now.seconds, regular: !extra)
            if extra { log.notice("snapshot: \(path)") }
            if pngFailing {
                pngFailing = false
                log.notice("png:\(frames.directory): writing frames again")
            }
        } catch {
            // Said once per failing spell: the message names each frame's file, so it never repeats.
            if !pngFailing { log.error("png:\(frames.directory): \(error); frames are skipped until they can be written") }
            pngFailing = true
        }
    }

    /// The display failed mid-run (unplugged, taken by another master): wait for it again.
    func lose(_ d: ActiveDisplay, _ reason: String, now: MonotonicInstant) {
        d.close()
        log.warning("display \(d.name) lost: \(reason)", topic: "display")
        display = .waiting(reason: reason, retryAt: now.advanced(by: .seconds(1)))
        sendStatus()
    }

    private func displayEvents() {
        guard case .active(let d) = display, case .kms(let output) = d.sink else { return }
        do {
            try output.handleEvents()
        } catch {
            lose(d, "\(error)", now: .now())
        }
    }

    /// Opens the configured output, or keeps waiting for it (said once per distinct reason).
    func tryDisplay(now: MonotonicInstant) {
        let attempt = openDisplay(settings.display, now: now.seconds, log: log) { (w, h, lines) throws(SceneView.SetupError) in
            try makeView(canvasWidth: w, canvasHeight: h, physicalHeight: lines)
        }
        switch attempt {
        case .opened(let d):
            display = .active(d)
            log.clear(topic: "display")
            log.info("output \(d.name): canvas \(d.canvasWidth)x\(d.canvasHeight), scale \(formatNumber(d.view.scale)) px/pt")
            sendStatus()
        case .waiting(let reason, let retry):
            let wasWaiting: Bool
            if case .waiting(let previous, _) = display { wasWaiting = previous == reason } else { wasWaiting = false }
            display = .waiting(reason: reason, retryAt: now.advanced(by: retry))
            log.warning("waiting for display: \(reason)", topic: "display")
            if !wasWaiting { sendStatus() }
        }
    }

    /// A view for a canvas, seeded with the last fix so it tells the same truth as the one before.
    func makeView(canvasWidth: Int, canvasHeight: Int, physicalHeight: Int) throws(SceneView.SetupError) -> SceneView {
        let view = try SceneView(settings: settings, canvasWidth: canvasWidth, canvasHeight: canvasHeight,
                               physicalHeight: physicalHeight, map: map, staleAfter: feed.staleAfter,
                               center: feed.fixedPosition)
        if let lastFix { view.add(lastFix) }
        return view
    }

    // MARK: Fixes

    private func take(_ event: FeedEvent) {
        switch event {
        case .fix(let fix):
            lastFix = fix
            guard case .active(let d) = display, let note = d.view.add(fix) else { return }
            say(note)
        case .log(let level, let text, let topic):
            log.say(level, text, topic: topic)
        }
    }

    func say(_ note: SceneNote) {
        switch note {
        case .rejected(let error):
            log.warning("fix ignored: \(error)", topic: "rejected fix")
        case .centred(let point):
            log.info("map centred on the first fix, \(formatGeoPoint(point))")
        case .leftMap(let point, let mode):
            log.notice("fix \(formatGeoPoint(point)) is outside the map; " + (mode == .hide ? "the dot is hidden until it returns" : "the dot waits at the map's edge"))
        case .backOnMap(let point):
            log.notice("fix \(formatGeoPoint(point)) is on the map again")
        }
    }

    private func phaseChanged(to phase: FixPhase, now: MonotonicInstant) {
        let before = shownPhase
        shownPhase = phase
        switch phase {
        case .live:
            let fix = lastFix.map { " at \(formatGeoPoint(GeoPoint(latitude: $0.latitude, longitude: $0.longitude)))" + ($0.horizontalError.map { " ±\(formatNumber(($0 * 10).rounded() / 10)) m" } ?? "") } ?? ""
            log.notice(before == .nofix ? "first fix\(fix)" : "fix again\(fix): live")
        case .stale:
            log.warning("no fix for \(formatNumber(feed.staleAfter)) s: the dot shows the stale look")
        case .nofix:
            log.info("no fix")
        }
        sendStatus()
    }

    // MARK: Leaving

    private func shutdown() {
        notify { n throws(SyscallError) in try n.stopping(status: "stopping") }
        feed.stop()
        if case .active(let d) = display {
            d.close()
            switch d.sink {
            case .kms, .fbdev: log.info("display released; the console is back")
            default: break
            }
        }
        timer.close()
        log.info("stopped after \(frames) frames")
        notifier?.close()
    }
}
