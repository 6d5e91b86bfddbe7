import Foundation
import GTFSRealtime

/// The Swift reader's model written the way json_format.MessageToDict writes a message (proto
/// field names, fields not in the feed left out, 64-bit integers as strings, enumerations by
/// name), so that the two compare field by field.
enum FeedDictionary {
    static func feed(_ f: FeedMessage) -> [String: Any] {
        var header: [String: Any] = ["gtfs_realtime_version": f.header.version]
        header["incrementality"] = f.header.incrementality.map(name)
        header["timestamp"] = f.header.timestamp.map(String.init)
        var d: [String: Any] = ["header": header]
        if !f.entities.isEmpty { d["entity"] = f.entities.map(entity) }
        return d
    }

    static func entity(_ e: FeedEntity) -> [String: Any] {
        var d: [String: Any] = ["id": e.id]
        d["is_deleted"] = e.isDeleted
        d["trip_update"] = e.tripUpdate.map(tripUpdate)
        d["vehicle"] = e.vehicle.map(vehicle)
        d["alert"] = e.alert.map(alert)
        return d
    }

    static func trip(_ t: TripDescriptor) -> [String: Any] {
        var d: [String: Any] = [:]
        d["trip_id"] = t.tripID
        d["route_id"] = t.routeID
        d["direction_id"] = t.directionID.map { Int64($0) }
        d["start_time"] = t.startTime
        d["start_date"] = t.startDate
        d["schedule_relationship"] = t.scheduleRelationship.map { $0.name ?? "?\($0.rawValue)" }
        return d
    }

    static func vehicleDescriptor(_ v: VehicleDescriptor) -> [String: Any] {
        var d: [String: Any] = [:]
        d["id"] = v.id
        d["label"] = v.label
        d["license_plate"] = v.licensePlate
        return d
    }

    static func tripUpdate(_ u: TripUpdate) -> [String: Any] {
        var d: [String: Any] = ["trip": trip(u.trip)]
        d["vehicle"] = u.vehicle.map(vehicleDescriptor)
        if !u.stopTimeUpdates.isEmpty { d["stop_time_update"] = u.stopTimeUpdates.map(stopTimeUpdate) }
        d["timestamp"] = u.timestamp.map(String.init)
        d["delay"] = u.delay.map { Int64($0) }
        if let p = u.tripProperties {
            var props: [String: Any] = [:]
            props["trip_id"] = p.tripID
            props["start_date"] = p.startDate
            props["start_time"] = p.startTime
            d["trip_properties"] = props
        }
        return d
    }

    static func stopTimeUpdate(_ u: StopTimeUpdate) -> [String: Any] {
        var d: [String: Any] = [:]
        d["stop_sequence"] = u.stopSequence.map { Int64($0) }
        d["stop_id"] = u.stopID
        d["arrival"] = u.arrival.map(event)
        d["departure"] = u.departure.map(event)
        d["schedule_relationship"] = u.scheduleRelationship.map { $0.name ?? "?\($0.rawValue)" }
        return d
    }

    static func event(_ e: StopTimeEvent) -> [String: Any] {
        var d: [String: Any] = [:]
        d["delay"] = e.delay.map { Int64($0) }
        d["time"] = e.time.map(String.init)
        d["uncertainty"] = e.uncertainty.map { Int64($0) }
        return d
    }

    static func vehicle(_ v: VehiclePosition) -> [String: Any] {
        var d: [String: Any] = [:]
        d["trip"] = v.trip.map(trip)
        d["vehicle"] = v.vehicle.map(vehicleDescriptor)
        if let p = v.position {
            var pos: [String: Any] = [:]
            pos["latitude"] = p.latitude
            pos["longitude"] = p.longitude
            pos["bearing"] = p.bearing
            pos["odometer"] = p.odometer
            pos["speed"] = p.speed
            d["position"] = pos
        }
        d["current_stop_sequence"] = v.currentStopSequence.map { Int64($0) }
        d["stop_id"] = v.stopID
        d["current_status"] = v.currentStatus.map { $0.name ?? "?\($0.rawValue)" }
        d["timestamp"] = v.timestamp.map(String.init)
        return d
    }

