// Mutex for the Embedded build: the toolchain's Embedded Synchronization module is made for bare
// metal and has no Mutex, which needs an operating system to wait in. This one is a pthread mutex
// with the part of the hosted API the daemon uses (init, withLock).
import Glibc

public final class Mutex<Value: ~Copyable>: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    public init(_ initialValue: consuming sending Value) {
        value = initialValue
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    public func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value)
    }
}

/// `Atomic<Int>` for the Embedded build, every access sequentially consistent (at least as
/// strong as any ordering asked for).
public final class Atomic<Value>: @unchecked Sendable {
    private let cell = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    public init(_ initialValue: Int) where Value == Int { cell.initialize(to: initialValue) }
    deinit { cell.deallocate() }

    private var raw: UnsafeMutablePointer<CLong> { UnsafeMutableRawPointer(cell).assumingMemoryBound(to: CLong.self) }
}

extension Atomic where Value == Int {
    public func load(ordering: AtomicLoadOrdering) -> Int { Int(_pulsedot_atomic_load(raw)) }
    public func add(_ n: Int, ordering: AtomicUpdateOrdering) { _pulsedot_atomic_add(raw, CLong(n)) }
    public func subtract(_ n: Int, ordering: AtomicUpdateOrdering) { _pulsedot_atomic_add(raw, CLong(-n)) }
}

public struct AtomicLoadOrdering: Sendable {
    public static var relaxed: Self { Self() }
    public static var acquiring: Self { Self() }
    public static var sequentiallyConsistent: Self { Self() }
}

public struct AtomicUpdateOrdering: Sendable {
    public static var relaxed: Self { Self() }
    public static var acquiring: Self { Self() }
    public static var releasing: Self { Self() }
    public static var acquiringAndReleasing: Self { Self() }
    public static var sequentiallyConsistent: Self { Self() }
}
