import Raster

/// The map's attribution as web maps show it: small dark grey text on a mostly opaque white box
/// in the bottom-right corner. OpenStreetMap's licence wants it on screen; it is rendered once
/// into an `Overlay` that every frame composites.
public enum AttributionLabel {
    /// DejaVu Sans, from Debian's fonts-dejavu-core: installed almost everywhere, covers © and the
    /// accented names attributions carry.
    public static let defaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// Text size in points; pixels are points × scale.
    public static let pointSize = 11.0
    public static let textColor = Color(r: 0x33, g: 0x33, b: 0x33)
    /// White at 75 %: the map stays faintly visible under the box, the text stays legible.
    public static let boxColor = Color(r: 255, g: 255, b: 255, a: 191)
    /// Space around the text inside the box, in points.
    public static let paddingX = 4.0, paddingY = 1.0
    public static let ellipsis = "\u{2026}"

    /// `text` (plain: `AttributionText.plain(fromHTML:)` makes it from the metadata) rendered with
    /// the font at `fontPath`, `pixelHeight` pixels to the em (11 pt × `scale` when nil), in a box
    /// placed at the bottom-right of a `canvasWidth`×`canvasHeight` canvas. Text too wide for the
    /// canvas is cut and ends in "…"; empty text gives an empty overlay.
    public static func make(text: String, fontPath: String = defaultFontPath, pixelHeight: Int? = nil,
                            canvasWidth: Int, canvasHeight: Int, scale: Double = 1) throws(FontError) -> Overlay {
        precondition(scale.isFinite && scale > 0, "an attribution at scale \(scale)")
        let empty = Overlay(width: 0, height: 0, x: canvasWidth, y: canvasHeight)
        if text.isEmpty { return empty }
        let font = try FontFace(path: fontPath, pixelHeight: pixelHeight ?? max(1, Int((pointSize * scale).rounded())))
        let padX = max(1, Int((paddingX * scale).rounded())), padY = max(1, Int((paddingY * scale).rounded()))
        guard let shown = try fitted(text, font: font, maxWidth: canvasWidth - 2 * padX) else { return empty }
        let textWidth = try font.width(of: shown)
        let width = textWidth + 2 * padX, height = font.lineHeight + 2 * padY
        let label = Overlay(width: width, height: height, x: canvasWidth - width, y: canvasHeight - height)
        label.fill(Rect(x: 0, y: 0, width: width, height: height), with: boxColor)
        try font.draw(shown, into: label, x: padX, baseline: padY + font.ascender, color: textColor)
        return label
    }

    /// `text` if it is at most `maxWidth` pixels wide in `font`, else its longest start that is with
    /// "…" appended (trailing spaces dropped before it), or nil when not even "…" fits.
    public static func fitted(_ text: String, font: FontFace, maxWidth: Int) throws(FontError) -> String? {
        if try font.width(of: text) <= maxWidth { return text }
        if try font.width(of: ellipsis) > maxWidth { return nil }
        // Widths of every start at once would need FreeType's pen per prefix; halving the range
        // measures about log2(n) strings. Kerning can make a longer start a pixel narrower, so the
        // result is the longest start found this way, which always fits.
        let scalars = Array(text.unicodeScalars)
        var fits = 0, tooWide = scalars.count
        while tooWide - fits > 1 {
            let mid = (fits + tooWide) / 2
            if try font.width(of: candidate(scalars, mid)) <= maxWidth { fits = mid } else { tooWide = mid }
        }
        return candidate(scalars, fits)
    }

    /// The first `count` scalars without trailing whitespace, then "…".
    private static func candidate(_ scalars: [Unicode.Scalar], _ count: Int) -> String {
        var end = count
        while end > 0 && scalars[end - 1].properties.isWhitespace { end -= 1 }
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars[0..<end])
        return String(s) + ellipsis
    }
}
