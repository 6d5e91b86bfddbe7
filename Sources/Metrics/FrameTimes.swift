/// Frame times for the summary line: a fixed ring of the latest samples (nanoseconds) and the
/// frames counted since the last summary. Adding a sample is a store and an increment; the
/// percentiles sort a scratch copy in place (heap sort: the standard library's sort may allocate),
/// so nothing here allocates after `init`.
public final class FrameTimes {
    public let capacity: Int
    private let samples: UnsafeMutablePointer<Int64>
    private let scratch: UnsafeMutablePointer<Int64>
    private var next = 0
    /// Samples held (≤ capacity).
    public private(set) var count = 0
    /// Frames drawn since `startPeriod`.
    public private(set) var framesInPeriod = 0

    public init(capacity: Int = 1024) {
        precondition(capacity > 0, "a frame time ring needs room for a sample")
        self.capacity = capacity
        samples = .allocate(capacity: capacity)
        samples.initialize(repeating: 0, count: capacity)
        scratch = .allocate(capacity: capacity)
        scratch.initialize(repeating: 0, count: capacity)
    }

    deinit {
        samples.deallocate()
        scratch.deallocate()
    }

    public func add(nanoseconds: Int64) {
        samples[next] = nanoseconds
        next = next + 1 == capacity ? 0 : next + 1
        if count < capacity { count += 1 }
        framesInPeriod += 1
    }

    /// Starts a new summary period: the frame count restarts; the ring keeps the latest samples
    /// (a summary after an idle period still has something to say).
    public func startPeriod() { framesInPeriod = 0 }

    /// The p-th percentile (0…100, nearest rank) of the samples held, in nanoseconds; nil when empty.
    public func percentiles(_ a: Double, _ b: Double) -> (Int64, Int64)? {
        guard count > 0 else { return nil }
        scratch.update(from: samples, count: count)
        Self.heapSort(scratch, count)
        return (scratch[Self.rank(a, count)], scratch[Self.rank(b, count)])
    }

    static func rank(_ p: Double, _ n: Int) -> Int {
        let r = Int((p / 100 * Double(n)).rounded(.up)) - 1
        return min(max(r, 0), n - 1)
    }

    package static func heapSort(_ a: UnsafeMutablePointer<Int64>, _ n: Int) {
        func siftDown(_ start: Int, _ end: Int) {
            var root = start
            while 2 * root + 1 < end {
                var child = 2 * root + 1
                if child + 1 < end && a[child] < a[child + 1] { child += 1 }
                if a[root] >= a[child] { return }
                a.swapAt(root, child)
                root = child
            }
        }
        var start = n / 2
        while start > 0 {
            start -= 1
            siftDown(start, n)
        }
        var end = n
        while end > 1 {
            end -= 1
            a.swapAt(0, end)
            siftDown(0, end)
        }
    }
}

extension UnsafeMutablePointer where Pointee == Int64 {
    fileprivate func swapAt(_ i: Int, _ j: Int) {
        let t = self[i]
        self[i] = self[j]
        self[j] = t
    }
}
