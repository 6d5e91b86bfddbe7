import Daemon
import Glibc
import PNG

// `pulsedot COMMAND [OPTIONS]`: argument parsing and dispatch only; the work lives in the targets.

struct Command: Sendable {
    let name: String
    let summary: String
    let run: @Sendable (ArraySlice<String>) -> Int32
}

let commands: [Command] = [
    Command(name: "show", summary: "show the animated dot on a DRM display until SIGTERM/SIGINT", run: showCommand),
    Command(name: "probe", summary: "list DRM devices, connectors, modes, formats and capabilities", run: probeCommand),
    Command(name: "render", summary: "render one frame of the dot to a PNG", run: renderCommand),
    Command(name: "demo", summary: "a bus drive over a made-up town: PNG frames and a contact sheet, or --display", run: demoCommand),
    Command(name: "console-restore", summary: "put a virtual console back into text mode (unit's ExecStopPost)", run: consoleRestoreCommand),
    Command(name: "watch", summary: "print each fix gpsd reports as one JSON line", run: watchCommand),
    Command(name: "run", summary: "the daemon: the dot on the display, positions from gpsd (the unit runs it)", run: runCommand),
    Command(name: "check-config", summary: "validate a configuration and print the effective one", run: checkConfigCommand),
    Command(name: "bench", summary: "measure the frame path (damage, paint, copy-out) over a textured map", run: benchCommand),
]

func usage() -> String {
    var text = "usage: pulsedot COMMAND [OPTIONS]\n\ncommands:\n"
    for c in commands { text += "  \(c.name.padding(14))\(c.summary)\n" }
    text += "\n  pulsedot --version\n"
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
    var text = text
    text.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
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
    exit(command.run(argv[2...]))
}
