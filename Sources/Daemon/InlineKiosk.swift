import Compositor
import Config
import DisplayCore
import GTFSRealtime
import Kiosk
import Scene
import Transit

/// A stop kiosk on one view with no worker thread and no fetching: feeds handed in as decoded
/// messages, the board, lines and markers made in place when asked. The loop has the worker make
/// them so no frame waits; a player on a virtual clock (the headless demo, the benchmark) must
/// wait instead, or its frames would depend on the worker's speed. The pieces are the loop's own
/// (KioskWorker, KioskScreen), so the pictures are too.
public final class InlineKiosk {
    private let view: SceneView
    private let settings: Settings
    private let screen = KioskScreen()
    private var serial = 0

    /// Opens the kiosk's model over the feed's index at `indexPath`; the lines it says (a stop
    /// the feed lacks) go to `notes`.
    public init(settings: Settings, view: SceneView, indexPath: String, zone: TimeZoneRules, notes: inout [String]) {
        self.settings = settings
        self.view = view
        var model = KioskModel.Settings(settings)
        // Its feeds are handed in, not configured as URLs.
        model.tripUpdatesConfigured = true
        notes += screen.worker.open(indexPath: indexPath, zone: zone, stops: settings.kiosk.stops, settings: model)
        screen.viewID = ObjectIdentifier(view)
        view.showKiosk(routes: [], markers: screen.markers)
    }

    /// A feed as fetched at `wall` (seconds since the epoch); a line to say, if any.
    @discardableResult
    public func take(_ feed: RealtimeFeed, _ message: FeedMessage, at wall: Double) -> String? {
        screen.worker.take(feed, .message(message), at: wall)
    }

    /// The board, lines and markers for `wall`, put on the view at monotonic `now`; a failure's
    /// line, or nil.
    @discardableResult
    public func refresh(wall: Double, now: Double) -> String? {
        serial += 1
        let outcome = screen.worker.refresh(KioskRefresh(serial: serial, settings: settings, view: view, wall: wall, clockSynchronised: true,
                                                         full: serial == 1))
        if let failure = outcome.failure { return failure }
        guard let made = outcome.made else { return nil }
        _ = screen.apply(made, to: view, now: now, settings: settings)
        return nil
    }

    /// Moves the markers to their places at `now`; allocates nothing.
    public func frame(now: Double) { screen.markers.advance(to: now) }

    /// What a frame drawn now records of the kiosk.
    public var stamp: KioskStamp? { screen.stamp }
}
