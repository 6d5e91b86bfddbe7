import LocationDot
import Raster

/// What `pulsedot bench` measures: one scene, one scan-out format, N frames.
public struct BenchOptions: Equatable, Sendable {
    public enum Scene: String, CaseIterable, Sendable {
        /// The dot still; only the halo animates.
        case `static`
        /// The dot moving at 12 m/s at zoom 17 (sub-pixel steps every frame), the map fixed.
        case moving
        /// The view following the dot (`follow = center`): the whole frame redrawn whenever the view
        /// moves (every third or fourth frame), the dot's damage between.
        case pan
        /// A plain full-frame copy-out every frame: the baseline `pan` is held against.
        case copy
    }

    /// Where the dot is composed: painted into the frame, or as a picture of its own for a
    /// display plane (the frame then holds the map alone).
    public enum Composition: String, CaseIterable, Sendable {
        case software, planes
    }

    public enum Look: String, CaseIterable, Sendable {
        /// Stock SVPulsingAnnotationView as iOS ships it: no pause between halos, so no breath.
        case stock
        /// The README defaults (a 1 s pause, the inner dot breathing).
        case `default`
    }

    /// The logical canvas (the panel turned by `rotation`: a 800x480 panel at 90° is 480x800).
    public var width = 1920
    public var height = 1080
    public var format = PixelFormat.xrgb8888
    /// How the canvas is turned on its way into the scan-out buffers (the panel).
    public var rotation = Rotation.r0
    public var scale = 1.0
    public var frames = 180
    public var scene = Scene.moving
    public var look = Look.stock
    public var composition = Composition.software
    /// A bus route along the dot's path, drawn into the map (`BenchRoute`).
    public var route = false
    /// Vehicles' markers moving over the map, as a stop kiosk shows them (`BenchMarkers`).
    public var vehicles = 0

    public init() {}

    /// The dot's style for `look`.
    public var style: DotStyle {
        var s = DotStyle()
        if look == .stock {
            s.delayBetweenPulseCycles = 0
            s.pulseAnimationDuration = 1.5
        }
        return s
    }

    /// Frames per halo cycle at 60 Hz (outer duration + pause): 180 stock, 240 default.
    public var framesPerCycle: Int {
        let s = style
        return Int(((s.outerPulseAnimationDuration + s.delayBetweenPulseCycles) * BenchScene.frameRate).rounded())
    }
}
