import Foundation
import TestSupport

/// Scenario 11: PulseDot rolled out with apt as a fleet does it (docs/operations.md). The signed
/// repository of `deploy/package/build-apt-repo` arrives on a second disk plugged into the running kiosk
/// and is named with `signed-by=` (no `[trusted=yes]`, no network); one revision is installed by
/// its number, the next one upgrades it over an edited main file and a drop-in with the fleet's
/// dpkg options, then it is removed and purged. It runs last: it takes away the package the image
/// was built with, and leaves none.
extension FieldTrial {
    static let fleetKeyring = "/etc/apt/keyrings/pulsedot-fleet.gpg"
    static let fleetList = "/etc/apt/sources.list.d/pulsedot-fleet.list"
    static let mainFile = "/etc/pulsedot/pulsedot.conf"
    static let dropIn = "/etc/pulsedot/pulsedot.conf.d/50-vehicle.conf"
    /// The board's own edit of the main file: the metrics file every 2 s instead of 10, which its
    /// pace shows after the upgrade.
    static let boardEdit = "\n# Edited on this board.\n[metrics]\nevery = 2\n"
    static let aptGet = "DEBIAN_FRONTEND=noninteractive apt-get -q -y"
    /// What docs/configuration.md tells a fleet to upgrade with.
    static let fleetOptions = "-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold"

