import Syscall

/// The object kinds whose properties an atomic commit sets.
public enum AtomicObject: Sendable {
    case connector, crtc, plane
}

/// One atomic commit's properties, grouped by object as the kernel takes them. Its arrays are
/// reserved once and emptied with their capacity kept, so building a frame's commit allocates
/// nothing.
public struct AtomicRequest {
    public private(set) var objects: [UInt32] = []
    /// How many of `properties` belong to each of `objects`, in order.
    public private(set) var counts: [UInt32] = []
    public private(set) var properties: [UInt32] = []
    public private(set) var values: [UInt64] = []

    public init(capacity: Int = 32) {
        objects.reserveCapacity(capacity)
        counts.reserveCapacity(capacity)
        properties.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    public mutating func removeAll() {
        objects.removeAll(keepingCapacity: true)
        counts.removeAll(keepingCapacity: true)
        properties.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
    }

    /// Adds `property` = `value` on `object`; a property id of 0 (the driver has no such
    /// property) is left out.
    public mutating func set(_ object: UInt32, _ property: UInt32, _ value: UInt64) {
        if property == 0 { return }
        if objects.last != object {
            objects.append(object)
            counts.append(0)
        }
        counts[counts.count - 1] += 1
        properties.append(property)
        values.append(value)
    }

    public mutating func set(_ object: UInt32, _ property: UInt32, signed value: Int) {
        set(object, property, UInt64(bitPattern: Int64(value)))
    }

    /// The value the request gives `property` of `object`, for the tests' doubles.
    public func value(of object: UInt32, _ property: UInt32) -> UInt64? {
        var start = 0
        for (i, o) in objects.enumerated() {
            let n = Int(counts[i])
            if o == object, let k = properties[start..<start + n].firstIndex(of: property) { return values[k] }
            start += n
        }
        return nil
    }
}

public struct AtomicFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Only asks whether the driver would take it.
    public static let testOnly = AtomicFlags(rawValue: 1 << 0)
    /// Returns at once; completion comes as a page-flip event.
    public static let nonblocking = AtomicFlags(rawValue: 1 << 1)
    public static let allowModeset = AtomicFlags(rawValue: 1 << 2)
    /// A page-flip event when the commit is on screen.
    public static let event = AtomicFlags(rawValue: 1 << 3)
}

/// A card that takes atomic commits: what the planes output needs beyond the legacy calls.
/// `enableAtomic()` (on `DRMCard`) must have returned 0 first.
extension DRMCard {
    /// A legacy-only card (a cast to `AtomicCard` would not compile as Embedded Swift).
    public var atomic: (any AtomicCard)? { nil }
}

extension AtomicCard {
    public var atomic: (any AtomicCard)? { self }
}

public protocol AtomicCard: DRMCard {
    /// Property ids by name of one object (e.g. "FB_ID", "CRTC_X" of a plane).
    func propertyIDs(of object: UInt32, _ kind: AtomicObject) throws(SyscallError) -> [String: UInt32]
    /// A blob holding `mode`'s timings, for the CRTC's MODE_ID.
    func createModeBlob(_ mode: DisplayMode) throws(SyscallError) -> UInt32
    func destroyBlob(_ id: UInt32)
    /// One atomic commit; with `.event` its completion is counted by `handleEvents()` like a
    /// page flip's.
    func commit(_ request: AtomicRequest, flags: AtomicFlags) throws(SyscallError)
    /// A dumb buffer whose framebuffer is ARGB8888 (the pixels' layout is `PixelFormat.xrgb8888`'s,
    /// the fourth byte the alpha).
    func createSpriteBuffer(width: Int, height: Int) throws(SyscallError) -> ScanoutBuffer
    /// Clears DRM_CLIENT_CAP_ATOMIC (and the writeback cap) again, keeping universal planes: the legacy path then runs
    /// on this descriptor as on one that never asked.
    func disableAtomic()
    /// Sets DRM_CLIENT_CAP_WRITEBACK_CONNECTORS (after atomic): 0, or the errno. The resources
    /// then list the card's writeback connectors ("Writeback-1") too.
    func enableWriteback() -> Int32
    /// Waits at most `timeoutMilliseconds` for the fence `fd` (a writeback's out-fence) to signal,
    /// then closes it: whether it signalled.
    func waitForFence(_ fd: Int32, timeoutMilliseconds: Int32) -> Bool
    /// The largest framebuffer the driver takes (its mode config's max width and height); nil
    /// when it cannot be read.
    func largestFramebuffer() -> (width: Int, height: Int)?
}

extension FourCC {
    public static let argb8888: UInt32 = code("AR24")
}
