/// Prometheus's text exposition format 0.0.4, the one node_exporter's textfile collector reads,
/// appended to one String. A family's `# HELP` and `# TYPE` come once, before its first sample;
/// its samples must follow one another (Prometheus rejects a family split in two). Samples never
/// carry a timestamp: the textfile collector drops a whole file whose samples have one.
/// Names are the program's own, so a bad one is a programming error (a precondition), not input.
public struct MetricsText {
    public private(set) var text = ""
    private var open: (name: String, type: String)?
    private var closed: Set<String> = []

    public init() {}

    /// Empties the text for the next rendering, keeping its storage: a daemon that writes its
    /// metrics every few seconds reuses one buffer instead of growing a new one each time.
    public mutating func removeAll() {
        text.removeAll(keepingCapacity: true)
        open = nil
        closed.removeAll(keepingCapacity: true)
    }

    /// A count that only goes up; its name ends in `_total`, as Prometheus's conventions ask.
    public mutating func counter(_ name: String, help: String, value: UInt64, labels: KeyValuePairs<String, String> = [:]) {
        precondition(name.hasSuffix("_total"), "counter \(name) must end in _total")
        family(name, "counter", help)
        sample(name, labels, String(value))
    }

    public mutating func counter(_ name: String, help: String, value: Double, labels: KeyValuePairs<String, String> = [:]) {
        precondition(name.hasSuffix("_total"), "counter \(name) must end in _total")
        family(name, "counter", help)
        sample(name, labels, PrometheusLexis.float(value))
    }

    public mutating func gauge(_ name: String, help: String, value: Double, labels: KeyValuePairs<String, String> = [:]) {
        family(name, "gauge", help)
        sample(name, labels, PrometheusLexis.float(value))
    }

    /// Facts as labels on a gauge of 1 (the 0.0.4 format has no info type; this is its convention).
    public mutating func info(_ name: String, help: String, labels: KeyValuePairs<String, String>) {
        precondition(name.hasSuffix("_info"), "info metric \(name) must end in _info")
        family(name, "gauge", help)
        sample(name, labels, "1")
    }

    /// Cumulative `_bucket` lines up to `le="+Inf"`, then `_sum` in seconds and `_count`.
    public mutating func histogram(_ name: String, help: String, _ histogram: FrameTimeHistogram,
                                   labels: KeyValuePairs<String, String> = [:]) {
        precondition(!labels.contains { $0.key == "le" }, "histogram \(name): le is the bucket's label")
        family(name, "histogram", help)
        let bucket = name + "_bucket"
        for (index, bound) in FrameTimeHistogram.boundsNanoseconds.enumerated() {
            let le = PrometheusLexis.float(Double(bound) / 1e9)
            sample(bucket, labels, String(histogram.cumulativeCount(atBound: index)), le: le)
        }
        sample(bucket, labels, String(histogram.count), le: "+Inf")
        sample(name + "_sum", labels, PrometheusLexis.float(histogram.sumSeconds))
        sample(name + "_count", labels, String(histogram.count))
    }

    private mutating func family(_ name: String, _ type: String, _ help: String) {
        if let open, open.name == name {
            precondition(open.type == type, "\(name) written as both \(open.type) and \(type)")
            return
        }
        precondition(PrometheusLexis.isMetricName(name), "\(name) is not a metric name")
        precondition(!closed.contains(name), "\(name): a family's samples must be written together")
        if let open { closed.insert(open.name) }
        open = (name, type)
        text += "# HELP \(name) "
        PrometheusLexis.appendHelp(help, to: &text)
        text += "\n# TYPE \(name) \(type)\n"
    }

    private mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String>, _ value: String, le: String? = nil) {
        text += name
        if !labels.isEmpty || le != nil {
            text += "{"
            var first = true
            for (label, labelValue) in labels {
                precondition(PrometheusLexis.isLabelName(label), "\(label) is not a label name")
                if !first { text += "," }
                first = false
                text += label + "=\""
                PrometheusLexis.appendLabelValue(labelValue, to: &text)
                text += "\""
            }
            if let le { text += (first ? "" : ",") + "le=\"" + le + "\"" }
            text += "}"
        }
        text += " " + value + "\n"
    }
}
