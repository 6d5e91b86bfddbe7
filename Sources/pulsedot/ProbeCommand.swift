import KMS

/// `pulsedot probe [--device PATH] [--json]`: what each DRM card offers — the installer's first
/// look at a panel, and what a bug report should carry.
func probeCommand(_ args: ArraySlice<String>) -> Int32 {
    let options: Arguments
    do { options = try Arguments(args, valued: ["device"], booleans: ["json"]) } catch { return fail(error.description) }
    let paths = options.value("device").map { [$0] } ?? Discovery.cardPaths()
    if paths.isEmpty {
        return fail("no DRM device: /dev/dri has no card* (is a DRM driver loaded?)")
    }
    var probes: [CardProbe] = []
    for path in paths {
        do {
            let card = try LibDRMCard(path: path)
            defer { card.close() }
            probes.append(try CardProbe.read(card))
        } catch {
            writeError("pulsedot: \(error)\n")
        }
    }
    if options.has("json") {
        print("{\"devices\":[" + probes.map(\.json).joined(separator: ",") + "]}")
    } else {
        print(probes.map(\.text).joined(separator: "\n"), terminator: "")
    }
    return probes.count == paths.count ? 0 : 1
}
