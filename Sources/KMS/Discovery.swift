import DisplayCore
import Raster
import Syscall

/// What the configuration says about the display (the `[display]` keys, `pulsedot show`'s options).
public struct KMSConfiguration: Sendable {
    /// nil: the first /dev/dri/card* with a connected connector.
    public var device: String?
    /// The kernel's connector name; nil: the first connected.
    public var connector: String?
    public var mode: ModeRequest?
    public var format: PixelFormat
    /// nil: from the panel orientation property.
    public var rotation: Rotation?
    public var update: UpdateMode

    public init(device: String? = nil, connector: String? = nil, mode: ModeRequest? = nil,
                format: PixelFormat = .xrgb8888, rotation: Rotation? = nil, update: UpdateMode = .auto) {
        self.device = device; self.connector = connector; self.mode = mode
        self.format = format; self.rotation = rotation; self.update = update
    }
}

public enum Discovery {
    /// The DRM card nodes in `directory`, in number order (card2 before card10). Render nodes and
    /// control nodes are not cards that can scan out.
    public static func cardPaths(in directory: String = "/dev/dri") -> [String] {
        // No /dev/dri (or none this process may list) simply has no cards: the caller says so.
        let names = (try? Directory.entries(directory)) ?? []
        let numbers = names.compactMap { name in name.hasPrefix("card") ? Int(name.dropFirst(4)) : nil }
        return numbers.sorted().map { "\(directory)/card\($0)" }
    }

    /// Opens the configured card, or tries each card in turn and takes the first one that has
    /// what the configuration asks (a connected connector, the named one). When none has, the
    /// error of the first card is the one reported (with its connectors listed).
    public static func open(_ configuration: KMSConfiguration, log: @escaping (String) -> Void = { _ in },
                            cards: [String]? = nil,
                            opener: (String) throws(KMSError) -> DRMCard = { (p) throws(KMSError) in try LibDRMCard(path: p) })
        throws(KMSError) -> KMSOutput {
        let paths: [String]
        if let device = configuration.device {
            paths = [device]
        } else {
            paths = cards ?? cardPaths()
            if paths.isEmpty { throw .noDevice("/dev/dri has no card*") }
        }
        var firstError: KMSError?
        for path in paths {
            let card = try opener(path)
            do throws(KMSError) {
                let resources: CardResources
                do { resources = try card.resources() } catch { throw KMSError.classify(error, device: path) }
                return try KMSOutput(card: card, resources: resources, configuration: configuration, log: log)
            } catch {
                card.close()
                if firstError == nil { firstError = error }
                // A configuration error (a mode not offered, a bad name) on an explicit device is final.
                if configuration.device != nil { break }
            }
        }
        throw firstError!
    }
}