    static func alert(_ a: Alert) -> [String: Any] {
        var d: [String: Any] = [:]
        if !a.activePeriods.isEmpty {
            d["active_period"] = a.activePeriods.map { p -> [String: Any] in
                var r: [String: Any] = [:]
                r["start"] = p.start.map(String.init)
                r["end"] = p.end.map(String.init)
                return r
            }
        }
        if !a.informedEntities.isEmpty {
            d["informed_entity"] = a.informedEntities.map { s -> [String: Any] in
                var r: [String: Any] = [:]
                r["agency_id"] = s.agencyID
                r["route_id"] = s.routeID
                r["route_type"] = s.routeType.map { Int64($0) }
                r["trip"] = s.trip.map(trip)
                r["stop_id"] = s.stopID
                return r
            }
        }
        d["cause"] = a.cause.map { $0.name ?? "?\($0.rawValue)" }
        d["effect"] = a.effect.map { $0.name ?? "?\($0.rawValue)" }
        d["header_text"] = a.headerText.map(translated)
        d["description_text"] = a.descriptionText.map(translated)
        return d
    }

    static func translated(_ t: TranslatedString) -> [String: Any] {
        guard !t.translations.isEmpty else { return [:] }
        return ["translation": t.translations.map { tr -> [String: Any] in
            var r: [String: Any] = ["text": tr.text]
            r["language"] = tr.language
            return r
        }]
    }

    private static func name(_ i: Incrementality) -> String { i.name ?? "?\(i.rawValue)" }

    /// The fields of the spec the reader models; others in the bindings' dictionary (feed_version,
    /// severity_level, congestion_level, ...) are the reader's to skip.
    static let modeled: Set<String> = [
        "header", "gtfs_realtime_version", "incrementality", "timestamp", "entity", "id", "is_deleted",
        "trip_update", "vehicle", "alert", "trip", "trip_id", "route_id", "direction_id", "start_time",
        "start_date", "schedule_relationship", "label", "license_plate", "stop_time_update", "stop_sequence",
        "stop_id", "arrival", "departure", "delay", "time", "uncertainty", "trip_properties", "position",
        "latitude", "longitude", "bearing", "odometer", "speed", "current_stop_sequence", "current_status",
        "active_period", "start", "end", "informed_entity", "agency_id", "route_type", "cause", "effect",
        "header_text", "description_text", "translation", "text", "language",
    ]

    /// Every difference between the bindings' reading (`expected`) and the Swift reader's, by path.
    static func differences(_ expected: Any, _ actual: Any, at path: String = "") -> [String] {
        switch actual {
        case let a as [String: Any]:
            guard let e = expected as? [String: Any] else { return ["\(path): expected \(expected), got a message"] }
            let keys = Set(e.keys).intersection(modeled).union(a.keys)
            return keys.sorted().flatMap { key -> [String] in
                let p = path.isEmpty ? key : path + "." + key
                switch (e[key], a[key]) {
                case (nil, let got?): return ["\(p): not in the feed, read as \(got)"]
                case (let want?, nil): return ["\(p): \(want) in the feed, not read"]
                case (let want?, let got?): return differences(want, got, at: p)
                default: return []
                }
            }
        case let a as [[String: Any]]:
            guard let e = expected as? [Any], e.count == a.count else { return ["\(path): expected \(expected), got \(a.count) items"] }
            return zip(e, a).enumerated().flatMap { differences($1.0, $1.1, at: "\(path)[\($0)]") }
        case let a as String:
            return expected as? String == a ? [] : ["\(path): expected \(expected), got \(a)"]
        case let a as Bool:
            return expected as? Bool == a ? [] : ["\(path): expected \(expected), got \(a)"]
        case let a as Int64:
            return (expected as? NSNumber)?.int64Value == a ? [] : ["\(path): expected \(expected), got \(a)"]
        case let a as Float:
            // The bindings print a float as the shortest decimal that reads back as the same float.
            guard let e = expected as? NSNumber, Float(e.doubleValue) == a else { return ["\(path): expected \(expected), got \(a)"] }
            return []
        case let a as Double:
            return (expected as? NSNumber)?.doubleValue == a ? [] : ["\(path): expected \(expected), got \(a)"]
        default:
            return ["\(path): cannot compare \(actual)"]
        }
    }
}
