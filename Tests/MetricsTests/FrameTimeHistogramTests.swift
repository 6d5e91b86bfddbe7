import Metrics
import XCTest

final class FrameTimeHistogramTests: XCTestCase {
    func testTenThousandObservationsLandInTheirBuckets() {
        let histogram = FrameTimeHistogram()
        let step: Int64 = 50_000
        for i in 0..<Int64(10_000) { histogram.observe(nanoseconds: i * step) }
        XCTAssertEqual(histogram.count, 10_000)
        XCTAssertEqual(histogram.sumNanoseconds, step * (9_999 * 10_000 / 2))
        for (index, bound) in FrameTimeHistogram.boundsNanoseconds.enumerated() {
            // Values 0, step, 2·step, … up to and including the bound.
            XCTAssertEqual(histogram.cumulativeCount(atBound: index), UInt64(min(bound / step + 1, 10_000)), "le \(bound) ns")
        }
    }

    func testABoundIsInclusiveAndANegativeDurationCountsAsZero() {
        let histogram = FrameTimeHistogram()
        histogram.observe(nanoseconds: 50_000)
        histogram.observe(nanoseconds: 50_001)
        histogram.observe(nanoseconds: -7)
        XCTAssertEqual(histogram.cumulativeCount(atBound: 0), 2)
        XCTAssertEqual(histogram.cumulativeCount(atBound: 1), 3)
        XCTAssertEqual(histogram.sumNanoseconds, 100_001)
    }

    /// A frame that only moves the dot (tens of microseconds on an ARM board) must not share the
    /// first bucket with one that does ten times the work.
    func testTheBucketsReachFromFiftyMicrosecondsToAQuarterSecond() {
        let histogram = FrameTimeHistogram()
        histogram.observe(nanoseconds: 80_000)
        histogram.observe(nanoseconds: 800_000)
        XCTAssertEqual(FrameTimeHistogram.boundsNanoseconds.first, 50_000)
        XCTAssertEqual(FrameTimeHistogram.boundsNanoseconds.last, 250_000_000)
        XCTAssertEqual(histogram.cumulativeCount(atBound: 0), 0)
        XCTAssertEqual(histogram.cumulativeCount(atBound: 1), 1, "80 µs is within 0.1 ms")
        XCTAssertEqual(histogram.cumulativeCount(atBound: 3), 1, "800 µs is above 0.5 ms")
        XCTAssertEqual(histogram.cumulativeCount(atBound: 4), 2)
    }

    func testBoundsAscend() {
        let bounds = FrameTimeHistogram.boundsNanoseconds
        XCTAssertEqual(bounds, bounds.sorted())
        XCTAssertEqual(Set(bounds).count, bounds.count)
    }
}
