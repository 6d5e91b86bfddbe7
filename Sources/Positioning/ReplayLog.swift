import GPSD
import Location
import Syscall

/// One instant of a recording: a fix, or a moment the receiver reported having none.
public struct ReplayRecord: Sendable {
    /// Seconds of log time after the first timed record; never decreasing (a log whose times go
    /// backwards, as spliced logs do, plays those records at once).
    public var offset: Double
    /// nil: no fix at this instant. Its `receivedAt` is set when the replay plays it.
    public var fix: Fix?
    /// Where it came from (the first line of its NMEA cycle).
    public var line: Int
}

public enum ReplayFormat: String, Sendable {
    case nmea = "NMEA"
    case gpsdJSON = "gpsd JSON"
}

/// Lines that did not become part of a fix, counted by reason, with the first example of each
/// for a one-line warning.
public struct ReplaySkips: Sendable, CustomStringConvertible {
    public struct Entry: Equatable, Sendable {
        public let reason: String
        public internal(set) var count: Int
        public let firstLine: Int
        public let firstDetail: String
    }

    public private(set) var entries: [Entry] = []

    mutating func note(_ reason: String, line: Int, detail: String) {
        if let i = entries.firstIndex(where: { $0.reason == reason }) {
            entries[i].count += 1
        } else {
            entries.append(Entry(reason: reason, count: 1, firstLine: line, firstDetail: detail))
        }
    }

    public func count(_ reason: String) -> Int { entries.first { $0.reason == reason }?.count ?? 0 }
    public var total: Int { entries.reduce(0) { $0 + $1.count } }

    /// `3 bad checksum (first: line 12: …), 438 unsupported GSV (first: line 20: …)`.
    public var description: String {
        entries.map { "\($0.count) \($0.reason) (first: line \($0.firstLine): \($0.firstDetail))" }.joined(separator: ", ")
    }
}

public struct ReplayError: Error, Equatable, CustomStringConvertible, Sendable {
    public let description: String
}

/// A recording read once at start-up: an NMEA log (GGA, RMC, GSA and GST read here, checksums
/// verified) or a gpsd JSON log (lines of gpsd's own output, decoded by the GPSD target), as the
/// instants it holds. The format is told by the first line that is not a comment.
public struct ReplayLog: Sendable {
    public let path: String
    public let format: ReplayFormat
    public let records: [ReplayRecord]
    public let skips: ReplaySkips
    public let lineCount: Int

    public var fixCount: Int { records.reduce(0) { $0 + ($1.fix == nil ? 0 : 1) } }
    /// Log time from the first record to the last (s).
    public var duration: Double { records.last?.offset ?? 0 }

    /// One line for the log: what was read, and what was skipped and why.
    public var summary: String {
        var text = "replay \(path): \(format.rawValue), \(fixCount) fixes over \(Int(duration.rounded())) s from \(lineCount) lines"
        if skips.total > 0 { text += "; skipped \(skips.total): \(skips)" }
        return text
    }

    /// The sentences the NMEA replay reads; others are counted as unsupported.
    static let nmeaTypes: Set<String> = ["GGA", "RMC", "GSA", "GST"]

