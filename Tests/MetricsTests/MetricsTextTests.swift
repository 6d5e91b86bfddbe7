import Metrics
import XCTest

/// The exact text each family writes, as node_exporter's textfile collector will read it.
final class MetricsTextTests: XCTestCase {
    func testCounterIsHelpTypeAndOneSample() {
        var metrics = MetricsText()
        metrics.counter("pulsedot_frames_presented_total", help: "Frames handed to the display.", value: UInt64(1234))
        XCTAssertEqual(metrics.text, """
            # HELP pulsedot_frames_presented_total Frames handed to the display.
            # TYPE pulsedot_frames_presented_total counter
            pulsedot_frames_presented_total 1234

            """)
    }

    func testGaugeSamplesShareOneHeader() {
        var metrics = MetricsText()
        metrics.gauge("pulsedot_display_state", help: "1 for the display's current state.", value: 1, labels: ["state": "driving"])
        metrics.gauge("pulsedot_display_state", help: "1 for the display's current state.", value: 0, labels: ["state": "lost"])
        metrics.gauge("pulsedot_last_frame_timestamp_seconds", help: "When the last frame was shown.", value: 1_700_000_000.25)
        XCTAssertEqual(metrics.text, """
            # HELP pulsedot_display_state 1 for the display's current state.
            # TYPE pulsedot_display_state gauge
            pulsedot_display_state{state="driving"} 1
            pulsedot_display_state{state="lost"} 0
            # HELP pulsedot_last_frame_timestamp_seconds When the last frame was shown.
            # TYPE pulsedot_last_frame_timestamp_seconds gauge
            pulsedot_last_frame_timestamp_seconds 1700000000.25

            """)
    }

    func testInfoIsAGaugeOfOneWithLabelsInOrder() {
        var metrics = MetricsText()
        metrics.info("pulsedot_output_info", help: "The output in use.", labels: ["output": "kms", "mode": "1920x1080"])
        XCTAssertEqual(metrics.text, """
            # HELP pulsedot_output_info The output in use.
            # TYPE pulsedot_output_info gauge
            pulsedot_output_info{output="kms",mode="1920x1080"} 1

            """)
    }

    func testValuesAreSpelledAsPrometheusFloats() {
        var metrics = MetricsText()
        for value in [3.0, 0.5, -2, 0.0005, .infinity, -.infinity, .nan, 1e20, -0.0] {
            metrics.gauge("g", help: "h", value: value)
        }
        let values = metrics.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ")[1] }
        XCTAssertEqual(values, ["3", "0.5", "-2", "0.0005", "+Inf", "-Inf", "NaN", "1e+20", "0"])
    }

    func testCounterOfSecondsTakesAFloat() {
        var metrics = MetricsText()
        metrics.counter("pulsedot_stall_seconds_total", help: "Time spent stalled.", value: 1.5)
        XCTAssertTrue(metrics.text.hasSuffix("pulsedot_stall_seconds_total 1.5\n"), metrics.text)
    }

    func testLabelValuesEscapeBackslashQuoteAndNewline() {
        var metrics = MetricsText()
        metrics.info("x_info", help: "h", labels: ["path": "a\\b\"c\nd", "crlf": "e\r\nf"])
        XCTAssertTrue(metrics.text.hasSuffix(#"x_info{path="a\\b\"c\nd",crlf="e"# + "\r" + #"\nf"} 1"# + "\n"), metrics.text)
    }

    func testHelpEscapesBackslashAndNewlineButNotQuotes() {
        var metrics = MetricsText()
        metrics.gauge("g", help: "back\\slash \"quoted\"\nnext", value: 1)
        XCTAssertTrue(metrics.text.hasPrefix(#"# HELP g back\\slash "quoted"\nnext"# + "\n# TYPE g gauge\n"), metrics.text)
    }

    func testHistogramBucketsAreCumulativeThenSumInSecondsAndCount() {
        let histogram = FrameTimeHistogram()
        for ns: Int64 in [80_000, 300_000, 1_000_000, 20_000_000, 300_000_000] { histogram.observe(nanoseconds: ns) }
        var metrics = MetricsText()
        metrics.histogram("pulsedot_frame_seconds", help: "Time to draw a frame.", histogram, labels: ["output": "kms"])
        XCTAssertEqual(metrics.text, """
            # HELP pulsedot_frame_seconds Time to draw a frame.
            # TYPE pulsedot_frame_seconds histogram
            pulsedot_frame_seconds_bucket{output="kms",le="5e-05"} 0
            pulsedot_frame_seconds_bucket{output="kms",le="0.0001"} 1
            pulsedot_frame_seconds_bucket{output="kms",le="0.00025"} 1
            pulsedot_frame_seconds_bucket{output="kms",le="0.0005"} 2
            pulsedot_frame_seconds_bucket{output="kms",le="0.001"} 3
            pulsedot_frame_seconds_bucket{output="kms",le="0.0025"} 3
            pulsedot_frame_seconds_bucket{output="kms",le="0.005"} 3
            pulsedot_frame_seconds_bucket{output="kms",le="0.01"} 3
            pulsedot_frame_seconds_bucket{output="kms",le="0.025"} 4
            pulsedot_frame_seconds_bucket{output="kms",le="0.05"} 4
            pulsedot_frame_seconds_bucket{output="kms",le="0.1"} 4
            pulsedot_frame_seconds_bucket{output="kms",le="0.25"} 4
            pulsedot_frame_seconds_bucket{output="kms",le="+Inf"} 5
            pulsedot_frame_seconds_sum{output="kms"} 0.32138
            pulsedot_frame_seconds_count{output="kms"} 5

            """)
    }

    func testEmptyHistogramWithoutLabels() {
        var metrics = MetricsText()
        metrics.histogram("h_seconds", help: "h", FrameTimeHistogram())
        let lines = metrics.text.split(separator: "\n")
        XCTAssertEqual(lines[2], #"h_seconds_bucket{le="5e-05"} 0"#)
        XCTAssertEqual(lines.suffix(3), [#"h_seconds_bucket{le="+Inf"} 0"#, "h_seconds_sum 0", "h_seconds_count 0"])
    }
}
