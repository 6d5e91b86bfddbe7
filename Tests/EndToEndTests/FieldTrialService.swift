import Foundation
import PNG
import TestSupport

/// Scenarios 6 (reload), 7 (watchdog) and 8 (stop): the unit as shipped, driven with systemctl;
/// the console coming back, which the apt scenario's removal checks too.
extension FieldTrial {
    /// Replaces /etc/pulsedot/pulsedot.conf in the guest.
    func writeConfiguration(_ text: String) throws {
        try vm.must("printf '%s' '\(Data(text.utf8).base64EncodedString())' | base64 -d > /etc/pulsedot/pulsedot.conf")
    }

    // MARK: 6. Reload

    /// `systemctl reload` with a new colour: the screen shows it, same process. With a broken
    /// file (a bad `fps`, beside a colour change that must not be half-applied): the reload
    /// fails, the journal says which line and why, the old look stays; a SIGHUP sent straight to
    /// the daemon with that file is refused by the daemon itself too. Then the first file again.
    func reload() throws {
        let here = feeder.holdLastFix()
        try waitForDot(.blue, at: here, phase: "live")
        let pid = try mainPID()
        let target = expected(here)

        try writeConfiguration(route.configuration(color: Self.reloadColor, staleAfter: Self.staleAfter))
        let good = try vm.run("systemctl reload pulsedot")
        guard good.status == 0 else { throw TestFailure("systemctl reload with a good file failed (\(good.status)): \(good.output)") }
        let red = try waitForDot(.red, at: here, phase: "live")
        guard try vm.screendump().findDot(.blue, near: target) == nil else { throw TestFailure("the old colour is still on screen beside the new one") }

        let broken = route.configuration(color: "#34C759", staleAfter: Self.staleAfter).replacingOccurrences(of: "fps = 30", with: "fps = sixty")
        try writeConfiguration(broken)
        let since = try guestNow()
        let bad = try vm.run("systemctl reload pulsedot")
        guard bad.status != 0 else { throw TestFailure("systemctl reload with a broken file succeeded: \(bad.output)") }
        let why = try vm.waitFor("the journal saying why the reload failed", timeout: 30) { () -> String? in
            try journal(since: since).split(separator: "\n").first { $0.contains("pulsedot.conf") && $0.contains("fps") }.map(String.init)
        }
        try keepsLook(.red, at: here, pid: pid, after: "the failed reload")

        let hupSince = try guestNow()
        try vm.must("kill -HUP \(pid)")
        let refused = try vm.waitFor("the daemon refusing the broken file on SIGHUP", timeout: 30) { () -> String? in
            try journal(since: hupSince).split(separator: "\n").first { $0.contains("fps") }.map(String.init)
        }
        try keepsLook(.red, at: here, pid: pid, after: "SIGHUP with the broken file")

        try writeConfiguration(route.configuration(color: Self.liveColor, staleAfter: Self.staleAfter))
        let restore = try vm.run("systemctl reload pulsedot")
        guard restore.status == 0 else { throw TestFailure("reloading the first file again failed: \(restore.output)") }
        try waitForDot(.blue, at: here, phase: "live")
        guard try mainPID() == pid else { throw TestFailure("the daemon was restarted by the reloads") }
        note("reload: new colour at \(red); broken file: systemctl reload exited \(bad.status), journal: \"\(why)\"; SIGHUP: \"\(refused)\"; old look kept, same pid \(pid)")
    }

    /// For a few screendumps: the dot in `color` where it was, never the broken file's green; the
    /// same daemon, active.
    private func keepsLook(_ color: DotColor, at fix: NMEA.Fix, pid: Int, after what: String) throws {
        let target = expected(fix)
        let green = DotColor(hex: "#34C759", name: "broken file's colour")
        for i in 0..<6 {
            let screen = try vm.screendump()
            guard let seen = screen.findDot(color, near: target), seen.distance(to: target) <= Self.tolerance else {
                throw TestFailure("after \(what), the \(color) dot is gone (screendump \(vm.keep(screen, as: "kept-look-\(i)")))")
            }
            guard screen.findDot(green, near: target) == nil else { throw TestFailure("after \(what), part of the broken file was applied") }
            usleep(300_000)
        }
        let s = try service()
        guard Int(s["MainPID"] ?? "") == pid, s["ActiveState"] == "active" else { throw TestFailure("after \(what): \(s)") }
    }

    // MARK: 7. Watchdog

