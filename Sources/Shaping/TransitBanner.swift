import Raster

/// What the banner of a bus or tram shows: the line's badge in its colours, where the trip goes,
/// the next stop and the two after it. Names in any script; `language` (BCP 47) picks the
/// language-specific glyph forms (Japanese or Chinese Han, Serbian Cyrillic ...).
public struct BannerContent {
    public var line: String
    public var routeColor: Color
    public var routeTextColor: Color
    public var destination: String
    public var nextStop: String
    /// The stops after the next one; the first two are shown.
    public var following: [String]
    public var language: String?

    public init(line: String, routeColor: Color, routeTextColor: Color, destination: String, nextStop: String,
                following: [String], language: String? = nil) {
        self.line = line; self.routeColor = routeColor; self.routeTextColor = routeTextColor
        self.destination = destination; self.nextStop = nextStop; self.following = following; self.language = language
    }
}

/// Where the banner put each part, in the banner's pixels: the badge's box, and for each text the
/// box its line of text takes (the advance wide, the line's height tall).
public struct BannerLayout: Equatable {
    public var badge: Rect
    public var destination: Rect
    public var nextStop: Rect
    public var following: [Rect]
}

/// The transit banner as one premultiplied overlay: badge and destination on the top row, the
/// next stop large below, the two following stops small side by side under it. The badge stays
/// on the left whatever the script; each text sits at the start of its own reading direction
/// (right-to-left names against the right edge). Rendered once per change of stop, never per
/// frame; the fonts of its three sizes are opened once.
public final class TransitBanner {
    /// Sizes in points; pixels are points × scale.
    public static let paddingPoints = 12.0, gapPoints = 8.0, badgePaddingPoints = 8.0
    public static let titlePoints = 20.0, nextStopPoints = 32.0, followingPoints = 18.0
    /// Dark grey, slightly see-through: the map stays faintly visible under the banner.
    public static let background = Color(r: 0x1F, g: 0x23, b: 0x28, a: 235)
    public static let textColor = Color.white
    public static let secondaryColor = Color(r: 0xC8, g: 0xCC, b: 0xD0)

    public let scale: Double
    private let title: FontSet, large: FontSet, small: FontSet
    private let padding: Int, gap: Int, badgePadding: Int

    public init(catalog: FontCatalog, scale: Double = 1) throws(ShapingError) {
        precondition(scale.isFinite && scale > 0, "a banner at scale \(scale)")
        func px(_ points: Double) -> Int { max(1, Int((points * scale).rounded())) }
        self.scale = scale
        title = try FontSet(catalog: catalog, pixelHeight: px(Self.titlePoints))
        large = try FontSet(catalog: catalog, pixelHeight: px(Self.nextStopPoints))
        small = try FontSet(catalog: catalog, pixelHeight: px(Self.followingPoints))
        padding = px(Self.paddingPoints); gap = px(Self.gapPoints); badgePadding = px(Self.badgePaddingPoints)
    }

    /// The banner for `content`, `width` pixels wide (its height follows from the font sizes).
    /// Texts too long for their place end in "…".
    public func render(_ content: BannerContent, width: Int) throws(ShapingError) -> (overlay: Overlay, layout: BannerLayout) {
        let lang = content.language
        let inner = max(0, width - 2 * padding)
        // Top row: the badge, then the destination in what is left.
        let badgeText = title.fitted(content.line, maxWidth: max(0, inner / 3 - 2 * badgePadding), language: lang)
        let badge = Rect(x: padding, y: padding, width: (badgeText?.width ?? 0) + 2 * badgePadding,
                         height: title.lineHeight + badgePadding)
        let destinationBox = Rect(x: badge.maxX + gap, y: padding + badgePadding / 2,
                                  width: max(0, width - padding - badge.maxX - gap), height: title.lineHeight)
        let nextBox = Rect(x: padding, y: badge.maxY + gap, width: inner, height: large.lineHeight)
        let half = max(0, (inner - gap) / 2)
        let followingY = nextBox.maxY + gap
        let followingBoxes = [Rect(x: padding, y: followingY, width: half, height: small.lineHeight),
                              Rect(x: padding + half + gap, y: followingY, width: half, height: small.lineHeight)]
        let height = followingY + small.lineHeight + padding

        let banner = Overlay(width: width, height: height)
        banner.fill(Rect(x: 0, y: 0, width: width, height: height), with: Self.background)
        banner.fill(badge, with: content.routeColor)
        if let badgeText {
            try title.draw(badgeText, into: banner, x: badge.x + badgePadding,
                           baseline: badge.y + badgePadding / 2 + title.ascender, color: content.routeTextColor)
        }
        var layout = BannerLayout(badge: badge, destination: .empty, nextStop: .empty, following: [])
        layout.destination = try place(content.destination, in: destinationBox, fonts: title, color: Self.secondaryColor, on: banner, lang)
        layout.nextStop = try place(content.nextStop, in: nextBox, fonts: large, color: Self.textColor, on: banner, lang)
        for (name, box) in zip(content.following.prefix(2), followingBoxes) {
            layout.following.append(try place(name, in: box, fonts: small, color: Self.secondaryColor, on: banner, lang))
        }
        return (banner, layout)
    }

    /// One line of text fitted to `box` and drawn at the start of its reading direction; returns
    /// the box the text takes (empty when nothing fits).
    private func place(_ text: String, in box: Rect, fonts: FontSet, color: Color, on banner: Overlay,
                       _ language: String?) throws(ShapingError) -> Rect {
        guard !text.isEmpty, let line = fonts.fitted(text, maxWidth: box.width, language: language) else { return .empty }
        let x = line.paragraphIsRightToLeft ? box.maxX - line.width : box.x
        try fonts.draw(line, into: banner, x: x, baseline: box.y + fonts.ascender, color: color)
        return Rect(x: x, y: box.y, width: line.width, height: box.height)
    }
}
