import GTFSRealtime

/// Which service alerts concern a stop's screen (reference.md, "Alert", "EntitySelector"): an
/// alert inside one of its active periods (none: always), one of whose selectors picks the stop
/// (or its station), a route serving it, a trip on the board, its route type or its agency —
/// every field set in one selector has to match, and a selector with none picks nothing.
public struct StopAlerts: Sendable {
    public var stopIDs: [String]
    public var routeIDs: [String]
    public var routeTypes: [Int]
    public var tripIDs: [String]
    public var agencyIDs: [String]

    public init(stopIDs: [String], routeIDs: [String], routeTypes: [Int], tripIDs: [String], agencyIDs: [String]) {
        self.stopIDs = stopIDs
        self.routeIDs = routeIDs
        self.routeTypes = routeTypes
        self.tripIDs = tripIDs
        self.agencyIDs = agencyIDs
    }

    /// The header texts of the alerts that apply at `now` (UTC seconds), in `language`, in the
    /// feed's order, each once.
    public func texts(_ feed: FeedMessage, now: Int64, language: String?) -> [String] {
        var out: [String] = []
        for entity in feed.entities where entity.isDeleted != true {
            guard let alert = entity.alert, Self.isActive(alert, at: now), alert.informedEntities.contains(where: selects) else { continue }
            guard let text = Self.text(alert.headerText ?? alert.descriptionText, language: language), !out.contains(text) else { continue }
            out.append(text)
        }
        return out
    }

    static func isActive(_ alert: Alert, at now: Int64) -> Bool {
        if alert.activePeriods.isEmpty { return true }
        let t = UInt64(max(now, 0))
        return alert.activePeriods.contains { ($0.start ?? 0) <= t && t <= ($0.end ?? .max) }
    }

    func selects(_ s: EntitySelector) -> Bool {
        var any = false
        if let a = s.agencyID { guard agencyIDs.contains(a) else { return false }; any = true }
        if let r = s.routeID { guard routeIDs.contains(r) else { return false }; any = true }
        if let t = s.routeType { guard routeTypes.contains(Int(t)) else { return false }; any = true }
        if let stop = s.stopID { guard stopIDs.contains(stop) else { return false }; any = true }
        if let trip = s.trip {
            // A trip selector names a trip, or a route (and direction) without one.
            if let id = trip.tripID { guard tripIDs.contains(id) else { return false }; any = true }
            else if let r = trip.routeID { guard routeIDs.contains(r) else { return false }; any = true }
        }
        return any
    }

    /// The translation in `language` (its primary subtag as a fallback, letter case and `_`
    /// ignored), else the one without a language, else the first.
    static func text(_ string: TranslatedString?, language: String?) -> String? {
        guard let all = string?.translations.filter({ !$0.text.isEmpty }), !all.isEmpty else { return nil }
        func norm(_ s: String) -> String { String(s.lowercased().map { $0 == "_" ? "-" : $0 }) }
        if let language {
            let want = norm(language)
            if let exact = all.first(where: { $0.language.map(norm) == want }) { return exact.text }
            let primary = want.split(separator: "-").first.map(String.init) ?? want
            if let near = all.first(where: { ($0.language.map(norm)?.split(separator: "-").first).map(String.init) == primary }) { return near.text }
        }
        return (all.first { $0.language == nil } ?? all[0]).text
    }
}
