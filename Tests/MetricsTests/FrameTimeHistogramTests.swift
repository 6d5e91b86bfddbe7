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
        histogram.observe(nanoseconds: 500_000)
        histogram.observe(nanoseconds: 500_001)
        histogram.observe(nanoseconds: -7)
        XCTAssertEqual(histogram.cumulativeCount(atBound: 0), 2)
        XCTAssertEqual(histogram.cumulativeCount(atBound: 1), 3)
        XCTAssertEqual(histogram.sumNanoseconds, 1_000_001)
    }

    func testBoundsAscend() {
        let bounds = FrameTimeHistogram.boundsNanoseconds
        XCTAssertEqual(bounds, bounds.sorted())
        XCTAssertEqual(Set(bounds).count, bounds.count)
    }
}
