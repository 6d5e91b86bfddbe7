import Config
import Scene
import Syscall
import Systemd

/// The map's file when it could not be read (not there yet, unreadable, corrupt): the screen runs
/// without it — the dot on the background colour — says so once, and takes it up as soon as it
/// can be read: when its folder says the file was written or moved in (inotify), and every
/// `retryEvery` seconds as well (a tile folder filled file by file, a folder made later).
final class MapComponent: RunComponent {
    let name = "map"
    private let owner: DaemonReference
    private var watch: FileWatch?
    private var watchedPath: String?
    private(set) var nextTry: MonotonicInstant?
    static let retryEvery = Duration.seconds(30)

    init(_ daemon: RunDaemon) { owner = DaemonReference(daemon) }

    func configure(old: Settings?, new: Settings, now: MonotonicInstant) { follow(now: now) }

    /// Watches the left-out file, or stops watching when the map is in.
    func follow(now: MonotonicInstant) {
        let daemon = owner.daemon
        guard let leftOut = daemon.map.leftOut else {
            if watchedPath != nil { daemon.log.clear(topic: "map") }
            watch = nil
            watchedPath = nil
            nextTry = nil
            return
        }
        nextTry = now.advanced(by: Self.retryEvery)
        guard watchedPath != leftOut.path else { return }
        watchedPath = leftOut.path
        daemon.log.error("map: \(leftOut.reason); the dot is drawn on the background colour, and the map is taken up when it can be read",
                         topic: "map")
        do { watch = try FileWatch(path: leftOut.path) } catch {
            watch = nil
            daemon.log.warning("map: \(leftOut.path) cannot be watched (\(error)); it is tried again every \(Self.retryEvery.components.seconds) s")
        }
    }

    var deadline: MonotonicInstant? { nextTry }

    func woke(now: MonotonicInstant) {
        guard let path = watchedPath else { return }
        var due = nextTry.map { now >= $0 } ?? false
        if let watch {
            do { if try watch.changed() { due = true } } catch { self.watch = nil }
        }
        guard due else { return }
        owner.daemon.retryMap(path: path, now: now)
        follow(now: now)
    }
}
