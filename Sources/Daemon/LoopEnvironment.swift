import Backlight
import Config
import DisplayCore
import Loop
import Outputs
import Positioning
import Syscall
import Systemd

/// Everything the loop touches outside itself, passed in: how it waits (and the clock), where
/// displays and positions come from, how the configuration is read again, and systemd. The
/// daemon's is `system(…)`; tests pass virtual time and in-memory displays and sources.
public struct LoopEnvironment {
    public var waiting: any LoopWaiting
    /// Opens what `[display]` names at monotonic second `now`, not yet started.
    public var openDisplay: (_ settings: DisplaySettings, _ now: Double) -> Result<any Display, DisplayOpener.Unavailable>
    /// Builds the configured source, not yet started.
    public var makeSource: (_ settings: SourceSettings, _ now: MonotonicInstant,
                            _ emit: @escaping (FeedEvent) -> Void) throws(SourceSetupError) -> any PositionSource
    /// Reads the configuration again (SIGHUP).
    public var loadConfiguration: () throws(ConfigurationError) -> Configuration
    /// systemd's notification socket; nil when not run by systemd.
    public var notifier: SystemdNotifier?
    /// Where SIGUSR1 snapshots of a panel go.
    public var snapshotDirectory: String
    /// Seconds since the Unix epoch, for the times the metrics file states and the blanking
    /// schedule is read at.
    public var wallClock: () -> Double
    /// Minutes after local midnight at a wall-clock time: the blanking schedule's clock.
    public var localMinuteOfDay: (Double) -> Int
    /// Displays coming and going; nil: not heard (the display is found again only by retrying).
    public var hotplug: (any HotplugEvents)?
    /// Starts what reads and writes the backlight and the light sensor, when brightness is first
    /// driven: a worker thread over /sys, or over a folder shaped like it.
    public var makeBacklight: () throws(SyscallError) -> any BacklightPort
    /// Runs a transit job (a feed's import, a trip's loading) away from the loop; false when it
    /// cannot be queued. The daemon's: a worker thread of its own, started at the first job, so
    /// a long import never holds up the shared worker's other jobs. Tests run it inline.
    public var runTransitJob: (@escaping @Sendable () -> Void) -> Bool

    public init(waiting: any LoopWaiting,
                openDisplay: @escaping (DisplaySettings, Double) -> Result<any Display, DisplayOpener.Unavailable>,
                makeSource: @escaping (SourceSettings, MonotonicInstant, @escaping (FeedEvent) -> Void) throws(SourceSetupError) -> any PositionSource,
                loadConfiguration: @escaping () throws(ConfigurationError) -> Configuration,
                notifier: SystemdNotifier? = nil, snapshotDirectory: String = ".",
                wallClock: @escaping () -> Double = { WallClock.now() },
                localMinuteOfDay: @escaping (Double) -> Int = { LocalTime.minuteOfDay($0) },
                hotplug: (any HotplugEvents)? = nil,
                makeBacklight: @escaping () throws(SyscallError) -> any BacklightPort = { () throws(SyscallError) in try BacklightWorker(sysfs: Sysfs()) },
                runTransitJob: @escaping (@escaping @Sendable () -> Void) -> Bool = TransitWorker().run) {
        self.waiting = waiting
        self.openDisplay = openDisplay
        self.makeSource = makeSource
        self.loadConfiguration = loadConfiguration
        self.notifier = notifier
        self.snapshotDirectory = snapshotDirectory
        self.wallClock = wallClock
        self.localMinuteOfDay = localMinuteOfDay
        self.hotplug = hotplug
        self.makeBacklight = makeBacklight
        self.runTransitJob = runTransitJob
    }

    /// The daemon's own: poll on the signalfd, the real displays, gpsd/fixed/replay, the file at
    /// `options.configPath`, `$NOTIFY_SOCKET`, `$STATE_DIRECTORY`. `signals` must already block
    /// `RunDaemon.handledSignals` (before any thread exists).
    public static func system(signals: SignalDescriptor, options: RunDaemon.Options, log: Journal) -> LoopEnvironment {
        let opener = DisplayOpener(settings: DisplaySettings(), log: log)
        var notifier: SystemdNotifier?
        do {
            notifier = try SystemdNotifier.fromEnvironment()
        } catch {
            log.warning("systemd notification off: \(error)")
        }
        var hotplug: KernelHotplug?
        do {
            hotplug = try KernelHotplug()
        } catch {
            log.warning("display hot-plug not heard (\(error)): an unplugged display is noticed only when it fails")
        }
        return LoopEnvironment(
            waiting: PollWaiting(signals: signals),
            openDisplay: { settings, now in
                opener.settings = settings
                return opener.open(now: now)
            },
            makeSource: { (settings, now, emit) throws(SourceSetupError) in try makePositionSource(settings, now: now, emit: emit) },
            loadConfiguration: { () throws(ConfigurationError) in try Configuration.load(path: options.configPath, overrides: options.overrides) },
            notifier: notifier,
            snapshotDirectory: stateDirectory(),
            hotplug: hotplug,
            makeBacklight: { () throws(SyscallError) in try BacklightWorker(sysfs: Sysfs.fromEnvironment()) })
    }

    /// systemd's `$STATE_DIRECTORY` (the unit's `StateDirectory=pulsedot`, /var/lib/pulsedot: the
    /// one place the service may write), else the current directory. Several state directories
    /// are separated by colons; the first is ours.
    static func stateDirectory() -> String {
        guard let value = Environment.value("STATE_DIRECTORY"), !value.isEmpty else { return "." }
        return String(value.split(separator: ":").first ?? Substring(value))
    }
}