    func aptRollout(_ build: FleetRepositoryBuild) throws {
        var steps: [String] = []
        var clock = Date()
        func step(_ name: String) {
            steps.append(String(format: "%@ %.0f s", name, Date().timeIntervalSince(clock)))
            clock = Date()
        }

        // A board that never had PulseDot: the image's package purged (dpkg owns neither the
        // trial's map nor the service user, so both stay).
        try vm.must("dpkg --purge pulsedot", timeout: 180)
        if let left = try packageState() { throw TestFailure("after dpkg --purge of the image's package, dpkg still has pulsedot: \(left)") }
        step("image's package purged")

        let waited = Date()
        let repo = try build.wait(timeout: 900)
        let waitedFor = Date().timeIntervalSince(waited)
        try vm.attachDisk(repo.image, id: "fleetrepo")
        let disk = "/dev/disk/by-label/\(FleetRepository.label)"
        try vm.must("for i in $(seq 150); do [ -b \(disk) ] && break; sleep 0.2; done; mkdir -p /media/repo && mount -o ro \(disk) /media/repo", timeout: 90)
        // The key comes with the board's provisioning, never from the medium it vouches for.
        let dropIn = route.configuration(color: Self.liveColor, staleAfter: Self.staleAfter)
        try writeGuestFiles([(Self.fleetKeyring, repo.publicKey),
                             (Self.fleetList, Data("deb [signed-by=\(Self.fleetKeyring)] file:/media/repo ./\n".utf8)),
                             (Self.dropIn, Data(dropIn.utf8))])
        // Only the fleet's source: the guest has no network for the Debian mirror it was built from.
        let update = try vm.run("\(Self.aptGet) -o Dir::Etc::sourcelist=\(Self.fleetList) -o Dir::Etc::sourceparts=- -o APT::Get::List-Cleanup=0 update", timeout: 180)
        guard update.status == 0 else { throw TestFailure("apt-get update from the signed repository exited \(update.status):\n\(update.output)") }
        let policy = try vm.must("apt-cache policy pulsedot")
        guard policy.contains("Candidate: \(repo.second)"), policy.contains(" \(repo.first) 500") else {
            throw TestFailure("apt does not offer \(repo.first) and \(repo.second) from the repository:\n\(policy)")
        }
        step("disk plugged in, apt-get update")

        // 1. Install a version by its number.
        let install = try vm.run("\(Self.aptGet) install pulsedot=\(repo.first)", timeout: 300)
        guard install.status == 0 else { throw TestFailure("apt-get install pulsedot=\(repo.first) exited \(install.status):\n\(install.output)") }
        guard let installed = try packageState(), installed == "ii \(repo.first)" else {
            throw TestFailure("after installing \(repo.first), dpkg says '\(try packageState() ?? "not installed")'")
        }
        let firstPID = try waitUntilRunning("after apt-get install pulsedot=\(repo.first)")
        let user = try vm.must("ps -o user= -p \(firstPID)").trimmingCharacters(in: .whitespacesAndNewlines)
        guard user == "pulsedot" else { throw TestFailure("the installed daemon runs as '\(user)', not pulsedot") }
        guard try guestFile(Self.mainFile) == repo.firstConffile else { throw TestFailure("\(Self.mainFile) is not the file \(repo.first) ships") }
        step("install \(repo.first)")

        // 2. The board edits its main file; the fleet upgrades with its options.
        let edited = repo.firstConffile + Self.boardEdit
        try writeGuestFiles([(Self.mainFile, Data(edited.utf8))])
        let since = try guestNow()
        let upgrade = try vm.run("\(Self.aptGet) \(Self.fleetOptions) install pulsedot", timeout: 300)
        guard upgrade.status == 0 else { throw TestFailure("the fleet's upgrade exited \(upgrade.status):\n\(upgrade.output)") }
        try checkUpgradedFiles(repo, edited: edited, dropIn: dropIn)
        let secondPID = try waitUntilRunning("after the upgrade to \(repo.second)")
        guard secondPID != firstPID else { throw TestFailure("the upgrade did not restart the daemon: still pid \(firstPID)") }
        let pace = try checkMetricsGoOn(since: since, version: repo.upstream)
        try waitForDot(.blue, at: feeder.holdLastFix(), phase: "live")
        step("upgrade to \(repo.second)")

        // 3. Remove: the daemon stops and the console comes back; the configuration stays.
        let remove = try vm.run("\(Self.aptGet) remove pulsedot", timeout: 300)
        guard remove.status == 0 else { throw TestFailure("apt-get remove pulsedot exited \(remove.status):\n\(remove.output)") }
        guard try packageState() == "rc \(repo.second)" else { throw TestFailure("after apt-get remove, dpkg says '\(try packageState() ?? "not installed")', not rc \(repo.second)") }
        let stopped = try service()
        guard stopped["ActiveState"] == "inactive" else { throw TestFailure("after apt-get remove the unit is \(stopped["ActiveState"] ?? "?")") }
        if try vm.run("kill -0 \(secondPID)").status == 0 { throw TestFailure("pid \(secondPID) is still there after apt-get remove") }
        try waitForConsole(after: "apt-get remove")
        try vm.must("test -f \(Self.mainFile) && test -f \(Self.mainFile).dpkg-dist && test -d /var/lib/pulsedot")
        step("remove")

        // 4. Purge: what the package made is gone, the service user and the fleet's drop-in stay.
        let purge = try vm.run("\(Self.aptGet) purge pulsedot", timeout: 300)
        guard purge.status == 0 else { throw TestFailure("apt-get purge pulsedot exited \(purge.status):\n\(purge.output)") }
        if let left = try packageState() { throw TestFailure("after apt-get purge, dpkg still has pulsedot: \(left)") }
        let gone = [Self.mainFile, Self.mainFile + ".dpkg-dist", "/var/lib/pulsedot", "/usr/bin/pulsedot", "/lib/systemd/system/pulsedot.service",
                    "/etc/systemd/system/pulsedot.service", "/etc/systemd/system/multi-user.target.wants/pulsedot.service",
                    "/var/lib/prometheus/node-exporter/pulsedot.prom"]
        let left = try vm.must(gone.map { "if [ -e \($0) ] || [ -L \($0) ]; then echo \($0); fi" }.joined(separator: "; "))
        guard left.isEmpty else { throw TestFailure("apt-get purge left: \(left.split(separator: "\n").joined(separator: ", "))") }
        let account = try vm.run("getent passwd pulsedot")
        guard account.status == 0 else { throw TestFailure("the purge took the system user pulsedot away") }
        guard try guestFile(Self.dropIn) == dropIn else { throw TestFailure("the purge changed the fleet's drop-in \(Self.dropIn)") }
        try vm.must("umount /media/repo")
        step("purge")
        note("apt rollout: \(repo.first) → \(repo.second) (\(repo.architectures.joined(separator: ", ")) in the repository, built on the host in "
             + String(format: "%.0f s, waited for %.0f s", build.seconds, waitedFor) + "); pids \(firstPID) → \(secondPID); metrics every \(pace); " + steps.joined(separator: ", "))
    }

