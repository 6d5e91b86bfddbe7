import Config
import Syscall

/// Whether the screen is off for the night, and when to look again. The schedule is in local
/// time, so it is read each minute from the wall clock as the C library turns it into a time of
/// day: a daylight-saving change, or the clock being set at boot (NTP, the GPS), takes effect at
/// the next minute without any arithmetic on time zones here.
final class NightBlanking {
    private(set) var settings: BlankingSettings
    var blanked = false
    /// When to read the time of day next; nil: no schedule.
    private(set) var nextCheck: MonotonicInstant?
    /// The display that was switched off: one opened later (a reload) must be switched off too.
    var darkDisplay: ObjectIdentifier?
    /// Commands started and not reaped yet.
    var commands: [ShellCommand] = []

    init(settings: BlankingSettings, now: MonotonicInstant) {
        self.settings = settings
        nextCheck = settings.schedule.spans.isEmpty ? nil : now
    }

    /// New settings (a reload): looked at at once.
    func configure(_ new: BlankingSettings, now: MonotonicInstant) {
        guard new != settings else { return }
        settings = new
        nextCheck = new.schedule.spans.isEmpty && !blanked ? nil : now
    }

    /// The next check just after the next minute of the wall clock begins (also while an edge
    /// command is still to be reaped, the schedule emptied by a reload or not).
    func scheduleNext(now: MonotonicInstant, wall: Double) {
        guard !settings.schedule.spans.isEmpty || blanked || !commands.isEmpty else {
            nextCheck = nil
            return
        }
        let intoMinute = wall - (wall / 60).rounded(.down) * 60
        nextCheck = now.advanced(by: .nanoseconds(Int64(((60 - intoMinute) * 1e9).rounded()) + 1_000_000))
    }
}
