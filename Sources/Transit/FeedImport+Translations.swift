import GTFS

/// translations.txt, in the GTFS reference's form: a translation of one field of one record
/// (`record_id`, with `record_sub_id` for stop_times: the trip and its stop_sequence) or of every
/// record holding one value (`field_value`). Only the fields a passenger's screen shows are kept;
/// the rest of the file is valid and left out without a word.
extension FeedImport {
    /// `table.field` of the fields kept.
    static let translatedFields: Set<String> = [
        "stops.stop_name", "trips.trip_headsign", "stop_times.stop_headsign", "routes.route_short_name", "routes.route_long_name",
    ]
    /// The tables the reference lets translations.txt name.
    static let translatableTables: Set<String> = [
        "agency", "stops", "routes", "trips", "stop_times", "pathways", "levels", "feed_info", "attributions",
    ]

    func importTranslations() throws(TransitError) {
        guard let t = try table("translations.txt") else { return }
        let tableName = try column(t, "table_name"), fieldName = try column(t, "field_name")
        let language = try column(t, "language"), translation = try column(t, "translation")
        let record = t.column("record_id"), subRecord = t.column("record_sub_id"), value = t.column("field_value")
        let insert = try database.prepare("""
            INSERT INTO translations (table_name, field_name, language, record_id, record_sub_id, field_value, translation)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """)
        try forEachRow(t, "translations.txt") { () throws(GTFSError) in
            let table = try t.required(tableName), field = try t.required(fieldName)
            guard Self.translatableTables.contains(table) else { throw t.problem(tableName, "not a table translations.txt can name: '\(table)'") }
            let id = t.value(record), sub = t.value(subRecord), fieldValue = t.value(value)
            guard (id == nil) != (fieldValue == nil) else {
                throw rowProblem(t, id == nil ? "neither record_id nor field_value: nothing says what is translated"
                                              : "both record_id and field_value: the reference allows one")
            }
            if table == "stop_times", id != nil, sub == nil {
                throw t.problem(record!, "a stop_times translation by record_id needs record_sub_id (the stop_sequence)")
            }
            guard Self.translatedFields.contains(table + "." + field) else { return }
            insert.bind(1, table)
            insert.bind(2, field)
            insert.bind(3, try Self.languageKey(t.required(language)))
            insert.bind(4, id)
            insert.bind(5, table == "stop_times" ? sub : nil)
            insert.bind(6, fieldValue)
            insert.bind(7, try t.required(translation))
            try insertRow(insert, t)
        }
    }

    /// A BCP 47 tag as the index keeps it and looks it up: lower case, `_` read as `-`.
    static func languageKey(_ tag: String) -> String {
        var out = ""
        for c in tag.unicodeScalars { out.unicodeScalars.append(c == "_" ? "-" : (c.value >= 0x41 && c.value <= 0x5A ? Unicode.Scalar(c.value + 32)! : c)) }
        return out
    }
}
