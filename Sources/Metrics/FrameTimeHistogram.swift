/// How long frames took, counted into fixed buckets for a Prometheus histogram. `observe` runs once
/// per frame on the render path, so it only compares and adds into storage allocated by `init`.
/// The sum stays in integer nanoseconds (exact however many frames) and becomes seconds only when
/// written.
public final class FrameTimeHistogram {
    /// Upper bounds (inclusive, as Prometheus's `le`), 1-2.5-5 steps from 50 µs to a quarter
    /// second. The low end is there because a frame that only moves the dot costs well under a
    /// millisecond even on an ARM board (p50 0.08 ms in docs/embedded.md): with a first bucket at
    /// 0.5 ms every such frame would land in it and a doubling of the work would not show. The display's wait is
    /// not in these times, so no bucket needs to sit on a vblank; 250 ms catches stalls.
    public static let boundsNanoseconds: [Int64] = [
        50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000,
        50_000_000, 100_000_000, 250_000_000,
    ]

    private let bounds: UnsafeMutablePointer<Int64>
    private let boundCount: Int
    /// One slot per bound, then one for frames slower than every bound. Not cumulative.
    private let slots: UnsafeMutablePointer<UInt64>
    public private(set) var count: UInt64 = 0
    public private(set) var sumNanoseconds: Int64 = 0

    public init() {
        boundCount = Self.boundsNanoseconds.count
        bounds = .allocate(capacity: boundCount)
        bounds.initialize(from: Self.boundsNanoseconds, count: boundCount)
        slots = .allocate(capacity: boundCount + 1)
        slots.initialize(repeating: 0, count: boundCount + 1)
    }

    deinit {
        bounds.deallocate()
        slots.deallocate()
    }

    public func observe(nanoseconds: Int64) {
        // A negative duration is a clock mistake; counted as zero, the sum never goes backwards,
        // which Prometheus would read as a reset.
        let value = max(nanoseconds, 0)
        var slot = 0
        while slot < boundCount && value > bounds[slot] { slot += 1 }
        slots[slot] &+= 1
        count &+= 1
        sumNanoseconds &+= value
    }

    /// Frames that took at most `boundsNanoseconds[index]`, as a `_bucket` line says.
    public func cumulativeCount(atBound index: Int) -> UInt64 {
        precondition(index >= 0 && index < boundCount, "bucket \(index) out of range")
        var total: UInt64 = 0
        for slot in 0...index { total &+= slots[slot] }
        return total
    }

    public var sumSeconds: Double { Double(sumNanoseconds) / 1e9 }
}
