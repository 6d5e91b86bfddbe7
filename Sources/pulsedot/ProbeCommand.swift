import Config
import FBDev
import JSON
import KMS
import Outputs
import Syscall

/// `pulsedot probe [--device PATH] [--json] [--config FILE] [--set KEY=VALUE]`: what each DRM card
/// and legacy framebuffer offers — the installer's first look at a panel, and what a bug report
/// should carry — and what the service's configuration would drive among them. `--device` takes a
/// card or a framebuffer (/dev/fbN).
let probeUsage = Usage(command: "probe", summary: "list DRM devices, connectors, modes, planes, formats and capabilities, and what the service would drive", options: [
    .valued("device", "PATH", "only this DRM card (/dev/dri/cardN) or framebuffer (/dev/fbN); default: every one"),
    .flag("json", "one JSON object {\"devices\":[...],\"framebuffers\":[...],\"service\":{...}} instead of text"),
    .config,
    .set,
], notes: """
    Without --device, the last line (the "service" member with --json) is what `run` would drive
    with the configuration (--config, its drop-ins, --set): card, connector, mode, rotation,
    format, update and composition, or why it would find no display. Exit 1 when a device could not be read or
    the configured display is not among those probed (said on stderr); the others are still reported.
    """)

func probeCommand(_ options: Arguments) -> Int32 {
    guard options.positional.isEmpty else { return fail("probe: unexpected argument '\(options.positional[0])'") }
    let configuration: Configuration
    do { configuration = try serviceConfiguration(options) } catch { return fail("probe: \(error)") }
    var cards = Discovery.cardPaths()
    var framebuffers = FramebufferDiscovery.paths()
    if let device = options.value("device") {
        let isFramebuffer = device.split(separator: "/").last?.hasPrefix("fb") ?? false
        cards = isFramebuffer ? [] : [device]
        framebuffers = isFramebuffer ? [device] : []
    }
    if cards.isEmpty && framebuffers.isEmpty {
        return fail("no display device: /dev/dri has no card* and /dev has no fb* (is a DRM or fbdev driver loaded?)")
    }
    var probes: [CardProbe] = []
    for path in cards {
        do {
            let card = try LibDRMCard(path: path)
            defer { card.close() }
            probes.append(try CardProbe.read(card))
        } catch {
            writeError("pulsedot: \(error)\n")
        }
    }
    var fbProbes: [FramebufferProbe] = []
    for path in framebuffers {
        do {
            let device = try FramebufferDiscovery.openDevice(path)
            defer { device.close() }
            fbProbes.append(try FramebufferProbe.read(device))
        } catch {
            if case .noDevice(_, let e) = error {
                writeError("pulsedot: no framebuffer at \(path): \(e.message)\n")
            } else {
                writeError("pulsedot: \(error)\n")
            }
        }
    }
    // The service's choice is among every device; one asked for alone is only reported.
    let service = options.value("device") == nil ? ServiceReport(configuration, cards: probes, framebuffers: fbProbes) : nil
    if options.has("json") {
        print(JSONWriter.object { w in
            w.array("devices") { w in for p in probes { p.writeJSON(to: &w) } }
            w.array("framebuffers") { w in for p in fbProbes { p.writeJSON(to: &w) } }
            if let service { w.object("service") { w in service.writeJSON(to: &w) } }
        })
    } else {
        let reports = (probes.map({ $0.text }) + fbProbes.map({ $0.text })).joined(separator: "\n")
        print(reports + (reports.isEmpty || service == nil ? "" : "\n") + (service?.text ?? ""), terminator: "")
    }
    if let problem = service?.problem { writeError("pulsedot: probe: the service would not find its display: \(problem)\n") }
    return probes.count + fbProbes.count == cards.count + framebuffers.count && service?.problem == nil ? 0 : 1
}