    /// The daemon frozen with SIGSTOP: systemd's watchdog kills it (the journal says "Watchdog
    /// timeout") and restarts it; NRestarts counts it; the dot comes back.
    func watchdog() throws {
        let here = feeder.holdLastFix()
        try waitForDot(.blue, at: here, phase: "live")
        let before = try service()
        let pid = Int(before["MainPID"] ?? "") ?? 0
        let restarts = Int(before["NRestarts"] ?? "") ?? -1
        let limit = seconds(before["WatchdogUSec"] ?? "")
        guard limit > 0 else { throw TestFailure("the unit has no watchdog: WatchdogUSec=\(before["WatchdogUSec"] ?? "")") }
        let since = try guestNow()
        let frozenAt = Double(try vm.must("cat /proc/uptime; kill -STOP \(pid)").split(separator: " ").first ?? "") ?? 0
        let after = try vm.waitFor("systemd restarting the frozen daemon", timeout: 180, interval: 1) { () -> [String: String]? in
            let s = try service()
            let newPID = Int(s["MainPID"] ?? "") ?? 0
            return newPID != 0 && newPID != pid && s["ActiveState"] == "active" && s["SubState"] == "running" ? s : nil
        }
        let lines = try vm.must("journalctl -u pulsedot --since @\(since) --no-pager -o short-monotonic").split(separator: "\n")
        guard let timeout = lines.first(where: { $0.contains("Watchdog timeout") }) else {
            throw TestFailure("the journal does not say the watchdog fired:\n" + lines.suffix(20).joined(separator: "\n"))
        }
        let firedAt = Double(timeout.drop(while: { $0 == "[" || $0 == " " }).prefix(while: { $0 != "]" })) ?? 0
        let delay = firedAt - frozenAt
        guard Int(after["NRestarts"] ?? "") == restarts + 1 else {
            throw TestFailure("NRestarts went from \(restarts) to \(after["NRestarts"] ?? "?"), not up by one")
        }
        // systemd's own timer says when; here only a sanity bound in guest time (TCG may lag).
        guard delay > 0, delay <= 2 * limit else {
            throw TestFailure(String(format: "the watchdog fired %.1f s after the freeze; WatchdogSec is %.0f s", delay, limit))
        }
        try waitForDot(.blue, at: here, phase: "live", timeout: 90)
        daemonPID = Int(after["MainPID"] ?? "") ?? 0
        note(String(format: "watchdog: frozen pid %d killed %.1f s after SIGSTOP (WatchdogSec %.0f s): \"%@\"; new pid %@, NRestarts %@; dot back",
                    pid, delay, limit, String(timeout.split(separator: ":", maxSplits: 3).last ?? ""), after["MainPID"] ?? "?", after["NRestarts"] ?? "?"))
    }

    /// systemd's time spans as `systemctl show` prints them ("10s", "1min 30s", "500ms").
    func seconds(_ text: String) -> Double {
        var total = 0.0
        for part in text.split(separator: " ") {
            let number = Double(part.prefix(while: { $0.isNumber || $0 == "." })) ?? 0
            let unit = part.drop(while: { $0.isNumber || $0 == "." })
            switch unit {
            case "ms": total += number / 1000
            case "s": total += number
            case "min": total += number * 60
            case "h": total += number * 3600
            default: total += number / 1_000_000  // plain microseconds
            }
        }
        return total
    }

    // MARK: 8. Stop

    /// `systemctl stop`: the daemon exits with status 0, the unit ends cleanly (its ExecStopPost
    /// included), and the console comes back (the map is gone from the screen).
    func stop() throws {
        let pid = try mainPID()
        let since = try guestNow()
        let r = try vm.run("systemctl stop pulsedot")
        var problems: [String] = []
        if r.status != 0 { problems.append("systemctl stop exited \(r.status): \(r.output)") }
        let s = try service()
        if s["ExecMainCode"] != "1" || s["ExecMainStatus"] != "0" {
            problems.append("the daemon did not exit with status 0: ExecMainCode=\(s["ExecMainCode"] ?? "?") (1: exited) ExecMainStatus=\(s["ExecMainStatus"] ?? "?")")
        }
        if s["ActiveState"] != "inactive" || s["Result"] != "success" {
            let journal = (try? self.journal(since: since)) ?? ""
            problems.append("the unit ended \(s["ActiveState"] ?? "?") with Result=\(s["Result"] ?? "?"), not inactive/success:\n\(journal)")
        }
        if try vm.run("kill -0 \(pid)").status == 0 { problems.append("pid \(pid) is still there after the stop") }
        do {
            let black = try waitForConsole(after: "stop")
            note(String(format: "stop: console back: %.0f %% of the screen black; ExecMainStatus=%@, Result=%@",
                        black * 100, s["ExecMainStatus"] ?? "?", s["Result"] ?? "?"))
        } catch {
            problems.append("\(error)")
        }
        guard problems.isEmpty else { throw TestFailure(problems.joined(separator: "\n")) }
    }

    /// Waits until the console is back on the screen: none of the map's pavement left, no dot.
    /// Returns the share of black pixels.
    @discardableResult
    func waitForConsole(after what: String) throws -> Double {
        let p = FieldRoute.pavement
        do {
            let screen = try vm.waitFor("the console back on the screen after \(what)", timeout: 60) { () -> RGBAImage? in
                let screen = try vm.screendump()
                return screen.share(of: p.0, p.1, p.2) < 0.01 && screen.findDot(.blue) == nil ? screen : nil
            }
            return screen.share(of: 0, 0, 0)
        } catch {
            throw TestFailure("\(error) (screendump \(vm.keep(try vm.screendump(), as: "after-\(what.replacingOccurrences(of: " ", with: "-"))")))")
        }
    }
}
