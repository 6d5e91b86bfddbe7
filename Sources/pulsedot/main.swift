import Daemon
import Glibc
import Syscall

// `pulsedot COMMAND [OPTIONS]`: argument parsing and dispatch only; the work lives in the targets.

/// Every command, in the order `pulsedot --help` lists them; each answers `--help` with its usage.
let commands: [Command] = [
    Command(usage: showUsage, run: showCommand),
    Command(usage: probeUsage, run: probeCommand),
    Command(usage: renderUsage, run: renderCommand),
    Command(usage: demoUsage, run: demoCommand),
    Command(usage: consoleRestoreUsage, run: consoleRestoreCommand),
    Command(usage: watchUsage, run: watchCommand),
    Command(usage: runUsage, run: runCommand),
    Command(usage: checkConfigUsage, run: checkConfigCommand),
    Command(usage: statusUsage, run: statusCommand),
    Command(usage: backlightUsage, run: backlightCommand),
    Command(usage: benchUsage, run: benchCommand),
    Command(usage: transitUsage, run: transitCommand, subcommands: transitSubcommands),
    Command(usage: realtimeUsage, run: realtimeCommand, subcommands: realtimeSubcommands),
    Command(usage: manUsage, run: manCommand),
    Command(usage: completionUsage, run: completionCommand),
]

func usage() -> String {
    var text = "usage: pulsedot COMMAND [OPTIONS]\n\ncommands:\n"
    for c in commands { text += "  \(c.name.padding(17))\(c.usage.summary)\n" }
    text += "\n  pulsedot COMMAND --help   that command's options\n  pulsedot --version\n"
    return text
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}

/// Prints one line to stderr: how every command reports a problem.
func fail(_ message: String) -> Int32 {
    writeError("pulsedot: \(message)\n")
    return 2
}

func writeError(_ text: String) {
    // A message that cannot be written (stderr closed) has nowhere else to go.
    _ = try? text.withUTF8Bytes { (bytes) throws(SyscallError) in try FileDescriptor(rawValue: 2, name: "stderr").write(bytes) }
}

let argv = CommandLine.arguments
guard argv.count >= 2 else {
    writeError(usage())
    exit(2)
}
switch argv[1] {
case "--version", "version":
    print("pulsedot \(PulseDotVersion.string)")
    exit(0)
case "--help", "-h", "help":
    print(usage(), terminator: "")
    exit(0)
default:
    guard let command = commands.first(where: { $0.name == argv[1] }) else {
        writeError("pulsedot: unknown command '\(argv[1])'\n" + usage())
        exit(2)
    }
    exit(command.main(argv[2...]))
}
