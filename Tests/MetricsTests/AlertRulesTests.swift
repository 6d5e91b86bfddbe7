import Foundation
import TestSupport
import XCTest

/// The alert rules docs/operations.md gives operators, checked by Prometheus's own tools:
/// `promtool check rules` for the syntax, `promtool test rules` for when each one fires.
final class AlertRulesTests: XCTestCase {
    private func rules() throws -> String {
        let doc = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("docs/operations.md"), encoding: .utf8)
        guard let begin = doc.range(of: "<!-- rules:begin -->\n```yaml\n"), let end = doc.range(of: "```\n<!-- rules:end -->"),
              begin.upperBound < end.lowerBound else {
            throw TestFailure("docs/operations.md has no ```yaml block between <!-- rules:begin --> and <!-- rules:end -->")
        }
        return String(doc[begin.upperBound..<end.lowerBound])
    }

    private func promtool(_ arguments: [String], in dir: String) throws -> (status: Int32, output: String) {
        guard FileManager.default.isExecutableFile(atPath: PromtoolTests.promtool) else {
            throw TestFailure("\(PromtoolTests.promtool) missing: deploy/install-deps --test installs Debian's prometheus package")
        }
        let r = try runProgram("/bin/sh", ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", dir, PromtoolTests.promtool] + arguments)
        return (r.status, r.stdout + r.stderr)
    }

    func testTheRulesPassPromtoolsCheck() throws {
        let dir = try TestEnvironment.temporaryDirectory("rules").path
        try rules().write(toFile: dir + "/pulsedot.rules.yml", atomically: true, encoding: .utf8)
        let r = try promtool(["check", "rules", "pulsedot.rules.yml"], in: dir)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains("SUCCESS: 2 rules found"), r.output)
    }

    /// Ten minutes of scrapes, one a minute, from boards in every situation the rules must tell
    /// apart. `0+60x10` is a time that keeps up with the clock; `0x10` one stuck at the start.
    static let scenarios = """
        rule_files: [pulsedot.rules.yml]
        evaluation_interval: 1m
        tests:
          - interval: 1m
            input_series:
              # Drawing, fresh file, live fix.
              - {series: 'pulsedot_last_frame_timestamp_seconds{instance="ok"}', values: '0+60x10'}
              - {series: 'pulsedot_display_state{instance="ok",state="blanked"}', values: '0x10'}
              - {series: 'node_textfile_mtime_seconds{instance="ok",file="/var/lib/prometheus/node-exporter/pulsedot.prom"}', values: '0+60x10'}
              - {series: 'node_textfile_scrape_error{instance="ok"}', values: '0x10'}
              - {series: 'pulsedot_last_fix_timestamp_seconds{instance="ok"}', values: '0+60x10'}
              - {series: 'pulsedot_fix_state{instance="ok",state="live"}', values: '1x10'}
              # The daemon runs and writes its file, but no frame reaches the screen.
              - {series: 'pulsedot_last_frame_timestamp_seconds{instance="frozen"}', values: '0x10'}
              - {series: 'pulsedot_display_state{instance="frozen",state="blanked"}', values: '0x10'}
              - {series: 'node_textfile_mtime_seconds{instance="frozen",file="/var/lib/prometheus/node-exporter/pulsedot.prom"}', values: '0+60x10'}
              - {series: 'node_textfile_scrape_error{instance="frozen"}', values: '0x10'}
              # Blanked for the night: no frames, and that is right.
              - {series: 'pulsedot_last_frame_timestamp_seconds{instance="night"}', values: '0x10'}
              - {series: 'pulsedot_display_state{instance="night",state="blanked"}', values: '1x10'}
              - {series: 'node_textfile_mtime_seconds{instance="night",file="/var/lib/prometheus/node-exporter/pulsedot.prom"}', values: '0+60x10'}
              - {series: 'node_textfile_scrape_error{instance="night"}', values: '0x10'}
              # Died while blanked: the file stays, saying "blanked", and stops changing.
              - {series: 'pulsedot_last_frame_timestamp_seconds{instance="dead"}', values: '0x10'}
              - {series: 'pulsedot_display_state{instance="dead",state="blanked"}', values: '1x10'}
              - {series: 'node_textfile_mtime_seconds{instance="dead",file="/var/lib/prometheus/node-exporter/pulsedot.prom"}', values: '0x10'}
              - {series: 'node_textfile_scrape_error{instance="dead"}', values: '0x10'}
              # Stopped: the link dangles, node_exporter reports the error and no pulsedot series.
              - {series: 'node_textfile_scrape_error{instance="stopped"}', values: '1x10'}
              # No fix since start; and a fixed-position kiosk, whose one fix is as old as the daemon.
              - {series: 'pulsedot_last_fix_timestamp_seconds{instance="lost"}', values: '0x10'}
              - {series: 'pulsedot_fix_state{instance="lost",state="live"}', values: '0x10'}
              - {series: 'pulsedot_last_fix_timestamp_seconds{instance="kiosk"}', values: '0x10'}
              - {series: 'pulsedot_fix_state{instance="kiosk",state="live"}', values: '1x10'}
            alert_rule_test:
              - eval_time: 10m
                alertname: PulseDotScreenNotDrawing
                exp_alerts:
                  - exp_labels: {severity: critical, instance: frozen}
                    exp_annotations:
                      summary: "frozen: the screen has not shown a new frame for over a minute"
                      description: "Check `pulsedot status` and `journalctl -u pulsedot` on the board."
                  - exp_labels: {severity: critical, instance: dead, file: /var/lib/prometheus/node-exporter/pulsedot.prom}
                    exp_annotations:
                      summary: "dead: the screen has not shown a new frame for over a minute"
                      description: "Check `pulsedot status` and `journalctl -u pulsedot` on the board."
                  - exp_labels: {severity: critical, instance: stopped}
                    exp_annotations:
                      summary: "stopped: the screen has not shown a new frame for over a minute"
                      description: "Check `pulsedot status` and `journalctl -u pulsedot` on the board."
              # Pending, not firing, for the first two minutes: one late scrape pages nobody.
              - eval_time: 1m
                alertname: PulseDotScreenNotDrawing
                exp_alerts: []
              - eval_time: 4m
                alertname: PulseDotNoFix
                exp_alerts: []
              - eval_time: 6m
                alertname: PulseDotNoFix
                exp_alerts:
                  - exp_labels: {severity: warning, instance: lost}
                    exp_annotations:
                      summary: "lost: no GPS fix for 5 minutes"
                      description: "The dot shows the stale look. Check the antenna, the receiver and gpsd (`pulsedot status`, `gpspipe -w`)."
        """

    func testTheRulesFireForTheBoardsThatNeedSomeoneAndOnlyThose() throws {
        let dir = try TestEnvironment.temporaryDirectory("rules-test").path
        try rules().write(toFile: dir + "/pulsedot.rules.yml", atomically: true, encoding: .utf8)
        try Self.scenarios.write(toFile: dir + "/scenarios.yml", atomically: true, encoding: .utf8)
        let r = try promtool(["test", "rules", "scenarios.yml"], in: dir)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains("SUCCESS"), r.output)
    }
}
