/// A small, strict command-line parser shared by every subcommand: `--name value`, `--name=value`,
/// boolean `--flag`, and repeatable options such as `--set KEY=VALUE`, by the command's `Usage`.
/// Anything it does not know is an error that names the option, so a typo never passes silently.
struct Arguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positional: [String] = []
    /// `--help` or `-h` stood where an option could: the usage is wanted, whatever else is there.
    private(set) var helpRequested = false

    struct Failure: Error, CustomStringConvertible {
        let description: String

        init(description: String) { self.description = description }

        /// An option's value refused by the part that reads it, in that part's words.
        init<E: Error & CustomStringConvertible>(_ error: E) { description = error.description }
    }

    init(_ args: ArraySlice<String>, usage: Usage) throws(Failure) {
        var valued: Set<String> = [], booleans: Set<String> = []
        for option in usage.options {
            if option.value == nil { booleans.insert(option.name) } else { valued.insert(option.name) }
        }
        // The first problem is kept, not thrown at once: a `--help` later on still gets the usage.
        var problem: Failure?
        var i = args.startIndex
        while i < args.endIndex {
            let arg = args[i]
            i += 1
            if arg == "--help" || arg == "-h" {
                helpRequested = true
                continue
            }
            guard arg.hasPrefix("--"), arg.count > 2 else {
                positional.append(arg)
                continue
            }
            var name = String(arg.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if booleans.contains(name) {
                if inline != nil { problem = problem ?? Failure(description: "option --\(name) takes no value") }
                flags.insert(name)
            } else if valued.contains(name) {
                let value: String
                if let inline { value = inline } else {
                    guard i < args.endIndex else {
                        problem = problem ?? Failure(description: "option --\(name) needs a value")
                        break
                    }
                    value = args[i]
                    i += 1
                }
                values[name, default: []].append(value)
            } else {
                let known = usage.visibleOptions.map({ $0.name }).sorted().map { "--" + $0 }.joined(separator: ", ")
                problem = problem ?? Failure(description: "unknown option --\(name) (this command takes: \(known.isEmpty ? "none" : known))")
            }
        }
        if let problem, !helpRequested { throw problem }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The last value given for `name`, if any.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given for a repeatable option, in order.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    func int(_ name: String, default fallback: Int, range: ClosedRange<Int>) throws(Failure) -> Int {
        guard let text = value(name) else { return fallback }
        guard let v = Int(text), range.contains(v) else {
            throw Failure(description: "--\(name) \(text): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return v
    }

    func double(_ name: String, default fallback: Double, range: ClosedRange<Double>) throws(Failure) -> Double {
        guard let text = value(name) else { return fallback }
        guard let v = Double(text), v.isFinite, range.contains(v) else {
            throw Failure(description: "--\(name) \(text): expected a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return v
    }
}
