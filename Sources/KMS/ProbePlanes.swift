import JSON

/// The plane part of `pulsedot probe`: every plane with its type, the CRTCs it can serve, its
/// formats and its properties, so a person can see what hardware composition the card could do
/// (a sprite on an overlay needs an ARGB format, blending and a free position) before any is used.
extension CardProbe {
    var cursorText: String {
        guard let w = capabilities.cursorWidth, let h = capabilities.cursorHeight else { return "unknown (the driver does not say)" }
        return "\(w)x\(h)"
    }

    /// The ids of the CRTCs a plane can be shown on (its mask is over CRTC indices).
    func crtcIDs(of plane: PlaneInfo) -> [UInt32] {
        crtcs.filter { $0.info.index < 32 && plane.possibleCrtcs & (1 << UInt32($0.info.index)) != 0 }.map({ $0.info.id })
    }

    static func formatList(_ formats: [UInt32]) -> String {
        formats.isEmpty ? "none" : formats.map(FourCC.describe).joined(separator: " ")
    }

    /// 16.16 fixed point as pixels: "1280", "0.5".
    static func fixedPointPixels(_ value: UInt64) -> String {
        let whole = value >> 16, fraction = value & 0xFFFF
        if fraction == 0 { return String(whole) }
        var digits = String(Double(fraction) / 65536)
        digits.removeFirst()  // "0.5" → ".5"
        return String(whole) + String(digits.prefix(7))
    }

    var planesText: String {
        var out = ""
        if planes.isEmpty { out += "  planes: none listed\n" }
        for p in planes {
            let crtcList = crtcIDs(of: p).map(String.init).joined(separator: ",")
            out += "  plane \(p.id): \(p.type?.rawValue ?? "unknown type"), crtc \(crtcList.isEmpty ? "none" : crtcList), formats \(Self.formatList(p.formats))\n"
            for prop in p.properties where prop.name != "IN_FORMATS" {
                var notes = [prop.allowedText]
                // Source rectangles are 16.16 fixed point: the pixels are what a person compares.
                if prop.name.hasPrefix("SRC_"), case .range = prop.kind { notes.insert(Self.fixedPointPixels(prop.value) + " px", at: 0) }
                if prop.immutable { notes.append("immutable") }
                if prop.atomicOnly { notes.append("atomic") }
                out += "    \(prop.name) = \(prop.valueText) (\(notes.joined(separator: "; ")))\n"
            }
            for m in p.inFormats ?? [] {
                out += "    IN_FORMATS \(m.label): \(Self.formatList(m.formats))\n"
            }
        }
        return out
    }

    func writePlanes<Output>(to writer: inout JSONWriter<Output>) {
        writer.array("planes") { w in
            for p in planes {
                w.object { w in
                    w.field("id", p.id)
                    w.field("type", p.type?.rawValue)
                    w.field("possibleCrtcs", p.possibleCrtcs)
                    w.array("crtcs") { w in for id in crtcIDs(of: p) { w.value(id) } }
                    w.array("formats") { w in for f in p.formats { w.value(FourCC.describe(f)) } }
                    w.array("properties") { w in for prop in p.properties { Self.write(prop, to: &w) } }
                    if let list = p.inFormats {
                        w.array("inFormats") { w in
                            for m in list {
                                w.object { w in
                                    // As text: modifiers use all 64 bits, beyond JSON's exact integers.
                                    w.field("modifier", "0x" + String(m.modifier, radix: 16))
                                    w.field("name", m.name)
                                    w.array("formats") { w in for f in m.formats { w.value(FourCC.describe(f)) } }
                                }
                            }
                        }
                    } else {
                        w.null("inFormats")
                    }
                }
            }
        }
    }

    private static func write<Output>(_ prop: PlaneProperty, to w: inout JSONWriter<Output>) {
        w.object { w in
            w.field("name", prop.name)
            w.field("kind", prop.kind.name)
            // The raw value as text too: a signed range's bit pattern or an id may exceed 2^53.
            w.field("value", prop.valueText)
            w.field("immutable", prop.immutable)
            w.field("atomic", prop.atomicOnly)
            switch prop.kind {
            case .range(let lo, let hi):
                w.field("min", String(lo)); w.field("max", String(hi))
            case .signedRange(let lo, let hi):
                w.field("min", String(lo)); w.field("max", String(hi))
            case .enumeration(let choices), .bitmask(let choices):
                w.array("choices") { w in for c in choices { w.value(c.name) } }
            case .object, .blob, .other:
                break
            }
        }
    }
}
