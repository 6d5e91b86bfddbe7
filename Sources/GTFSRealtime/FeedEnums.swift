/// The spec's enumerations, kept open: a value a newer spec added (or a producer made up) stays
/// readable as its number, for the caller to count, where a closed Swift enum would lose it.
public struct Incrementality: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let fullDataset = Incrementality(rawValue: 0)
    public static let differential = Incrementality(rawValue: 1)
    public var name: String? {
        switch rawValue {
        case 0: "FULL_DATASET"
        case 1: "DIFFERENTIAL"
        default: nil
        }
    }
}

/// TripDescriptor.ScheduleRelationship. ADDED is deprecated (read as NEW by the spec's rules).
public struct TripScheduleRelationship: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let scheduled = Self(rawValue: 0)
    public static let added = Self(rawValue: 1)
    public static let unscheduled = Self(rawValue: 2)
    public static let canceled = Self(rawValue: 3)
    public static let replacement = Self(rawValue: 5)
    public static let duplicated = Self(rawValue: 6)
    public static let deleted = Self(rawValue: 7)
    public static let new = Self(rawValue: 8)
    public var name: String? {
        switch rawValue {
        case 0: "SCHEDULED"
        case 1: "ADDED"
        case 2: "UNSCHEDULED"
        case 3: "CANCELED"
        case 5: "REPLACEMENT"
        case 6: "DUPLICATED"
        case 7: "DELETED"
        case 8: "NEW"
        default: nil
        }
    }
}

/// StopTimeUpdate.ScheduleRelationship.
public struct StopScheduleRelationship: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let scheduled = Self(rawValue: 0)
    public static let skipped = Self(rawValue: 1)
    public static let noData = Self(rawValue: 2)
    public static let unscheduled = Self(rawValue: 3)
    public var name: String? {
        switch rawValue {
        case 0: "SCHEDULED"
        case 1: "SKIPPED"
        case 2: "NO_DATA"
        case 3: "UNSCHEDULED"
        default: nil
        }
    }
}

/// VehiclePosition.VehicleStopStatus; missing means IN_TRANSIT_TO.
public struct VehicleStopStatus: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let incomingAt = Self(rawValue: 0)
    public static let stoppedAt = Self(rawValue: 1)
    public static let inTransitTo = Self(rawValue: 2)
    public var name: String? {
        switch rawValue {
        case 0: "INCOMING_AT"
        case 1: "STOPPED_AT"
        case 2: "IN_TRANSIT_TO"
        default: nil
        }
    }
}

public struct AlertCause: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    static let names = ["UNKNOWN_CAUSE", "OTHER_CAUSE", "TECHNICAL_PROBLEM", "STRIKE", "DEMONSTRATION", "ACCIDENT",
                        "HOLIDAY", "WEATHER", "MAINTENANCE", "CONSTRUCTION", "POLICE_ACTIVITY", "MEDICAL_EMERGENCY",
                        "SPECIAL_EVENT"]
    /// The spec numbers causes from 1.
    public var name: String? { rawValue >= 1 && Int(rawValue) <= Self.names.count ? Self.names[Int(rawValue) - 1] : nil }
}

public struct AlertEffect: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    static let names = ["NO_SERVICE", "REDUCED_SERVICE", "SIGNIFICANT_DELAYS", "DETOUR", "ADDITIONAL_SERVICE",
                        "MODIFIED_SERVICE", "OTHER_EFFECT", "UNKNOWN_EFFECT", "STOP_MOVED", "NO_EFFECT",
                        "ACCESSIBILITY_ISSUE"]
    /// The spec numbers effects from 1.
    public var name: String? { rawValue >= 1 && Int(rawValue) <= Self.names.count ? Self.names[Int(rawValue) - 1] : nil }
}