    public static func load(path: String) throws(ReplayError) -> ReplayLog {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.readWholeFile(path)
        } catch {
            throw ReplayError(description: "replay file: \(error)")
        }
        return try parse(bytes, path: path)
    }

    public static func parse(_ bytes: [UInt8], path: String) throws(ReplayError) -> ReplayLog {
        let text = String(decoding: bytes, as: UTF8.self)
        // Split on bytes: as Characters, "\r\n" is one grapheme and would never equal "\n".
        let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { bytes in
            // Without the CR of CR LF endings, so details in messages stay clean.
            let line = Substring(bytes)
            return line.utf8.last == 0x0D ? line.dropLast() : line
        }
        let firstData = lines.first { line in
            let t = line.drop { $0 == " " || $0 == "\t" }
            return !t.isEmpty && t.first != "#" && t != "\r"
        }
        let format: ReplayFormat = firstData?.drop(while: { $0 == " " || $0 == "\t" }).first == "{" ? .gpsdJSON : .nmea
        var builder = Builder()
        switch format {
        case .nmea: builder.readNMEA(lines)
        case .gpsdJSON: builder.readJSON(lines)
        }
        let log = ReplayLog(path: path, format: format, records: builder.records, skips: builder.skips,
                            lineCount: lines.last?.isEmpty == true ? lines.count - 1 : lines.count)
        guard log.fixCount > 0 else {
            var problem = "\(path): no position fixes in \(log.lineCount) line\(log.lineCount == 1 ? "" : "s") of \(format.rawValue)"
            if log.skips.total > 0 { problem += " (skipped \(log.skips.total): \(log.skips))" }
            throw ReplayError(description: problem)
        }
        return log
    }

    /// Accumulates records with their log-time offsets.
    struct Builder {
        var records: [ReplayRecord] = []
        var skips = ReplaySkips()
        var offset = 0.0
        var lastTime: Double?

        /// Advances the offset to a record stamped `time` (seconds, any origin). Midnight wraps of
        /// a time of day are undone; backwards steps play at once.
        mutating func advance(to time: Double?, wrapsAtMidnight: Bool) {
            guard let time else { return }
            if let last = lastTime {
                var step = time - last
                if wrapsAtMidnight && step < -43_200 { step += 86_400 }
                offset += max(step, 0)
            }
            lastTime = time
        }

        static func isBlankOrComment(_ line: Substring, _ skips: inout ReplaySkips, _ number: Int) -> Bool {
            let t = line.drop { $0 == " " || $0 == "\t" }
            if t.isEmpty || t == "\r" { return true }
            if t.first == "#" {
                skips.note("comment", line: number, detail: String(t.prefix(60)))
                return true
            }
            return false
        }

        mutating func readNMEA(_ lines: [Substring]) {
            var cycle = NmeaCycle()
            var knownDate: (year: Int, month: Int, day: Int)?
            func close(_ c: NmeaCycle, _ b: inout Builder) {
                guard !c.isEmpty else { return }
                if let d = c.date { knownDate = d }
                b.advance(to: c.timeOfDay, wrapsAtMidnight: true)
                b.records.append(ReplayRecord(offset: b.offset, fix: c.fix(date: knownDate), line: c.firstLine))
            }
            for (i, line) in lines.enumerated() {
                let number = i + 1
                if Self.isBlankOrComment(line, &skips, number) { continue }
                let sentence: NmeaSentence
                do {
                    sentence = try NmeaSentence.parse(line)
                } catch {
                    switch error {
                    case .notNMEA: skips.note("not NMEA", line: number, detail: String(line.prefix(60)))
                    case .missingChecksum: skips.note("missing checksum", line: number, detail: String(line.prefix(20)))
                    case let .badChecksum(written, computed):
                        skips.note("bad checksum", line: number, detail: "*\(written), computed *\(computed)")
                    }
                    continue
                }
                guard ReplayLog.nmeaTypes.contains(sentence.type) else {
                    // The whole address: proprietary sentences ($PGRME) have no talker of their own.
                    skips.note("unsupported \(sentence.type)", line: number, detail: sentence.talker == "P" ? sentence.type : sentence.talker + sentence.type)
                    continue
                }
                do {
                    if let t = try NmeaCycle.time(of: sentence), let current = cycle.timeOfDay, t != current {
                        close(cycle, &self)
                        cycle = NmeaCycle()
                    }
                    // Into a copy: a sentence with one bad field must not leave half its values behind.
                    var next = cycle
                    try next.add(sentence, line: number)
                    cycle = next
                } catch {
                    skips.note("malformed \(sentence.type)", line: number, detail: error.detail)
                }
            }
            close(cycle, &self)
        }

        mutating func readJSON(_ lines: [Substring]) {
            var lastFixTime: FixTime?
            for (i, line) in lines.enumerated() {
                let number = i + 1
                if Self.isBlankOrComment(line, &skips, number) { continue }
                switch MessageDecoder.decode(String(line)) {
                case let .message(.tpv(tpv)):
                    let fix = Fix(tpv, receivedAt: MonotonicInstant(nanoseconds: 0))
                    // gpsd sends several TPVs per instant, each more complete: keep the last.
                    if let time = tpv.time, time == lastFixTime, let last = records.indices.last {
                        records[last].fix = fix ?? records[last].fix
                        continue
                    }
                    advance(to: tpv.time.map { Double($0.secondsSinceEpoch) + Double($0.nanoseconds) / 1e9 }, wrapsAtMidnight: false)
                    lastFixTime = tpv.time ?? lastFixTime
                    records.append(ReplayRecord(offset: offset, fix: fix, line: number))
                case let .message(other):
                    skips.note("not a TPV", line: number, detail: Self.className(other))
                case let .skipped(reason, detail):
                    skips.note(reason.description, line: number, detail: detail)
                }
            }
        }

        static func className(_ m: GPSDMessage) -> String {
            switch m {
            case .version: "VERSION"
            case .devices: "DEVICES"
            case .device: "DEVICE"
            case .watch: "WATCH"
            case .tpv: "TPV"
            case .sky: "SKY"
            case .gst: "GST"
            case .error: "ERROR"
            }
        }
    }
}
