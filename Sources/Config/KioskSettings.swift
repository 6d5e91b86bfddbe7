import Raster

/// The `[kiosk]` section: a stop's screen. The map stands at the kiosk's `[source] position` with
/// its own pulsing dot; the routes serving the stop are drawn as lines, the vehicles coming to it
/// as markers, and a departures board with an alerts line is shown beside or below the map.
public struct KioskSettings: Sendable, Equatable {
    /// The stops (or a parent station, taking its platforms) the board is for; empty: no kiosk.
    public var stops: [String] = []
    /// Rows on the board.
    public var departures = 6
    /// Markers at most: the vehicles nearest their departure from the stop first.
    public var vehicles = 20
    /// Minutes ahead the board looks for departures.
    public var within = 90.0
    /// Metres from its trip's line beyond which a vehicle is drawn where it is, as diverted.
    public var divertedMeters = 200.0
    public var layout = KioskLayout.auto

    public init() {}

    /// A kiosk is shown: at least one stop is configured.
    public var isActive: Bool { !stops.isEmpty }

    /// Where the board goes on a canvas: a column of 9/25 of its width along the right edge, or
    /// a band of 2/5 of its height along the bottom.
    public func boardRect(canvasWidth w: Int, canvasHeight h: Int) -> Rect {
        switch layout.resolved(width: w, height: h) {
        case .below:
            let bh = h * 2 / 5
            return Rect(x: 0, y: h - bh, width: w, height: bh)
        case .beside, .auto:
            let bw = w * 9 / 25
            return Rect(x: w - bw, y: 0, width: bw, height: h)
        }
    }

    /// How far the view moves so the stop stands in the middle of the map the board leaves
    /// visible (map pixels to add to the view's offset); none without a kiosk.
    public func viewShift(canvasWidth w: Int, canvasHeight h: Int) -> (x: Int, y: Int) {
        guard isActive else { return (0, 0) }
        let board = boardRect(canvasWidth: w, canvasHeight: h)
        return board.y == 0 ? (board.width / 2, 0) : (0, board.height / 2)
    }
}

/// Where the departures board goes.
public enum KioskLayout: String, CaseIterable, Sendable {
    /// Beside on a landscape screen, below on a portrait one.
    case auto
    /// A column along the right edge.
    case beside
    /// A band along the bottom edge.
    case below

    /// The layout for a canvas of this size.
    public func resolved(width: Int, height: Int) -> KioskLayout {
        switch self {
        case .auto: return width >= height ? .beside : .below
        case .beside, .below: return self
        }
    }
}

extension SettingsTable {
    static let kioskKeys: [SettingKey] = [
        SettingKey(section: "kiosk", name: "stop", allowed: "`STOP_ID` or several separated by commas, or none",
                   meaning: "the stop this screen stands at (a parent station takes its platforms, each row showing its platform_code): the map at `[source] position` with the kiosk's dot, the routes serving the stop as lines, the vehicles coming as markers, a departures board and an alerts line, from `[transit] gtfs` and the `[realtime]` feeds; none: no kiosk",
                   parse: { text, s, _ throws(SettingProblem) in
                       if text == "none" { s.kiosk.stops = []; return }
                       let ids = text.split(separator: ",", omittingEmptySubsequences: false).map { trimmed(String($0)) }
                       guard !ids.contains(where: { $0.isEmpty }) else {
                           throw SettingProblem("an empty stop id (expected stop ids separated by commas, or none)")
                       }
                       s.kiosk.stops = ids
                   },
                   show: { $0.kiosk.stops.isEmpty ? "none" : $0.kiosk.stops.joined(separator: ",") }),
        SettingKey(section: "kiosk", name: "departures", allowed: "1 to 20",
                   meaning: "rows on the departures board: the next departures, soonest first (predicted, else scheduled)",
                   parse: { text, s, _ throws(SettingProblem) in s.kiosk.departures = try parseCount(text, 1...20) },
                   show: { String($0.kiosk.departures) }),
        SettingKey(section: "kiosk", name: "vehicles", allowed: "0 to 100",
                   meaning: "markers at most: the vehicles coming to the stop, nearest their departure from it first; 0: no markers",
                   parse: { text, s, _ throws(SettingProblem) in s.kiosk.vehicles = try parseCount(text, 0...100) },
                   show: { String($0.kiosk.vehicles) }),
        number(section: "kiosk", "within", .closed(5, 720), unit: "minutes",
               "how far ahead the board looks for departures", { $1(&$0.kiosk.within) }),
        number(section: "kiosk", "divertedMeters", .closed(50, 5000), unit: "metres",
               "a vehicle farther than this from its trip's line is drawn where it is, marked as diverted, not put on the line (the GTFS-realtime validator's E029 uses 200 m)",
               { $1(&$0.kiosk.divertedMeters) }),
        SettingKey(section: "kiosk", name: "layout", allowed: "auto, beside, below",
                   meaning: "where the board goes: beside (a column along the right edge), below (a band along the bottom), auto (beside on a landscape screen, below on a portrait one)",
                   parse: { text, s, _ throws(SettingProblem) in
                       s.kiosk.layout = try parseChoice(text, KioskLayout.allCases.map { ($0.rawValue, $0) })
                   },
                   show: { $0.kiosk.layout.rawValue }),
    ]

    /// A whole number within `range`.
    static func parseCount(_ text: String, _ range: ClosedRange<Int>) throws(SettingProblem) -> Int {
        guard let n = Int(text), range.contains(n) else {
            throw SettingProblem("not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }
}
