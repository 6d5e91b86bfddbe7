import Raster

/// Every property of the SVPulsingAnnotationView look (look.md), with the library README's defaults,
/// plus what MKUserLocationView's peers add (accuracy disc, stale look). Sizes in points.
/// Validation of user input lives in the Daemon's settings; this type trusts its values.
public struct DotStyle: Equatable, Sendable {
    public var annotationColor = Color(r: 0, g: 122, b: 255)
    /// nil: the same as annotationColor.
    public var pulseColor: Color? = nil
    public var outerColor = Color.white
    public var outerDotAlpha: Double = 1.0
    /// Decoded alpha of the `image` PNG, drawn instead of the inner dot, tinted with annotationColor.
    public var image: AlphaMask? = nil
    public var imageScale: Double = 1.0
    /// Decoded alpha of the `headingImage` PNG, drawn beneath everything, turned to the course.
    public var headingImage: AlphaMask? = nil
    public var pulseAnimationDuration: Double = 1.0
    public var outerPulseAnimationDuration: Double = 3.0
    /// `.infinity` turns the halo and the breath off.
    public var delayBetweenPulseCycles: Double = 1.0
    public var pulseScaleFactor: Double = 5.3
    public var colorDotInset: Double = 3.0
    public var shadowColor = Color.black
    public var shadowOffsetX: Double = 0
    public var shadowOffsetY: Double = 2
    public var shadowRadius: Double = 3
    public var shadowOpacity: Double = 0.3
    /// Accuracy disc colour; nil: annotationColor.
    public var accuracyColor: Color? = nil
    public var accuracyAlpha: Double = 0.15
    /// The colour dot and halo move to when the fix is stale.
    public var staleColor = Color(r: 0x8E, g: 0x8E, b: 0x93)

    public init() {}

    /// The ring disc's diameter in points (the library's fixed 22 pt view).
    public static let ringDiameter: Double = 22

    public var effectivePulseColor: Color { pulseColor ?? annotationColor }
    public var effectiveAccuracyColor: Color { accuracyColor ?? annotationColor }
    public var haloDiameter: Double { Self.ringDiameter * pulseScaleFactor }
    public var dotDiameter: Double { Self.ringDiameter - 2 * colorDotInset }
    /// The library's rule: the inner dot breathes only when 0 < delay < inf, and never with `image`.
    public var breathes: Bool { delayBetweenPulseCycles > 0 && delayBetweenPulseCycles.isFinite && image == nil }
}
