import CFreeType
import Raster
import Text

extension FontSet {
    public static let ellipsis = "\u{2026}"

    /// Draws `line` with its left end at pixel `x` and its baseline on row `baseline` of `overlay`,
    /// in `color` over what is there (clipped to the overlay). Glyphs are FreeType's anti-aliased
    /// bitmaps at the HarfBuzz positions, the pen rounded to whole pixels, coverage blended as the
    /// map's attribution blends it.
    public func draw(_ line: ShapedLine, into overlay: Overlay, x: Int, baseline: Int, color: Color) throws(ShapingError) {
        var pen: Int64 = 0
        for run in line.runs {
            let face = ftFaces[run.font]
            for g in run.glyphs {
                let error = FT_Load_Glyph(face, g.glyph, FT_Int32(FT_LOAD_RENDER))
                if error != 0 {
                    let said = String(cString: pulsedot_ft_error_message(error))
                    throw ShapingError("font \(catalog.fonts[run.font].path): cannot draw glyph \(g.glyph): FreeType: \(said)")
                }
                let slot = face.pointee.glyph.pointee
                let gx = Int((pen + Int64(g.xOffset) + 32) >> 6), gy = Int((Int64(g.yOffset) + 32) >> 6)
                FontFace.blit(slot.bitmap, into: overlay, left: x + gx + Int(slot.bitmap_left),
                              top: baseline - gy - Int(slot.bitmap_top), color: color)
                pen += Int64(g.xAdvance)
            }
        }
    }

    /// `text` shaped, if it is at most `maxWidth` pixels wide; else its longest start (whole
    /// grapheme clusters, trailing spaces dropped) that fits with "…" after it, reading order
    /// kept, so in right-to-left text the ellipsis ends up on the left; nil when not even "…" fits.
    public func fitted(_ text: String, maxWidth: Int, language: String? = nil) -> ShapedLine? {
        let whole = shape(text, language: language)
        if whole.width <= maxWidth { return whole }
        let characters = Array(text)
        func candidate(_ count: Int) -> ShapedLine {
            var end = count
            while end > 0 && characters[end - 1].isWhitespace { end -= 1 }
            return shape(String(characters[0..<end]) + Self.ellipsis, language: language)
        }
        var best = candidate(0)
        if best.width > maxWidth { return nil }
        // Halving the range shapes about log2(n) candidates; a longer start is almost always
        // wider, and what is returned always fits.
        var fits = 0, tooWide = characters.count
        while tooWide - fits > 1 {
            let mid = (fits + tooWide) / 2
            let line = candidate(mid)
            if line.width <= maxWidth { fits = mid; best = line } else { tooWide = mid }
        }
        return best
    }

    /// `text` in `color` on a transparent overlay of exactly the line's size (width: the advances;
    /// height: ascender and descender), cut with "…" to `maxWidth` when given. Made once per
    /// change of the text, never per frame.
    public func overlay(_ text: String, color: Color, maxWidth: Int? = nil, language: String? = nil) throws(ShapingError) -> Overlay {
        guard let line = maxWidth.map({ fitted(text, maxWidth: $0, language: language) }) ?? shape(text, language: language) else {
            return Overlay(width: 0, height: 0)
        }
        let picture = Overlay(width: line.width, height: line.height)
        try draw(line, into: picture, x: 0, baseline: line.ascender, color: color)
        return picture
    }
}
