/// Something that writes itself as one JSON value into any writer (so reports nest: `pulsedot
/// probe` puts every card's and framebuffer's in one document), and as text on its own.
public protocol JSONReport {
    func writeJSON<Output>(to writer: inout JSONWriter<Output>)
}

extension JSONReport {
    /// The report alone, as one JSON text.
    public var json: String {
        var w = JSONWriter(into: "")
        writeJSON(to: &w)
        return w.output
    }
}
