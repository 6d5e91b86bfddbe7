import Config
import Daemon
import Demo
import Syscall
import Systemd

// `pulsedot demo`: argument parsing only.

let demoUsage = Usage(command: "demo", summary: "a bus drive over a made-up town: PNG frames and a contact sheet, or --display", options: [
    .valued("out", "DIR", "where the demo's files go (default ./pulsedot-demo)"),
    .valued("seconds", "N", "how long one lap of the built-in drive takes (default 60, from 5 to 600)"),
    .flag("display", "play it on the display through the daemon's own loop until SIGTERM/SIGINT"),
    .flag("kiosk", "the stop kiosk instead: the town's Place d'Armes with a made-up live feed, a minute as PNG frames with frames.jsonl in DIR/kiosk and the last frame as DIR/kiosk.png"),
    .valued("scale", "S", "pixels per point (the same as --set scale=S)"),
    .valued("set", "KEY=VALUE", "override a key of the demo's configuration (section.key=value; a bare key is [dot])", repeatable: true),
], notes: """
    A bus drives its loop through a made-up town, with two stops and a GPS dropout in a tunnel,
    following its trip of the town's GTFS feed: the line on the map, a banner with the next stops.
    Without --display: one lap as PNG frames with frames.jsonl (the next stop among it), a contact
    sheet of its moments and the dot's cycle (dot-cycle.png); prints the contact sheet's path.
    With --kiosk: the stop kiosk at the loop's stop B, a bus every quarter lap, one late, one
    cancelled, one not stopping and an alert, drawn by the daemon's own kiosk; prints kiosk.png's path.
    Either way the directory also gets drive.json, town.mbtiles (the town's map as zoom-17 tiles),
    town-gtfs (the feed; its index goes in transit-cache) and demo.conf, which
    `pulsedot run --config DIR/demo.conf` plays.
    """)

func demoCommand(_ args: Arguments) -> Int32 {
    guard args.positional.isEmpty else { return fail("demo: unexpected argument '\(args.positional[0])'") }
    // The signals the daemon's loop reads are blocked first, before any thread could exist.
    let signals: SignalDescriptor?
    do { signals = args.has("display") ? try SignalDescriptor(RunDaemon.handledSignals) : nil } catch { return fail("demo: \(error)") }
    let overrides = args.all("set") + (args.value("scale").map { ["scale=\($0)"] } ?? [])
    // A bad override is said before anything is written.
    var check = Settings()
    do { try check.set(all: overrides) } catch { return fail("demo: \(error)") }
    let lap: Double
    do { lap = try args.double("seconds", default: 60, range: 5...600) } catch { return fail("demo: \(error)") }
    if args.has("kiosk"), args.has("display") { return fail("demo: --kiosk draws PNG frames; it does not take --display") }
    do throws(DemoError) {
        let files = DemoFiles(directory: args.value("out") ?? "./pulsedot-demo", lapSeconds: lap)
        if args.has("kiosk") {
            print(try DemoKiosk(files: files, overrides: overrides).run())
            return 0
        }
        let demo = DemoPlayback(files: files, overrides: overrides)
        guard let signals else {
            print(try demo.run())
            return 0
        }
        try files.write()
        let configuration = try demo.loadConfiguration()
        let log = Journal()
        let options = RunDaemon.Options(configPath: files.configPath, overrides: overrides)
        do {
            return try RunDaemon(configuration: configuration, options: options,
                                 environment: .system(signals: signals, options: options, log: log), log: log).run()
        } catch { throw DemoError(error) }
    } catch {
        return fail("demo: \(error)")
    }
}
