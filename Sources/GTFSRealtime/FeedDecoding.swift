/// Reading a whole FeedMessage: the header checked, every entity read on its own so that one
/// whose bytes do not parse is counted and left out while the others are kept.
extension FeedMessage {
    /// Reads a feed's bytes. Throws for a message that cannot be read as a whole (truncated,
    /// garbage, no header, over the limits) and for a DIFFERENTIAL one.
    public init(decoding bytes: [UInt8], limits: RealtimeLimits = RealtimeLimits()) throws(RealtimeError) {
        let result = bytes.withUnsafeBytes { buffer -> Result<FeedMessage, RealtimeError> in
            do throws(RealtimeError) {
                return .success(try FeedMessage(decoding: buffer, limits: limits))
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    public init(decoding buffer: UnsafeRawBufferPointer, limits: RealtimeLimits = RealtimeLimits()) throws(RealtimeError) {
        var r = WireReader(buffer, limits: limits)
        var header: FeedHeader?
        var entities: [FeedEntity] = []
        var skipped = 0
        var firstSkip: RealtimeError?
        var items = 0
        while let field = try r.next() {
            let start = r.offset
            switch (field, r.wireType) {
            case (1, 2):
                try r.message("header", &header, FeedHeader(), FeedHeader.decode)
                // Refused as soon as seen: nothing after it would be read the way its producer meant.
                if header?.incrementality == .differential {
                    throw RealtimeError(.differential, offset: start, field: "header.incrementality")
                }
            case (2, 2):
                guard entities.count < limits.entities else {
                    throw RealtimeError(.tooMany("entities", limit: limits.entities), offset: start, field: "entity")
                }
                // A bad length here leaves no way to the next entity: that throws for the message.
                var inner = try r.nested("entity")
                var entity = FeedEntity()
                do throws(RealtimeError) {
                    try FeedEntity.decode(&inner, &entity)
                } catch {
                    skipped += 1
                    if firstSkip == nil { firstSkip = error.inside("entity") }
                    continue
                }
                items += 1 + entity.items
                guard items <= limits.items else {
                    throw RealtimeError(.tooMany("items", limit: limits.items), offset: start, field: "entity")
                }
                entities.append(entity)
            default:
                try r.skip()
            }
        }
        guard let header else { throw RealtimeError(.missingHeader, offset: buffer.count, field: "header") }
        self.init(header: header, entities: entities, skippedEntities: skipped, firstSkipError: firstSkip)
    }
}

extension FeedHeader {
    static func decode(_ r: inout WireReader, _ v: inout FeedHeader) throws(RealtimeError) {
        while let field = try r.next() {
            switch field {
            case 1: try r.read(&v.version)
            case 2: try r.read(&v.incrementality)
            case 3: try r.read(&v.timestamp)
            default: try r.skip()
            }
        }
    }
}

extension FeedEntity {
    static func decode(_ r: inout WireReader, _ v: inout FeedEntity) throws(RealtimeError) {
        while let field = try r.next() {
            switch field {
            case 1: try r.read(&v.id)
            case 2: try r.read(&v.isDeleted)
            case 3: try r.message("trip_update", &v.tripUpdate, TripUpdate(), TripUpdate.decode)
            case 4: try r.message("vehicle", &v.vehicle, VehiclePosition(), VehiclePosition.decode)
            case 5: try r.message("alert", &v.alert, Alert(), Alert.decode)
            default: try r.skip()
            }
        }
    }

    /// The list items this entity holds, for the feed's overall budget.
    var items: Int { (tripUpdate?.items ?? 0) + (alert?.items ?? 0) }
}
