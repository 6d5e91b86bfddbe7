import Foundation
import Metrics
import Syscall
import TestSupport
import XCTest

/// The real check: every family, written through AtomicFile as the daemon will, passes
/// Prometheus's own parser and linter (`promtool check metrics`, from Debian's prometheus package).
final class PromtoolTests: XCTestCase {
    static let promtool = "/usr/bin/promtool"

    static func everyFamily() -> String {
        let histogram = FrameTimeHistogram()
        for ns: Int64 in [300_000, 4_100_000, 16_700_000, 40_000_000, 900_000_000] { histogram.observe(nanoseconds: ns) }
        var metrics = MetricsText()
        metrics.counter("pulsedot_frames_presented_total", help: "Frames handed to the display.", value: UInt64(5))
        metrics.counter("pulsedot_stall_seconds_total", help: "Time the display was stalled.", value: 0.25)
        metrics.histogram("pulsedot_frame_seconds", help: "Time to draw one frame.", histogram)
        metrics.gauge("pulsedot_last_frame_timestamp_seconds", help: "When the last frame was shown (Unix time).", value: 1_700_000_000.5)
        metrics.gauge("pulsedot_display_state", help: "1 for the display's state, \"driving\" or \"lost\".", value: 1, labels: ["state": "driving"])
        metrics.gauge("pulsedot_display_state", help: "1 for the display's state, \"driving\" or \"lost\".", value: 0, labels: ["state": "lost"])
        metrics.info("pulsedot_output_info", help: "The output in use\nand its mode.", labels: ["output": "kms", "mode": "1920x1080", "card": "/dev/dri/\"card0\"\\"])
        return metrics.text
    }

    func testPromtoolAcceptsEveryFamilyWithoutComplaint() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.promtool) else {
            throw TestFailure("\(Self.promtool) missing: deploy/install-deps --test installs Debian's prometheus package")
        }
        let dir = try TestEnvironment.temporaryDirectory("promtool").path
        try AtomicFile.write(Self.everyFamily(), directory: dir, name: "pulsedot.prom")
        let result = try runProgram("/bin/sh", ["-c", "\(Self.promtool) check metrics < \"$1\"", "sh", dir + "/pulsedot.prom"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout + result.stderr, "")
    }

    func testNoSampleCarriesATimestamp() {
        for line in Self.everyFamily().split(separator: "\n") where !line.hasPrefix("#") {
            // Label values may hold spaces; what follows the label set is "value", never "value timestamp".
            let rest = line.lastIndex(of: "}").map { line[line.index(after: $0)...] } ?? line.drop { $0 != " " }
            XCTAssertEqual(rest.split(separator: " ").count, 1, String(line))
        }
    }
}
