import Config
import DisplayCore
import FBDev
import JSON
import KMS
import Outputs
import Raster

/// `probe`'s last word: the display `run` would drive with the configuration, chosen among the
/// probed devices by the same rules the outputs apply when they open one.
struct ServiceReport {
    enum Target {
        case card(ServiceChoice)
        case framebuffer(String)
        /// `output = png:DIR` or `none`: frames go nowhere a probe can see.
        case headless(String)
    }

    let source: String
    let display: DisplaySettings
    var target: Target?
    /// Why no display would be found; nil when one would.
    var problem: String?

    init(_ configuration: Configuration, cards: [CardProbe], framebuffers: [FramebufferProbe]) {
        source = configuration.sourcePhrase
        display = configuration.settings.display
        let d = display
        switch d.output {
        case .png, .none:
            target = .headless(d.outputText)
        case .fbdev:
            chooseFramebuffer(FBDevConfiguration(d).device, among: framebuffers, why: nil)
        case .kms, .auto:
            if let device = d.device, !cards.contains(where: { $0.path == device }) {
                problem = "the configured card \(device) could not be probed"
                return
            }
            do {
                target = .card(try ServiceChoice.choose(KMSConfiguration(d), among: cards))
            } catch {
                if cards.isEmpty, d.output == .kms || framebuffers.isEmpty {
                    problem = "no DRM card could be probed"
                } else if d.output == .auto {
                    // As DisplayOpener does: the framebuffer, unless it is the card's own emulation.
                    let path = FBDevConfiguration(d).device
                    if let fb = framebuffers.first(where: { $0.path == path }), fb.fixed.isDRMEmulation {
                        problem = "\(error) (\(path) is that DRM driver's emulation, not used instead)"
                    } else {
                        chooseFramebuffer(path, among: framebuffers, why: "\(error)")
                    }
                } else {
                    problem = "\(error)"
                }
            }
        }
    }

    private mutating func chooseFramebuffer(_ path: String, among framebuffers: [FramebufferProbe], why: String?) {
        guard framebuffers.contains(where: { $0.path == path }) else {
            problem = "the framebuffer \(path) could not be probed"
            return
        }
        target = .framebuffer(path)
        fallbackReason = why
    }

    /// Under `auto`, why the framebuffer rather than a card.
    private(set) var fallbackReason: String?

    var text: String {
        let head = "service (\(source)):"
        switch target {
        case .card(let c):
            return "\(head) \(c.device) (\(c.driver)) connector \(c.connector.name), mode \(c.mode), rotation \(c.rotation.degrees) (\(c.rotationSource)), format \(display.format.rawValue), update \(display.update.rawValue), \(display.composition.phrase)\n"
        case .framebuffer(let path):
            return "\(head) the framebuffer \(path), rotation \(display.rotation?.degrees ?? 0), update \(display.update.rawValue)"
                + (fallbackReason.map { " (output = auto: no DRM display can be driven: \($0))" } ?? "") + "\n"
        case .headless(let output):
            return "\(head) no display: output = \(output)\n"
        case nil:
            return "\(head) no display found: \(problem ?? "?")\n"
        }
    }

    func writeJSON<Output>(to w: inout JSONWriter<Output>) {
        w.field("source", source)
        switch target {
        case .card(let c):
            w.field("device", c.device)
            w.field("driver", c.driver)
            w.field("connector", c.connector.name)
            w.field("mode", c.mode.description)
            w.field("rotation", c.rotation.degrees)
            w.field("format", display.format.rawValue)
            w.field("update", display.update.rawValue)
            w.field("composition", display.composition.rawValue)
        case .framebuffer(let path):
            w.field("framebuffer", path)
            w.field("rotation", display.rotation?.degrees ?? 0)
            w.field("update", display.update.rawValue)
        case .headless(let output):
            w.field("output", output)
        case nil:
            break
        }
        w.field("problem", problem)
    }
}
