import GTFS

/// Which trip the vehicle runs, as configured: `TRIP_ID` or `TRIP_ID@HH:MM:SS`, the time naming
/// one run of a trip that frequencies.txt repeats (hours may pass 24, as in stop_times).
public struct TripChoice: Equatable, Sendable, CustomStringConvertible {
    public let tripID: String
    /// Seconds after the service day's origin the run starts, when given.
    public let start: Int?

    public init(tripID: String, start: Int? = nil) {
        self.tripID = tripID
        self.start = start
    }

    /// Reads the setting's text; a trip_id may itself hold an `@`, so the time is what follows
    /// the last one, and only when it reads as a time.
    public static func parse(_ text: String) throws(TransitError) -> TripChoice {
        guard !text.isEmpty else { throw .tripChoice(text: text, message: "empty: a trip_id is needed (TRIP_ID or TRIP_ID@HH:MM:SS)") }
        for scalar in text.unicodeScalars where scalar.value < 0x20 || scalar.value == 0x7F {
            throw .tripChoice(text: text, message: "holds a control character: a trip_id is one line")
        }
        guard let at = text.lastIndex(of: "@") else { return TripChoice(tripID: text) }
        let id = String(text[..<at]), time = String(text[text.index(after: at)...])
        guard !id.isEmpty else { throw .tripChoice(text: text, message: "no trip_id before '@'") }
        guard let seconds = GTFSValue.time(time) else {
            throw .tripChoice(text: text, message: "the start after '@' is not a time HH:MM:SS: '\(time)'")
        }
        return TripChoice(tripID: id, start: seconds)
    }

    /// The setting's text again: `T1@08:10:00`.
    public var description: String {
        guard let start else { return tripID }
        return tripID + "@" + Self.clock(start)
    }

    /// Seconds as `HH:MM:SS` (hours past 24 kept, as GTFS writes them).
    public static func clock(_ seconds: Int) -> String {
        let h = seconds / 3600, m = seconds / 60 % 60, s = seconds % 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return two(h) + ":" + two(m) + ":" + two(s)
    }
}
