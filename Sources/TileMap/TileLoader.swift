import Raster
import Synchronization
import Syscall
import Tiles

/// A tile the loop wants, and the slot lent for it.
struct TileRequest: @unchecked Sendable {
    let id: TileID
    let slot: Int
    /// The slot's pixels: written by the worker only, until its delivery comes back.
    let pixels: PixelBuffer
    /// The slot's RGB565 copy, when the panel takes RGB565: the worker narrows the tile into it.
    let narrowed: PixelBuffer?
}

/// A slot coming back from the worker.
struct TileDelivery: Sendable {
    let id: TileID
    let slot: Int
    /// No tile to show there (missing or damaged): the colour shows.
    let blank: Bool
    /// Why a damaged tile could not be shown, naming it; nil for a tile decoded or simply absent.
    let problem: String?
    /// Whether the slot's RGB565 copy was written too.
    var narrowed = false
}

/// The tile worker: a thread of its own that reads and decodes tiles the loop asks for, one at
/// a time, into slots the loop lends it, and hands them back through `delivered`, an eventfd the
/// loop polls. Requests and deliveries pass through two lists of fixed capacity under one short
/// lock, so asking for a tile and taking tiles back allocate nothing on the loop.
final class TileLoader: Sendable {
    private struct Exchange {
        var requests: [TileRequest] = []
        var deliveries: [TileDelivery] = []
        var closing = false
        var decoded = 0
        var failed = 0
    }

    private let exchange: Mutex<Exchange>
    /// Deliveries waiting: read by the loop every frame without taking the lock.
    private let waiting = Atomic<Int>(0)
    private let wake: EventFD
    /// Readable when deliveries wait: the loop polls it and then calls `take`.
    let delivered: EventFD
    private let worker: WorkerThread

    init(producer: TileProducer, capacity: Int) throws(SyscallError) {
        var e = Exchange()
        e.requests.reserveCapacity(capacity)
        e.deliveries.reserveCapacity(capacity)
        exchange = Mutex(e)
        wake = try EventFD(name: "tile worker wake-up")
        delivered = try EventFD(name: "tiles delivered")
        worker = try WorkerThread(name: "tile decoder")
        let job = WorkerJob(producer: producer)
        do throws(WorkerThread.Closed) {
            try worker.submit { [self] in self.serve(job.producer) }
        } catch {
            preconditionFailure("a new worker thread accepts its first job")
        }
    }

    /// Asks for a tile. The worker takes requests in the order given.
    func request(_ r: TileRequest) {
        exchange.withLock { $0.requests.append(r) }
        try? wake.signal()
    }

    /// Whether deliveries wait for `take`: one atomic load, for every frame.
    var hasDeliveries: Bool { waiting.load(ordering: .acquiring) > 0 }

    /// Moves every delivery that came back into `out` (which keeps its capacity); returns how many.
    @discardableResult
    func take(into out: inout [TileDelivery]) -> Int {
        _ = try? delivered.drain()
        return exchange.withLock { (e: inout Exchange) -> Int in
            let n = e.deliveries.count
            out.append(contentsOf: e.deliveries)
            e.deliveries.removeAll(keepingCapacity: true)
            waiting.subtract(n, ordering: .releasing)
            return n
        }
    }

    /// Tiles decoded and tiles that failed, since start.
    var counts: (decoded: Int, failed: Int) { exchange.withLock { ($0.decoded, $0.failed) } }

    /// Stops the worker after the tile under way; requests not started are dropped. Safe to call
    /// twice (a view closed at a reload is closed again when it is freed): the descriptors are
    /// closed once, never again after their numbers may have been given to another file.
    func close() {
        let already = exchange.withLock { (e: inout Exchange) -> Bool in
            defer { e.closing = true }
            return e.closing
        }
        guard !already else { return }
        try? wake.signal()
        worker.close()
        wake.close()
        delivered.close()
    }

    /// The worker's life: take the oldest request, produce it outside the lock, hand it back.
    private func serve(_ producer: TileProducer) {
        while true {
            let next = exchange.withLock { (e: inout Exchange) -> TileRequest?? in
                if e.closing { return .none }
                if e.requests.isEmpty { return .some(nil) }
                return .some(e.requests.removeFirst())
            }
            guard let request = next else { return }
            guard let request else {
                // No timeout: `close` wakes it, and an idle worker must not allocate (poll's array) once a second.
                _ = try? wake.descriptor.waitUntilReadable(timeoutMilliseconds: -1)
                _ = try? wake.drain()
                continue
            }
            let delivery = producer.produce(request)
            exchange.withLock { (e: inout Exchange) in
                e.deliveries.append(delivery)
                waiting.add(1, ordering: .releasing)
                if delivery.problem != nil { e.failed += 1 } else if !delivery.blank { e.decoded += 1 }
            }
            try? delivered.signal()
        }
    }
}

/// Hands the producer (a store and a decoder, for one thread) to the worker that alone uses it.
private final class WorkerJob: @unchecked Sendable {
    let producer: TileProducer
    init(producer: TileProducer) { self.producer = producer }
}
