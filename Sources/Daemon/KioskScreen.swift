import Compositor
import DisplayCore
import FeedFetch
import Kiosk
import Raster
import Scene

/// The loop's side of a stop kiosk: the fetcher, what was asked of the worker and what came
/// back, the markers' layer and motions, the lines, the frames' record. Lives on the loop's
/// thread only.
final class KioskScreen {
    let worker = KioskWorker()
    var fetcher: FeedFetcher?
    /// Which `RealtimeFeed` each of the fetcher's sources is.
    var feedOf: [RealtimeFeed] = []
    var results: [FeedResult] = []
    /// The index the worker's model was opened on; nil: not asked yet.
    var openedIndex: String?
    var serial = 0
    /// A refresh on its way; another waits for it.
    var inFlight = false
    var wanted = false
    /// Monotonic seconds of the next refresh made without a fetch (the minutes move on).
    var nextRefresh = 0.0
    /// The view the layers and the board were made for.
    var viewID: ObjectIdentifier?
    var markers = MarkerLayer()
    var routes: [TransitRoute] = []
    /// The motions as recorded, by vehicle, to start the next one where the marker is.
    var motions: [String: KioskStamp.Marker] = [:]
    private(set) var stamp: KioskStamp?
    var live: LiveData?
    var failureSaid: String?
    /// For the metrics.
    var shownVehicles = 0
    var shownDepartures = 0
    var feedAges: [Double?] = [nil, nil, nil]
    var fetchSeconds: [Double?] = [nil, nil, nil]
    var fetchErrors: [String: Int] = [:]

    func record(_ stamp: KioskStamp) { self.stamp = stamp }

    /// Stops fetching and forgets what was shown (no kiosk any more, or another one).
    func close() {
        fetcher?.stop()
        fetcher = nil
        openedIndex = nil
        stamp = nil
        motions = [:]
        routes = []
        markers = MarkerLayer()
        viewID = nil
        live = nil
    }
}
