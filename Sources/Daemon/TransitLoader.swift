import Config
import GTFSRealtime
import Synchronization
import Syscall
import Transit

/// What the loop asks for: the feed imported (or its index reused, by the feed's hash) and the
/// trip loaded, away from the frame loop.
struct TransitRequest: Sendable, Equatable {
    var gtfs: String
    /// With a block: the block's trip to follow (nil: the one the clock says).
    var trip: TripChoice?
    /// A block whose trips of the service day are followed one after the other; nil: `trip` alone.
    var block: String? = nil
    /// `trip = auto`: no trip is loaded; the fixes tell it (`AutoTripSearch`).
    var auto = false
    /// The names' language (`[transit] language`): translations.txt's where it has them.
    var language: String? = nil
    var cacheDirectory: String
    /// The feed's files when asked for: a feed replaced at the same path is another load.
    var feedStamp: FeedStamp? = nil
    /// Tells a load's messages from those of one a reload replaced.
    var generation: Int = 0

    /// What must change for the feed or the trip to be loaded again (the generation does not).
    func sameLoad(_ other: TransitRequest) -> Bool {
        gtfs == other.gtfs && trip == other.trip && block == other.block && auto == other.auto && language == other.language && cacheDirectory == other.cacheDirectory
            && feedStamp == other.feedStamp
    }
}

/// A load that succeeded: the feed's summary and, when a trip is set, the trip with the service
/// day it runs on now.
struct TransitLoaded: Sendable {
    var indexPath: String
    var reused: Bool
    var info: TransitIndex.Info
    /// The agency's zone: the service days and the days left are counted in it.
    var zone: TimeZoneRules
    var trip: Trip?
    /// The trip's service day at the moment of loading; nil without a trip.
    var day: TransitIndex.TripDay?
    /// Following a block: its trips of the service day and which one `trip` is.
    var block: BlockPlan? = nil
    /// Said once when `language` is set and the feed has no names in it; nil otherwise.
    var languageNote: String? = nil
}

/// A block's trips of one service day, in departure order, and the one followed.
struct BlockPlan: Sendable, Equatable {
    var blockID: String
    var trips: [String]
    var index: Int
    var dateText: String
    /// The trip after the one followed; nil at the block's last.
    var next: String? { index + 1 < trips.count ? trips[index + 1] : nil }
}

enum TransitMessage: Sendable {
    case progress(generation: Int, String)
    case loaded(generation: Int, TransitLoaded)
    case failed(generation: Int, String)
    case banner(BannerOutcome)
    case kiosk(KioskOutcome)
    /// `trip = realtime`: what a fetched feed says the vehicle runs (nil: not named), or why it cannot be read.
    case realtimeTrip(feed: String, Result<TripChoice?, RealtimeError>)
    /// What the trip file named when it was last read.
    case tripFile(Result<TripFileChoice, TripFileProblem>)
    /// What the search for `trip = auto`'s trip found.
    case autoTrip(generation: Int, AutoTripOutcome)
}

/// Messages from the transit job to the loop. The loop looks every iteration with one atomic
/// load; the lock is taken only to append a message or to move them out, never across a frame.
final class TransitHandover: Sendable {
    private let waiting = Atomic<Int>(0)
    private let messages = Mutex<[TransitMessage]>([])

    func post(_ message: TransitMessage) {
        messages.withLock { (m: inout [TransitMessage]) in
            m.append(message)
            waiting.add(1, ordering: .releasing)
        }
    }

    var hasMessages: Bool { waiting.load(ordering: .acquiring) > 0 }

    /// Moves the messages into `out` (emptied first, its storage kept).
    func take(into out: inout [TransitMessage]) {
        out.removeAll(keepingCapacity: true)
        messages.withLock { (m: inout [TransitMessage]) in
            out.append(contentsOf: m)
            waiting.subtract(m.count, ordering: .releasing)
            m.removeAll(keepingCapacity: true)
        }
    }
}

