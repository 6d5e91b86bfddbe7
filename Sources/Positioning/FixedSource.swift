import Config
import Geo
import Location
import Syscall
import Systemd

/// A surveyed position (a stop kiosk): one fix at start that never goes stale.
public final class FixedSource: PositionSource {
    public let point: GeoPoint
    private let emit: (FeedEvent) -> Void

    public init(_ point: GeoPoint, emit: @escaping (FeedEvent) -> Void) {
        self.point = point
        self.emit = emit
    }

    public var name: String { "position \(formatGeoPoint(point))" }
    public var staleAfter: Double { .infinity }
    public var fixedPosition: GeoPoint? { point }

    public func start(now: MonotonicInstant) {
        emit(.log(.info, "fixed position \(formatGeoPoint(point)): it never goes stale", topic: nil))
        emit(.fix(Fix(latitude: point.latitude, longitude: point.longitude, mode: .twoD, receivedAt: now)))
    }
}
