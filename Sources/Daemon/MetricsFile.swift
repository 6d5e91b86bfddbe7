import Config
import Metrics
import Syscall
import Systemd

/// The textfile node_exporter reads, rewritten every `[metrics] every` seconds: rendered into one
/// reused buffer, then replaced atomically (a temporary name that does not end in `.prom`, mode
/// 0644 whatever the unit's umask). A file that cannot be written is said once; the daemon keeps
/// drawing, and says so again when writing works.
final class MetricsFile {
    private(set) var settings: MetricsSettings
    /// When the next write is due; nil: no file configured.
    private(set) var nextWrite: MonotonicInstant?
    private var text = MetricsText()
    private var failing = false
    private(set) var writes = 0

    init(settings: MetricsSettings, now: MonotonicInstant) {
        self.settings = settings
        // The first file goes out as soon as the loop runs: a scrape right after start finds it.
        nextWrite = settings.textfile == nil ? nil : now
    }

    /// Takes new settings (a reload); a changed file or period is written at once.
    func configure(_ new: MetricsSettings, now: MonotonicInstant) {
        guard new != settings else { return }
        settings = new
        failing = false
        nextWrite = new.textfile == nil ? nil : now
    }

    func write(_ report: MetricsReport, now: MonotonicInstant, log: Journal) {
        guard let (directory, name) = settings.textfileParts else { return }
        nextWrite = now.advanced(by: .nanoseconds(Int64(settings.every * 1e9)))
        report.render(into: &text)
        do {
            try AtomicFile.write(text.text, directory: directory, name: name, mode: 0o644)
            writes += 1
            if failing {
                failing = false
                log.notice("metrics: writing \(settings.textfile ?? "") again")
            }
        } catch {
            if !failing {
                log.warning("metrics: cannot write \(settings.textfile ?? ""): \(error) (retrying every \(formatNumber(settings.every)) s; [metrics] textfile = none turns the file off)")
            }
            failing = true
        }
    }
}
