import Config
import Daemon
import Demo
import Syscall
import Systemd

// `pulsedot demo [--out DIR] [--seconds N] [--display] [--scale S] [--set KEY=VALUE ...]`:
// argument parsing only.

private let demoUsage = """
    usage: pulsedot demo [--out DIR] [--seconds N] [--display] [--scale S] [--set KEY=VALUE ...]
      --out      where the demo's files go (default ./pulsedot-demo)
      --seconds  how long one lap of the built-in drive takes (default 40, from 5 to 600)
      --display  play it on the display through the daemon's own loop until SIGTERM/SIGINT
      --scale    pixels per point (the same as --set scale=S)
      --set      override a key of the demo's configuration (section.key=value; a bare key is [dot])
    A bus drives its loop through a made-up town, with two stops and a GPS dropout in a tunnel.
    Without --display: one lap as PNG frames with frames.jsonl, a contact sheet of its moments and
    the dot's cycle (dot-cycle.png); prints the contact sheet's path. Either way the directory also
    gets drive.json, map.png and demo.conf, which `pulsedot run --config DIR/demo.conf` plays.
    """

func demoCommand(_ argv: ArraySlice<String>) -> Int32 {
    if argv.contains("--help") || argv.contains("-h") {
        print(demoUsage)
        return 0
    }
    do {
        let args = try Arguments(argv, valued: ["out", "scale", "set", "seconds"], booleans: ["display"])
        guard args.positional.isEmpty else { return fail("demo: unexpected argument '\(args.positional[0])'") }
        // The signals the daemon's loop reads are blocked first, before any thread could exist.
        let signals = args.has("display") ? try SignalDescriptor(RunDaemon.handledSignals) : nil
        let overrides = args.all("set") + (args.value("scale").map { ["scale=\($0)"] } ?? [])
        // A bad override is said before anything is written.
        var check = Settings()
        try check.set(all: overrides)
        let files = DemoFiles(directory: args.value("out") ?? "./pulsedot-demo",
                              lapSeconds: try args.double("seconds", default: 40, range: 5...600))
        let demo = DriveDemo(files: files, overrides: overrides)
        guard let signals else {
            print(try demo.run())
            return 0
        }
        try files.write()
        let configuration = try demo.loadConfiguration()
        let log = Journal()
        let options = RunDaemon.Options(configPath: files.configPath, overrides: overrides)
        return try RunDaemon(configuration: configuration, options: options,
                                environment: .system(signals: signals, options: options, log: log), log: log).run()
    } catch {
        return fail("demo: \(error)")
    }
}
