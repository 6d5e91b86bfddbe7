@testable import Daemon
import DisplayCore
import GPSD
import Metrics
import Syscall
import XCTest

/// The scan-out queue's counters in the metrics file: present for a display that has one, absent
/// for one that has none (PNG frames, none).
final class ScanoutMetricsTests: XCTestCase {
    private func render(_ scanout: ScanoutQueue.Statistics?) -> String {
        let report = MetricsReport(version: "0.1.0", startTime: 1, configReloadSuccessful: true, configTakenTime: 1,
                                   framesDrawn: 10, framesPresented: 9, frameTimes: FrameTimeHistogram(),
                                   displayWaitSeconds: 0, lastFrameTime: nil, displayState: .driving, output: "kms",
                                   displayName: "card0", mode: "1024x768@60", fixState: "live", lastFixTime: nil,
                                   horizontalError: nil, satellitesUsed: nil, sourceKind: "gpsd", gpsdHealth: .receiving,
                                   gpsdReconnects: 0, skippedLines: 0, reloadsGood: 0, reloadsRefused: 0, scanout: scanout)
        var text = MetricsText()
        report.render(into: &text)
        return text.text
    }

    func testAQueuesCountersAreExportedWithTheirValues() {
        var queue = ScanoutQueue()
        XCTAssertTrue(queue.begin())
        queue.queued(at: MonotonicInstant(nanoseconds: 0))
        XCTAssertFalse(queue.begin(), "a flip in flight defers the next frame")
        queue.refusedBusy()
        let text = render(queue.statistics)
        for line in ["pulsedot_scanout_presents_total 2", "pulsedot_scanout_queued_total 1",
                     "pulsedot_scanout_deferred_total 1", "pulsedot_scanout_busy_total 1"] {
            XCTAssertTrue(text.split(separator: "\n").contains(Substring(line)), "\(line) in:\n\(text)")
        }
    }

    func testADisplayWithoutAQueueExportsNone() {
        XCTAssertFalse(render(nil).contains("pulsedot_scanout_"))
    }
}
