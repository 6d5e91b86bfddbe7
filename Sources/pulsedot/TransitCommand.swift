import Syscall
import Transit

// `pulsedot transit import FEED` and `pulsedot transit info INDEX`: a GTFS feed turned into the
// index the daemon reads, on a depot machine or by hand, and what an index holds.

let transitUsage = Usage(
    command: "transit", summary: "build the index of a GTFS feed (import), describe one (info), or draw a trip's banner (banner)",
    operands: [.init(name: "import|info|banner", summary: "the subcommand; `pulsedot transit import --help` gives its options")],
    options: [],
    notes: "`transit import FEED` reads a GTFS zip or folder into an SQLite index; `transit info INDEX` prints what one holds; `transit banner INDEX` draws the banner of a trip and its next stop to a PNG.")

let transitImportUsage = Usage(
    command: "transit import", summary: "read a GTFS feed (zip or folder) into a compact SQLite index",
    operands: [.init(name: "FEED", summary: "the feed: a GTFS .zip or a folder of its .txt files")],
    options: [
        .valued("out", "FILE", "write the index here (default: CACHE/<the feed's SHA-256>.sqlite, reused when present)"),
        .valued("cache", "DIR", "the cache directory for indexes named by their feed's hash (default \(transitCacheDirectory))"),
    ],
    notes: """
        Progress goes to stderr, the summary to stdout. Rows that cannot be used (a stop without a \
        position) are skipped: each kind once, with its count and the first file:line:column. Exit 0 \
        with the index written (renamed into place when complete); 1 when the feed or the disk \
        refuses, with one line naming the file, line and column.
        """)

let transitInfoUsage = Usage(
    command: "transit info", summary: "print what a transit index holds: agency, routes, trips, service period",
    operands: [.init(name: "INDEX", summary: "an index written by `pulsedot transit import`")],
    options: [.valued("trip", "TRIP_ID[@HH:MM:SS]", "also the trip the setting `trip` would take: route, destination, stops, whether it runs today")],
    notes: "Exit 0 with the summary; 1 when the file is not a transit index or names no such trip.")

let transitCacheDirectory = "/var/cache/pulsedot/transit"

let transitSubcommands = [
    Command(usage: transitImportUsage, run: transitImportCommand),
    Command(usage: transitInfoUsage, run: transitInfoCommand),
    Command(usage: transitBannerUsage, run: transitBannerCommand),
]

func transitCommand(_ parsed: Arguments) -> Int32 {
    let word = parsed.positional.first.map { "unknown subcommand '\($0)'" } ?? "expected a subcommand"
    writeError("pulsedot: transit: \(word): import, info or banner\n" + transitUsage.text)
    return 2
}

func transitImportCommand(_ parsed: Arguments) -> Int32 {
    guard parsed.positional.count == 1 else {
        writeError("pulsedot: transit import: expected one FEED (a GTFS zip or folder)\n" + transitImportUsage.text)
        return 2
    }
    let started = MonotonicInstant.now()
    let report: TransitImporter.Report
    do {
        report = try TransitImporter.importFeed(at: parsed.positional[0], output: parsed.value("out"),
                                                cacheDirectory: parsed.value("cache") ?? transitCacheDirectory) { line in
            writeError("pulsedot: transit import: \(line)\n")
        }
    } catch {
        return failed("transit import: \(error)")
    }
    let seconds = started.duration(to: .now()).seconds
    var text = report.reused ? "index: \(report.path) (already built for this feed)\n"
        : "index: \(report.path) (\(sizeText(report.path)), built in \(Double(Int(seconds * 10)) / 10) s)\n"
    text += "feed sha256: \(report.feedHash)\n"
    text += describe(report.info)
    for line in report.skipped { text += line + "\n" }
    print(text, terminator: "")
    return 0
}

func transitInfoCommand(_ parsed: Arguments) -> Int32 {
    guard parsed.positional.count == 1 else {
        writeError("pulsedot: transit info: expected one INDEX\n" + transitInfoUsage.text)
        return 2
    }
    do {
        let index = try TransitIndex(path: parsed.positional[0])
        var text = "index: \(index.path) (\(sizeText(index.path)))\nfeed sha256: \(index.feedHash)\n" + describe(try index.info())
        if let choice = parsed.value("trip") { text += try describe(try index.trip(TripChoice.parse(choice)), in: index) }
        print(text, terminator: "")
        return 0
    } catch {
        return failed("transit info: \(error)")
    }
}

/// One line on stderr, exit 1: the command ran and the feed or file refused.
func failed(_ message: String) -> Int32 {
    writeError("pulsedot: \(message)\n")
    return 1
}

private func describe(_ info: TransitIndex.Info) -> String {
    TransitSummary.feed(info, now: WallClock.now()).map { $0 + "\n" }.joined()
}

private func describe(_ trip: Trip, in index: TransitIndex) throws(TransitError) -> String {
    try TransitSummary.trip(trip, in: index, now: WallClock.now()).map { $0 + "\n" }.joined()
}

private func sizeText(_ path: String) -> String {
    guard let status = try? FileStatus(path: path) else { return "size unknown" }
    let kib = (status.size + 512) / 1024
    return kib < 10240 ? "\(kib) KiB" : "\((kib + 512) / 1024) MiB"
}
