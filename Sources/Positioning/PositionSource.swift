import GPSD
import Geo
import Location
import Syscall
import Systemd

/// What a position source tells the daemon.
public enum FeedEvent: Sendable {
    case fix(Fix)
    /// A line for the log; `topic` lines are said once while they repeat.
    case log(LogLevel, String, topic: String?)
}

/// Where the daemon's positions come from — gpsd, a fixed position or a replayed log — as the
/// poll loop drives it: each iteration it polls `descriptor` for `pollEvents`, folds `deadline`
/// into the timeout, then calls `handle(revents:now:)` and `tick(now:)`. Events go to the
/// closure the source was made with.
public protocol PositionSource: AnyObject {
    /// "gpsd 127.0.0.1:2947", "position 45.5,-73.6", "replay drive.nmea ×4": for STATUS and the log.
    var name: String { get }
    /// Seconds without a fix before the dot takes the stale look (infinity: never).
    var staleAfter: Double { get }
    /// A fixed position, which also centres a map without its own centre.
    var fixedPosition: GeoPoint? { get }
    /// Connects, or delivers the fixed position, or starts the replay clock at `now`.
    func start(now: MonotonicInstant)
    func stop()
    /// The descriptor to poll, or -1.
    var descriptor: Int32 { get }
    var pollEvents: Int16 { get }
    var deadline: MonotonicInstant? { get }
    func handle(revents: Int16, now: MonotonicInstant)
    func tick(now: MonotonicInstant)
    /// Reconnections since start (the first connection is not one).
    var reconnects: Int { get }
    /// Lines skipped: lines the source could not use.
    var skippedLines: Int { get }
    /// Satellites used in the fix, as the receiver last reported them (gpsd's SKY); nil: never
    /// reported (a fixed position, a replay, a gpsd that sends no SKY).
    var satellitesUsed: Int? { get }
    /// Whether gpsd answers and has a receiver feeding it, for a source that reads gpsd; nil for
    /// the others. Tells a dead antenna (receiving, no fix) from a dead gpsd or an unplugged receiver.
    var gpsdHealth: GPSDHealth? { get }
}

extension PositionSource {
    public var fixedPosition: GeoPoint? { nil }
    public var descriptor: Int32 { -1 }
    public var pollEvents: Int16 { 0 }
    public var deadline: MonotonicInstant? { nil }
    public func stop() {}
    public func handle(revents: Int16, now: MonotonicInstant) {}
    public func tick(now: MonotonicInstant) {}
    public var reconnects: Int { 0 }
    public var skippedLines: Int { 0 }
    public var satellitesUsed: Int? { nil }
    public var gpsdHealth: GPSDHealth? { nil }
}

/// A source that cannot be set up, as one line naming the key.
public struct SourceSetupError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
