import GTFSRealtime
import Syscall

// `pulsedot realtime info FILE`: what a GTFS-realtime feed, saved from its URL, holds as the
// daemon reads it, for checking an agency's feed before pointing a kiosk at it.

let realtimeUsage = Usage(
    command: "realtime", summary: "describe a GTFS-realtime feed, saved (info) or fetched from its URL (fetch)",
    operands: [.init(name: "info|fetch", summary: "the subcommand; `pulsedot realtime fetch --help` gives its options")],
    options: [],
    notes: "`realtime info FILE` prints what a feed's FeedMessage holds, read as the daemon reads it; `realtime fetch URL` fetches it first, as the daemon does.")

let realtimeInfoUsage = Usage(
    command: "realtime info", summary: "print what a GTFS-realtime feed holds: header, entities by kind, skipped ones",
    operands: [.init(name: "FILE", summary: "a FeedMessage as its URL serves it (protobuf, not gzipped)")],
    options: [],
    notes: """
        Entities whose bytes do not parse are counted and left out, the first one's reason said. Exit 0 \
        with the summary; 1 when the file cannot be read or the message is refused as a whole (truncated, \
        garbage, DIFFERENTIAL), in one line naming the byte and the field.
        """)

let realtimeSubcommands = [
    Command(usage: realtimeInfoUsage, run: realtimeInfoCommand),
    Command(usage: realtimeFetchUsage, run: realtimeFetchCommand),
]

func realtimeCommand(_ parsed: Arguments) -> Int32 {
    let word = parsed.positional.first.map { "unknown subcommand '\($0)'" } ?? "expected a subcommand"
    writeError("pulsedot: realtime: \(word): info or fetch\n" + realtimeUsage.text)
    return 2
}

func realtimeInfoCommand(_ parsed: Arguments) -> Int32 {
    guard parsed.positional.count == 1 else {
        writeError("pulsedot: realtime info: expected one FILE\n" + realtimeInfoUsage.text)
        return 2
    }
    let path = parsed.positional[0]
    let bytes: [UInt8]
    do throws(SyscallError) {
        bytes = try FileDescriptor.readWholeFile(path, limit: 64 << 20)
    } catch {
        writeError("pulsedot: realtime info: \(error)\n")
        return 1
    }
    return printSummary(of: bytes, source: path, command: "realtime info")
}

/// What `realtime info` and `realtime fetch` print: the summary, or the refusal in one line.
func printSummary(of bytes: [UInt8], source: String, command: String) -> Int32 {
    let feed: FeedMessage
    do throws(RealtimeError) {
        feed = try FeedMessage(decoding: bytes)
    } catch {
        writeError("pulsedot: \(command): \(source): \(error)\n")
        return 1
    }
    print(describe(feed, now: Int64(WallClock.now())), terminator: "")
    return 0
}

private func describe(_ feed: FeedMessage, now: Int64) -> String {
    let header = feed.header
    var text = "version: \(header.version.isEmpty ? "(none)" : header.version), "
    text += (header.incrementality ?? .fullDataset).name ?? "incrementality \(header.incrementality?.rawValue ?? 0)"
    text += "\n"
    if let stamp = header.timestamp {
        // A stamp past Int64 is no time any clock will reach: said as far in the future.
        let age = stamp > UInt64(Int64.max) ? Int64.min : now - Int64(stamp)
        text += "timestamp: \(stamp) (" + (age >= 0 ? "\(age) s ago" : age == Int64.min ? "far in the future" : "\(-age) s in the future") + ")\n"
    } else {
        text += "timestamp: none\n"
    }
    var trips = 0, vehicles = 0, alerts = 0, deleted = 0, empty = 0
    var states: [String: Int] = [:]
    for entity in feed.entities {
        if entity.isDeleted == true { deleted += 1 }
        if let update = entity.tripUpdate {
            trips += 1
            let state = update.trip.scheduleRelationship ?? .scheduled
            states[state.name ?? "value \(state.rawValue)", default: 0] += 1
        }
        if entity.vehicle != nil { vehicles += 1 }
        if entity.alert != nil { alerts += 1 }
        if entity.tripUpdate == nil && entity.vehicle == nil && entity.alert == nil { empty += 1 }
    }
    text += "entities: \(feed.entities.count) (trip updates \(trips), vehicles \(vehicles), alerts \(alerts), "
    text += "deleted \(deleted), without content \(empty))\n"
    if !states.isEmpty {
        text += "trips: " + states.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + "\n"
    }
    text += "skipped: \(feed.skippedEntities)"
    if let why = feed.firstSkipError { text += " (first: \(why))" }
    return text + "\n"
}
