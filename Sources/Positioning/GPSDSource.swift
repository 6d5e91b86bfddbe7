import Config
import GPSD
import Location
import Syscall
import Systemd

/// Fixes from gpsd through the reconnecting client.
public final class GPSDSource: PositionSource {
    private let client: GPSDClient
    public let name: String
    public let staleAfter: Double
    private let sky: SkyCount

    public init(endpoint: GPSDEndpoint, settings: SourceSettings, emit: @escaping (FeedEvent) -> Void) throws(SourceSetupError) {
        let configuration = GPSDClient.Configuration(endpoint: endpoint, device: settings.gpsDevice,
                                                     silenceTimeout: .nanoseconds(Int64(settings.silenceTimeout * 1e9)))
        let sky = SkyCount()
        self.sky = sky
        let device = settings.gpsDevice
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
                case .sky(let report):
                    // SKY has no device filter of its own in the client: a second receiver's
                    // satellites are not this fix's.
                    if let used = report.satellitesUsed, device == nil || report.device == nil || report.device == device {
                        sky.used = used
                    }
                case .noFix, .gst:
                    break
                }
            }
        } catch {
            throw SourceSetupError("[source] gpsd: \(error)")
        }
        name = "gpsd \(endpoint)" + (settings.gpsDevice.map { " (\($0))" } ?? "")
        staleAfter = settings.staleAfter
    }

    public func start(now: MonotonicInstant) { client.start(now: now) }
    public func stop() { client.stop() }
    public var descriptor: Int32 { client.descriptor ?? -1 }
    public var pollEvents: Int16 { client.pollEvents }
    public var deadline: MonotonicInstant? { client.deadline }
    public func handle(revents: Int16, now: MonotonicInstant) { client.handle(revents: revents, now: now) }
    public func tick(now: MonotonicInstant) { client.tick(now: now) }
    public var reconnects: Int { max(client.statistics.connections - 1, 0) }
    public var skippedLines: Int { client.statistics.skipped.total }
    public var satellitesUsed: Int? { sky.used }
    public var gpsdHealth: GPSDHealth? { client.health }
}

/// The last SKY's count, kept where the client's event closure can write it.
private final class SkyCount {
    var used: Int?
}
