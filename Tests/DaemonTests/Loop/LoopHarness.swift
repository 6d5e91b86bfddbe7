import Backlight
import Config
@testable import Daemon
import DisplayCore
import Glibc
import Loop
import Outputs
import Positioning
import Syscall
@testable import Systemd
import XCTest

/// One daemon loop on virtual time with in-memory doubles at every seam: displays, a scripted
/// source, a configuration text the test can change, and systemd's socket (a real datagram
/// socket the test reads). Log lines are kept with the virtual time they were written at.
final class LoopHarness {
    let waiting = VirtualWaiting()
    /// The displays handed out, in order.
    private(set) var displays: [MemoryDisplay] = []
    /// While set, opening the display fails with it (only when a mode is configured, when
    /// `displayUnavailableUnlessAutoMode`: a monitor that offers its own modes but not that one).
    var displayUnavailable: DisplayOpener.Unavailable?
    var displayUnavailableUnlessAutoMode = false
    /// The `[display] mode` each open asked for ("auto" for none).
    private(set) var openedModes: [String] = []
    private(set) var openAttempts: [Double] = []
    private(set) var sources: [ScriptedSource] = []
    /// What SIGHUP reads.
    var configText: String
    private(set) var lines: [(t: Double, text: String)] = []
    private var receiver: FileDescriptor?
    private(set) var notifications: [(t: Double, text: String)] = []
    let socketName = "@pulsedot-loop-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    /// The wall clock at virtual time 0 (2027-01-15 08:00 UTC); it runs with virtual time.
    static let wallStart = 1_800_000_000.0
    /// The local time zone: minutes after local midnight at a wall-clock time (UTC unless a test
    /// gives its own, with a daylight-saving change for instance).
    var localMinuteOfDay: (Double) -> Int = { wall in Int((wall / 60).rounded(.down)) % 1440 }
    let hotplug = ScriptedHotplug()
    /// Where the backlight's rounds go; nil: a root with nothing in it.
    var backlight: (any BacklightPort)?

    /// A uevent `action` for `devpath` (a DRM device) arriving at `seconds`; nil: lost ones.
    func uevent(_ action: String?, _ devpath: String = "/devices/pci0000:00/0000:00:02.0/drm/card0", at seconds: Double) {
        waiting.at(seconds) { [unowned self] in
            if let action {
                hotplug.queue(.event(Uevent(action: action, devpath: devpath, properties: ["SUBSYSTEM": "drm", "ACTION": action])))
            } else {
                hotplug.queue(.overflow)
            }
            waiting.hotplugPending = true
        }
    }

    init(config: String, watchdogUsec: String? = nil) throws {
        configText = config
        if let watchdogUsec {
            let fd = try FileDescriptor.unixDatagramSocket(name: "test systemd")
            try fd.bind(to: UnixSocketAddress(socketName))
            receiver = fd
            self.watchdogUsec = watchdogUsec
        }
    }

    private var watchdogUsec: String?

    var display: MemoryDisplay? { displays.last }
    var source: ScriptedSource { sources.last! }

    /// Runs the loop until it stops (SIGTERM from the script, or the virtual time limit); returns
    /// its exit code.
    func run(maxFrames: Int? = nil) throws -> Int32 {
        let configuration = try Configuration.parse(configText, file: "test.conf")
        let log = Journal(level: .debug) { [unowned self] line in
            lines.append((waiting.elapsed, String(line.dropLast())))
            collectNotifications()
        }
        let notifier = try watchdogUsec.flatMap {
            try SystemdNotifier(notifySocket: socketName, watchdogUsec: $0, watchdogPid: nil, pid: getpid())
        }
        let environment = LoopEnvironment(
            waiting: waiting,
            openDisplay: { [unowned self] settings, _ in
                openAttempts.append(waiting.elapsed)
                openedModes.append(settings.mode?.description ?? "auto")
                if let displayUnavailable, !(displayUnavailableUnlessAutoMode && settings.mode == nil) { return .failure(displayUnavailable) }
                let d = MemoryDisplay()
                displays.append(d)
                return .success(d)
            },
            makeSource: { [unowned self] (settings, _, emit) throws(SourceSetupError) in
                let s = ScriptedSource(staleAfter: settings.staleAfter, emit: emit)
                sources.append(s)
                return s
            },
            loadConfiguration: { [unowned self] () throws(ConfigurationError) in try Configuration.parse(configText, file: "test.conf") },
            notifier: notifier,
            wallClock: { [unowned self] in Self.wallStart + waiting.elapsed },
            localMinuteOfDay: { [unowned self] in localMinuteOfDay($0) },
            hotplug: hotplug,
            makeBacklight: { [unowned self] () throws(SyscallError) in
                backlight ?? InlineBacklight(root: "/nonexistent", clock: { 0 })
            },
            // Inline: the loop finds the outcome at its next turn, at a virtual time the script knows.
            runTransitJob: { job in
                job()
                return true
            })
        waiting.onWait = { [unowned self] in collectNotifications() }
        let daemon = try RunDaemon(configuration: configuration, options: .init(maxFrames: maxFrames),
                                   environment: environment, log: log)
        let code = daemon.run()
        collectNotifications()
        receiver?.close()
        return code
    }

    private func collectNotifications() {
        guard let receiver else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while let n = (try? buffer.withUnsafeMutableBytes({ try receiver.receive(into: $0) })) ?? nil {
            notifications.append((waiting.elapsed, String(decoding: buffer[0..<n], as: UTF8.self)))
        }
    }

    /// Log lines containing `text`, with their virtual times.
    func logged(_ text: String) -> [Double] { lines.filter { $0.text.contains(text) }.map(\.t) }

    func notified(_ prefix: String) -> [Double] { notifications.filter { $0.text.hasPrefix(prefix) }.map(\.t) }

    var log: String { lines.map { String(format: "%8.3f %@", $0.t, $0.text) }.joined(separator: "\n") }
}
