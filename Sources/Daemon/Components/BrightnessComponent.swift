import Config
import Syscall
import Systemd

/// The backlight after the light sensor or the time of day (BrightnessControl.swift).
final class BrightnessComponent: RunComponent {
    let name = "brightness"
    private let owner: DaemonReference

    init(_ daemon: RunDaemon) { owner = DaemonReference(daemon) }

    func configure(old: Settings?, new: Settings, now: MonotonicInstant) {
        owner.daemon.brightness.configure(new.display.brightness, now: now)
    }

    var deadline: MonotonicInstant? { owner.daemon.brightness.nextLook }

    func turnEnded(now: MonotonicInstant) {
        let daemon = owner.daemon
        guard let due = daemon.brightness.nextLook, now >= due else { return }
        let environment = daemon.environment
        daemon.brightness.look(now: now, minuteOfDay: environment.localMinuteOfDay(environment.wallClock()), dark: daemon.blanking.blanked,
                               log: daemon.log)
    }
}
