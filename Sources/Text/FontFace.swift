import CFreeType
import Raster

/// A font file that could not be used: which file, what was being done, what FreeType said.
public struct FontError: Error, Equatable, CustomStringConvertible {
    public let path: String
    /// What failed, as a phrase: "open", "set the size to 11 px", "draw U+00A9".
    public let action: String
    /// FreeType's error code (FT_Error).
    public let code: Int32

    public var description: String {
        let said = String(cString: pulsedot_ft_error_message(FT_Error(code)))
        // FreeType words a missing file as a resource it cannot open; say what that usually means.
        let hint = code == 0x01 ? " (no such file, or not readable)" : ""
        return "font \(path): cannot \(action): FreeType: \(said)\(hint)"
    }
}

/// One font file at one pixel size, through FreeType: measuring a line of text and drawing it
/// into an `Overlay`. Glyphs are rendered as they are drawn, nothing is cached: labels are made
/// once, not per frame.
public final class FontFace {
    public let path: String
    /// The em size in pixels (FT_Set_Pixel_Sizes).
    public let pixelHeight: Int
    /// Pixels from the baseline up to the top of the tallest glyphs, and down to the lowest.
    public let ascender: Int
    public let descender: Int
    public var lineHeight: Int { ascender + descender }

    private let library: FT_Library
    private let face: FT_Face
    private let hasKerning: Bool

    public init(path: String, pixelHeight: Int) throws(FontError) {
        precondition(pixelHeight > 0, "a font size of \(pixelHeight) px")
        self.path = path
        self.pixelHeight = pixelHeight
        var lib: FT_Library?
        var error = FT_Init_FreeType(&lib)
        guard error == 0, let lib else { throw FontError(path: path, action: "start FreeType", code: error) }
        var face: FT_Face?
        error = FT_New_Face(lib, path, 0, &face)
        guard error == 0, let face else {
            FT_Done_FreeType(lib)
            throw FontError(path: path, action: "open it", code: error)
        }
        error = FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelHeight))
        if error != 0 {
            FT_Done_Face(face); FT_Done_FreeType(lib)
            throw FontError(path: path, action: "set its size to \(pixelHeight) px", code: error)
        }
        library = lib
        self.face = face
        hasKerning = face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0
        // 26.6 fixed point; FreeType rounds these to whole pixels for scalable fonts already, the
        // ceiling covers bitmap fonts that do not.
        let metrics = face.pointee.size.pointee.metrics
        ascender = Int((metrics.ascender + 63) >> 6)
        descender = Int((-metrics.descender + 63) >> 6)
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// How far `text` moves the pen, in pixels: its width on one line, kerning included.
    public func width(of text: String) throws(FontError) -> Int {
        try run(text, into: nil, x: 0, baseline: 0, color: .black)
    }

    /// Draws `text` into `overlay` starting at pixel `x` with its baseline on row `baseline`, in
    /// `color` over what the overlay holds; parts outside the overlay are cut off. Returns the
    /// width, as `width(of:)`.
    @discardableResult
    public func draw(_ text: String, into overlay: Overlay, x: Int, baseline: Int, color: Color) throws(FontError) -> Int {
        try run(text, into: overlay, x: x, baseline: baseline, color: color)
    }

    /// The one layout both measuring and drawing follow, so a measured width is the drawn one.
    private func run(_ text: String, into overlay: Overlay?, x: Int, baseline: Int, color: Color) throws(FontError) -> Int {
        var pen = 0  // 26.6
        var previous: FT_UInt = 0
        let flags = overlay == nil ? FT_Int32(FT_LOAD_DEFAULT) : FT_Int32(FT_LOAD_RENDER)
        for scalar in text.unicodeScalars {
            let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
            if hasKerning && previous != 0 && index != 0 {
                var delta = FT_Vector()
                if FT_Get_Kerning(face, previous, index, FT_UInt(FT_KERNING_DEFAULT.rawValue), &delta) == 0 {
                    pen += Int(delta.x)
                }
            }
            let error = FT_Load_Char(face, FT_ULong(scalar.value), flags)
            if error != 0 {
                throw FontError(path: path, action: "draw \(Self.codePoint(scalar))", code: error)
            }
            let slot = face.pointee.glyph!
            if let overlay {
                let s = slot.pointee
                Self.blit(s.bitmap, into: overlay, left: x + ((pen + 32) >> 6) + Int(s.bitmap_left),
                          top: baseline - Int(s.bitmap_top), color: color)
            }
            pen += Int(slot.pointee.advance.x)
            previous = index
        }
        return (pen + 32) >> 6
    }

    /// A rendered glyph's coverage painted at (`left`, `top`) of the overlay. Grey bitmaps are what
    /// outline fonts give; one-bit ones come from fonts with embedded bitmaps. Shaped lines (Shaping)
    /// draw their glyphs through it too, so both kinds of text look the same.
    package static func blit(_ bitmap: FT_Bitmap, into overlay: Overlay, left: Int, top: Int, color: Color) {
        guard let buffer = bitmap.buffer, bitmap.rows > 0, bitmap.width > 0 else { return }
        let rows = Int(bitmap.rows), width = Int(bitmap.width), pitch = Int(bitmap.pitch)
        // A negative pitch means rows are stored bottom-up: the top row is the last in memory.
        let first = pitch < 0 ? buffer - (rows - 1) * pitch : buffer
        let mode = Int32(bitmap.pixel_mode)
        for r in 0..<rows {
            let row = first + r * pitch
            for c in 0..<width {
                let coverage: UInt8
                switch mode {
                case Int32(FT_PIXEL_MODE_GRAY.rawValue): coverage = row[c]
                case Int32(FT_PIXEL_MODE_MONO.rawValue): coverage = row[c >> 3] & (0x80 >> UInt8(c & 7)) != 0 ? 255 : 0
                default: return
                }
                overlay.blend(x: left + c, y: top + r, color, coverage: coverage)
            }
        }
    }

    private static func codePoint(_ s: Unicode.Scalar) -> String {
        let hex = String(s.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
