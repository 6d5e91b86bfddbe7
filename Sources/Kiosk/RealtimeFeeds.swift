import GTFSRealtime

/// The three GTFS-realtime feeds a kiosk reads.
public enum RealtimeFeed: Int, CaseIterable, Sendable {
    case vehiclePositions, tripUpdates, alerts

    /// As `[realtime]` names it.
    public var name: String {
        switch self {
        case .vehiclePositions: "vehiclePositions"
        case .tripUpdates: "tripUpdates"
        case .alerts: "alerts"
        }
    }

    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }
}

/// What one fetch brought, as the worker is handed it.
public enum FetchedBody: Sendable {
    case fresh([UInt8])
    /// A feed already decoded (a producer in the same process: the demo, a benchmark).
    case message(FeedMessage)
    /// 304: the feed read last still holds.
    case notModified
    /// The fetch failed; `kind` as the metrics count it, `sentence` for people.
    case failed(kind: String, sentence: String)
}

/// One feed's last good message and what became of the fetches since.
struct FeedState {
    var message: FeedMessage?
    /// UTC seconds the message speaks for: its header timestamp, the fetch time where it has none
    /// or claims a time ahead of the clock.
    var time: Double?
    /// The last fetch failed (or could not be read): why.
    var failure: String?
    /// The last problem said, so each is said once until it changes.
    var said: String?

    func age(at now: Double) -> Double? { time.map { max(0, now - $0) } }

    /// Takes a message read at `now`; what to say of it, if anything.
    mutating func read(_ message: FeedMessage, at now: Double) -> String? {
        self.message = message
        failure = nil
        guard let stamp = message.header.timestamp else {
            time = now
            return "no header timestamp: its age is counted from the fetch"
        }
        let t = Double(stamp)
        if t > now + 60 {
            time = now
            return "header timestamp \(Int64(t - now)) s ahead of the clock: taken as the fetch time"
        }
        time = t
        guard message.skippedEntities > 0 else { return nil }
        return "\(message.skippedEntities) entities unreadable and skipped, the rest used" + (message.firstSkipError.map { " (first: \($0.description))" } ?? "")
    }
}

/// The feeds' states, and the lines to say when one goes wrong or comes back.
struct FeedStates {
    private var states = [FeedState](repeating: FeedState(), count: RealtimeFeed.allCases.count)

    subscript(feed: RealtimeFeed) -> FeedState {
        get { states[feed.rawValue] }
        set { states[feed.rawValue] = newValue }
    }

    /// Takes a fetch's outcome at `now` (UTC seconds); returns a line when there is one to say:
    /// a failure different from the last said, a feed back after one, a header from the future,
    /// DIFFERENTIAL. A bad body keeps the last good message.
    mutating func take(_ feed: RealtimeFeed, _ body: FetchedBody, at now: Double) -> String? {
        var s = self[feed]
        defer { self[feed] = s }
        var problem: String?
        switch body {
        case .notModified:
            // Unchanged on the server: the same header time, unless it had none.
            if s.message?.header.timestamp == nil, s.message != nil { s.time = now }
            s.failure = nil
        case .failed(_, let sentence):
            s.failure = sentence
            problem = sentence
        case .message(let message):
            problem = s.read(message, at: now)
        case .fresh(let bytes):
            do throws(RealtimeError) {
                problem = s.read(try FeedMessage(decoding: bytes), at: now)
            } catch {
                s.failure = error.description
                problem = error.kind == .differential ? "DIFFERENTIAL feeds are not supported: the feed is not used (a FULL_DATASET feed is needed)" : error.description + "; the last good feed is kept"
            }
        }
        if let problem {
            guard problem != s.said else { return nil }
            s.said = problem
            return "\(feed.name): \(problem)"
        }
        if s.said != nil, s.failure == nil {
            s.said = nil
            return "\(feed.name): fetched and read again"
        }
        return nil
    }

    /// The board's state: live only with a fresh TripUpdates feed on a synchronised clock.
    func live(configured: Bool, at now: Double, staleAfter: Double, clockSynchronised: Bool) -> LiveData {
        guard configured else { return .noFeed }
        let s = self[.tripUpdates]
        guard clockSynchronised else { return .clockNotSynchronised }
        guard let age = s.age(at: now) else { return s.failure.map { .unreachable($0) } ?? .waiting }
        if age > staleAfter {
            if let failure = s.failure { return .unreachable(failure) }
            return .stale(seconds: Int64(age))
        }
        return .live
    }
}
