import GTFSRealtime
import Transit

/// GTFS-realtime's rule for one trip's StopTimeUpdates (reference.md, "StopTimeUpdate"): a
/// stop's delay holds for the stops after it until the next update that gives its own, or says
/// SCHEDULED or NO_DATA; a SKIPPED stop passes the delay on. Stops before the first update keep
/// the timetable, since the producer said nothing of them.
enum DelayPropagation {
    /// A stop's outcome: its predicted departure (UTC s) or nil for the timetable's.
    struct Outcome: Equatable {
        var predicted: Int64?
        var live = false
        var skipped = false
    }

    /// `stops` are the trip's, in order, times in seconds from `origin` (a frequencies run's
    /// origin already shifted to its start). `timeOnly`: a frequencies trip, whose delays the
    /// spec leaves undefined, so only absolute times count.
    static func outcomes(_ stops: [TransitIndex.TripTimetable.Stop], origin: Int64, updates: [StopTimeUpdate], timeOnly: Bool,
                         unknownStops: inout Int) -> [Outcome] {
        var at = [Int](repeating: -1, count: stops.count)
        var searchFrom = 0
        for (u, update) in updates.enumerated() {
            // stop_sequence first (a loop visits a stop twice); a stop_id alone is looked for
            // from the previous update on, for the same reason.
            let index: Int?
            if let wire = update.stopSequence {
                // A uint32 past a 32-bit Int names no stop of ours.
                let sequence = Int(exactly: wire)
                index = stops.firstIndex { $0.sequence == sequence }
            } else if let id = update.stopID {
                index = stops[searchFrom...].firstIndex { $0.stopID == id } ?? stops.firstIndex { $0.stopID == id }
            } else {
                index = nil
            }
            guard let index else { unknownStops += 1; continue }
            at[index] = u
            searchFrom = index
        }

        var out = [Outcome](repeating: Outcome(), count: stops.count)
        var carried: Int64?
        for (i, stop) in stops.enumerated() {
            let leave = stop.departure ?? stop.arrival
            if at[i] >= 0 {
                let update = updates[at[i]]
                switch update.scheduleRelationship ?? .scheduled {
                case .noData:
                    carried = nil
                case .skipped:
                    out[i].skipped = true
                    out[i].live = true
                    continue
                default:
                    carried = delay(of: update, stop, origin: origin, timeOnly: timeOnly)
                }
            }
            guard let carried, let leave, let predicted = Self.sum(origin + Int64(leave), carried) else { continue }
            out[i].predicted = predicted
            out[i].live = true
        }
        return out
    }

    /// The departure's delay at the update's stop: `time` over `delay`, the arrival's when the
    /// departure is missing; nil when it gives neither (the timetable's time stands).
    static func delay(of update: StopTimeUpdate, _ stop: TransitIndex.TripTimetable.Stop, origin: Int64, timeOnly: Bool) -> Int64? {
        func of(_ event: StopTimeEvent?, scheduled: Int?) -> Int64? {
            guard let event else { return nil }
            if let time = event.time, let scheduled { return sum(time, -(origin + Int64(scheduled))) }
            if !timeOnly, let delay = event.delay { return Int64(delay) }
            return nil
        }
        return of(update.departure, scheduled: stop.departure ?? stop.arrival) ?? of(update.arrival, scheduled: stop.arrival ?? stop.departure)
    }

    /// A feed's times are any int64: one far out of range gives no prediction rather than a trap.
    static func sum(_ a: Int64, _ b: Int64) -> Int64? {
        let (value, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : value
    }
}
