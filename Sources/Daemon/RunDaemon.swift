import Config
import DisplayCore
import GPSD
import Geo
import Location
import Loop
import Outputs
import Positioning
import Raster
import Scene
import Syscall
import Systemd
import TileMap

/// `pulsedot run`: the `FrameLoop` `show` also runs, over the frame timer, the display's flip
/// events, the position source, the signals and the deadlines (gpsd retries and timeouts, replay
/// pacing, the systemd watchdog, display retries, the summary line), all through its
/// `LoopEnvironment`; what run plugs in is in RunFrameLoop.swift. After warm-up a frame allocates
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

    let options: Options
    let log: Journal
    let environment: LoopEnvironment
    var waiting: any LoopWaiting { environment.waiting }
    var notifier: SystemdNotifier? { environment.notifier }
    var watchdog: WatchdogCadence?
    /// A due ping was withheld because no frames are being drawn: until one is, the next frame
    /// (not the watchdog's deadline) is what wakes the loop.
    var watchdogWithheld = false
    var configuration: Configuration { didSet { reloads.generation += 1 } }
    /// The configuration as read, before a file it names was left out: what a retry opens again.
    var loaded: Configuration
    var settings: Settings { configuration.settings }
    var source: (any PositionSource)!
    var map: OpenedMap
    var display: DisplayLifecycle
    var lastFix: Fix?
    /// While a reload reopens the display: the view whose dot the new one goes on from.
    var dotCarried: SceneView?
    let started: MonotonicInstant
    let counters: LoopCounters
    var shownPhase: FixPhase = .nofix
    var snapshotRequested = false
    public internal(set) var running = true
    /// READY=1 was sent: STATUS updates before it would only be noise.
    var announced = false
    let presentation = PresentationTracker()
    let reloads = ReloadCounts()
    let metricsFile: MetricsFile
    let blanking: NightBlanking
    let brightness: BrightnessControl
    /// The display last driven (name, mode), for the metrics' info while none is.
    var lastDriven: (name: String, mode: String)?
    /// The feed and trip, loaded off the loop, and the vehicle's progress along the trip.
    let transit = TransitFollower()
    /// A stop kiosk's feeds, board, lines and markers.
    let kiosk = KioskScreen()
    /// The features, in the order they are configured (each after those it reads): configured
    /// alike at start and at every reload taken, woken each turn, stopped in reverse order.
    private(set) var components: [any RunComponent] = []

    /// Sets everything up: the source, the map, the frame timer. Nothing is opened or started
    /// until `run()`.
    public init(configuration: Configuration, options: Options, environment: LoopEnvironment, log: Journal) throws(SetupError) {
        self.options = options
        self.environment = environment
        self.log = log
        HeapPolicy.returnLargeBuffersWhenFreed()
        log.level = configuration.settings.log.level
        for note in configuration.notes { log.notice(note) }
        // The files the settings name first: a tile set that cannot be taken stops the start at
        // once, in the same line check-config gives, rather than after waiting for a display.
        var settled = configuration
        map = try Self.openFiles(&settled.settings, log: log)
        self.configuration = settled
        loaded = configuration
        watchdog = environment.notifier?.watchdogInterval.map { WatchdogCadence(interval: $0) }
        let now = environment.waiting.now()
        started = now
        counters = LoopCounters(now: now, summaryEvery: configuration.settings.log.summaryEvery)
        display = DisplayLifecycle(now: now)
        metricsFile = MetricsFile(settings: configuration.settings.metrics, now: now)
        blanking = NightBlanking(settings: configuration.settings.display.blanking, now: now)
        brightness = BrightnessControl(settings: configuration.settings.display.brightness, now: now, makePort: environment.makeBacklight)
        do { try environment.waiting.setFrameRate(configuration.settings.display.fps) } catch { throw SetupError(error) }
        do { source = try makeSource(configuration.settings.source, now: now) } catch { throw SetupError(error) }
        components = [MapComponent(self), TripFileComponent(self), RealtimeTripComponent(self), TransitComponent(self), KioskComponent(self),
                      MetricsComponent(self), BlankingComponent(self), BrightnessComponent(self)]
    }

    /// Every component takes `settings`: at start (`old` nil) and after each reload taken.
    func configureComponents(old: Settings?, now: MonotonicInstant) {
        for component in components { component.configure(old: old, new: settings, now: now) }
    }

    /// Why the daemon cannot start, or a reload cannot take: the failing part's own line.
    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
        init<E: Error & CustomStringConvertible>(_ error: E) { description = error.description }
    }

    /// PNG frames are a record to compare: each waits for the tiles it shows. A screen never waits.
    static func waitsForTiles(_ display: DisplaySettings) -> Bool {
        if case .png = display.output { return true }
        return false
    }

    /// A tiled map's summary, once per view.
    func announceMap(of view: SceneView) {
        if let tiles = view.tiles { log.info(tiles.summary) }
        for note in view.takeNotes() { log.warning(note) }
    }

    /// The map as the daemon holds it: its files opened and its image decoded, at start and at
    /// each reload; or, when its file cannot be read, left out (the dot on the background colour).
    struct OpenedMap {
        var files: MapFiles
        var image: MapImage?
        var leftOut: MapFiles.LeftOut?
    }

    /// Decodes the dot's images into `settings`, opens the map's files (settling what they
    /// decide there, such as a tiled map's zoom) and decodes the map image. A map file that cannot
    /// be read is left out of `settings` and said in the result, never refused: the screen comes
    /// up without it.
    static func openFiles(_ settings: inout Settings, log: Journal) throws(SetupError) -> OpenedMap {
        do { try DotImages.load(&settings) } catch { throw SetupError(error) }
        let opened: (files: MapFiles, leftOut: MapFiles.LeftOut?)
        do { opened = try MapFiles.openOrLeaveOut(&settings) } catch { throw SetupError(error) }
        guard let path = settings.map.imagePath else { return OpenedMap(files: opened.files, image: nil, leftOut: opened.leftOut) }
        do {
            let image = try MapImage(path: path, background: settings.map.background)
            log.info(image.summary)
            return OpenedMap(files: opened.files, image: image, leftOut: nil)
        } catch {
            settings.map.imagePath = nil
            return OpenedMap(files: MapFiles(), image: nil, leftOut: MapFiles.LeftOut(path: path, reason: settings.failure("map.image", "\(error)").description, missing: false))
        }
    }

    func makeSource(_ settings: SourceSettings, now: MonotonicInstant) throws(SourceSetupError) -> any PositionSource {
        // Not retained: the daemon owns its source, which never outlives it (a replaced source
        // is stopped and dropped), and Embedded Swift has neither weak nor unowned references.
        let daemon = Unmanaged.passUnretained(self)
        return try environment.makeSource(settings, now) { event in daemon.takeUnretainedValue().take(event) }
    }

    // MARK: The loop

    /// Runs until SIGTERM/SIGINT (or `--frames`); returns the exit code.
    public func run() -> Int32 {
        let now = waiting.now()
        log.info("pulsedot \(PulseDotVersion.string) running: source \(source.name), output \(outputSetting), composition \(settings.display.composition.rawValue), \(formatNumber(settings.display.fps)) fps; configuration \(configuration.file ?? "defaults")")
        source.start(now: now)
        // Before the display: started inside a blanking span, the screen is not lit even for a moment.
        configureComponents(old: nil, now: now)
        if !blanking.blanked { tryDisplay(now: now) }
        notify { n throws(SyscallError) in try n.ready(status: statusText()) }
        announced = true
        do {
            try FrameLoop(waiting: waiting).run(self)
        } catch {
            log.error("\(error)")
            shutdown()
            return 1
        }
        shutdown()
        return 0
    }

    /// The display failed mid-run (unplugged, taken by another master): wait for it again.
    func lose(_ reason: String, now: MonotonicInstant) {
        let name = (display.driven ?? display.parked)?.displayName ?? ""
        // A display that was driven a moment ago is likely back soon (a replug, a master let go).
        display.lose(reason, retryAt: now.advanced(by: .seconds(1)))
        log.warning("display \(name) lost: \(reason)", topic: "display")
        sendStatus()
    }

    /// Opens the configured output (or `displaySettings`) and starts it, or keeps waiting for it
    /// (said once per distinct reason); returns why not, or nil when it is driven.
    @discardableResult
    func tryDisplay(now: MonotonicInstant, with displaySettings: DisplaySettings? = nil) -> String? {
        let opened = environment.openDisplay(displaySettings ?? settings.display, now.seconds).flatMap { display in
            DrivenDisplay.start(display, now: now.seconds) { (w, h, lines) throws(SceneView.SetupError) in
                try makeView(canvasWidth: w, canvasHeight: h, physicalHeight: lines)
            }
        }
        switch opened {
        case .success(let d):
            display.drive(d)
            transitRouteShown()
            log.clear(topic: "display")
            log.info("output \(d.displayName): canvas \(d.canvasWidth)x\(d.canvasHeight), scale \(formatNumber(d.view.scale)) px/pt, \(d.compositionPhrase)")
            sendStatus()
            return nil
        case .failure(let unavailable):
            let news = display.wait(unavailable.description, retryAt: now.advanced(by: unavailable.recovery.retryDelay))
            log.warning("waiting for display: \(unavailable.description)", topic: "display")
            if news { sendStatus() }
            return unavailable.description
        }
    }

    /// The one way a view is made for a canvas: at start, at a reload, after the night.
    static func sceneView(settings: Settings, map: OpenedMap, source: any PositionSource, canvasWidth: Int, canvasHeight: Int,
                          physicalHeight: Int) throws(SceneView.SetupError) -> SceneView {
        try SceneView(settings: settings, files: map.files, canvasWidth: canvasWidth, canvasHeight: canvasHeight, physicalHeight: physicalHeight,
                      map: map.image, staleAfter: source.staleAfter, center: source.fixedPosition,
                      waitForTiles: waitsForTiles(settings.display))
    }

    /// A view for a canvas, seeded with the last fix so it tells the same truth as the one before.
    func makeView(canvasWidth: Int, canvasHeight: Int, physicalHeight: Int) throws(SceneView.SetupError) -> SceneView {
        let view = try Self.sceneView(settings: settings, map: map, source: source,
                                      canvasWidth: canvasWidth, canvasHeight: canvasHeight, physicalHeight: physicalHeight)
        if let dotCarried { view.continueDot(from: dotCarried) }
        // A fix that came before the view (a fixed position's only one) is said to be off the
        // map here, or never: nothing else will say why no dot is drawn.
        if let lastFix, let note = view.add(lastFix), case .leftMap = note { say(note) }
        announceMap(of: view)
        return view
    }

    // MARK: Leaving

    private func shutdown() {
        notify { n throws(SyscallError) in try n.stopping(status: "stopping") }
        for component in components.reversed() { component.stop() }
        source.stop()
        if let d = display.driven ?? display.parked {
            d.close()
            log.info("display released; the console is back")
        }
        waiting.close()
        log.info("stopped after \(counters.frames) frames")
        notifier?.close()
    }
}
