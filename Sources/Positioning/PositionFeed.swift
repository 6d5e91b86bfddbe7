import Config
import GPSD
import Geo
import Glibc
import Syscall
import Systemd

/// What a position source tells the daemon.
public enum FeedEvent: Sendable {
    case fix(Fix)
    /// A line for the log; `topic` lines are said once while they repeat.
    case log(LogLevel, String, topic: String?)
}

/// The configured `[source]` behind one face for the poll loop: gpsd (the reconnecting client), a
/// fixed position (one fix at start that never goes stale), or a replayed log paced on the
/// monotonic clock. Each loop iteration: poll `descriptor` for `pollEvents`, fold `deadline` into
/// the timeout, then `handle(revents:now:)` and `tick(now:)`.
public final class PositionFeed {
    enum Kind {
        case gpsd(GPSDClient)
        case fixed(GeoPoint)
        case replay(ReplaySource)
    }

    private var kind: Kind
    private let emit: (FeedEvent) -> Void
    /// "gpsd 127.0.0.1:2947", "position 45.5,-73.6", "replay drive.nmea ×4": for STATUS and the log.
    public let name: String
    public let settings: SourceSettings
    private var replayEnded = false

    public struct SetupError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Builds the source (reading a replay file whole) without starting it.
    public init(_ settings: SourceSettings, now: MonotonicInstant, emit: @escaping (FeedEvent) -> Void) throws(SetupError) {
        self.settings = settings
        self.emit = emit
        switch settings.source {
        case .gpsd(let endpoint):
            let configuration = GPSDClient.Configuration(endpoint: endpoint, device: settings.gpsDevice,
                                                         silenceTimeout: .nanoseconds(Int64(settings.silenceTimeout * 1e9)))
            let client: GPSDClient
            do {
                client = try GPSDClient(configuration: configuration) { event in
                    switch event {
                    case .fix(let fix):
                        emit(.fix(fix))
                    case .stateChanged(let state, let message):
                        switch state {
                        case .unreachable, .lost: emit(.log(.warning, message, topic: "gpsd"))
                        case .noReceiver: emit(.log(.notice, message, topic: "gpsd"))
                        default: emit(.log(.info, message, topic: "gpsd"))
                        }
                    case .warning(let text):
                        emit(.log(.warning, text, topic: nil))
                    case .noFix, .sky, .gst:
                        break
                    }
                }
            } catch {
                throw SetupError(description: "[source] gpsd: \(error)")
            }
            kind = .gpsd(client)
            name = "gpsd \(endpoint)" + (settings.gpsDevice.map { " (\($0))" } ?? "")
        case .position(let point):
            kind = .fixed(point)
            name = "position \(formatGeoPoint(point))"
        case .replay(let path):
            let log: ReplayLog
            do {
                log = try ReplayLog.load(path: path)
            } catch {
                throw SetupError(description: "[source] replay: \(error)")
            }
            kind = .replay(ReplaySource(log: log, speed: settings.replaySpeed, start: now))
            name = "replay \(path)" + (settings.replaySpeed == 1 ? "" : " ×\(formatNumber(settings.replaySpeed))")
        }
    }

    /// Whether fixes from this source go stale (a surveyed position never does).
    public var staleAfter: Double {
        if case .fixed = kind { return .infinity }
        return settings.staleAfter
    }

    /// The fixed position, which also centres a map without its own centre.
    public var fixedPosition: GeoPoint? {
        if case .fixed(let p) = kind { return p }
        return nil
    }

    /// Connects, or delivers the fixed position, or starts the replay clock at `now`.
    public func start(now: MonotonicInstant) {
        switch kind {
        case .gpsd(let client):
            client.start(now: now)
        case .fixed(let p):
            emit(.log(.info, "fixed position \(formatGeoPoint(p)): it never goes stale", topic: nil))
            emit(.fix(Fix(latitude: p.latitude, longitude: p.longitude, mode: .twoD, receivedAt: now)))
        case .replay(let replay):
            // The clock starts now, not when the file was read (a reload may read it long before).
            let restarted = ReplaySource(log: replay.log, speed: replay.speed, start: now)
            kind = .replay(restarted)
            emit(.log(.info, replay.log.summary, topic: nil))
        }
    }

    public func stop() {
        if case .gpsd(let client) = kind { client.stop() }
    }

    public var descriptor: Int32 {
        if case .gpsd(let client) = kind { return client.descriptor ?? -1 }
        return -1
    }

    public var pollEvents: Int16 {
        if case .gpsd(let client) = kind { return client.pollEvents }
        return 0
    }

    public var deadline: MonotonicInstant? {
        switch kind {
        case .gpsd(let client): return client.deadline
        case .fixed: return nil
        case .replay(let replay): return replay.nextDue
        }
    }

    public func handle(revents: Int16, now: MonotonicInstant) {
        if case .gpsd(let client) = kind { client.handle(revents: revents, now: now) }
    }

    public func tick(now: MonotonicInstant) {
        switch kind {
        case .gpsd(let client):
            client.tick(now: now)
        case .fixed:
            break
        case .replay(var replay):
            guard let due = replay.nextDue, due <= now else { return }
            while let event = replay.next(now: now) {
                if case .fix(let fix) = event { emit(.fix(fix)) }
            }
            kind = .replay(replay)
            if replay.isFinished && !replayEnded {
                replayEnded = true
                emit(.log(.notice, "replay \(replay.log.path) ended after \(Int(replay.log.duration / replay.speed)) s; the dot goes stale", topic: nil))
            }
        }
    }

    /// Reconnections to gpsd since start (the first connection is not one).
    public var reconnects: Int {
        if case .gpsd(let client) = kind { return max(client.statistics.connections - 1, 0) }
        return 0
    }

    /// Lines skipped: gpsd lines the client could not use, or replay lines that were not part of a fix.
    public var skippedLines: Int {
        switch kind {
        case .gpsd(let client): return client.statistics.skipped.total
        case .fixed: return 0
        case .replay(let replay): return replay.log.skips.total
        }
    }
}
