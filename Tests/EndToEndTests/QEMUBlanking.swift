import Foundation
import TestSupport
import XCTest

/// Night blanking in a guest without waiting for the night: a `blank` span around the guest's
/// clock now, taken by a reload (which looks at the schedule at once).
extension QEMUMachine {
    /// "HH:MM-HH:MM" from the guest's minute now to three minutes later (UTC: the guest has no zone).
    func blankSpanNow() throws -> String {
        let clock = try run("date -u +%H:%M").output.trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: ":").compactMap { Int($0) }
        guard clock.count == 2 else { throw TestFailure("the guest's clock said \(clock)") }
        let start = clock[0] * 60 + clock[1], end = (start + 3) % 1440
        return String(format: "%02d:%02d-%02d:%02d", start / 60, start % 60, end / 60, end % 60)
    }

    /// The connector's DPMS state as sysfs shows it ("On", "Off").
    func dpms(_ connector: String) throws -> String {
        try run("cat /sys/class/drm/\(connector)/dpms").output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
