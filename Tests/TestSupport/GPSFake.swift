import Foundation
import Glibc

/// A real gpsd fed by gpsfake (Debian's gpsd + gpsd-clients), loopback only. gpsfake is a
/// /usr/bin/python3 script: it is run with the system Python, never a pyenv one.
public final class GPSFake {
    public let port: UInt16
    public let child: ChildProcess

    /// `port`: a free one unless given. `once`: gpsd exits at the end of the log (`-1`); otherwise
    /// the log repeats until `stop()`. `pace`: seconds between sentences (`-c`). `pipe` (`-p`):
    /// gpsfake itself watches (with nmea on), so the feed starts at once and its output holds
    /// everything gpsd sent, a reference to compare with; without it, sentences fed before a
    /// client watches are lost.
    public init(log: URL, port: UInt16? = nil, once: Bool = true, pace: Double? = nil, pipe: Bool = true) throws {
        self.port = try port ?? TestEnvironment.freeTCPPort()
        var args = ["/usr/bin/gpsfake", "-q"]
        if pipe { args.append("-p") }
        args += ["-P", String(self.port)]
        if once { args.append("-1") }
        if let pace { args += ["-c", String(pace)] }
        args.append(log.path)
        // Unbuffered: its output file must show each line as gpsd sends it (see `feedEnded`).
        child = try ChildProcess("/usr/bin/python3", args, environment: ["PYTHONUNBUFFERED": "1"], label: "gpsfake")
    }

    deinit { stop() }

