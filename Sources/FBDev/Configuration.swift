import DisplayCore
import Raster

/// What the configuration says about a framebuffer display (`[display]` with `output = fbdev`,
/// `pulsedot show --fbdev`).
public struct FBDevConfiguration: Sendable {
    public static let defaultDevice = "/dev/fb0"

    public var device: String
    /// nil: 0 (a framebuffer has no panel orientation property to read).
    public var rotation: Rotation?
    public var update: UpdateMode
    /// What `[display] format` asks for: the kernel sets a framebuffer's depth, so a different
    /// one is only said, not set.
    public var format: PixelFormat?
    /// What `[display] mode` asks for: likewise said when the framebuffer's differs.
    public var mode: (width: Int, height: Int)?

    public init(device: String? = nil, rotation: Rotation? = nil, update: UpdateMode = .auto,
                format: PixelFormat? = nil, mode: (width: Int, height: Int)? = nil) {
        self.device = device ?? Self.defaultDevice
        self.rotation = rotation; self.update = update; self.format = format; self.mode = mode
    }
}

/// How frames reach a framebuffer.
public enum FBDevStrategy: String, Sendable {
    /// Two screens one above the other in the virtual screen; the back one gets this and the
    /// previous frame's damage, then FBIOPAN_DISPLAY shows it.
    case flip
    /// The visible screen is written in place, damage only.
    case damage
}

/// How frames are paced.
public enum FBDevPacing: String, Sendable {
    /// FBIO_WAITFORVSYNC after each pan, before each in-place copy.
    case vsync
    /// The caller's frame timer alone (the driver cannot wait for vsync).
    case timer
}
