import Raster
import Shaping
import Transit

/// What the departures board shows, as text: the loop asks for a picture only when this changes,
/// so the board is repainted when its words do, not every frame or every fetch.
public struct BoardContent: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public var badge: String
        public var badgeColor: Color
        public var badgeTextColor: Color
        public var headsign: String
        /// "Pl. 3", or empty.
        public var platform: String
        /// "4 min", "now", a clock time for a timetable row, "cancelled", "no stop".
        public var when: String
        public var live: Bool
        public var struck: Bool
    }

    public var title: String
    public var status: String
    public var live: Bool
    public var rows: [Row]
    public var alerts: [String]
    public var language: String?

    /// The board for `snapshot` at the stop named `title`, clock times in `zone`.
    public init(title: String, snapshot: KioskSnapshot, zone: TimeZoneRules, fallbackColor: Color, language: String?) {
        self.title = title
        live = snapshot.live.isLive
        status = live ? "Live" : snapshot.live.sentence.prefix(1).uppercased() + snapshot.live.sentence.dropFirst()
        alerts = snapshot.alerts
        self.language = language
        rows = snapshot.rows.map { r in
            let (badge, text) = Self.colors(r.route, fallback: fallbackColor)
            var when = r.when
            if !r.live, !r.cancelled, !r.skipped {
                // A timetable time is a clock time, never a countdown that looks live.
                let local = r.time + Int64(zone.offset(at: r.time))
                let minute = Int(((local % 86400) + 86400) % 86400) / 60
                when = (minute / 60 < 10 ? "0" : "") + "\(minute / 60):" + (minute % 60 < 10 ? "0" : "") + "\(minute % 60)"
            }
            // A NEW trip has no timetable to take a headsign from: its route's long name says where it goes.
            let headsign = r.headsign.isEmpty ? r.route.longName ?? "" : r.headsign
            return Row(badge: r.route.shortName ?? r.route.routeID, badgeColor: badge, badgeTextColor: text, headsign: headsign,
                       platform: r.platformCode.map { "Pl. \($0)" } ?? "", when: when, live: r.live, struck: r.cancelled || r.skipped)
        }
    }

    /// route_color and route_text_color (black text where only a colour is given), else the fallback on white.
    public static func colors(_ route: Trip.Route, fallback: Color) -> (Color, Color) {
        guard let c = route.color, c & 0xFF_FFFF != 0xFF_FFFF else { return (fallback, .white) }
        let t = route.textColor ?? 0
        return (Color(r: UInt8((c >> 16) & 0xFF), g: UInt8((c >> 8) & 0xFF), b: UInt8(c & 0xFF)),
                Color(r: UInt8((t >> 16) & 0xFF), g: UInt8((t >> 8) & 0xFF), b: UInt8(t & 0xFF)))
    }
}

/// Paints the departures board: the stop's name, the live-data state, a row per departure (the
/// route's badge, the headsign, the platform, the time) and the alerts line at the foot. Made on
/// the transit worker; fonts opened once per scale.
public final class BoardPainter {
    public static let paddingPoints = 12.0, gapPoints = 8.0
    public static let titlePoints = 20.0, rowPoints = 18.0, smallPoints = 13.0
    public static let background = Color(r: 0x1F, g: 0x23, b: 0x28, a: 240)
    public static let text = Color.white
    public static let secondary = Color(r: 0xC8, g: 0xCC, b: 0xD0)
    public static let liveColor = Color(r: 0x5C, g: 0xD6, b: 0x7A)
    public static let warning = Color(r: 0xFF, g: 0xB3, b: 0x3B)
    public static let alertBand = Color(r: 0x7A, g: 0x4A, b: 0x00)
    public static let struck = Color(r: 0xFF, g: 0x7A, b: 0x6E)

    public let scale: Double
    private let title: FontSet, row: FontSet, small: FontSet
    private let padding: Int, gap: Int

    public init(catalog: FontCatalog, scale: Double) throws(ShapingError) {
        func px(_ points: Double) -> Int { max(1, Int((points * scale).rounded())) }
        self.scale = scale
        title = try FontSet(catalog: catalog, pixelHeight: px(Self.titlePoints))
        row = try FontSet(catalog: catalog, pixelHeight: px(Self.rowPoints))
        small = try FontSet(catalog: catalog, pixelHeight: px(Self.smallPoints))
        padding = px(Self.paddingPoints)
        gap = px(Self.gapPoints)
    }

