import Config
import Syscall

/// The configured `[source]` as a `PositionSource`, built (a replay file read whole) but not started.
public func makePositionSource(_ settings: SourceSettings, now: MonotonicInstant,
                               emit: @escaping (FeedEvent) -> Void) throws(SourceSetupError) -> any PositionSource {
    switch settings.source {
    case .gpsd(let endpoint):
        return try GPSDSource(endpoint: endpoint, settings: settings, emit: emit)
    case .position(let point):
        return FixedSource(point, emit: emit)
    case .replay(let path):
        return try ReplayFeed(path: path, settings: settings, now: now, emit: emit)
    }
}
