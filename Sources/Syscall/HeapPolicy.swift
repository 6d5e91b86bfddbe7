import CLinux

/// How the C heap treats the daemon's frame-sized buffers.
public enum HeapPolicy {
    /// glibc raises its mmap threshold whenever a large mapped block is freed, so the next
    /// frame-sized buffers (a reload's new canvas and map window) come from the heap instead,
    /// whose freed space is rarely given back: measured, every SIGHUP reload at 1280x800 then left
    /// RssAnon about 4 MB higher for good. A fixed threshold keeps every large buffer in its own
    /// mapping, returned to the kernel when it is freed. Call once at start-up.
    @discardableResult
    public static func returnLargeBuffersWhenFreed(threshold: Int32 = 128 << 10) -> Bool {
        mallopt(M_MMAP_THRESHOLD, threshold) == 1
    }
}
