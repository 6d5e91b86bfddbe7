import Metrics
import XCTest

/// Reading back what MetricsText writes: names, escaped label values, Prometheus floats.
final class MetricsSamplesTests: XCTestCase {
    func testWhatIsWrittenReadsBack() throws {
        let h = FrameTimeHistogram()
        h.observe(nanoseconds: 3_000_000)
        var text = MetricsText()
        text.counter("a_total", help: "A.", value: UInt64(7))
        text.gauge("b_seconds", help: "B.", value: 1_800_000_000.25, labels: ["k": "quote \" back\\slash\nline", "z": "2"])
        text.gauge("c", help: "C.", value: .infinity)
        text.histogram("d_seconds", help: "D.", h)
        let m = try MetricsSamples(parsing: text.text)
        XCTAssertEqual(m.value("a_total"), 7)
        let b = try XCTUnwrap(m.sample("b_seconds"))
        XCTAssertEqual(b.labels, ["k": "quote \" back\\slash\nline", "z": "2"])
        XCTAssertEqual(b.value, 1_800_000_000.25)
        XCTAssertEqual(m.value("c"), .infinity)
        XCTAssertEqual(m.value("d_seconds_bucket", ["le": "0.005"]), 1)
        XCTAssertEqual(m.value("d_seconds_bucket", ["le": "0.0025"]), 0)
        XCTAssertNil(m.value("b_seconds", ["z": "3"]), "labels asked for must all match")
        XCTAssertEqual(m.samples.count, 3 + FrameTimeHistogram.boundsNanoseconds.count + 3)
    }

    func testTheStateOfAStateGaugeIsTheLabelOfItsOne() throws {
        let m = try MetricsSamples(parsing: "s{state=\"a\"} 0\ns{state=\"b\"} 1\ns{state=\"c\"} 0\n")
        XCTAssertEqual(m.current("s", label: "state"), "b")
        XCTAssertNil(m.current("t", label: "state"))
    }

    func testALineThatIsNoSampleIsRefusedWithItsNumber() {
        XCTAssertThrowsError(try MetricsSamples(parsing: "# HELP a A.\na 1\nb{x=\"1\" 2\n")) { error in
            XCTAssertEqual("\(error)", "line 3: not a sample: b{x=\"1\" 2")
        }
        XCTAssertThrowsError(try MetricsSamples(parsing: "a one\n"))
        XCTAssertThrowsError(try MetricsSamples(parsing: "a\n"))
    }
}