enum TransitLoader {
    /// The job: runs on the transit worker (or inline in tests), posts progress as it goes and
    /// the outcome last. `now`: seconds since the epoch, for the trip's service day.
    static func run(_ request: TransitRequest, now: Double, to handover: TransitHandover) {
        let generation = request.generation
        do throws(TransitError) {
            let loaded = try load(request, now: now) { line in handover.post(.progress(generation: generation, line)) }
            handover.post(.loaded(generation: generation, loaded))
        } catch {
            handover.post(.failed(generation: generation, error.description))
        }
    }

    static func load(_ request: TransitRequest, now: Double, progress: @escaping (String) -> Void) throws(TransitError) -> TransitLoaded {
        // The importer checks the free space before it writes and reuses an index built for the
        // same feed bytes, so a restart costs one hash of the feed.
        let report = try TransitImporter.importFeed(at: request.gtfs, cacheDirectory: request.cacheDirectory, progress: progress)
        let index = try TransitIndex(path: report.path)
        let info = report.info
        var trip: Trip?
        var day: TransitIndex.TripDay?
        let zoneName: String
        if let blockID = request.block {
            return try loadBlock(blockID, request, index: index, report: report, now: now)
        }
        if let choice = request.trip {
            let t = try index.trip(choice, language: request.language)
            zoneName = t.timeZone
            trip = t
        } else {
            zoneName = info.agencies.first?.timezone ?? "UTC"
        }
        let zone = try TimeZoneRules.load(zoneName)
        if let trip { day = try index.serviceDay(of: trip, at: Int64(now.rounded(.down)), in: zone) }
        return TransitLoaded(indexPath: report.path, reused: report.reused, info: info, zone: zone, trip: trip, day: day,
                             languageNote: try languageNote(request.language, index: index))
    }

    /// A block: its trips on the service day the clock is in (yesterday's while they run past
    /// midnight), and the one asked for, else the first not yet ended by the clock.
    private static func loadBlock(_ blockID: String, _ request: TransitRequest, index: TransitIndex, report: TransitImporter.Report,
                                  now: Double) throws(TransitError) -> TransitLoaded {
        let zone = try TimeZoneRules.load(report.info.agencies.first?.timezone ?? "UTC")
        let instant = Int64(now.rounded(.down))
        guard let day = try index.blockDay(blockID, at: instant, in: zone) else {
            throw .tripChoice(text: "block \(blockID)", message: "no trip of this block_id runs on service day \(TransitIndex.dateText(zone.date(at: instant))) or the day before")
        }
        let trips = day.trips
        let chosen = request.trip.flatMap { c in trips.firstIndex { $0.tripID == c.tripID } } ?? day.current
        let trip = try index.trip(TripChoice(tripID: trips[chosen].tripID), language: request.language)
        let tripDay = try index.serviceDay(of: trip, at: instant, in: zone)
        return TransitLoaded(indexPath: report.path, reused: report.reused, info: report.info, zone: zone, trip: trip, day: tripDay,
                             block: BlockPlan(blockID: blockID, trips: trips.map { $0.tripID }, index: chosen, dateText: TransitIndex.dateText(day.date)),
                             languageNote: try languageNote(request.language, index: index))
    }

    /// What to say when `[transit] language` names a language the feed translates nothing into.
    private static func languageNote(_ language: String?, index: TransitIndex) throws(TransitError) -> String? {
        guard let language, !(try index.translates(into: language)) else { return nil }
        let have = try index.translationLanguages()
        return "language \(language): " + (have.isEmpty ? "the feed has no translations.txt" : "translations.txt has no names in it (only \(have.joined(separator: ", ")))")
            + "; the feed's own names are shown"
    }
}

/// The thread transit jobs run on, started by the first one. Never closed: an import under way
/// must not hold up a stop; let go, the thread ends after its job.
public final class TransitWorker {
    private var worker: WorkerThread?

    public init() {}

    public func run(_ job: @escaping @Sendable () -> Void) -> Bool {
        do throws(SyscallError) {
            if worker == nil { worker = try WorkerThread(name: "transit") }
        } catch {
            return false
        }
        do { try worker?.submit(job) } catch { return false }
        return true
    }
}
