/// The samples of a text-format file read back: what `pulsedot status` summarises and tests
/// check. Only the subset `MetricsText` writes is read (no timestamps, no exemplars); comment
/// lines are skipped; a line that is not a sample makes the whole read fail with its number.
public struct MetricsSamples: Sendable {
    public struct Sample: Sendable, Equatable {
        public var name: String
        public var labels: [String: String]
        public var value: Double
    }

    public struct ParseError: Error, CustomStringConvertible, Sendable {
        public let line: Int
        public let problem: String
        public var description: String { "line \(line): \(problem)" }
    }

    public private(set) var samples: [Sample] = []

    public init(parsing text: String) throws(ParseError) {
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let sample = Self.sample(Array(line.unicodeScalars)) else {
                throw ParseError(line: number, problem: "not a sample: \(line.prefix(80))")
            }
            samples.append(sample)
        }
    }

    /// The value of the sample named `name` whose labels include `labels`; nil: none.
    public func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        sample(name, labels)?.value
    }

    public func sample(_ name: String, _ labels: [String: String] = [:]) -> Sample? {
        samples.first { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }
    }

    /// The label `label` of the sample of `name` whose value is 1 (a state gauge's current state).
    public func current(_ name: String, label: String) -> String? {
        samples.first { $0.name == name && $0.value == 1 }?.labels[label]
    }

    private static func sample(_ s: [Unicode.Scalar]) -> Sample? {
        var i = 0
        var name = String.UnicodeScalarView()
        while i < s.count, s[i] != "{", s[i] != " " {
            name.append(s[i])
            i += 1
        }
        guard !name.isEmpty else { return nil }
        var labels: [String: String] = [:]
        if i < s.count, s[i] == "{" {
            i += 1
            while i < s.count, s[i] != "}" {
                var key = String.UnicodeScalarView()
                while i < s.count, s[i] != "=" {
                    key.append(s[i])
                    i += 1
                }
                guard i + 1 < s.count, s[i + 1] == "\"" else { return nil }
                i += 2
                var value = String.UnicodeScalarView()
                while i < s.count, s[i] != "\"" {
                    if s[i] == "\\", i + 1 < s.count {
                        i += 1
                        value.append(s[i] == "n" ? "\n" : s[i])
                    } else {
                        value.append(s[i])
                    }
                    i += 1
                }
                guard i < s.count else { return nil }
                i += 1
                labels[String(key)] = String(value)
                if i < s.count, s[i] == "," { i += 1 }
            }
            guard i < s.count else { return nil }
            i += 1
        }
        guard i < s.count, s[i] == " " else { return nil }
        let rest = String(String.UnicodeScalarView(s[(i + 1)...]))
        let value: Double?
        switch rest {
        case "+Inf": value = .infinity
        case "-Inf": value = -.infinity
        case "NaN": value = .nan
        default: value = Double(rest)
        }
        guard let value else { return nil }
        return Sample(name: String(name), labels: labels, value: value)
    }
}