    public static func requireInstalled() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake"),
              FileManager.default.isExecutableFile(atPath: "/usr/sbin/gpsd") else {
            throw TestFailure("gpsd and gpsfake are needed (sudo deploy/install-deps --test)")
        }
    }

    /// Starts gpsfake and waits until its gpsd accepts connections on `port`. Under load gpsfake
    /// sometimes dies before its gpsd listens (its pty set-up races); it is then started again, at
    /// most three times, and a failure carries what gpsfake said. For feeds that outlast the wait
    /// (a paced or looping log): a gpsfake that already finished counts as one that died.
    public static func listening(log: URL, port: UInt16, once: Bool, pace: Double, pipe: Bool) throws -> GPSFake {
        var said = ""
        for _ in 0..<3 {
            let fake = try GPSFake(log: log, port: port, once: once, pace: pace, pipe: pipe)
            if ChildProcess.waitUntil(timeout: 20, { !fake.child.isRunning || accepts(port: port) }),
               fake.child.isRunning {
                return fake
            }
            said += "gpsfake: \(fake.child.stderr)\n"
            fake.stop()
        }
        throw TestFailure("gpsfake's gpsd never listened on 127.0.0.1:\(port):\n\(said)")
    }

    /// Plays a whole log through gpsfake's gpsd (`-1`, unpaced) and returns what gpsd reported.
    /// gpsfake's start-up race (its own client refused before its gpsd listens: "socket error …
    /// Connection refused", nothing played) and its giving up (`GaveUp`) start it again, at most
    /// three times, as `listening` does; any other failure is thrown as it is.
    public static func play(log: URL, timeout: Double = 60) throws -> [[String: Any]] {
        var said = ""
        for _ in 0..<3 {
            let fake = try GPSFake(log: log)
            do {
                try fake.waitForFeedEnd(timeout: timeout)
                return fake.reports
            } catch {
                guard error is GaveUp || fake.child.stderr.contains("socket error") else { throw error }
                said += "\(error)\n"
            }
        }
        throw TestFailure("gpsfake died before its gpsd listened, three times, on \(log.lastPathComponent):\n\(said)")
    }

    /// A gpsfake (on a free port) whose gpsd accepts connections. gpsfake's start-up race (its own
    /// client refused before its gpsd listens: "socket error … Connection refused", and it exits)
    /// starts it again, at most three times, as `listening` and `play` do.
    public static func started(log: URL, once: Bool = true, pace: Double? = nil) throws -> GPSFake {
        var said = ""
        for _ in 0..<3 {
            let fake = try GPSFake(log: log, once: once, pace: pace)
            do {
                try fake.waitUntilListening()
                return fake
            } catch {
                guard fake.child.stderr.contains("socket error") else { throw error }
                said += "\(error)\n"
                fake.stop()
            }
        }
        throw TestFailure("gpsfake died before its gpsd listened, three times, on \(log.lastPathComponent):\n\(said)")
    }

    /// Waits until gpsd accepts TCP connections on 127.0.0.1:port.
    public func waitUntilListening(timeout: Double = 15) throws {
        let ok = ChildProcess.waitUntil(timeout: timeout) { Self.accepts(port: port) || !child.isRunning }
        guard ok, child.isRunning || Self.accepts(port: port) else {
            throw TestFailure("gpsd (gpsfake) did not listen on port \(port) within \(timeout) s: \(child.stderr)")
        }
    }

    public static func accepts(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = port.bigEndian
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Whether gpsd has played the whole log: it closes the fake device (`"activated":0`) at the
    /// end of a `-1` run. gpsfake itself can then hang in tcdrain() on its pty under load, so the
    /// tests take this line, not gpsfake's exit, as the end of the feed.
    public var feedEnded: Bool { !child.isRunning || child.stdout.contains("\"activated\":0}") }

    /// Waits for the end of the feed, then stops gpsfake and its gpsd (by force if they hang).
    public func waitForFeedEnd(timeout: Double = 90) throws {
        guard ChildProcess.waitUntil(timeout: timeout, { feedEnded }) else {
            let out = child.stdout.suffix(600), err = child.stderr.suffix(600)
            let neverFed = !child.stdout.contains("\"activated\":")
            stop()
            // Its gpsd never had the device: gpsfake's start-up failed, nothing was played.
            if neverFed { throw GaveUp(stderr: "no device was ever activated (stdout: ...\(out))\nstderr: ...\(err)") }
            throw TestFailure("gpsfake did not finish its log within \(timeout) s\nstdout: ...\(out)\nstderr: ...\(err)")
        }
        if child.isRunning { _ = child.wait(timeout: 3) }
        if let status = child.isRunning ? nil : Optional(child.process.terminationStatus), status != 0 {
            if child.stderr.contains("Test timed out") { throw GaveUp(stderr: String(child.stderr.suffix(600))) }
            throw TestFailure("gpsfake exited with \(status): \(child.stderr.suffix(600))")
        }
        stop()
    }

    /// gpsfake failed on its own and the run says nothing about the program under test: it wrote
    /// the whole log, its "# EOF" last, and its gpsd never closed the device (gpsfake gives up,
    /// "Test timed out", exit 1), or its gpsd never got the device at all (nothing activated, the
    /// feed never ended). Each seen once in a loaded CI run; a fresh gpsfake plays the same log.
    public struct GaveUp: Error, CustomStringConvertible {
        public let stderr: String
        public init(stderr: String) { self.stderr = stderr }
        public var description: String { "gpsfake gave up: \(stderr)" }
    }

    /// Runs `attempt`, and once more with everything it starts started again if gpsfake gave up
    /// (`GaveUp`); any other error, and a second give-up, is thrown as it is.
    public static func againIfItGaveUp(_ attempt: () throws -> Void) throws {
        do { try attempt() } catch is GaveUp { try attempt() }
    }

    /// The gpsd that gpsfake started, from the kernel's list of its children (for killing it
    /// mid-stream, and for stopping it when gpsfake hangs).
    public var gpsdPID: Int32? {
        let children = (try? String(contentsOfFile: "/proc/\(child.pid)/task/\(child.pid)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { Int32($0) }.first { pid in
            ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").hasPrefix("gpsd")
        }
    }

    /// SIGTERM: gpsfake stops its gpsd and exits. gpsfake can hang (tcdrain on its pty under
    /// load): then it is killed, and its gpsd by pid, so no gpsd outlives the test or holds the port.
    public func stop() {
        let daemon = gpsdPID
        child.signal(SIGTERM)
        if child.wait(timeout: 5) == nil { child.terminate() }
        if let daemon, (try? String(contentsOfFile: "/proc/\(daemon)/comm", encoding: .utf8))?.hasPrefix("gpsd") == true {
            kill(daemon, SIGKILL)
            _ = ChildProcess.waitUntil(timeout: 5) { !FileManager.default.fileExists(atPath: "/proc/\(daemon)/comm") }
        }
    }

    /// Every JSON object gpsd sent gpsfake's own watcher (`pipe`), parsed with Foundation (an
    /// oracle independent of the parser under test).
    public var reports: [[String: Any]] { Self.jsonObjects(in: child.stdout) }

    private static func jsonObjects(in text: String) -> [[String: Any]] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            guard line.hasPrefix("{") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }
}
