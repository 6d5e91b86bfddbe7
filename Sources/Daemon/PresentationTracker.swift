import Display
import Syscall

/// Frames presented over the whole run, across displays: each display counts from zero, and a
/// display reopened after a loss or a reload is a new one. Also when the count last moved, which
/// is when the screen last really changed. Called once per loop iteration, so it only compares
/// and adds.
final class PresentationTracker {
    private(set) var presented: UInt64 = 0
    private(set) var waitedNanoseconds: Int64 = 0
    /// When a completed presentation was last seen; nil: never.
    private(set) var lastPresentedAt: MonotonicInstant?
    private var current: ObjectIdentifier?
    private var seen = PresentationCount()

    func observe(_ display: (any Display)?, now: MonotonicInstant) {
        guard let display else {
            current = nil
            return
        }
        let id = ObjectIdentifier(display)
        let count = display.presentation
        // A new display, or one at a recycled address whose count restarted.
        if id != current || count.presented < seen.presented {
            current = id
            seen = PresentationCount()
        }
        if count.presented > seen.presented {
            presented &+= count.presented - seen.presented
            lastPresentedAt = now
        }
        if count.waitedNanoseconds > seen.waitedNanoseconds { waitedNanoseconds &+= count.waitedNanoseconds - seen.waitedNanoseconds }
        seen = count
    }
}
