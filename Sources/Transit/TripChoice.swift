import GTFS

/// Which trip the vehicle runs, as configured: `TRIP_ID` or `TRIP_ID@HH:MM:SS`, the time naming
/// one run of a trip that frequencies.txt repeats (hours may pass 24, as in stop_times).
///
/// A trip_id is free text in GTFS, `@` included (`A12-3@1#0815`), so the text is read as an id and
/// a start only when what follows its last `@` is a time; even then the feed decides: a trip whose
/// id is the whole text is that trip (`TransitIndex.resolve`).
public struct TripChoice: Equatable, Sendable, CustomStringConvertible {
    public let tripID: String
    /// Seconds after the service day's origin the run starts, when given.
    public let start: Int?
    /// The whole text, when it was split into `tripID` and `start` at its last `@`: the id the
    /// feed is asked for first.
    public let whole: String?

    public init(tripID: String, start: Int? = nil) {
        self.tripID = tripID
        self.start = start
        whole = nil
    }

    private init(tripID: String, start: Int, whole: String) {
        self.tripID = tripID
        self.start = start
        self.whole = whole
    }

    /// Reads the setting's text: the whole of it is the id unless what follows its last `@` reads
    /// as a time HH:MM:SS after a non-empty id.
    public static func parse(_ text: String) throws(TransitError) -> TripChoice {
        guard !text.isEmpty else { throw .tripChoice(text: text, message: "empty: a trip_id is needed (TRIP_ID or TRIP_ID@HH:MM:SS)") }
        for scalar in text.unicodeScalars where scalar.value < 0x20 || scalar.value == 0x7F {
            throw .tripChoice(text: text, message: "holds a control character: a trip_id is one line")
        }
        guard let at = text.lastIndex(of: "@") else { return TripChoice(tripID: text) }
        let id = String(text[..<at]), time = String(text[text.index(after: at)...])
        guard !id.isEmpty, let seconds = GTFSValue.time(time) else { return TripChoice(tripID: text) }
        return TripChoice(tripID: id, start: seconds, whole: text)
    }

    /// The same choice read as the whole text, the id verbatim; nil when it was not split.
    public var verbatim: TripChoice? { whole.map { TripChoice(tripID: $0) } }

    /// The setting's text again: `T1@08:10:00`.
    public var description: String {
        if let whole { return whole }
        guard let start else { return tripID }
        return tripID + "@" + Self.clock(start)
    }

    /// How the feed read it, for check-config: the id, and the run's start when one was taken.
    public var reading: String {
        guard let start else { return "trip_id '\(tripID)'" }
        return "trip_id '\(tripID)', the run starting at \(Self.clock(start))"
    }

    /// Seconds as `HH:MM:SS` (hours past 24 kept, as GTFS writes them).
    public static func clock(_ seconds: Int) -> String {
        let h = seconds / 3600, m = seconds / 60 % 60, s = seconds % 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return two(h) + ":" + two(m) + ":" + two(s)
    }
}
