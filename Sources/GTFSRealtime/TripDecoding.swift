/// TripUpdate and the messages it is made of (field numbers from gtfs-realtime.proto).
extension TripDescriptor {
    static func decode(_ r: inout WireReader, _ v: inout TripDescriptor) throws(RealtimeError) {
        while let field = try r.next() {
            switch field {
            case 1: try r.read(&v.tripID)
            case 2: try r.read(&v.startTime)
            case 3: try r.read(&v.startDate)
            case 4: try r.read(&v.scheduleRelationship)
            case 5: try r.read(&v.routeID)
            case 6: try r.read(&v.directionID)
            default: try r.skip()
            }
        }
    }
}

extension VehicleDescriptor {
    static func decode(_ r: inout WireReader, _ v: inout VehicleDescriptor) throws(RealtimeError) {
        while let field = try r.next() {
            switch field {
            case 1: try r.read(&v.id)
            case 2: try r.read(&v.label)
            case 3: try r.read(&v.licensePlate)
            default: try r.skip()
            }
        }
    }
}

extension TripUpdate {
    static func decode(_ r: inout WireReader, _ v: inout TripUpdate) throws(RealtimeError) {
        while let field = try r.next() {
            switch field {
            case 1: try r.message("trip", &v.trip, TripDescriptor.decode)
            case 2: try r.append("stop_time_update", &v.stopTimeUpdates, StopTimeUpdate(), StopTimeUpdate.decode)
            case 3: try r.message("vehicle", &v.vehicle, VehicleDescriptor(), VehicleDescriptor.decode)
            case 4: try r.read(&v.timestamp)
            case 5: try r.read(&v.delay)
            case 6: try r.message("trip_properties", &v.tripProperties, TripProperties(), TripProperties.decode)
            default: try r.skip()
            }
        }
    }

    /// The list items this update holds, for the feed's overall budget.
    var items: Int { stopTimeUpdates.count }
}

extension StopTimeUpdate {
    static func decode(_ r: inout WireReader, _ v: inout StopTimeUpdate) throws(RealtimeError) {
        while let field = try r.next() {
            switch field {
            case 1: try r.read(&v.stopSequence)
            case 2: try r.message("arrival", &v.arrival, StopTimeEvent(), StopTimeEvent.decode)
            case 3: try r.message("departure", &v.departure, StopTimeEvent(), StopTimeEvent.decode)
            case 4: try r.read(&v.stopID)
            case 5: try r.read(&v.scheduleRelationship)
            default: try r.skip()
            }
        }
    }
}

extension StopTimeEvent {
    static func decode(_ r: inout WireReader, _ v: inout StopTimeEvent) throws(RealtimeError) {
        while let field = try r.next() {
            switch field {
            case 1: try r.read(&v.delay)
            case 2: try r.read(&v.time)
            case 3: try r.read(&v.uncertainty)
            default: try r.skip()
            }
        }
    }
}

extension TripProperties {
    static func decode(_ r: inout WireReader, _ v: inout TripProperties) throws(RealtimeError) {
        while let field = try r.next() {
            switch field {
            case 1: try r.read(&v.tripID)
            case 2: try r.read(&v.startDate)
            case 3: try r.read(&v.startTime)
            default: try r.skip()
            }
        }
    }
}
