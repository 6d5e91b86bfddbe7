/// How bright the backlight should be for the light around the screen: points of (lux, percent),
/// lux strictly increasing, joined by straight lines; below the first point its level holds, and
/// above the last point the last one's.
public struct AmbientCurve: Equatable, Sendable, CustomStringConvertible {
    public struct Point: Equatable, Sendable {
        public var lux: Double
        public var percent: Double

        public init(lux: Double, percent: Double) {
            self.lux = lux
            self.percent = percent
        }
    }

    public var points: [Point]

    public init(points: [Point]) { self.points = points }

    /// Dark room, lit room, overcast daylight, sunlight on the glass.
    public static let standard = AmbientCurve(points: [
        Point(lux: 0, percent: 15), Point(lux: 50, percent: 40), Point(lux: 400, percent: 70), Point(lux: 2000, percent: 100),
    ])

    /// The level for `lux`, linearly between the two points around it.
    public func percent(lux: Double) -> Double {
        guard let first = points.first, let last = points.last else { return 100 }
        if !(lux > first.lux) { return first.percent }
        if lux >= last.lux { return last.percent }
        var i = 1
        while points[i].lux < lux { i += 1 }
        let a = points[i - 1], b = points[i]
        return a.percent + (b.percent - a.percent) * (lux - a.lux) / (b.lux - a.lux)
    }

    public var description: String {
        points.map { formatNumber($0.lux) + ":" + formatNumber($0.percent) }.joined(separator: ",")
    }
}

/// `LUX:PERCENT` points separated by commas, lux strictly increasing.
func parseAmbientCurve(_ text: String) throws(SettingProblem) -> AmbientCurve {
    var points: [AmbientCurve.Point] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        let point = trimmed(String(part))
        let halves = point.split(separator: ":", omittingEmptySubsequences: false)
        guard halves.count == 2, let lux = try? parseNumber(trimmed(String(halves[0])), range: .atLeast(0)),
              let percent = try? parsePercent(trimmed(String(halves[1]))) else {
            throw SettingProblem("not a curve point: '\(point)' (expected LUX:PERCENT with lux ≥ 0 and 0 ≤ percent ≤ 100, points separated by commas, e.g. 0:15,50:40,400:70,2000:100)")
        }
        if let previous = points.last, lux <= previous.lux {
            throw SettingProblem("'\(point)': lux must grow from point to point (\(formatNumber(lux)) follows \(formatNumber(previous.lux)))")
        }
        points.append(.init(lux: lux, percent: percent))
    }
    return AmbientCurve(points: points)
}

/// A level in percent, `40` or `40%`.
func parsePercent(_ text: String) throws(SettingProblem) -> Double {
    let number = text.hasSuffix("%") ? trimmed(String(text.dropLast())) : text
    return try parseNumber(number, range: .closed(0, 100), unit: "percent")
}
