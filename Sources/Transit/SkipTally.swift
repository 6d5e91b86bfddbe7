import GTFS

/// Rows an import left out, counted by kind. Each kind is said once, with its count and the first
/// row it happened on, so a feed with ten thousand broken rows gives a handful of lines.
struct SkipTally {
    private var kinds: [String: (count: Int, first: GTFSError)] = [:]
    private var order: [String] = []

    mutating func skip(_ kind: String, _ error: GTFSError) {
        if let entry = kinds[kind] {
            kinds[kind] = (entry.count + 1, entry.first)
        } else {
            kinds[kind] = (1, error)
            order.append(kind)
        }
    }

    var total: Int { kinds.values.reduce(0) { $0 + $1.count } }

    func count(_ kind: String) -> Int { kinds[kind]?.count ?? 0 }

    /// `skipped 3 × stop without a usable position, the first: stops.txt:5:4 (stop_lat): …`
    var lines: [String] {
        order.map { kind in
            let entry = kinds[kind]!
            return GTFSError.oneLine("skipped \(entry.count) × \(kind), the first: \(entry.first)")
        }
    }
}
