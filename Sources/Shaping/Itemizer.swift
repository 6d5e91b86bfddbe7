import CFriBiDi
import CHarfBuzz

/// A stretch of a line set in one direction, one script and one font: what HarfBuzz shapes at
/// once. Indices are of the line's Unicode scalars, in logical (reading) order.
public struct TextItem: Equatable {
    public var start: Int
    public var end: Int
    /// The resolved bidi embedding level: odd is right to left.
    public var level: Int
    /// The index of the item's font in the catalog.
    public var font: Int
    public var isRightToLeft: Bool { level & 1 == 1 }
}

/// The Unicode bidirectional algorithm (FriBiDi) for one line: its paragraph direction from the
/// first strong character, and the visual order of its characters.
public struct BidiLine: Equatable {
    public let paragraphIsRightToLeft: Bool
    /// Logical index of the character shown at each visual position, left to right.
    public let visualToLogical: [Int]
    /// Embedding level of each character, in logical order, trailing spaces reset (rule L1).
    public let levels: [Int]

    public init(_ scalars: [UInt32]) {
        let n = Int32(scalars.count)
        if n == 0 { paragraphIsRightToLeft = false; visualToLogical = []; levels = []; return }
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: scalars.count)
        var brackets = [FriBidiBracketType](repeating: 0, count: scalars.count)
        var levels = [FriBidiLevel](repeating: 0, count: scalars.count)
        var map = (0..<n).map { FriBidiStrIndex($0) }
        var direction = pulsedot_fribidi_par_on
        fribidi_get_bidi_types(scalars, n, &types)
        fribidi_get_bracket_types(scalars, n, types, &brackets)
        let top = fribidi_get_par_embedding_levels_ex(types, brackets, n, &direction, &levels)
        // Flags 0: combining marks stay where they are, HarfBuzz places them on their base; the
        // levels come back with rule L1 applied, the map in visual order.
        if top > 0 { _ = fribidi_reorder_line(0, types, n, 0, direction, &levels, nil, &map) }
        paragraphIsRightToLeft = direction == pulsedot_fribidi_par_rtl
        visualToLogical = map.map { Int($0) }
        self.levels = levels.map { Int($0) }
    }

    /// Maximal stretches of one level, left to right on screen, each as a logical range.
    public var visualRuns: [(start: Int, end: Int, level: Int)] {
        var runs: [(start: Int, end: Int, level: Int)] = []
        var v = 0
        while v < visualToLogical.count {
            let first = visualToLogical[v], level = levels[first]
            let step = level & 1 == 1 ? -1 : 1
            var last = first
            while v + 1 < visualToLogical.count, visualToLogical[v + 1] == last + step, levels[last + step] == level {
                last += step; v += 1
            }
            runs.append((min(first, last), max(first, last) + 1, level))
            v += 1
        }
        return runs
    }
}

enum Itemizer {
    /// `scalars` cut into items in visual order: bidi runs, then within each the stretches of one
    /// script, then of one font. Characters of no script of their own (spaces, digits, punctuation,
    /// combining marks) join the script around them and stay in its font when it has them, so an
    /// Arabic phrase with spaces is one item; a character no font covers takes the first font.
    static func items(_ scalars: [UInt32], bidi: BidiLine, catalog: FontCatalog) -> [TextItem] {
        let scripts = resolvedScripts(scalars)
        var fontOf = [Int](repeating: 0, count: scalars.count)
        let unicode = hb_unicode_funcs_get_default()
        for i in scalars.indices {
            let own = hb_unicode_script(unicode, scalars[i])
            let neutral = own == HB_SCRIPT_COMMON || own == HB_SCRIPT_INHERITED || own == HB_SCRIPT_UNKNOWN
            if i > 0 && scripts[i] == scripts[i - 1] {
                let previous = fontOf[i - 1]
                if own == HB_SCRIPT_INHERITED || (neutral && catalog.fonts[previous].covers(scalars[i])) {
                    fontOf[i] = previous; continue
                }
            }
            fontOf[i] = catalog.firstCovering(scalars[i]) ?? 0
        }
        var items: [TextItem] = []
        for run in bidi.visualRuns {
            var pieces: [TextItem] = []
            var start = run.start
            for i in run.start..<run.end where i == run.end - 1 || scripts[i + 1] != scripts[i] || fontOf[i + 1] != fontOf[i] {
                pieces.append(TextItem(start: start, end: i + 1, level: run.level, font: fontOf[start]))
                start = i + 1
            }
            items += run.level & 1 == 1 ? pieces.reversed() : pieces
        }
        return items
    }

    /// Each character's script, neutral ones taking the script before them (or, at the start, the
    /// first one after them).
    static func resolvedScripts(_ scalars: [UInt32]) -> [hb_script_t] {
        let unicode = hb_unicode_funcs_get_default()
        var scripts = scalars.map { hb_unicode_script(unicode, $0) }
        func isNeutral(_ s: hb_script_t) -> Bool { s == HB_SCRIPT_COMMON || s == HB_SCRIPT_INHERITED || s == HB_SCRIPT_UNKNOWN }
        var last: hb_script_t? = nil
        for i in scripts.indices {
            if isNeutral(scripts[i]) { if let last { scripts[i] = last } } else { last = scripts[i] }
        }
        if let first = scripts.firstIndex(where: { !isNeutral($0) }) {
            for i in 0..<first { scripts[i] = scripts[first] }
        }
        return scripts
    }
}
