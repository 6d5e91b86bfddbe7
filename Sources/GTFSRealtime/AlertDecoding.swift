/// Alert and the messages it is made of (field numbers from gtfs-realtime.proto).
extension Alert {
    static func decode(_ r: inout WireReader, _ v: inout Alert) throws(RealtimeError) {
        while let field = try r.next() {
            switch field {
            case 1: try r.append("active_period", &v.activePeriods, TimeRange(), TimeRange.decode)
            case 5: try r.append("informed_entity", &v.informedEntities, EntitySelector(), EntitySelector.decode)
            case 6: try r.read(&v.cause)
            case 7: try r.read(&v.effect)
            case 10: try r.message("header_text", &v.headerText, TranslatedString(), TranslatedString.decode)
            case 11: try r.message("description_text", &v.descriptionText, TranslatedString(), TranslatedString.decode)
            default: try r.skip()
            }
        }
    }

    /// The list items this alert holds, for the feed's overall budget.
    var items: Int {
        activePeriods.count + informedEntities.count
            + (headerText?.translations.count ?? 0) + (descriptionText?.translations.count ?? 0)
    }
}

extension TimeRange {
    static func decode(_ r: inout WireReader, _ v: inout TimeRange) throws(RealtimeError) {
        while let field = try r.next() {
            switch field {
            case 1: try r.read(&v.start)
            case 2: try r.read(&v.end)
            default: try r.skip()
            }
        }
    }
}

extension EntitySelector {
    static func decode(_ r: inout WireReader, _ v: inout EntitySelector) throws(RealtimeError) {
        while let field = try r.next() {
            switch field {
            case 1: try r.read(&v.agencyID)
            case 2: try r.read(&v.routeID)
            case 3: try r.read(&v.routeType)
            case 4: try r.message("trip", &v.trip, TripDescriptor(), TripDescriptor.decode)
            case 5: try r.read(&v.stopID)
            default: try r.skip()
            }
        }
    }
}

extension TranslatedString {
    static func decode(_ r: inout WireReader, _ v: inout TranslatedString) throws(RealtimeError) {
        while let field = try r.next() {
            switch field {
            case 1: try r.append("translation", &v.translations, Translation(), Translation.decode)
            default: try r.skip()
            }
        }
    }

    /// The text in `language`, else the one without a language (the feed's own), else the first.
    public func text(for language: String?) -> String? {
        if let language, let match = translations.first(where: { $0.language == language }) { return match.text }
        return (translations.first { $0.language == nil || $0.language == "" } ?? translations.first)?.text
    }
}

extension Translation {
    static func decode(_ r: inout WireReader, _ v: inout Translation) throws(RealtimeError) {
        while let field = try r.next() {
            switch field {
            case 1: try r.read(&v.text)
            case 2: try r.read(&v.language)
            default: try r.skip()
            }
        }
    }
}
