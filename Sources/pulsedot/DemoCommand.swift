import Daemon

// `pulsedot demo [--out DIR] [--scale S] [--set KEY=VALUE ...]`: argument parsing only.

func demoCommand(_ argv: ArraySlice<String>) -> Int32 {
    do {
        let args = try Arguments(argv, valued: ["out", "scale", "set"])
        guard args.positional.isEmpty else { return fail("demo: unexpected argument '\(args.positional[0])'") }
        let settings = try lookSettings(args)
        var demo = Demo()
        demo.directory = args.value("out") ?? "./pulsedot-demo"
        demo.style = settings.dot.style
        demo.scale = settings.dot.scale ?? 2
        let sheet = try demo.run()
        print(sheet)
        return 0
    } catch {
        return fail("demo: \(error)")
    }
}
