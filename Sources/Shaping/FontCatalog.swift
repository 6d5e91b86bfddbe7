import CFontconfig
import CHarfBuzz
import Syscall

/// Text that cannot be shaped or drawn: which font or family, what was being done, and why.
public struct ShapingError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One font file found by fontconfig for a family: where it is, which face of a collection, which
/// characters it has, and the file itself mapped read-only for HarfBuzz and FreeType to read in
/// place (a CJK collection is 20 MB; only the pages of the glyphs used are ever brought in).
public final class CatalogFont {
    public let family: String
    public let path: String
    /// The face in a collection (.ttc); 0 for a single font.
    public let faceIndex: Int
    let file: MappedMemory
    /// fontconfig's charset of the face: what "covers" means when a run picks its font.
    private let charset: OpaquePointer
    /// The size-independent HarfBuzz face over the mapping; each `FontSet` makes a font of it.
    let hbFace: OpaquePointer

    init(family: String, path: String, faceIndex: Int, charset: OpaquePointer) throws(ShapingError) {
        do { file = try MappedMemory.mapFile(path) } catch { throw ShapingError("font \(path) (family \(family)): \(error.description)") }
        self.family = family; self.path = path; self.faceIndex = faceIndex
        self.charset = FcCharSetCopy(charset)
        // READONLY: HarfBuzz reads the mapping in place; the face keeps no copy of the file.
        let blob = hb_blob_create(file.base.assumingMemoryBound(to: CChar.self), UInt32(file.length),
                                  HB_MEMORY_MODE_READONLY, nil, nil)
        hbFace = hb_face_create(blob, UInt32(faceIndex))
        hb_blob_destroy(blob)
    }

    deinit {
        hb_face_destroy(hbFace)
        FcCharSetDestroy(charset)
        file.unmap()
    }

    /// Whether the face has a glyph for `scalar`, by its fontconfig charset.
    public func covers(_ scalar: UInt32) -> Bool { FcCharSetHasChar(charset, scalar) != 0 }
}

/// The fonts text is set in, in order of preference: each run of text takes the first font whose
/// charset covers it. Families fontconfig does not have are left out and listed in `missing`
/// (fonts-noto-cjk is only a suggestion of the package), so text in their script shows as the
/// first font's missing-glyph boxes instead of failing.
public final class FontCatalog {
    /// Noto's families for the scripts stop names come in (Noto Sans covers Latin, Greek and
    /// Cyrillic with every diacritic), then DejaVu Sans, which the package always brings: the
    /// banner is still readable where Noto is not installed.
    public static let defaultFamilies = ["Noto Sans", "Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans Devanagari",
                                         "Noto Sans Thai", "Noto Sans CJK JP", "DejaVu Sans"]

    public let fonts: [CatalogFont]
    public let missing: [String]

    /// Finds every family of `families` with fontconfig (the system's configuration, read once
    /// here). Throws when not one of them is installed.
    public init(families: [String] = defaultFamilies) throws(ShapingError) {
        guard let config = FcInitLoadConfigAndFonts() else { throw ShapingError("fontconfig: cannot load its configuration") }
        defer { FcConfigDestroy(config) }
        var fonts: [CatalogFont] = [], missing: [String] = []
        for family in families {
            if let font = try Self.find(family, config) { fonts.append(font) } else { missing.append(family) }
        }
        if fonts.isEmpty {
            throw ShapingError("fonts: none of the families \(families.joined(separator: ", ")) is installed (fc-list shows what is)")
        }
        self.fonts = fonts; self.missing = missing
    }

    /// The index in `fonts` of the first font covering `scalar`, if any does.
    public func firstCovering(_ scalar: UInt32) -> Int? { fonts.firstIndex { $0.covers(scalar) } }

    /// fontconfig's best match for `family`, taken only when it is that family: fontconfig always
    /// answers with something, and a substitute would defeat the ordered list.
    private static func find(_ family: String, _ config: OpaquePointer) throws(ShapingError) -> CatalogFont? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        _ = FcPatternAddString(pattern, "family", family)
        _ = FcPatternAddInteger(pattern, "weight", Int32(FC_WEIGHT_REGULAR))
        _ = FcPatternAddInteger(pattern, "slant", Int32(FC_SLANT_ROMAN))
        _ = FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        var found = false, n: Int32 = 0
        var name: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(match, "family", n, &name) == FcResultMatch {
            if let name, Self.sameName(String(cString: name), family) { found = true; break }
            n += 1
        }
        var file: UnsafeMutablePointer<FcChar8>?, index: Int32 = 0
        var charset: OpaquePointer?
        guard found, FcPatternGetString(match, "file", 0, &file) == FcResultMatch, let file,
              FcPatternGetCharSet(match, "charset", 0, &charset) == FcResultMatch, let charset else { return nil }
        _ = FcPatternGetInteger(match, "index", 0, &index)
        return try CatalogFont(family: family, path: String(cString: file), faceIndex: Int(index), charset: charset)
    }

    private static func sameName(_ a: String, _ b: String) -> Bool {
        func folded(_ s: String) -> [UInt8] { s.utf8.filter { $0 != 0x20 }.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 } }
        return folded(a) == folded(b)
    }
}
