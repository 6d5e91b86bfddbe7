@testable import Daemon
import Metrics
import XCTest

/// Which layers hold planes, in the metrics file: one gauge family, a series per layer.
final class LayerMetricsTests: XCTestCase {
    func testEachLayerSaysWhetherItHoldsAPlane() {
        var report = MetricsReport(version: "0.1.0", startTime: 1, configReloadSuccessful: true, configTakenTime: 1,
                                   framesDrawn: 10, framesPresented: 9, frameTimes: FrameTimeHistogram(),
                                   displayWaitSeconds: 0, lastFrameTime: nil, displayState: .driving, output: "kms",
                                   displayName: "card0", mode: "1024x768@60", fixState: "live", lastFixTime: nil,
                                   horizontalError: nil, satellitesUsed: nil, sourceKind: "position", gpsdHealth: nil,
                                   gpsdReconnects: 0, skippedLines: 0, reloadsGood: 0, reloadsRefused: 0, scanout: nil)
        var empty = MetricsText()
        report.render(into: &empty)
        XCTAssertFalse(empty.text.contains("pulsedot_layer_on_plane"), "no display driven: no layers")
        report.layersOnPlanes = [("map", true), ("dot", true), ("credit", false)]
        var text = MetricsText()
        report.render(into: &text)
        let lines = text.text.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0 == "# TYPE pulsedot_layer_on_plane gauge" }.count, 1)
        for line in ["pulsedot_layer_on_plane{layer=\"map\"} 1", "pulsedot_layer_on_plane{layer=\"dot\"} 1",
                     "pulsedot_layer_on_plane{layer=\"credit\"} 0"] {
            XCTAssertTrue(lines.contains(Substring(line)), "\(line) in:\n\(text.text)")
        }
    }
}
