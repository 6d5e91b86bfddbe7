import JSON
import Syscall

/// A position to show, from whatever source: what the daemon animates and `pulsedot watch` prints.
public struct Fix: Equatable, Sendable {
    /// Degrees, WGS84.
    public var latitude: Double
    public var longitude: Double
    /// 2D or 3D (a TPV without a fix never becomes a Fix).
    public var mode: FixMode
    /// Horizontal error in metres (about 95 %): gpsd's eph, else the larger of epx and epy.
    public var horizontalError: Double?
    /// Course over ground in degrees from true north.
    public var track: Double?
    /// Metres per second.
    public var speed: Double?
    /// The receiver's time of fix; only for ordering (see FixTime).
    public var time: FixTime?
    /// The receiver's path, when gpsd names it.
    public var device: String?
    /// gpsd leaves status out for a plain fix: that reads as `.normal`.
    public var status: FixStatus
    /// When the fix arrived, on the monotonic clock: what animation and staleness are measured by.
    public var receivedAt: MonotonicInstant

    public init(latitude: Double, longitude: Double, mode: FixMode, horizontalError: Double? = nil,
                track: Double? = nil, speed: Double? = nil, time: FixTime? = nil, device: String? = nil,
                status: FixStatus = .normal, receivedAt: MonotonicInstant) {
        self.latitude = latitude
        self.longitude = longitude
        self.mode = mode
        self.horizontalError = horizontalError
        self.track = track
        self.speed = speed
        self.time = time
        self.device = device
        self.status = status
        self.receivedAt = receivedAt
    }

    /// One JSON object on one line, always the same keys in the same order, null for unknown values:
    /// `{"lat":52.5,"lon":13.4,"mode":3,"eph":4.6,"track":90.0,"speed":5.1,"time":"...","device":"...","status":"dgps"}`.
    /// Numbers print in their shortest exact form, so they read back as the same Double.
    public var jsonLine: String {
        JSONWriter.object { w in
            w.field("lat", latitude)
            w.field("lon", longitude)
            w.field("mode", mode.rawValue)
            w.field("eph", horizontalError)
            w.field("track", track)
            w.field("speed", speed)
            w.field("time", time?.description)
            w.field("device", device)
            w.field("status", status.description)
        }
    }
}
