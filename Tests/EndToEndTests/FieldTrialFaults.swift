import Foundation
import TestSupport

/// Scenarios 3 (fix lost), 5 (line noise) and 4 (gpsd restarted): the receiver and gpsd
/// misbehave; the dot must keep telling the truth.
extension FieldTrial {
    // MARK: 3. Fix lost and back

    /// The receiver reports no fix (GGA quality 0, RMC status V): the dot keeps its live look
    /// until `staleAfter` has passed since the last fix, then takes the stale look in place; when
    /// the fix comes back, the live look returns with the entrance pop. The pop lasts 0.3 s: it is
    /// seen as the ring's disc (which the breath leaves alone) at another size than its steady
    /// one; a return whose pop slipped between two screendumps is tried again, up to three times.
    func fixLost() throws {
        let here = feeder.holdLastFix()
        try waitForDot(.blue, at: here, phase: "live")
        let target = expected(here)
        var steady: [Int] = []
        for _ in 0..<8 {
            let screen = try vm.screendump()
            if screen.findDot(.blue, near: target) != nil { steady.append(screen.discArea(.blue, near: target)) }
            usleep(100_000)
        }
        guard let low = steady.min(), let high = steady.max(), low > 0 else { throw TestFailure("no steady dot before the fix was lost") }
        var tries: [String] = []
        for attempt in 1...3 {
            let lastFixSent = feeder.sent.last(where: { $0.fix != nil })?.time ?? Date()
            feeder.set(.noFix)
            // Stale no sooner than staleAfter after the last fix (gpsd only delays it further).
            let stale = try vm.waitFor("the stale look", timeout: 90, interval: 0.3) { () -> DotSighting? in
                let screen = try vm.screendump()
                let age = Date().timeIntervalSince(lastFixSent)
                let grey = screen.findDot(.stale, near: target)
                if grey != nil, age < Double(Self.staleAfter) - 0.5 {
                    throw TestFailure(String(format: "stale look %.1f s after the last fix, before staleAfter = %d s", age, Self.staleAfter))
                }
                guard let grey, grey.distance(to: target) <= Self.tolerance, screen.findDot(.blue, near: target) == nil,
                      phase(try service()) == "stale" else { return nil }
                return grey
            }
            if attempt == 1 {
                note(String(format: "fix lost: stale look %.1f s after the last fix, %.2f px from it", Date().timeIntervalSince(lastFixSent), stale.distance(to: target)))
            }
            // Back: watch the first second of the live look as closely as the host allows.
            feeder.set(.hold(here))
            var areas: [Int] = []
            var firstBlue: Date?
            var dumps = 0
            let deadline = Date().addingTimeInterval(90)
            while Date() < deadline {
                let screen = try vm.screendump()
                dumps += 1
                if screen.findDot(.blue, near: target, minimum: 1) != nil {
                    firstBlue = firstBlue ?? Date()
                    areas.append(screen.discArea(.blue, near: target))
                }
                if let firstBlue, Date().timeIntervalSince(firstBlue) > 1 { break }
            }
            guard firstBlue != nil else { throw TestFailure("the live look did not come back within 90 s of the fix") }
            try waitForDot(.blue, at: here, phase: "live")
            let popped = areas.filter { Double($0) > Double(high) * 1.15 || Double($0) < Double(low) * 0.85 }
            tries.append("return \(attempt): disc areas \(areas) against steady \(low)…\(high) (\(dumps) screendumps)")
            if !popped.isEmpty {
                note("fix back: live look with the entrance pop (disc \(popped) px against steady \(low)…\(high) px; \(tries.last ?? ""))")
                return
            }
        }
        throw TestFailure("no entrance pop seen when the fix came back:\n" + tries.joined(separator: "\n"))
    }

    // MARK: 5. Garbage on the serial line

    /// Random bytes, sentences cut short, a sentence with a wrong checksum (whose position is 1 km
    /// away), an unknown sentence: first between valid cycles of a standing bus, then alone for
    /// 3 s (less than staleAfter). The dot stays within 2 px of the last valid fix and live; the
    /// daemon is the same process, never restarted.
    func garbage() throws {
        let here = feeder.holdLastFix()
        try waitForDot(.blue, at: here, phase: "live")
        let before = try service()
        let target = expected(here)
        var problems: [String] = []
        var looks = 0
        func watch(seconds: Double) throws {
            let until = Date().addingTimeInterval(seconds)
            while Date() < until {
                let screen = try vm.screendump()
                looks += 1
                if let seen = screen.findDot(.blue, near: target) {
                    if seen.distance(to: target) > Self.tolerance {
                        problems.append(String(format: "dot %@ %.1f px from the last valid fix", seen.description, seen.distance(to: target)))
                    }
                } else {
                    problems.append("no live dot (screendump \(vm.keep(screen, as: "garbage-\(looks)")))")
                }
                usleep(200_000)
            }
        }
        feeder.set(.garbage(here, validEvery: 2))
        try watch(seconds: 12)
        feeder.set(.garbage(here, validEvery: 0))
        try watch(seconds: 3)
        feeder.set(.hold(here))
        try watch(seconds: 2)
        let after = try service()
        guard problems.isEmpty else { throw TestFailure("under line noise:\n" + problems.prefix(10).joined(separator: "\n")) }
        guard after["MainPID"] == before["MainPID"], after["NRestarts"] == before["NRestarts"],
              after["ActiveState"] == "active", phase(after) == "live" else {
            throw TestFailure("the daemon did not keep running and live: before \(before), after \(after)")
        }
        try waitForDot(.blue, at: here, phase: "live")
        note("garbage: \(looks) screendumps, the dot stayed within \(Self.tolerance) px and live; same pid \(after["MainPID"] ?? "?"); gpsd \(try vm.run("systemctl is-active gpsd").output.trimmingCharacters(in: .whitespacesAndNewlines))")
    }

    // MARK: 4. gpsd stopped and started

    /// gpsd (service and socket) stopped in the guest: the daemon notices and says so; started
    /// again: the daemon reconnects by itself (same process) and the dot goes live again.
    func gpsdRestart() throws {
        let here = feeder.holdLastFix()
        try waitForDot(.blue, at: here, phase: "live")
        let pid = try mainPID()
        let since = try guestNow()
        try vm.must("systemctl stop gpsd.socket gpsd.service")
        let lost = try vm.waitFor("the daemon noticing that gpsd is gone", timeout: 90, interval: 1) { () -> String? in
            let lines = try journal(since: since).split(separator: "\n")
            return lines.first { $0.contains("gpsd") && ($0.contains("lost") || $0.contains("unreachable") || $0.contains("refused")) }.map(String.init)
        }
        try vm.must("systemctl start gpsd.socket gpsd.service")
        let started = try guestNow()
        let back = try vm.waitFor("the daemon reconnecting to gpsd", timeout: 120, interval: 1) { () -> String? in
            try journal(since: started).split(separator: "\n").first { $0.contains("connected to gpsd") }.map(String.init)
        }
        try waitForDot(.blue, at: here, phase: "live", timeout: 120)
        guard try mainPID() == pid else { throw TestFailure("the daemon was restarted (pid \(pid) → \(try mainPID())) instead of reconnecting") }
        note("gpsd restart: \"\(lost)\" … \"\(back)\"; live again, same pid \(pid)")
    }
}
