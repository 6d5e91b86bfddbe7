import CDRM
import Raster

/// One mode a connector offers, as the panel reports it (physical width × height).
public struct DisplayMode: Equatable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Refresh in millihertz, from the timings when they are known (59.94 Hz stays 59940).
    public var refreshMilliHz: Int
    public var preferred: Bool
    public var userDefined: Bool
    /// The kernel's full timings, handed back unchanged to a modeset; nil for modes made in tests.
    var timings: drmModeModeInfo?

    public init(width: Int, height: Int, refreshMilliHz: Int, preferred: Bool = false, userDefined: Bool = false) {
        self.width = width; self.height = height; self.refreshMilliHz = refreshMilliHz
        self.preferred = preferred; self.userDefined = userDefined
    }

    public static func == (a: DisplayMode, b: DisplayMode) -> Bool {
        a.width == b.width && a.height == b.height && a.refreshMilliHz == b.refreshMilliHz
            && a.preferred == b.preferred && a.userDefined == b.userDefined
    }

    /// Whole hertz, rounded: what `WxH@HZ` names.
    public var refresh: Int { (refreshMilliHz + 500) / 1000 }

    public var description: String { "\(width)x\(height)@\(refresh)" }
}

public enum ConnectionState: String, Sendable {
    case connected, disconnected, unknown
}

/// The connector's immutable "panel orientation" property: how the panel is mounted.
public enum PanelOrientation: String, Sendable, CaseIterable {
    case normal = "Normal"
    case upsideDown = "Upside Down"
    case leftSideUp = "Left Side Up"
    case rightSideUp = "Right Side Up"

    /// The clockwise turn of the content that makes it upright. The kernel maps Left Side Up to
    /// DRM's 90° counter-clockwise, which is 270° in PulseDot's clockwise convention.
    public var rotation: Rotation {
        switch self {
        case .normal: return .r0
        case .upsideDown: return .r180
        case .leftSideUp: return .r270
        case .rightSideUp: return .r90
        }
    }
}

public struct ConnectorInfo: Sendable {
    public var id: UInt32
    /// The kernel's name: connector type + "-" + type index ("HDMI-A-1", "DSI-1", "Virtual-1").
    public var name: String
    public var state: ConnectionState
    public var widthMM: Int
    public var heightMM: Int
    /// nil when the connector has no such property (external monitors).
    public var orientation: PanelOrientation?
    public var modes: [DisplayMode]
    /// The CRTC driving it now (nil when off) and, as a bit mask of CRTC indices, the ones its
    /// encoders can use.
    public var currentCrtc: UInt32?
    public var possibleCrtcs: UInt32

    public init(id: UInt32, name: String, state: ConnectionState, widthMM: Int = 0, heightMM: Int = 0,
                orientation: PanelOrientation? = nil, modes: [DisplayMode], currentCrtc: UInt32? = nil,
                possibleCrtcs: UInt32) {
        self.id = id; self.name = name; self.state = state; self.widthMM = widthMM; self.heightMM = heightMM
        self.orientation = orientation; self.modes = modes; self.currentCrtc = currentCrtc
        self.possibleCrtcs = possibleCrtcs
    }
}

public struct CrtcInfo: Sendable {
    public var id: UInt32
    /// Position in the card's CRTC list: what possible-CRTC masks and vblank requests use.
    public var index: Int
    /// The mode it is scanning out, nil when off.
    public var mode: DisplayMode?
    public var framebuffer: UInt32

    public init(id: UInt32, index: Int, mode: DisplayMode? = nil, framebuffer: UInt32 = 0) {
        self.id = id; self.index = index; self.mode = mode; self.framebuffer = framebuffer
    }
}

/// What a card has, read once per (re)start.
public struct CardResources: Sendable {
    public var connectors: [ConnectorInfo]
    public var crtcs: [CrtcInfo]
    public var planes: [PlaneInfo]

    public init(connectors: [ConnectorInfo], crtcs: [CrtcInfo], planes: [PlaneInfo]) {
        self.connectors = connectors; self.crtcs = crtcs; self.planes = planes
    }

    /// The formats of the primary plane that can sit on `crtc`; nil when the driver lists no
    /// planes (then only the classic XRGB8888 can be assumed).
    public func primaryFormats(for crtc: CrtcInfo) -> [UInt32]? {
        planes.first { $0.isPrimary && $0.possibleCrtcs & (1 << UInt32(crtc.index)) != 0 }?.formats
    }
}

public struct CardCapabilities: Sendable, Equatable {
    public var dumbBuffers: Bool
    /// DRM_CAP_DUMB_PREFER_SHADOW: the driver says its dumb buffers are slow to read. PulseDot
    /// never reads them anyway; reported by probe for what it tells about the hardware.
    public var preferShadow: Bool
    /// DRM_CAP_CURSOR_WIDTH/HEIGHT: the largest cursor the driver takes (64x64 on many); nil when
    /// the driver does not say.
    public var cursorWidth: Int?
    public var cursorHeight: Int?

    public init(dumbBuffers: Bool, preferShadow: Bool, cursorWidth: Int? = nil, cursorHeight: Int? = nil) {
        self.dumbBuffers = dumbBuffers; self.preferShadow = preferShadow
        self.cursorWidth = cursorWidth; self.cursorHeight = cursorHeight
    }
}

/// DRM fourcc codes for the two formats PulseDot paints, and names for any others (probe).
public enum FourCC {
    public static let xrgb8888: UInt32 = code("XR24")
    public static let rgb565: UInt32 = code("RG16")

    public static func code(_ text: String) -> UInt32 {
        var v: UInt32 = 0
        for (i, byte) in text.utf8.prefix(4).enumerated() { v |= UInt32(byte) << (8 * UInt32(i)) }
        return v
    }

    public static func of(_ format: PixelFormat) -> UInt32 {
        switch format {
        case .xrgb8888: return xrgb8888
        case .rgb565: return rgb565
        }
    }

    /// The four characters ("XR24"), the kernel's way of naming a format.
    public static func name(_ code: UInt32) -> String {
        var s = ""
        for i in 0..<4 {
            let byte = UInt8((code >> (8 * UInt32(i))) & 0xFF)
            s.unicodeScalars.append(Unicode.Scalar(byte >= 0x20 && byte < 0x7F ? byte : 0x3F))
        }
        return s
    }

    /// PulseDot's name for the format when it paints it ("xrgb8888"), else the four characters.
    public static func describe(_ code: UInt32) -> String {
        if code == xrgb8888 { return "xrgb8888" }
        if code == rgb565 { return "rgb565" }
        return name(code)
    }
}
