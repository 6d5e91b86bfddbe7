import HTTPWire

/// The `[realtime]` section: the agency's GTFS-realtime feeds, fetched over HTTPS on a worker
/// thread, and how much to trust them.
public struct RealtimeSettings: Sendable, Equatable {
    public var vehiclePositions: HTTPURL? = nil
    public var tripUpdates: HTTPURL? = nil
    public var alerts: HTTPURL? = nil
    /// Seconds between fetches of each feed.
    public var every: Double = 15
    /// Seconds a whole fetch may take, connect to last byte.
    public var timeout: Double = 10
    /// A feed whose header timestamp is older than this many seconds is no live data.
    public var staleAfter: Double = 120
    /// PEM certificates trusted instead of the system's (/etc/ssl/certs); nil: the system's.
    public var caFile: String? = nil
    /// The systemd credential holding the API key (`LoadCredential=NAME:PATH`); nil: no key.
    public var apiKeyCredential: String? = nil
    public var apiKeyHeader = RealtimeSettings.defaultAPIKeyHeader
    /// Whether the kernel's word that the clock is synchronised is needed before times are live;
    /// false: the clock is trusted as it is.
    public var clockChecked = true
    /// An HTTP proxy the fetches tunnel through (CONNECT); nil: straight to the servers.
    public var proxy: HTTPURL? = nil

    public static let defaultAPIKeyHeader = "x-api-key"

    public init() {}

    /// The feeds configured, by key name, in the order of the keys.
    public var feeds: [(name: String, url: HTTPURL)] {
        [("vehiclePositions", vehiclePositions), ("tripUpdates", tripUpdates), ("alerts", alerts)].compactMap { entry in
            entry.1.map { (entry.0, $0) }
        }
    }
}

extension SettingsTable {
    static let realtimeKeys: [SettingKey] = [
        feedURL("vehiclePositions", "the VehiclePositions feed: where the vehicles are", { $1(&$0.realtime.vehiclePositions) }),
        feedURL("tripUpdates", "the TripUpdates feed: delays, cancellations, new trips", { $1(&$0.realtime.tripUpdates) }),
        feedURL("alerts", "the Alerts feed: service alerts", { $1(&$0.realtime.alerts) }),
        duration(section: "realtime", "every", .closed(5, 3600), "seconds between fetches of each feed", { $1(&$0.realtime.every) }),
        duration(section: "realtime", "timeout", .closed(1, 120), "seconds a fetch may take, connect to last byte; nothing received for half of it (at most 5 s) ends it too", { $1(&$0.realtime.timeout) }),
        duration(section: "realtime", "staleAfter", .closed(10, 86400), "a feed whose header timestamp is older than this is no live data: the board shows the schedule", { $1(&$0.realtime.staleAfter) }),
        SettingKey(section: "realtime", name: "caFile", allowed: "path of a PEM file, or system",
                   meaning: "the certificates the feeds' servers are checked against, instead of the system's (/etc/ssl/certs); system: those",
                   parse: { text, s, origin throws(SettingProblem) in
                       if text == "system" { s.realtime.caFile = nil; return }
                       guard !text.isEmpty else { throw SettingProblem("empty path (expected a PEM file, or system)") }
                       s.realtime.caFile = try parseReadableFile(text, origin: origin, what: "a PEM file of certificates")
                   },
                   show: { $0.realtime.caFile ?? "system" }),
        SettingKey(section: "realtime", name: "apiKeyCredential", allowed: "credential name, or none",
                   meaning: "the systemd credential holding the API key (`LoadCredential=NAME:PATH` in a drop-in), read from $CREDENTIALS_DIRECTORY/NAME and never logged; none: no key",
                   parse: { text, s, _ throws(SettingProblem) in
                       if text == "none" { s.realtime.apiKeyCredential = nil; return }
                       guard !text.isEmpty, text.utf8.allSatisfy({ isNameByte($0) }), text != ".", text != ".." else {
                           throw SettingProblem("not a credential name (letters, digits, '-', '_', '.'; the name given to LoadCredential=)")
                       }
                       s.realtime.apiKeyCredential = text
                   },
                   show: { $0.realtime.apiKeyCredential ?? "none" }),
        SettingKey(section: "realtime", name: "clock", allowed: "checked, trusted",
                   meaning: "checked: no live data while the kernel says the clock is not synchronised (adjtimex: no NTP client, chrony or systemd-timesyncd has set it), since minutes to a departure are only as right as the clock; trusted: the clock is taken as right (kept by other means, a testbed)",
                   parse: { text, s, _ throws(SettingProblem) in s.realtime.clockChecked = try parseChoice(text, [("checked", true), ("trusted", false)]) },
                   show: { $0.realtime.clockChecked ? "checked" : "trusted" }),
        SettingKey(section: "realtime", name: "apiKeyHeader", allowed: "HTTP header name",
                   meaning: "the request header the API key is sent in, to the feed's own host only",
                   parse: { text, s, _ throws(SettingProblem) in
                       // The HTTP layer's own rule (a token, and not Host, Content-Length,
                       // Transfer-Encoding or Connection), so the two can never disagree.
                       if let problem = HTTPFieldName.configuredProblem(text) { throw SettingProblem(problem) }
                       s.realtime.apiKeyHeader = text
                   },
                   show: { $0.realtime.apiKeyHeader }),
        SettingKey(section: "realtime", name: "proxy", allowed: "`http://HOST:PORT`, or none",
                   meaning: "an HTTP proxy every fetch tunnels through with CONNECT (TLS end to end: the proxy sees the host, never the request or the key), for sites whose only way out is a fixed proxy — docs/kiosk.md has the matching allow-list drop-in; none: straight to the servers",
                   parse: { text, s, _ throws(SettingProblem) in
                       if text == "none" { s.realtime.proxy = nil; return }
                       let url: HTTPURL
                       do throws(HTTPWireError) { url = try HTTPURL(parsing: text) } catch { throw SettingProblem(error.message) }
                       guard !url.isTLS, url.target == "/" else { throw SettingProblem("a proxy is `http://HOST:PORT` (no path; the tunnel itself carries TLS)") }
                       s.realtime.proxy = url
                   },
                   show: { $0.realtime.proxy?.description ?? "none" }),
    ]

    static func feedURL(_ name: String, _ meaning: String, _ path: @escaping Path<HTTPURL?>) -> SettingKey {
        SettingKey(section: "realtime", name: name, allowed: "`https://` or `http://` URL, or none", meaning: meaning + "; none: not fetched",
                   parse: { text, s, _ throws(SettingProblem) in
                       if text == "none" { path(&s) { $0 = nil }; return }
                       do throws(HTTPWireError) {
                           let url = try HTTPURL(parsing: text)
                           path(&s) { $0 = url }
                       } catch {
                           throw SettingProblem(error.message)
                       }
                   },
                   show: { read($0, path)?.description ?? "none" })
    }
}

private func isNameByte(_ c: UInt8) -> Bool {
    (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F || c == 0x2E
}
