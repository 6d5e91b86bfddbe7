import Foundation
import Glibc
import TestSupport

/// What an NMEA receiver says once a second: GGA and RMC with correct checksums, written the way
/// a cheap GPS mouse writes them (talker GP, 5 decimals of arc minute, CR LF), stamped with the
/// current UTC time.
enum NMEA {
    struct Fix: Equatable {
        var latitude: Double
        var longitude: Double
        /// Metres per second over ground.
        var speed: Double
        /// Degrees clockwise from true north.
        var course: Double
    }

    /// GGA + RMC for `fix` at `time` (UTC); nil `fix`: the receiver has lost it (quality 0, status V).
    static func cycle(_ fix: Fix?, at time: Date) -> String {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        let d = c.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: time)
        let hundredths = (d.nanosecond ?? 0) / 10_000_000
        let clock = String(format: "%02d%02d%02d.%02d", d.hour!, d.minute!, d.second!, hundredths)
        let date = String(format: "%02d%02d%02d", d.day!, d.month!, d.year! % 100)
        guard let fix else {
            return sentence("GPGGA,\(clock),,,,,0,00,99.99,,,,,,")
                + sentence("GPRMC,\(clock),V,,,,,,,\(date),,,N")
        }
        let lat = NMEAWriter.coordinate(fix.latitude, width: 2, positive: "N", negative: "S").text
        let lon = NMEAWriter.coordinate(fix.longitude, width: 3, positive: "E", negative: "W").text
        let knots = String(format: "%.2f", fix.speed / 0.514444)
        let course = String(format: "%.1f", fix.course)
        return sentence("GPGGA,\(clock),\(lat),\(lon),1,09,0.9,182.0,M,47.0,M,,")
            + sentence("GPRMC,\(clock),A,\(lat),\(lon),\(knots),\(course),\(date),,,A")
    }

    /// The position as a reader of the sentences gets it back (minutes to 5 decimals).
    static func asWritten(_ fix: Fix) -> Fix {
        var f = fix
        f.latitude = NMEAWriter.coordinate(fix.latitude, width: 2, positive: "N", negative: "S").value
        f.longitude = NMEAWriter.coordinate(fix.longitude, width: 3, positive: "E", negative: "W").value
        return f
    }

    /// `$BODY*CS\r\n` (the tests' shared sentence writer).
    static func sentence(_ body: String) -> String { NMEAWriter.sentence(body) + "\r\n" }

    /// Line noise: random bytes, sentences cut short, sentences whose checksum is wrong, and a
    /// sentence of another talker with an unknown type; never one valid position sentence.
    static func garbage(seed: inout UInt64, near fix: Fix, at time: Date) -> [UInt8] {
        var out: [UInt8] = []
        for _ in 0..<48 { out.append(UInt8(truncatingIfNeeded: next(&seed) >> 33)) }
        let valid = cycle(Fix(latitude: fix.latitude + 0.01, longitude: fix.longitude - 0.01, speed: fix.speed, course: fix.course), at: time)
        // By bytes: Swift takes "\r\n" for one character.
        let lines = valid.components(separatedBy: "\r\n").filter { !$0.isEmpty }.map { $0 + "\r\n" }
        // Cut short: no checksum, no line end, then a fresh line.
        out += Array(lines[0].utf8.prefix(30)) + Array("\r\n".utf8)
        // A wrong checksum on an otherwise perfect sentence (a position 1 km off: were it taken,
        // the dot would jump).
        var bad = Array(lines[1].utf8)
        if let star = bad.lastIndex(of: UInt8(ascii: "*")) { bad[star + 1] = bad[star + 1] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0") }
        out += bad
        out += Array(sentence("PXYZQ,1,2,3").utf8)
        for _ in 0..<16 { out.append(UInt8(truncatingIfNeeded: next(&seed) >> 29)) }
        out += Array("\r\n".utf8)
        return out
    }

    /// splitmix64: the same noise every run.
    static func next(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The receiver on the guest's second UART: a thread writing one NMEA cycle a second, at real
/// speed, into the serial port's socket, from whatever the test has set it to say. It also keeps
/// reading that socket: gpsd's probe strings and the tty's echo would otherwise fill it and block
/// the guest's UART.
final class NMEAFeeder: @unchecked Sendable {
    enum Mode: Equatable {
        /// Drives the route: fix number n is `route.fix(n)`.
        case drive
        /// Stays at one position with speed 0.
        case hold(NMEA.Fix)
        /// Fix quality 0 / status V.
        case noFix
        /// Noise bytes between (and instead of) the cycles of a held position: `validEvery` 0 sends
        /// nothing valid at all.
        case garbage(NMEA.Fix, validEvery: Int)
        /// Nothing at all (a receiver unplugged).
        case silent
    }

    struct Sent {
        let time: Date
        let fix: NMEA.Fix?
    }

    private let socket: LineSocket
    private let route: FieldRoute
    private let lock = NSLock()
    private var mode: Mode = .silent
    private var driveIndex = 0
    private var sentLog: [Sent] = []
    private var garbageSeed: UInt64 = 0x5EED
    private var tick = 0
    private var running = true
    private var writeError: String?
    private var thread: Thread?

    init(socket: LineSocket, route: FieldRoute) {
        self.socket = socket
        self.route = route
    }

    func start() {
        let t = Thread { [self] in loop() }
        t.name = "nmea-feeder"
        thread = t
        t.start()
    }

    func stop() {
        lock.withLock { running = false }
        while thread?.isFinished == false { usleep(10_000) }
    }

    func set(_ newMode: Mode) { lock.withLock { mode = newMode } }

    /// Stops the bus where it is: from the next cycle on, the last position sent, at speed 0.
    @discardableResult
    func holdLastFix() -> NMEA.Fix {
        lock.withLock {
            var fix = sentLog.last(where: { $0.fix != nil })?.fix ?? route.fix(0)
            fix.speed = 0
            mode = .hold(fix)
            return fix
        }
    }

    /// Every cycle sent so far (nil fix: a no-fix cycle), oldest first.
    var sent: [Sent] { lock.withLock { sentLog } }

    /// The last position sent in a valid cycle.
    var lastFix: NMEA.Fix? { lock.withLock { sentLog.last(where: { $0.fix != nil })?.fix } }

    var failure: String? { lock.withLock { writeError } }

    private func loop() {
        var nextTick = Date()
        while lock.withLock({ running }) {
            socket.discardInput()
            let now = Date()
            if now >= nextTick {
                nextTick = nextTick.addingTimeInterval(1)
                if nextTick < now { nextTick = now.addingTimeInterval(1) }  // the host stalled: no burst
                sendOne(at: now)
            }
            usleep(20_000)
        }
    }

    private func sendOne(at now: Date) {
        lock.lock()
        let mode = self.mode
        tick += 1
        var bytes: [UInt8] = []
        var fix: NMEA.Fix?
        var valid = true
        switch mode {
        case .drive:
            fix = route.fix(driveIndex)
            driveIndex += 1
        case .hold(let f):
            fix = f
        case .noFix:
            fix = nil
        case .garbage(let f, let every):
            bytes += NMEA.garbage(seed: &garbageSeed, near: f, at: now)
            valid = every > 0 && tick % every == 0
            fix = f
        case .silent:
            valid = false
        }
        fix = fix.map(NMEA.asWritten)
        if valid { bytes += Array(NMEA.cycle(fix, at: now).utf8) }
        if valid { sentLog.append(Sent(time: now, fix: fix)) }
        lock.unlock()
        guard !bytes.isEmpty else { return }
        do {
            try socket.write(bytes: bytes)
        } catch {
            lock.withLock { writeError = "\(error)" }
        }
    }
}
