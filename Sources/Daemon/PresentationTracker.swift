import DisplayCore
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

    /// Takes what `display` counts now; each frame newly shown gives `counters` its share of the
    /// display's wait.
    func observe(_ display: (any Display)?, now: MonotonicInstant, counters: LoopCounters) {
        guard let display else {
            current = nil
            return
        }
        let id = ObjectIdentifier(display as AnyObject)
        let count = display.presentation
        // A new display, or one at a recycled address whose count restarted.
        if id != current || count.presented < seen.presented {
            current = id
            seen = PresentationCount()
        }
        let waited = max(count.waitedNanoseconds - seen.waitedNanoseconds, 0)
        waitedNanoseconds &+= waited
        if count.presented > seen.presented {
            let shown = count.presented - seen.presented
            presented &+= shown
            lastPresentedAt = now
            // A display that waits reports it per frame shown; several at once share it.
            if waited > 0 || count.waitedNanoseconds > 0 {
                for _ in 0..<min(shown, 4) { counters.displayWaited(waited / Int64(shown)) }
            }
        }
        seen = count
    }
}
