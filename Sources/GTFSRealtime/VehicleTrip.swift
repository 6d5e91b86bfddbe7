extension FeedMessage {
    /// The trip the feed says vehicle `id` runs: its VehiclePosition's trip, else the trip of a
    /// TripUpdate naming the vehicle; nil when the feed does not name the vehicle on a trip.
    public func trip(ofVehicle id: String) -> TripDescriptor? {
        for entity in entities where entity.isDeleted != true {
            if let v = entity.vehicle, v.vehicle?.id == id, let trip = v.trip, trip.tripID != nil { return trip }
        }
        for entity in entities where entity.isDeleted != true {
            if let u = entity.tripUpdate, u.vehicle?.id == id, u.trip.tripID != nil { return u.trip }
        }
        return nil
    }
}