    /// The board `width` × `height` pixels; rows that do not fit are left off.
    public func render(_ c: BoardContent, width: Int, height: Int) throws(ShapingError) -> Overlay {
        let lang = c.language
        let board = Overlay(width: width, height: height)
        board.fill(Rect(x: 0, y: 0, width: width, height: height), with: Self.background)
        let inner = max(0, width - 2 * padding)
        var y = padding
        try put(c.title, fonts: title, x: padding, y: y, width: inner, color: Self.text, on: board, lang)
        y += title.lineHeight + gap / 2
        try put(c.status, fonts: small, x: padding, y: y, width: inner, color: c.live ? Self.liveColor : Self.warning, on: board, lang)
        y += small.lineHeight + gap

        // The alerts band is kept at the foot; rows take what is left above it.
        let alertHeight = c.alerts.isEmpty ? 0 : small.lineHeight + gap
        let bottom = height - padding - alertHeight
        // Columns shared by every row: the badge as wide as the widest (at most a quarter), the
        // time as wide as "00:00" or "99 min"; the headsign takes the rest.
        let whenWidth = max(row.fitted("00:00", maxWidth: .max)?.width ?? 0, row.fitted("99 min", maxWidth: .max)?.width ?? 0)
        let widest = c.rows.map { row.fitted($0.badge, maxWidth: .max)?.width ?? 0 }.max() ?? 0
        let badgeWidth = min(max(widest, row.fitted("000", maxWidth: .max)?.width ?? 0) + gap, max(gap + 1, inner / 4))
        let rowHeight = row.lineHeight + gap
        for r in c.rows {
            guard y + rowHeight <= bottom else { break }
            let badge = Rect(x: padding, y: y, width: badgeWidth, height: row.lineHeight)
            board.fill(badge, with: r.badgeColor)
            if let text = row.fitted(r.badge, maxWidth: badgeWidth - gap / 2, language: lang) {
                try row.draw(text, into: board, x: badge.x + (badge.width - text.width) / 2, baseline: y + row.ascender, color: r.badgeTextColor)
            }
            let whenX = width - padding - whenWidth
            if r.struck {
                // "cancelled", "no stop": smaller, so the column stays narrow.
                if let text = small.fitted(r.when, maxWidth: whenWidth + gap, language: lang) {
                    try small.draw(text, into: board, x: width - padding - text.width, baseline: y + row.ascender, color: Self.struck)
                }
            } else if let text = row.fitted(r.when, maxWidth: whenWidth, language: lang) {
                try row.draw(text, into: board, x: whenX + whenWidth - text.width, baseline: y + row.ascender, color: r.live ? Self.text : Self.secondary)
            }
            var textWidth = max(0, whenX - 2 * gap - badge.maxX)
            if !r.platform.isEmpty, let p = small.fitted(r.platform, maxWidth: textWidth / 3, language: lang) {
                try small.draw(p, into: board, x: whenX - 2 * gap - p.width, baseline: y + row.ascender, color: Self.secondary)
                textWidth = max(0, textWidth - p.width - gap)
            }
            try put(r.headsign, fonts: row, x: badge.maxX + gap, y: y, width: textWidth, color: r.struck ? Self.secondary : Self.text, on: board, lang)
            if r.struck {
                board.fill(Rect(x: badge.maxX + gap, y: y + row.ascender * 2 / 3, width: textWidth, height: max(1, Int(scale.rounded()))), with: Self.secondary)
            }
            y += rowHeight
        }
        if !c.alerts.isEmpty {
            let band = Rect(x: 0, y: height - padding / 2 - alertHeight, width: width, height: alertHeight)
            board.fill(band, with: Self.alertBand)
            try put("⚠ " + c.alerts.joined(separator: " · "), fonts: small, x: padding, y: band.y + gap / 2, width: inner, color: Self.text, on: board, lang)
        }
        return board
    }

    private func put(_ text: String, fonts: FontSet, x: Int, y: Int, width: Int, color: Color, on board: Overlay, _ language: String?) throws(ShapingError) {
        guard !text.isEmpty, let line = fonts.fitted(text, maxWidth: width, language: language) else { return }
        let left = line.paragraphIsRightToLeft ? x + width - line.width : x
        try fonts.draw(line, into: board, x: left, baseline: y + fonts.ascender, color: color)
    }
}
