import Raster

/// How a transit route looks on the map: the line in the route's colour over a white casing, the
/// travelled part dimmed, stops as white discs ringed in the line's colour, the next stop larger,
/// the terminus a double ring. Sizes in pixels, snapped to 1/256 px once here.
public struct RouteStyle: Equatable, Sendable {
    public var color: Color
    /// The travelled part's colour; nil: the line's colour faded toward grey.
    public var travelledColor: Color?
    public var casingColor: Color
    /// The coloured line's full width.
    public var width: Double
    /// The casing seen on each side of the line.
    public var casingWidth: Double
    /// A stop's radius and the width of its coloured ring.
    public var stopRadius: Double
    public var stopRing: Double
    /// The next stop's radius (its ring scaled alike).
    public var nextStopRadius: Double

    public init(color: Color, travelledColor: Color? = nil, casingColor: Color = .white, width: Double = 6,
                casingWidth: Double = 1.5, stopRadius: Double = 4.5, stopRing: Double = 2, nextStopRadius: Double = 7.5) {
        self.color = color
        self.travelledColor = travelledColor
        self.casingColor = casingColor
        self.width = width
        self.casingWidth = casingWidth
        self.stopRadius = stopRadius
        self.stopRing = stopRing
        self.nextStopRadius = nextStopRadius
    }

    /// Two parts of the line's colour to three of a mid grey: still the route, plainly behind.
    public var faded: Color {
        if let travelledColor { return travelledColor }
        func fade(_ c: UInt8) -> UInt8 { UInt8((UInt32(c) * 2 + 160 * 3 + 2) / 5) }
        return Color(r: fade(color.r), g: fade(color.g), b: fade(color.b), a: color.a)
    }

    var stroke: StrokeStyle {
        StrokeStyle(color: color, travelledColor: faded, casingColor: casingColor,
                    width256: Self.q8(width), casingWidth256: Self.q8(casingWidth))
    }

    var stop: RingMarker { Self.marker(radius: stopRadius, ring: stopRing, color: color, fill: casingColor) }

    var nextStop: RingMarker {
        let scale = stopRadius > 0 ? nextStopRadius / stopRadius : 1
        return Self.marker(radius: nextStopRadius, ring: stopRing * scale, color: color, fill: casingColor)
    }

    /// Coloured ring, white gap, coloured ring, white centre: the end of the line at a glance.
    var terminus: RingMarker {
        let r = stopRadius * 1.5, ring = stopRing
        return RingMarker(.init(radius256: Self.q8(r), color: color), .init(radius256: Self.q8(r - ring), color: casingColor),
                          .init(radius256: Self.q8(r - ring * 1.75), color: color),
                          .init(radius256: Self.q8(r - ring * 2.5), color: casingColor))
    }

    static func marker(radius: Double, ring: Double, color: Color, fill: Color) -> RingMarker {
        RingMarker(.init(radius256: q8(radius), color: color), .init(radius256: q8(radius - ring), color: fill))
    }

    /// A size in 1/256 px, clamped to what the rasterisers take.
    static func q8(_ v: Double) -> Int32 {
        Int32(min(max(Fixed.snap(v), 0), Int(EdgeRamp.maxRadius256)))
    }
}
