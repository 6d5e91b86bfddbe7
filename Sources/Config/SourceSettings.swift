import GPSD
import Geo

/// Where positions come from: exactly one of gpsd, a fixed position, or a replayed file.
public enum SourceKind: Equatable, Sendable {
    case gpsd(GPSDEndpoint)
    /// A stop kiosk: one surveyed position, never stale.
    case position(GeoPoint)
    /// An NMEA file or a gpsd JSON log, played at real speed × `SourceSettings.replaySpeed`.
    case replay(path: String)
}

/// The `[source]` section.
///
/// `gpsd`, `position` and `replay` are alternatives: setting one replaces the others, so a
/// `--set source.replay=drive.nmea` switches a gpsd configuration to the replay. One file naming
/// two of them is an error (`Configuration.validate`), since one of the two lines would be ignored.
public struct SourceSettings: Sendable {
    public var source: SourceKind = .gpsd(.default)
    public var replaySpeed: Double = 1
    /// Only fixes from this receiver (gpsd's `device` path); nil: every receiver gpsd reads.
    public var gpsDevice: String? = nil
    /// Seconds without a fix before the stale look.
    public var staleAfter: Double = 30
    /// Seconds without any data from gpsd (while it reports a receiver) before reconnecting.
    public var silenceTimeout: Double = 10

    public init() {}

    /// The keys that choose the source; at most one of them per file.
    static let alternatives = ["gpsd", "position", "replay"]

    /// The gpsd client's configuration when the source is gpsd, else nil.
    public var gpsdClientConfiguration: GPSDClient.Configuration? {
        guard case .gpsd(let endpoint) = source else { return nil }
        return GPSDClient.Configuration(endpoint: endpoint, device: gpsDevice,
                                        silenceTimeout: .milliseconds(Int64((silenceTimeout * 1000).rounded())))
    }
}

extension SettingsTable {
    static let sourceKeys: [SettingKey] = [
        SettingKey(section: "source", name: "gpsd", allowed: "`HOST:PORT`, `HOST` or `[IPv6]:PORT` (port 2947 when left out)",
                   meaning: "take fixes from the gpsd at this address (the default source)",
                   parse: { text, s, _ throws(SettingProblem) in
                       do throws(GPSDEndpoint.ParseError) {
                           s.source.source = .gpsd(try GPSDEndpoint(parsing: text))
                       } catch {
                           throw SettingProblem("not a gpsd address: \(error.problem) (expected HOST:PORT or [IPv6]:PORT)")
                       }
                   },
                   show: {
                       if case .gpsd(let endpoint) = $0.source.source { return endpoint.description }
                       return GPSDEndpoint.default.description
                   }),
        SettingKey(section: "source", name: "position", allowed: "`LAT,LON` in degrees, or none",
                   meaning: "a fixed position instead of gpsd (a stop kiosk); it never goes stale",
                   parse: { text, s, _ throws(SettingProblem) in
                       if text == "none" {
                           if case .position = s.source.source { s.source.source = .gpsd(.default) }
                       } else {
                           s.source.source = .position(try parseGeoPoint(text, what: "position"))
                       }
                   },
                   show: {
                       if case .position(let p) = $0.source.source { return formatGeoPoint(p) }
                       return "none"
                   }),
        SettingKey(section: "source", name: "replay", allowed: "file path, or none",
                   meaning: "replay an NMEA file or a gpsd JSON log instead of gpsd, at real speed × replaySpeed",
                   parse: { text, s, origin throws(SettingProblem) in
                       if text == "none" {
                           if case .replay = s.source.source { s.source.source = .gpsd(.default) }
                       } else {
                           let path = try parseReadableFile(text, origin: origin, what: "an NMEA file or a gpsd JSON log")
                           s.source.source = .replay(path: path)
                       }
                   },
                   show: {
                       if case .replay(let path) = $0.source.source { return path }
                       return "none"
                   }),
        number(section: "source", "replaySpeed", .above(0), "how many times faster than real time a replay plays", { $1(&$0.source.replaySpeed) }),
        SettingKey(section: "source", name: "gpsDevice", allowed: "receiver path (e.g. `/dev/ttyACM0`), or all",
                   meaning: "take fixes only from this receiver when gpsd reads several",
                   parse: { text, s, _ throws(SettingProblem) in
                       guard text != "all" else {
                           s.source.gpsDevice = nil
                           return
                       }
                       guard !text.isEmpty, !text.contains(where: { $0 == " " || $0 == "\t" }) else {
                           throw SettingProblem("not a receiver path (expected a device path such as /dev/ttyACM0, or all)")
                       }
                       do throws(GPSDClient.ConfigurationError) {
                           _ = try GPSDClient.watchRequest(device: text)
                       } catch {
                           throw SettingProblem(error.description)
                       }
                       s.source.gpsDevice = text
                   },
                   show: { $0.source.gpsDevice ?? "all" }),
        duration(section: "source", "staleAfter", .above(0), infinity: true,
                 "seconds without a fix before the dot takes the stale look; inf: never", { $1(&$0.source.staleAfter) }),
        duration(section: "source", "silenceTimeout", .above(0),
                 "seconds without any data from gpsd, while it reports a receiver, before reconnecting", { $1(&$0.source.silenceTimeout) }),
    ]
}
