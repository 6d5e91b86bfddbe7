import GTFS

/// Typed values of the current row: nil for an absent optional field, a skippable error naming the
/// field and quoting the text for one that is present but wrong.
extension CSVTable {
    func integer(_ column: Int?, in range: ClosedRange<Int>, default fallback: Int? = nil) throws(GTFSError) -> Int? {
        guard let column, let text = value(column) else { return fallback }
        guard let v = GTFSValue.integer(text), range.contains(v) else {
            throw problem(column, "not a whole number from \(range.lowerBound) to \(range.upperBound): '\(text)'")
        }
        return v
    }

    func number(_ column: Int?, in range: ClosedRange<Double>) throws(GTFSError) -> Double? {
        guard let column, let text = value(column) else { return nil }
        guard let v = GTFSValue.number(text), range.contains(v) else {
            throw problem(column, "not a number from \(range.lowerBound) to \(range.upperBound): '\(text)'")
        }
        return v
    }

    func time(_ column: Int?) throws(GTFSError) -> Int? {
        guard let column, let text = value(column) else { return nil }
        guard let v = GTFSValue.time(text) else { throw problem(column, "not a time HH:MM:SS: '\(text)'") }
        return v
    }

    func date(_ column: Int) throws(GTFSError) -> Int {
        let text = try required(column)
        guard let v = GTFSValue.date(text) else { throw problem(column, "not a date YYYYMMDD: '\(text)'") }
        return v
    }

    func color(_ column: Int?) throws(GTFSError) -> Int? {
        guard let column, let text = value(column) else { return nil }
        guard let v = GTFSValue.color(text) else { throw problem(column, "not a colour RRGGBB: '\(text)'") }
        return v
    }
}
