import CHarfBuzz

/// One glyph as HarfBuzz placed it. Positions are in 1/64 px (26.6), y up.
public struct ShapedGlyph: Equatable {
    public let glyph: UInt32
    /// The UTF-8 byte offset, in the whole line, of the first character this glyph shows.
    public let cluster: Int
    public let xAdvance: Int32, yAdvance: Int32
    public let xOffset: Int32, yOffset: Int32
}

/// One item of a line after shaping: its glyphs in visual order (HarfBuzz reverses right-to-left
/// runs itself).
public struct ShapedRun {
    /// The index of the run's font in the catalog.
    public let font: Int
    /// The run's characters as UTF-8 byte offsets into the line.
    public let utf8Start: Int, utf8End: Int
    public let isRightToLeft: Bool
    public let glyphs: [ShapedGlyph]
    public var advance: Int64 { glyphs.reduce(Int64(0)) { $0 + Int64($1.xAdvance) } }
}

/// A line of text shaped: runs left to right on screen, each in its font and direction.
public struct ShapedLine {
    public let text: String
    public let paragraphIsRightToLeft: Bool
    public let runs: [ShapedRun]
    /// The pen's whole travel in 1/64 px.
    public let advance: Int64
    /// Pixels above and below the baseline: the most any of the line's fonts needs.
    public let ascender: Int, descender: Int
    /// The width in whole pixels (the advance rounded): the overlay a line is drawn into.
    public var width: Int { Int((advance + 32) >> 6) }
    public var height: Int { ascender + descender }
}

extension FontSet {
    /// `text` as one line: bidi runs (FriBiDi, paragraph direction from the first strong
    /// character), script and font runs, each shaped by HarfBuzz with the rest of the line as its
    /// context. `language` is a BCP 47 tag ("ar", "ja", "zh-cn"); nil takes the process locale's,
    /// as HarfBuzz does.
    public func shape(_ text: String, language: String? = nil) -> ShapedLine {
        let scalars = text.unicodeScalars.map { $0.value }
        let bidi = BidiLine(scalars)
        let items = Itemizer.items(scalars, bidi: bidi, catalog: catalog)
        // UTF-8 offset of each scalar (and of the end), for HarfBuzz's item offsets and clusters.
        var offsets = [Int](repeating: 0, count: scalars.count + 1)
        for (i, s) in scalars.enumerated() {
            offsets[i + 1] = offsets[i] + (s < 0x80 ? 1 : s < 0x800 ? 2 : s < 0x10000 ? 3 : 4)
        }
        let utf8 = Array(text.utf8)
        let lang = language.map { hb_language_from_string($0, -1) }
        var runs: [ShapedRun] = [], advance: Int64 = 0, ascender = 0, descender = 0
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        for item in items {
            hb_buffer_clear_contents(buffer)
            let start = offsets[item.start], end = offsets[item.end]
            utf8.withUnsafeBufferPointer { bytes in
                bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    hb_buffer_add_utf8(buffer, $0, Int32(bytes.count), UInt32(start), Int32(end - start))
                }
            }
            hb_buffer_set_direction(buffer, item.isRightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
            if let lang { hb_buffer_set_language(buffer, lang) }
            // The script from the item's first character that has one: what hb-shape guesses.
            hb_buffer_guess_segment_properties(buffer)
            hb_shape(hbFonts[item.font], buffer, nil, 0)
            var count: UInt32 = 0
            let infos = hb_buffer_get_glyph_infos(buffer, &count)
            let positions = hb_buffer_get_glyph_positions(buffer, &count)
            var glyphs: [ShapedGlyph] = []
            glyphs.reserveCapacity(Int(count))
            for g in 0..<Int(count) {
                let info = infos![g], p = positions![g]
                glyphs.append(ShapedGlyph(glyph: info.codepoint, cluster: Int(info.cluster), xAdvance: p.x_advance,
                                          yAdvance: p.y_advance, xOffset: p.x_offset, yOffset: p.y_offset))
            }
            let run = ShapedRun(font: item.font, utf8Start: start, utf8End: end, isRightToLeft: item.isRightToLeft, glyphs: glyphs)
            advance += run.advance
            ascender = max(ascender, ascenders[item.font]); descender = max(descender, descenders[item.font])
            runs.append(run)
        }
        if runs.isEmpty { ascender = ascenders[0]; descender = descenders[0] }
        return ShapedLine(text: text, paragraphIsRightToLeft: bidi.paragraphIsRightToLeft, runs: runs,
                          advance: advance, ascender: ascender, descender: descender)
    }
}
