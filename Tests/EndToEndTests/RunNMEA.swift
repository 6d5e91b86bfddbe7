import Foundation
import Glibc
import TestSupport
import XCTest

/// NMEA written by the run tests themselves (valid checksums, one GGA+RMC cycle per second) for a
/// vehicle driving a straight line, and the positions those sentences carry exactly as a reader
/// of ddmm.mmmmm gets them back.
struct DriveNMEA {
    private(set) var lines: [String] = []
    private(set) var fixes: [(lat: Double, lon: Double)] = []
    private var clock = 10 * 3600

    static func sentence(_ body: String) -> String {
        "$" + body + "*" + String(format: "%02X", body.utf8.reduce(UInt8(0), ^))
    }

    /// ddmm.mmmmm,N and its value as written (5 decimals of minutes).
    private static func coordinate(_ degrees: Double, width: Int, positive: String, negative: String) -> (String, Double) {
        let a = abs(degrees), d = Int(a)
        let minutes = ((a - Double(d)) * 60 * 100_000).rounded() / 100_000
        let text = String(format: "%0\(width)d%08.5f,%@", d, minutes, degrees >= 0 ? positive : negative)
        let value = (Double(d) + minutes / 60) * (degrees >= 0 ? 1 : -1)
        return (text, value)
    }

    private var time: String { String(format: "%02d%02d%02d.00", clock / 3600, clock / 60 % 60, clock % 60) }

    mutating func fix(lat: Double, lon: Double, knots: Double = 20, course: Double = 60) {
        let (la, latValue) = Self.coordinate(lat, width: 2, positive: "N", negative: "S")
        let (lo, lonValue) = Self.coordinate(lon, width: 3, positive: "E", negative: "W")
        lines.append(Self.sentence("GPGGA,\(time),\(la),\(lo),1,08,1.0,50.0,M,0.0,M,,"))
        lines.append(Self.sentence("GPRMC,\(time),A,\(la),\(lo),\(String(format: "%.1f,%.1f", knots, course)),150624,,,A"))
        fixes.append((latValue, lonValue))
        clock += 1
    }

    mutating func noFix() {
        lines.append(Self.sentence("GPGGA,\(time),,,,,0,00,99.9,,,,,,"))
        lines.append(Self.sentence("GPRMC,\(time),V,,,,,,,150624,,,N"))
        clock += 1
    }

    /// `count` fixes from (lat, lon), each `step` degrees further north-east: about 11 m apart for 0.0001.
    static func straight(from lat: Double, _ lon: Double, count: Int, step: Double = 0.0001) -> DriveNMEA {
        var drive = DriveNMEA()
        for i in 0..<count { drive.fix(lat: lat + Double(i) * step * 0.6, lon: lon + Double(i) * step) }
        return drive
    }

    var route: Route { Route(points: fixes) }

    func write(to url: URL) throws {
        try (lines.joined(separator: "\r\n") + "\r\n").write(to: url, atomically: true, encoding: .utf8)
    }
}

/// A real gpsd fed by gpsfake on a loopback port. With `pipe`, gpsfake watches itself and feeds at
/// once (start the daemon first: it connects while its retries are short); without, sentences fed
/// before a client watches are lost.
final class RunGPSFake {
    let port: UInt16
    let child: ChildProcess

    /// `pace`: seconds between sentences. `once`: stop at the end of the log, else loop it.
    init(log: URL, port: UInt16, pace: Double, once: Bool, pipe: Bool) throws {
        self.port = port
        var args = ["/usr/bin/gpsfake", "-q", "-P", String(port), "-c", String(pace)]
        if pipe { args.append("-p") }
        if once { args.append("-1") }
        args.append(log.path)
        child = try ChildProcess("/usr/bin/python3", args, label: "gpsfake")
    }

    deinit { stop() }

    /// Starts gpsfake and waits until its gpsd accepts connections on `port`. Under load gpsfake
    /// sometimes dies before its gpsd listens (its pty set-up races); it is then started again, at
    /// most three times, and a failure carries what gpsfake said.
    static func listening(log: URL, port: UInt16, pace: Double, once: Bool, pipe: Bool) throws -> RunGPSFake {
        var said = ""
        for _ in 0..<3 {
            let fake = try RunGPSFake(log: log, port: port, pace: pace, once: once, pipe: pipe)
            if ChildProcess.waitUntil(timeout: 20, { !fake.child.isRunning || acceptsConnections(port: port) }),
               fake.child.isRunning {
                return fake
            }
            said += "gpsfake: \(fake.child.stderr)\n"
            fake.stop()
        }
        throw TestFailure("gpsfake's gpsd never listened on 127.0.0.1:\(port):\n\(said)")
    }

    private static func acceptsConnections(port: UInt16) -> Bool {
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

    /// SIGTERM: gpsfake stops its gpsd and exits. gpsfake can hang (tcdrain on its pty under
    /// load): then it is killed, and its gpsd by pid, so no gpsd outlives the test or holds the port.
    func stop() {
        let daemon = gpsdPID
        child.signal(SIGTERM)
        if child.wait(timeout: 5) == nil { child.terminate() }
        if let daemon, (try? String(contentsOfFile: "/proc/\(daemon)/comm", encoding: .utf8))?.hasPrefix("gpsd") == true {
            kill(daemon, SIGKILL)
            _ = ChildProcess.waitUntil(timeout: 5) { !FileManager.default.fileExists(atPath: "/proc/\(daemon)/comm") }
        }
    }

    /// The gpsd that gpsfake started, from the kernel's list of its children.
    var gpsdPID: Int32? {
        let children = (try? String(contentsOfFile: "/proc/\(child.pid)/task/\(child.pid)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { Int32($0) }.first { pid in
            ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").hasPrefix("gpsd")
        }
    }

    static func requireGPSFake() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake"),
              FileManager.default.isExecutableFile(atPath: "/usr/sbin/gpsd") else {
            throw TestFailure("gpsd and gpsfake are needed (sudo deploy/install-deps --test)")
        }
    }
}
