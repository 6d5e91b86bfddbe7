import Config

/// One option a command takes. The parser accepts exactly these and the usage lists exactly these,
/// so the two cannot drift apart.
struct Option: Sendable {
    let name: String
    /// What the value stands for in the usage ("FILE"); nil for a flag that takes none.
    let value: String?
    let summary: String
    var required = false
    var repeatable = false
    /// Accepted but left out of the usage: hooks for measurements, not for users.
    var hidden = false

    static func valued(_ name: String, _ value: String, _ summary: String, required: Bool = false,
                       repeatable: Bool = false, hidden: Bool = false) -> Option {
        Option(name: name, value: value, summary: summary, required: required, repeatable: repeatable, hidden: hidden)
    }

    static func flag(_ name: String, _ summary: String) -> Option {
        Option(name: name, value: nil, summary: summary)
    }

    /// `--set KEY=VALUE`, the same for every command that takes it.
    static let set = Option.valued("set", "KEY=VALUE", "override one key: section.key=value, a bare key meaning [dot]", repeatable: true)

    /// `--config FILE`, the same for every command that reads the service's configuration.
    static let config = Option.valued("config", "FILE", "the configuration file, then its drop-ins FILE.d/*.conf (default \(Configuration.defaultPath); a missing default file means the defaults)")

    var spelled: String { value.map { "--\(name) \($0)" } ?? "--\(name)" }

    var synopsis: String {
        let word = spelled + (repeatable ? " ..." : "")
        return required ? word : "[\(word)]"
    }
}

/// What `pulsedot COMMAND --help` prints, and the table `Arguments` parses by.
struct Usage: Sendable {
    struct Operand: Sendable {
        let name: String
        let summary: String
    }

    let command: String
    /// The one line `pulsedot --help` shows for the command, and the usage's second line.
    let summary: String
    /// Arguments that are not options (check-config's FILE); all optional.
    var operands: [Operand] = []
    let options: [Option]
    /// Said after the options: how they go together, signals, what comes out.
    var notes = ""

    var visibleOptions: [Option] { options.filter { !$0.hidden } }

    var text: String {
        var out = Self.wrap(["usage: pulsedot", command] + operands.map { "[\($0.name)]" } + visibleOptions.map({ $0.synopsis }))
        out += summary + "\n"
        let rows = operands.map { ($0.name, $0.summary) } + visibleOptions.map { ($0.spelled, $0.summary) }
        if !rows.isEmpty {
            let width = rows.map({ $0.0.count }).max() ?? 0
            out += "\n"
            for (left, right) in rows { out += "  " + left + String(repeating: " ", count: width - left.count + 2) + right + "\n" }
        }
        if !notes.isEmpty { out += "\n" + notes + "\n" }
        return out
    }

    /// The synopsis words on lines of at most 100 characters, later lines indented under the
    /// first option, never breaking inside one option's brackets.
    private static func wrap(_ words: [String]) -> String {
        let indent = String(repeating: " ", count: words[0].count + 1 + words[1].count + 1)
        var out = ""
        var line = words[0] + " " + words[1]
        for word in words.dropFirst(2) {
            if line.count + 1 + word.count > 100 {
                out += line + "\n"
                line = indent + word
            } else {
                line += " " + word
            }
        }
        return out + line + "\n"
    }
}

/// A subcommand: its usage (which is also its option table) and what it does with parsed arguments.
struct Command: Sendable {
    let usage: Usage
    let run: @Sendable (Arguments) -> Int32
    /// Commands under this one (`transit import`), named in their usage by both words; the first
    /// argument picks one, and everything after it is its own.
    var subcommands: [Command] = []

    var name: String { usage.command }

    /// How every command starts: its arguments parsed by its own table, `--help`/`-h` answered
    /// with its usage on stdout, a bad option said in one line on stderr with status 2.
    func main(_ args: ArraySlice<String>) -> Int32 {
        if let word = args.first, let sub = subcommands.first(where: { $0.name == name + " " + word }) {
            return sub.main(args.dropFirst())
        }
        let parsed: Arguments
        do {
            parsed = try Arguments(args, usage: usage)
        } catch {
            return fail("\(name): \(error)")
        }
        if parsed.helpRequested {
            print(usage.text, terminator: "")
            return 0
        }
        return run(parsed)
    }
}
