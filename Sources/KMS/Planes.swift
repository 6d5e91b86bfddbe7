/// What the "type" property says a plane is for. Overlays sit between the primary plane and the
/// cursor; a cursor plane is often small (see `CardCapabilities.cursorWidth`).
public enum PlaneType: String, Sendable, CaseIterable {
    case overlay, primary, cursor

    /// The kernel's DRM_PLANE_TYPE_* value of the "type" property.
    public init?(kernelValue: UInt64) {
        switch kernelValue {
        case 0: self = .overlay
        case 1: self = .primary
        case 2: self = .cursor
        default: return nil
        }
    }
}

/// One property of a plane as the kernel describes it: its current value and what it may take.
/// Probe shows them so a person can see whether blending, alpha, zpos or rotation can be used
/// before any composition relies on them.
public struct PlaneProperty: Sendable, Equatable {
    /// A named value of an enum, or a named bit (its index) of a bitmask.
    public struct Choice: Sendable, Equatable {
        public var name: String
        public var value: UInt64
        public init(_ name: String, _ value: UInt64) { self.name = name; self.value = value }
    }

    public enum Kind: Sendable, Equatable {
        case range(min: UInt64, max: UInt64)
        case signedRange(min: Int64, max: Int64)
        case enumeration([Choice])
        /// Choices are bit indices ("rotation": rotate-0 is bit 0, reflect-x bit 4).
        case bitmask([Choice])
        /// The value is an object id (FB_ID, CRTC_ID).
        case object
        /// The value is a blob id (IN_FORMATS).
        case blob
        /// A type this build does not know.
        case other(flags: UInt32)

        public var name: String {
            switch self {
            case .range: "range"
            case .signedRange: "signed range"
            case .enumeration: "enum"
            case .bitmask: "bitmask"
            case .object: "object"
            case .blob: "blob"
            case .other: "other"
            }
        }
    }

    public var id: UInt32
    public var name: String
    /// As the kernel stores it (a signed range's value is its bit pattern).
    public var value: UInt64
    public var kind: Kind
    /// Set by the driver; a client cannot change it (the "type", often "zpos" on fixed stacks).
    public var immutable: Bool
    /// Only atomic clients see and set it.
    public var atomicOnly: Bool

    public init(id: UInt32, name: String, value: UInt64, kind: Kind, immutable: Bool = false, atomicOnly: Bool = false) {
        self.id = id; self.name = name; self.value = value; self.kind = kind
        self.immutable = immutable; self.atomicOnly = atomicOnly
    }

    /// The value in the property's own terms: an enum's name, a bitmask's set bits by name
    /// ("rotate-0|reflect-x"), a signed number as signed.
    public var valueText: String {
        switch kind {
        case .enumeration(let choices):
            return choices.first { $0.value == value }?.name ?? "\(value) (not one of its choices)"
        case .bitmask(let choices):
            var names: [String] = []
            var rest = value
            for c in choices where c.value < 64 && value & (1 << c.value) != 0 {
                names.append(c.name)
                rest &= ~(1 << c.value)
            }
            if rest != 0 { names.append("0x" + String(rest, radix: 16)) }
            return names.isEmpty ? "none" : names.joined(separator: "|")
        case .signedRange:
            return String(Int64(bitPattern: value))
        default:
            return String(value)
        }
    }

    /// What it may take, for the report: "0..65535", "enum None, Pre-multiplied, Coverage".
    public var allowedText: String {
        switch kind {
        case .range(let lo, let hi): return "\(lo)..\(hi)"
        case .signedRange(let lo, let hi): return "\(lo)..\(hi)"
        case .enumeration(let c): return "enum " + c.map({ $0.name }).joined(separator: ", ")
        case .bitmask(let c): return "bits " + c.map({ $0.name }).joined(separator: ", ")
        case .object: return "object id"
        case .blob: return "blob id"
        case .other(let flags): return "unknown type (flags 0x\(String(flags, radix: 16)))"
        }
    }
}

/// One format modifier of a plane's IN_FORMATS and the formats it applies to (LINEAR is what a
/// dumb buffer has; tiled or compressed ones need a GPU to write).
public struct FormatModifiers: Sendable, Equatable {
    public var modifier: UInt64
    /// libdrm's name ("LINEAR", "I915_X_TILED"), or nil when it has none.
    public var name: String?
    public var formats: [UInt32]

    public init(modifier: UInt64, name: String? = nil, formats: [UInt32]) {
        self.modifier = modifier; self.name = name; self.formats = formats
    }

    public var label: String { name ?? "0x" + String(modifier, radix: 16) }
}

public struct PlaneInfo: Sendable {
    public var id: UInt32
    /// nil when the driver gives the plane no "type" property or an unknown value.
    public var type: PlaneType?
    /// A bit mask of CRTC indices (not ids) the plane can be shown on.
    public var possibleCrtcs: UInt32
    /// DRM fourcc codes.
    public var formats: [UInt32]
    public var properties: [PlaneProperty]
    /// The IN_FORMATS blob decoded; nil when the plane has none.
    public var inFormats: [FormatModifiers]?

    public init(id: UInt32, type: PlaneType?, possibleCrtcs: UInt32, formats: [UInt32],
                properties: [PlaneProperty] = [], inFormats: [FormatModifiers]? = nil) {
        self.id = id; self.type = type; self.possibleCrtcs = possibleCrtcs; self.formats = formats
        self.properties = properties; self.inFormats = inFormats
    }

    /// A primary plane or an overlay, for the tests and callers that only ask that.
    public init(id: UInt32, isPrimary: Bool, possibleCrtcs: UInt32, formats: [UInt32]) {
        self.init(id: id, type: isPrimary ? .primary : .overlay, possibleCrtcs: possibleCrtcs, formats: formats)
    }

    public var isPrimary: Bool { type == .primary }

    public func property(_ name: String) -> PlaneProperty? { properties.first { $0.name == name } }
}
