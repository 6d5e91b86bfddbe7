/// A GTFS-realtime FeedMessage as far as PulseDot reads it: the fields of google/transit's
/// gtfs-realtime.proto that a stop's board, its map and its alerts need. Optional means "not in
/// the feed" (proto2 keeps presence), which the spec gives its own meaning in several places.
public struct FeedMessage: Equatable, Sendable {
    public var header: FeedHeader
    public var entities: [FeedEntity]
    /// Entities whose bytes did not parse: counted and left out, the others kept.
    public var skippedEntities: Int
    /// Why the first skipped entity was skipped.
    public var firstSkipError: RealtimeError?

    public init(header: FeedHeader, entities: [FeedEntity] = [], skippedEntities: Int = 0, firstSkipError: RealtimeError? = nil) {
        self.header = header
        self.entities = entities
        self.skippedEntities = skippedEntities
        self.firstSkipError = firstSkipError
    }
}

public struct FeedHeader: Equatable, Sendable {
    public var version: String = ""
    public var incrementality: Incrementality?
    /// POSIX seconds at which the producer made the message.
    public var timestamp: UInt64?
    public init() {}
}

public struct FeedEntity: Equatable, Sendable {
    public var id: String = ""
    public var isDeleted: Bool?
    public var tripUpdate: TripUpdate?
    public var vehicle: VehiclePosition?
    public var alert: Alert?
    public init() {}
}

public struct TripDescriptor: Equatable, Sendable {
    public var tripID: String?
    public var routeID: String?
    public var directionID: UInt32?
    public var startTime: String?
    public var startDate: String?
    public var scheduleRelationship: TripScheduleRelationship?
    public init() {}
}

public struct VehicleDescriptor: Equatable, Sendable {
    public var id: String?
    public var label: String?
    public var licensePlate: String?
    public init() {}
}

public struct TripUpdate: Equatable, Sendable {
    public var trip = TripDescriptor()
    public var vehicle: VehicleDescriptor?
    public var stopTimeUpdates: [StopTimeUpdate] = []
    public var timestamp: UInt64?
    public var delay: Int32?
    /// What a DUPLICATED trip runs as: its own trip id, date and start time.
    public var tripProperties: TripProperties?
    public init() {}
}

public struct StopTimeEvent: Equatable, Sendable {
    /// Seconds late (negative: early).
    public var delay: Int32?
    /// POSIX seconds; wins over `delay` when both are given.
    public var time: Int64?
    public var uncertainty: Int32?
    public init() {}
}

public struct StopTimeUpdate: Equatable, Sendable {
    public var stopSequence: UInt32?
    public var stopID: String?
    public var arrival: StopTimeEvent?
    public var departure: StopTimeEvent?
    public var scheduleRelationship: StopScheduleRelationship?
    public init() {}
}

public struct TripProperties: Equatable, Sendable {
    public var tripID: String?
    public var startDate: String?
    public var startTime: String?
    public init() {}
}

public struct VehiclePosition: Equatable, Sendable {
    public var trip: TripDescriptor?
    public var vehicle: VehicleDescriptor?
    public var position: Position?
    public var currentStopSequence: UInt32?
    public var stopID: String?
    public var currentStatus: VehicleStopStatus?
    public var timestamp: UInt64?
    public init() {}
}

/// WGS 84 degrees as the feed's 32-bit floats; bearing in degrees clockwise from north, odometer
/// in metres, speed in metres per second. Kept as the feed wrote them, NaN and out-of-range values
/// included (as the bindings keep them): what places a marker refuses those.
public struct Position: Equatable, Sendable {
    public var latitude: Float?
    public var longitude: Float?
    public var bearing: Float?
    public var odometer: Double?
    public var speed: Float?
    public init() {}
}

public struct Alert: Equatable, Sendable {
    public var activePeriods: [TimeRange] = []
    public var informedEntities: [EntitySelector] = []
    public var cause: AlertCause?
    public var effect: AlertEffect?
    public var headerText: TranslatedString?
    public var descriptionText: TranslatedString?
    public init() {}
}

/// POSIX seconds; a missing end is open.
public struct TimeRange: Equatable, Sendable {
    public var start: UInt64?
    public var end: UInt64?
    public init() {}
}

/// What an alert is about; the fields set in one selector all have to match.
public struct EntitySelector: Equatable, Sendable {
    public var agencyID: String?
    public var routeID: String?
    public var routeType: Int32?
    public var trip: TripDescriptor?
    public var stopID: String?
    public init() {}
}

public struct TranslatedString: Equatable, Sendable {
    public var translations: [Translation] = []
    public init() {}
}

public struct Translation: Equatable, Sendable {
    public var text: String = ""
    /// BCP-47; missing for the feed's one language.
    public var language: String?
    public init() {}
}
