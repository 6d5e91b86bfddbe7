import Foundation
import TestSupport

/// Scenario 10: the metrics file as the packaged unit keeps it, and `pulsedot status` read from it
/// by a user without privileges — after scenario 6, so the reloads it made are counted.
extension FieldTrial {
    func metrics() throws {
        let link = "/var/lib/prometheus/node-exporter/pulsedot.prom"
        let target = try vm.must("readlink \(link)").trimmingCharacters(in: .whitespacesAndNewlines)
        guard target == "/run/pulsedot/metrics.prom" else { throw TestFailure("tmpfiles.d's link points at '\(target)'") }
        // Scenario 6: two reloads taken, one SIGHUP with a broken file refused (systemctl reload
        // refused the broken file itself: the daemon never heard of it).
        let text = try vm.waitFor("the metrics file counting scenario 6's reloads", timeout: 30) { () -> String? in
            let r = try vm.run("cat \(link)")
            return r.status == 0 && r.output.contains("pulsedot_reloads_total{result=\"good\"} 2")
                && r.output.contains("pulsedot_reloads_total{result=\"refused\"} 1") ? r.output : nil
        }
        // The last SIGHUP put the first file back and was taken; gpsd is fed NMEA by the trial.
        for line in ["pulsedot_display_state{state=\"driving\"} 1", "pulsedot_fix_state{state=\"live\"} 1",
                     "pulsedot_config_last_reload_successful 1", "pulsedot_gpsd_state{state=\"receiving\"} 1",
                     "pulsedot_source_info{source=\"gpsd\"} 1"] where !text.contains(line) {
            throw TestFailure("the metrics file lacks \(line):\n\(text)")
        }
        let mode = try vm.must("stat -c '%a %U' /run/pulsedot/metrics.prom /run/pulsedot").split(separator: "\n").map(String.init)
        guard mode == ["644 pulsedot", "755 pulsedot"] else { throw TestFailure("file and folder are \(mode), not 644 and 755 owned by pulsedot") }
        let status = try vm.run("setpriv --reuid=nobody --regid=nogroup --clear-groups pulsedot status")
        guard status.status == 0, status.output.contains("display  driving: "), status.output.contains("fix      live"),
              !status.output.contains("WARNING") else {
            throw TestFailure("pulsedot status as nobody (\(status.status)):\n\(status.output)")
        }
        note("metrics: \(link) -> \(target), 644; pulsedot status as nobody: \(status.output.split(separator: "\n").prefix(2).joined(separator: " | "))")
    }
}
