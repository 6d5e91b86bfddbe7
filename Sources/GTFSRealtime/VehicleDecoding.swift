/// VehiclePosition and Position (field numbers from gtfs-realtime.proto).
extension VehiclePosition {
    static func decode(_ r: inout WireReader, _ v: inout VehiclePosition) throws(RealtimeError) {
        while let field = try r.next() {
            switch field {
            case 1: try r.message("trip", &v.trip, TripDescriptor(), TripDescriptor.decode)
            case 2: try r.message("position", &v.position, Position(), Position.decode)
            case 3: try r.read(&v.currentStopSequence)
            case 4: try r.read(&v.currentStatus)
            case 5: try r.read(&v.timestamp)
            case 7: try r.read(&v.stopID)
            case 8: try r.message("vehicle", &v.vehicle, VehicleDescriptor(), VehicleDescriptor.decode)
            default: try r.skip()
            }
        }
    }
}

extension Position {
    static func decode(_ r: inout WireReader, _ v: inout Position) throws(RealtimeError) {
        while let field = try r.next() {
            switch field {
            case 1: try r.read(&v.latitude)
            case 2: try r.read(&v.longitude)
            case 3: try r.read(&v.bearing)
            case 4: try r.read(&v.odometer)
            case 5: try r.read(&v.speed)
            default: try r.skip()
            }
        }
    }
}
