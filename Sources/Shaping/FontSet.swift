import CFreeType
import CHarfBuzz
import Syscall

/// A catalog's fonts at one pixel size: a HarfBuzz font for shaping and a FreeType face for
/// drawing, both reading the catalog's mapped files. Made once per size (the banner uses three),
/// never per frame.
public final class FontSet {
    public let catalog: FontCatalog
    /// The em size in pixels.
    public let pixelHeight: Int
    /// HarfBuzz's scale: 26.6 fixed point, so advances and offsets come in 1/64 px.
    public var scale: Int32 { Int32(pixelHeight * 64) }
    let hbFonts: [OpaquePointer]
    let ftFaces: [FT_Face]
    private let library: FT_Library
    /// Pixels above and below the baseline of each font (FreeType's size metrics, rounded out).
    let ascenders: [Int], descenders: [Int]

    /// The most any of the fonts reaches above and below the baseline: a line box that does not
    /// change height with the script of the text in it.
    public var ascender: Int { ascenders.max() ?? 0 }
    public var descender: Int { descenders.max() ?? 0 }
    public var lineHeight: Int { ascender + descender }

    public init(catalog: FontCatalog, pixelHeight: Int) throws(ShapingError) {
        precondition(pixelHeight > 0, "a font size of \(pixelHeight) px")
        self.catalog = catalog; self.pixelHeight = pixelHeight
        var lib: FT_Library?
        guard FT_Init_FreeType(&lib) == 0, let lib else { throw ShapingError("FreeType: cannot start") }
        var faces: [FT_Face] = [], fonts: [OpaquePointer] = [], asc: [Int] = [], desc: [Int] = []
        for font in catalog.fonts {
            var face: FT_Face?
            let base = font.file.base.assumingMemoryBound(to: FT_Byte.self)
            var error = FT_New_Memory_Face(lib, base, FT_Long(font.file.length), FT_Long(font.faceIndex), &face)
            if error == 0, let face { error = FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelHeight)) }
            guard error == 0, let face else {
                for f in faces { FT_Done_Face(f) }
                for f in fonts { hb_font_destroy(f) }
                FT_Done_FreeType(lib)
                let said = String(cString: pulsedot_ft_error_message(error))
                throw ShapingError("font \(font.path) (face \(font.faceIndex)): cannot open it at \(pixelHeight) px: FreeType: \(said)")
            }
            faces.append(face)
            let metrics = face.pointee.size.pointee.metrics
            asc.append(Int((metrics.ascender + 63) >> 6)); desc.append(Int((-metrics.descender + 63) >> 6))
            // HarfBuzz's own OpenType font functions, unhinted, at the 26.6 scale: the same glyph
            // positions `hb-shape --font-size=px*64` prints.
            let hbFont = hb_font_create(font.hbFace)!
            hb_font_set_scale(hbFont, Int32(pixelHeight * 64), Int32(pixelHeight * 64))
            fonts.append(hbFont)
        }
        library = lib; ftFaces = faces; hbFonts = fonts; ascenders = asc; descenders = desc
    }

    deinit {
        for f in hbFonts { hb_font_destroy(f) }
        for f in ftFaces { FT_Done_Face(f) }
        FT_Done_FreeType(library)
    }

    /// The glyph HarfBuzz maps `scalar` to in font `font` without any shaping (0 when none): what
    /// a shaper that only looked characters up would draw.
    public func nominalGlyph(_ scalar: UInt32, font: Int) -> UInt32 {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(hbFonts[font], scalar, &glyph) != 0 ? glyph : 0
    }
}
