/// The words a map's attribution shows, from the HTML an MBTiles file's `attribution` metadata
/// usually holds (links to the copyright pages, `&copy;` entities). A screen has no links to
/// follow, so what is left is the visible text: tags dropped, character references decoded,
/// whitespace as a browser would lay it out on one line.
public enum AttributionText {
    /// The visible text of `html` on one line. Lenient the way a browser is: a `<` that starts no
    /// tag ("a < b") stays, an unknown or unterminated `&…` stays as written, and a tag left open
    /// at the end (a truncated metadata value) is dropped with what follows it.
    public static func plain(fromHTML html: String) -> String {
        let s = Array(html.unicodeScalars)
        var out = String.UnicodeScalarView()
        // Whitespace is held back until the next visible character, which collapses runs and
        // trims both ends in one pass.
        var pendingSpace = false
        func emit(_ c: Unicode.Scalar) {
            // A control character shows as nothing a reader could use; it parts words like a space.
            if c.properties.isWhitespace || c.properties.generalCategory == .control { pendingSpace = !out.isEmpty; return }
            if pendingSpace { out.append(" "); pendingSpace = false }
            out.append(c)
        }
        var i = 0
        while i < s.count {
            let c = s[i]
            if c == "<", let end = tagEnd(s, from: i) {
                if separatesWords(s, tagAt: i) { emit(" ") }
                i = end
            } else if c == "<", startsTag(s, i) {
                break
            } else if c == "&", let (decoded, end) = reference(s, from: i) {
                emit(decoded)
                i = end
            } else {
                emit(c)
                i += 1
            }
        }
        return String(out)
    }

    /// Whether the `<` at `i` opens markup: a tag name, an end tag, a comment or declaration, as HTML
    /// has it. Anything else, a space or a digit after it, is a literal less-than sign.
    private static func startsTag(_ s: [Unicode.Scalar], _ i: Int) -> Bool {
        guard i + 1 < s.count else { return false }
        let n = s[i + 1]
        return isASCIILetter(n) || n == "!" || n == "?" || (n == "/" && i + 2 < s.count && isASCIILetter(s[i + 2]))
    }

    /// The index just past the markup starting at `s[i]`, or nil when `s[i]` starts none or it never
    /// ends. A `>` inside a quoted attribute value does not end a tag; `-->` ends a comment.
    private static func tagEnd(_ s: [Unicode.Scalar], from i: Int) -> Int? {
        guard startsTag(s, i) else { return nil }
        if i + 3 < s.count && s[i + 1] == "!" && s[i + 2] == "-" && s[i + 3] == "-" {
            var j = i + 4
            while j + 2 < s.count {
                if s[j] == "-" && s[j + 1] == "-" && s[j + 2] == ">" { return j + 3 }
                j += 1
            }
            return nil
        }
        var quote: Unicode.Scalar? = nil
        var afterEquals = false
        var j = i + 1
        while j < s.count {
            let c = s[j]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == ">" {
                return j + 1
            } else if afterEquals && (c == "\"" || c == "'") {
                quote = c
            }
            if !c.properties.isWhitespace { afterEquals = quote == nil && c == "=" }
            j += 1
        }
        return nil
    }

    /// Line breaks and block elements end a word the way a space does; inline ones (`<a>`, `<b>`,
    /// `<span>`) sit inside words.
    private static func separatesWords(_ s: [Unicode.Scalar], tagAt i: Int) -> Bool {
        var j = i + 1
        if j < s.count && s[j] == "/" { j += 1 }
        var name = ""
        while j < s.count && isASCIILetterOrDigit(s[j]) {
            let c = s[j]
            name.unicodeScalars.append(("A"..."Z").contains(c) ? Unicode.Scalar(UInt8(c.value + 32)) : c)
            j += 1
        }
        return blockElements.contains(name)
    }

    private static let blockElements: Set<String> = [
        "br", "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "tr", "td", "th", "table", "hr",
        "h1", "h2", "h3", "h4", "h5", "h6", "section", "footer", "header", "address",
    ]

    /// The character reference starting with the `&` at `s[i]` and the index past it, or nil when
    /// it is none this decoder knows (then the `&` is text). Numeric references and the old named
    /// ones may lack their `;`, as browsers allow.
    private static func reference(_ s: [Unicode.Scalar], from i: Int) -> (Unicode.Scalar, Int)? {
        var j = i + 1
        if j < s.count && s[j] == "#" {
            j += 1
            var radix: UInt32 = 10
            if j < s.count && (s[j] == "x" || s[j] == "X") { radix = 16; j += 1 }
            let start = j
            var value: UInt32 = 0
            while j < s.count, let d = digitValue(s[j], radix: radix) {
                // Past U+10FFFF the value is no character whatever follows; holding it there keeps
                // a long run of digits from overflowing.
                value = min(value * radix + d, 0x11_0000)
                j += 1
            }
            guard j > start, value != 0, let scalar = Unicode.Scalar(value) else { return nil }
            if j < s.count && s[j] == ";" { j += 1 }
            return (scalar, j)
        }
        var name = ""
        while j < s.count && name.unicodeScalars.count < 8 && isASCIILetterOrDigit(s[j]) {
            name.unicodeScalars.append(s[j])
            j += 1
        }
        guard let scalar = namedReferences[name] else { return nil }
        if j < s.count && s[j] == ";" { return (scalar, j + 1) }
        let nextIsWordy = j < s.count && isASCIILetterOrDigit(s[j])
        return withoutSemicolon.contains(name) && !nextIsWordy ? (scalar, j) : nil
    }

    // The references attributions use: HTML's five escapes, the no-break space and the signs.
    private static let namedReferences: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        "copy": "\u{A9}", "reg": "\u{AE}", "trade": "\u{2122}", "middot": "\u{B7}",
        "ndash": "\u{2013}", "mdash": "\u{2014}", "bull": "\u{2022}",
    ]

    /// Names HTML still decodes without a `;` (from before it was required).
    private static let withoutSemicolon: Set<String> = ["amp", "lt", "gt", "quot", "nbsp", "copy", "reg", "middot"]

    private static func digitValue(_ c: Unicode.Scalar, radix: UInt32) -> UInt32? {
        switch c {
        case "0"..."9": return c.value - 48
        case "a"..."f" where radix == 16: return c.value - 87
        case "A"..."F" where radix == 16: return c.value - 55
        default: return nil
        }
    }

    private static func isASCIILetterOrDigit(_ c: Unicode.Scalar) -> Bool {
        isASCIILetter(c) || ("0"..."9").contains(c)
    }

    private static func isASCIILetter(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c)
    }
}
