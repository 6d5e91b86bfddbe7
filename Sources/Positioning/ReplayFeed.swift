import Config
import Syscall
import Systemd

/// A recorded NMEA file or gpsd JSON log, replayed on the monotonic clock at `replaySpeed`.
public final class ReplayFeed: PositionSource {
    private var replay: ReplaySource
    private let emit: (FeedEvent) -> Void
    public let name: String
    public let staleAfter: Double
    private var ended = false

    /// Reads the whole file now, so a reload fails before anything is swapped.
    public init(path: String, settings: SourceSettings, now: MonotonicInstant, emit: @escaping (FeedEvent) -> Void) throws(SourceSetupError) {
        let log: ReplayLog
        do {
            log = try ReplayLog.load(path: path)
        } catch {
            throw SourceSetupError("[source] replay: \(error)")
        }
        replay = ReplaySource(log: log, speed: settings.replaySpeed, start: now)
        self.emit = emit
        name = "replay \(path)" + (settings.replaySpeed == 1 ? "" : " ×\(formatNumber(settings.replaySpeed))")
        staleAfter = settings.staleAfter
    }

    public func start(now: MonotonicInstant) {
        // The clock starts now, not when the file was read (a reload may read it long before).
        replay = ReplaySource(log: replay.log, speed: replay.speed, start: now)
        emit(.log(.info, replay.log.summary, topic: nil))
    }

    public var deadline: MonotonicInstant? { replay.nextDue }

    public func tick(now: MonotonicInstant) {
        guard let due = replay.nextDue, due <= now else { return }
        while let event = replay.next(now: now) {
            if case .fix(let fix) = event { emit(.fix(fix)) }
        }
        if replay.isFinished && !ended {
            ended = true
            emit(.log(.notice, "replay \(replay.log.path) ended after \(Int(replay.log.duration / replay.speed)) s; the dot goes stale", topic: nil))
        }
    }

    public var skippedLines: Int { replay.log.skips.total }
}
