import Location
import Syscall

/// A gpsd TPV report as the position it carries.
extension Fix {
    /// The fix a TPV carries, or nil when it carries none: mode below 2 (or absent), or no lat/lon
    /// (some receivers send 2D TPVs with altitude only). The decoder has already rejected
    /// non-finite and out-of-range values.
    public init?(_ tpv: TPVReport, receivedAt: MonotonicInstant) {
        guard let mode = tpv.mode, mode >= .twoD, let lat = tpv.latitude, let lon = tpv.longitude else { return nil }
        var error = tpv.eph
        if error == nil, tpv.epx != nil || tpv.epy != nil {
            error = max(tpv.epx ?? 0, tpv.epy ?? 0)
        }
        self.init(latitude: lat, longitude: lon, mode: mode, horizontalError: error, track: tpv.track,
                  speed: tpv.speed, time: tpv.time, device: tpv.device, status: tpv.status ?? .normal,
                  receivedAt: receivedAt)
    }
}
