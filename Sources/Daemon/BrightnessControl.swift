import Backlight
import Config
import Glibc
import Syscall
import Systemd

/// The backlight in the loop: once a second (never in a frame) the answers of the last round
/// with the hardware are taken, the level for this moment is worked out, and the next round is
/// handed to the backlight's worker thread: read the sensor, write the level when its whole
/// percent changed. A problem (no backlight, an attribute the sandbox keeps read-only, a sensor
/// gone) is said once, its end once; the dot is drawn all along.
final class BrightnessControl {
    private(set) var settings: BrightnessSettings
    private var plan: BrightnessPlan
    private let makePort: () throws(SyscallError) -> any BacklightPort
    private var port: (any BacklightPort)?
    /// When to look next; nil: the backlight is not driven.
    private(set) var nextLook: MonotonicInstant?
    /// A round handed to the worker and not answered yet, and since when.
    private var askedAt: MonotonicInstant?
    private var lux: Double?
    /// The level last written, in whole percent; nil: none yet, or to be written again.
    private(set) var written: Int?
    /// After a failed write or no backlight, when to try again.
    private var retryAt: MonotonicInstant?
    private var failing: Set<String> = []
    /// The first level written was said (which backlight is driven, once).
    private var announced = false

    static let period = Duration.seconds(1)
    static let retryPeriod = Duration.seconds(10)
    /// A round not answered in this time is said to hang (a sensor's bus stuck).
    static let patience = Duration.seconds(10)

    init(settings: BrightnessSettings, now: MonotonicInstant, makePort: @escaping () throws(SyscallError) -> any BacklightPort) {
        self.settings = settings
        self.makePort = makePort
        plan = BrightnessPlan(settings: settings)
        nextLook = settings.isActive ? now : nil
    }

    /// New settings (a reload): the new level is taken at once, without smoothing from the old.
    func configure(_ new: BrightnessSettings, now: MonotonicInstant) {
        guard new != settings else { return }
        if new.backlight != settings.backlight { written = nil }
        settings = new
        plan = BrightnessPlan(settings: new)
        retryAt = nil
        nextLook = new.isActive ? now : nil
    }

    /// The screen came back after the night: whatever a blankCommand did to the backlight, the
    /// level is written again.
    func screenBack() { written = nil }

    func look(now: MonotonicInstant, minuteOfDay: Int, dark: Bool, log: Journal) {
        guard let due = nextLook, now >= due else { return }
        nextLook = now.advanced(by: Self.period)
        guard let port = startedPort(log: log) else { return }
        for answer in port.takeAnswers() { take(answer, now: now, log: log) }
        if let askedAt {
            if askedAt.duration(to: now) >= Self.patience {
                say("worker", "brightness: the backlight or light sensor has not answered for \(formatNumber(Self.patience.seconds)) s; still waiting", log: log)
            }
            return
        }
        // While the screen is off the backlight is left to the blanking (and a blankCommand).
        guard !dark, let target = BrightnessPlan.target(settings, minuteOfDay: minuteOfDay, lux: lux) else { return }
        let level = plan.advance(toward: target, at: Double(now.nanoseconds) / 1e9)
        let retrying = retryAt.map { now < $0 } ?? false
        let write = level != written && !retrying ? level : nil
        guard write != nil || settings.level == .ambient else { return }
        let request = BacklightRequest(backlight: settings.backlight, readSensor: settings.level == .ambient,
                                       sensor: settings.ambientSensor, percent: write)
        if port.submit(request) { askedAt = now }
    }

    private func startedPort(log: Journal) -> (any BacklightPort)? {
        if let port { return port }
        do {
            port = try makePort()
        } catch {
            say("worker", "brightness: no thread for the backlight (\(error)); trying again", log: log)
        }
        return port
    }

    private func take(_ answer: BacklightAnswer, now: MonotonicInstant, log: Journal) {
        askedAt = nil
        settled("worker", log: log, back: "brightness: the backlight and light sensor answer again")
        switch answer.device {
        case .failure(let problem):
            // A backlight that went (its driver unbound) starts from its own level when it is back.
            written = nil
            retryAt = now.advanced(by: Self.retryPeriod)
            say("device", "brightness: \(problem); the backlight is left as it is, looking again every \(formatNumber(Self.retryPeriod.seconds)) s", log: log)
        case .success(let device):
            settled("device", log: log, back: "brightness: backlight \(device.name) found (max_brightness \(device.maxBrightness))")
        }
        switch answer.light {
        case .failure(let problem)?:
            say("sensor", "brightness: light sensor: \(problem); \(lux == nil ? "the curve's brightest level" : "the last level") holds until it can be read", log: log)
        case .success(let reading)?:
            lux = reading.lux
            settled("sensor", log: log, back: "brightness: light sensor \(reading.sensor) read again")
        case nil: break
        }
        switch answer.written {
        case .success(let percent)?:
            written = percent
            retryAt = nil
            if !announced, case .success(let device) = answer.device {
                announced = true
                log.info("brightness: backlight \(device.name) (max_brightness \(device.maxBrightness)) set to \(percent) %")
            }
            settled("write", log: log, back: "brightness: the backlight is written again (\(percent) %)")
        case .failure(let problem)?:
            written = nil
            retryAt = now.advanced(by: Self.retryPeriod)
            say("write", "brightness: cannot write the level: \(problem)\(Self.hint(problem)); trying again every \(formatNumber(Self.retryPeriod.seconds)) s, the dot is drawn all along", log: log)
        case nil: break
        }
    }

    /// What to do about an attribute the service may not write.
    static func hint(_ problem: BacklightProblem) -> String {
        switch problem.errno {
        case EROFS?: return " (under the unit's ProtectKernelTunables=yes /sys is read-only: install the drop-in `pulsedot backlight --drop-in` prints)"
        case EACCES?, EPERM?: return " (the udev rule gives the pulsedot group write permission: udevadm trigger --subsystem-match=backlight --action=add)"
        default: return ""
        }
    }

    private func say(_ part: String, _ line: String, log: Journal) {
        if failing.insert(part).inserted { log.warning(line) }
    }

    private func settled(_ part: String, log: Journal, back: String?) {
        guard failing.remove(part) != nil else { return }
        if let back { log.notice(back) }
    }

    /// The level last written, for the metrics; nil: the backlight is not driven, or not yet.
    var percentShown: Int? { settings.isActive ? written : nil }
}
