import Config
import FeedFetch
import GTFS
import GTFSRealtime
import HTTPWire
import Syscall
import Systemd
import Transit

/// `[transit] trip = realtime` in the loop: the agency's VehiclePositions (and TripUpdates) feeds
/// fetched on their own thread, each decoded on the transit worker and asked which trip they give
/// `vehicleId`; a new trip is loaded as a configured one would be, said in the log with the feed
/// that named it. A feed that does not name the vehicle, or cannot be read, is said once and the
/// trip followed before is kept.
extension RunDaemon {
    /// Starts (or stops) fetching as the settings say.
    func realtimeTripConfigured() {
        let wanted = settings.transit.realtimeTrip
        if !wanted || transit.realtimeFetcher == nil || transit.realtimeFeeds != realtimeTripFeeds.map({ $0.name }) {
            transit.realtimeFetcher?.stop()
            transit.realtimeFetcher = nil
        }
        guard wanted, transit.realtimeFetcher == nil else { return }
        let feeds = realtimeTripFeeds
        guard let fetcher = startFetcher(feeds.map { FeedSource(name: $0.name, url: $0.url) }, who: "transit: trip realtime") else { return }
        transit.realtimeFeeds = feeds.map { $0.name }
        transit.realtimeFetcher = fetcher
        log.info("transit: trip realtime: vehicle \(settings.transit.vehicleID ?? "") looked for in \(transit.realtimeFeeds.joined(separator: ", "))")
    }

    /// The feeds that can name the vehicle's trip.
    private var realtimeTripFeeds: [(name: String, url: HTTPURL)] {
        settings.realtime.feeds.filter { $0.name == "vehiclePositions" || $0.name == "tripUpdates" }
    }

    /// Each turn: fetched bodies handed to the worker.
    func realtimeTripDue() {
        guard let fetcher = transit.realtimeFetcher, fetcher.handover.hasResults, let vehicle = settings.transit.vehicleID else { return }
        fetcher.handover.take(into: &transit.realtimeResults)
        let handover = transit.handover
        for result in transit.realtimeResults where result.source < transit.realtimeFeeds.count {
            let feed = transit.realtimeFeeds[result.source]
            switch result.outcome {
            case .failure(let error):
                realtimeTripProblem("\(feed): \(error.description)")
            case .success(let fetched):
                guard case .fresh(let bytes) = fetched.body else { continue }
                _ = environment.runTransitJob {
                    do throws(RealtimeError) {
                        let message = try FeedMessage(decoding: bytes)
                        let trip = message.trip(ofVehicle: vehicle)
                        let choice = trip.flatMap { d in d.tripID.map { TripChoice(tripID: $0, start: d.startTime.flatMap(GTFSValue.time)) } }
                        handover.post(.realtimeTrip(feed: feed, .success(choice)))
                    } catch {
                        handover.post(.realtimeTrip(feed: feed, .failure(error)))
                    }
                }
            }
        }
    }

    /// What a feed said of the vehicle.
    func realtimeTripRead(feed: String, _ result: Result<TripChoice?, RealtimeError>) {
        guard settings.transit.realtimeTrip else { return }
        switch result {
        case .failure(let error):
            realtimeTripProblem("\(feed): \(error.description)")
        case .success(nil):
            // TripUpdates often leave the vehicle out: only a VehiclePositions feed's silence is news.
            if feed == "vehiclePositions" || !transit.realtimeFeeds.contains("vehiclePositions") {
                realtimeTripProblem("\(feed) does not name vehicle \(settings.transit.vehicleID ?? "") on a trip")
            }
        case .success(let choice?):
            transit.realtimeSaid = nil
            guard choice != transit.realtimeChoice else { return }
            transit.realtimeChoice = choice
            log.notice("transit: trip realtime: \(feed) names vehicle \(settings.transit.vehicleID ?? "") on trip \(choice)")
            transitConfigured()
        }
    }

    private func realtimeTripProblem(_ text: String) {
        guard transit.realtimeSaid != text else { return }
        transit.realtimeSaid = text
        let kept = transit.realtimeChoice.map { "trip \($0) is still followed" } ?? "no trip is followed yet"
        log.warning("transit: trip realtime: \(text); \(kept)")
    }
}