    /// What dpkg did with the files: the edited main file kept, the new one beside it as
    /// `.dpkg-dist` and recorded as the shipped one (so the next upgrade asks only if it changes
    /// again), nothing half-done, the drop-in untouched; the check-config origins.
    private func checkUpgradedFiles(_ repo: FleetRepository, edited: String, dropIn: String) throws {
        guard let state = try packageState(), state == "ii \(repo.second)" else {
            throw TestFailure("after the upgrade dpkg says '\(try packageState() ?? "not installed")', not ii \(repo.second)")
        }
        guard try guestFile(Self.mainFile) == edited else { throw TestFailure("the upgrade did not keep the edited \(Self.mainFile)") }
        guard try guestFile(Self.mainFile + ".dpkg-dist") == repo.secondConffile else {
            throw TestFailure("\(Self.mainFile).dpkg-dist is not the main file \(repo.second) ships")
        }
        let extra = try vm.must("ls -a /etc/pulsedot | grep -E '[.]dpkg-(new|old|tmp)$' || true")
        guard extra.isEmpty else { throw TestFailure("dpkg left \(extra) in /etc/pulsedot") }
        let recorded = try vm.must("dpkg-query -W -f='${Conffiles}' pulsedot | awk '$1 == \"\(Self.mainFile)\" { print $2 }'; md5sum < \(Self.mainFile).dpkg-dist | cut -d' ' -f1")
        let sums = recorded.split(separator: "\n")
        guard sums.count == 2, sums[0] == sums[1] else { throw TestFailure("dpkg's record of the shipped main file vs .dpkg-dist: \(sums)") }
        guard try guestFile(Self.dropIn) == dropIn else { throw TestFailure("the upgrade changed the drop-in \(Self.dropIn)") }
        let effective = try vm.must("pulsedot check-config \(Self.mainFile)")
        func origin(of line: String, in text: String, _ path: String) -> String {
            let number = (text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0 == line } ?? -2) + 1
            return "# from \(path):\(number)\n\(line)"
        }
        for origin in [origin(of: "every = 2", in: edited, Self.mainFile), origin(of: "image = /etc/pulsedot/map.png", in: dropIn, Self.dropIn)]
        where !effective.contains(origin) {
            throw TestFailure("check-config does not show \"\(origin)\":\n\(effective)")
        }
    }

    /// The new daemon's metrics: it started after `since`, reports the program's version, and the
    /// file keeps coming with frames presented going up, at the pace of the board's edit (2 s)
    /// rather than the default 10 s. Returns the pace seen.
    private func checkMetricsGoOn(since: Int, version: String) throws -> String {
        let file = "/run/pulsedot/metrics.prom"
        var seen: [(time: Double, frames: Int)] = []
        _ = try vm.waitFor("three writes of the metrics file by the upgraded daemon", timeout: 40, interval: 0.5) { () -> Bool? in
            let text = try vm.must("date +%s.%N; cat \(file) 2>/dev/null || true")
            let lines = text.split(separator: "\n")
            let now = Double(lines.first ?? "") ?? 0
            func value(_ name: String) -> Double? {
                lines.first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
            }
            guard let started = value("pulsedot_start_time_seconds"), started >= Double(since),
                  let frames = value("pulsedot_frames_presented_total").map(Int.init) else { return nil }
            guard text.contains("pulsedot_build_info{version=\"\(version)\"} 1") else {
                throw TestFailure("the upgraded daemon's metrics do not say version \(version):\n\(text)")
            }
            if seen.last?.frames != frames { seen.append((now, frames)) }
            return seen.count >= 3 ? true : nil
        }
        let intervals = zip(seen.dropFirst(), seen).map { $0.time - $1.time }
        guard zip(seen.dropFirst(), seen).allSatisfy({ $0.frames > $1.frames }) else { throw TestFailure("frames presented did not go up: \(seen)") }
        // Seen through polls half a second apart and TCG's latency: well under the default's 10 s.
        guard intervals.allSatisfy({ $0 < 6 }) else {
            throw TestFailure("the metrics file came \(intervals) s apart: the board's [metrics] every = 2 is not in effect")
        }
        return intervals.map { String(format: "%.1f s", $0) }.joined(separator: " and ")
    }

    /// "ii 0.1.0-1" (dpkg's selection and state, and the version), or nil when nothing of pulsedot
    /// is installed (dpkg has no record, or keeps one with nothing left).
    private func packageState() throws -> String? {
        let r = try vm.run("dpkg-query -W -f='${db:Status-Abbrev}${Version}' pulsedot 2>/dev/null")
        let text = r.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard r.status == 0, !text.isEmpty, !(text.hasPrefix("un") || text.hasPrefix("pn")) else { return nil }
        return text
    }

    /// The unit active (running) after READY=1; its main pid.
    private func waitUntilRunning(_ when: String) throws -> Int {
        let s = try vm.waitFor("pulsedot active (running) \(when)", timeout: 120) { () -> [String: String]? in
            let s = try service()
            return s["ActiveState"] == "active" && s["SubState"] == "running" ? s : nil
        }
        return Int(s["MainPID"] ?? "") ?? 0
    }

    /// A guest file's bytes as text (the agent's command substitution would drop its last newlines).
    private func guestFile(_ path: String) throws -> String {
        String(try vm.must("cat \(path) && printf .").dropLast())
    }

    /// Writes each file (folders made as needed) with one guest command.
    private func writeGuestFiles(_ files: [(path: String, data: Data)]) throws {
        try vm.must(files.map { "mkdir -p $(dirname \($0.path)) && printf '%s' '\($0.data.base64EncodedString())' | base64 -d > \($0.path)" }
            .joined(separator: " && "))
    }
}
