import Foundation
import Glibc

/// Where things are for tests that run the built `pulsedot` binary and real peers.
/// Tests may use Foundation (they are never shipped); the product may not.
public enum TestEnvironment {
    /// The package root, found from this file's own path.
    public static let packageRoot: URL = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }()

    /// The `pulsedot` binary under test: `$PULSEDOT_BIN`, else the newer of `.build/release/pulsedot`
    /// and `.build/debug/pulsedot`. Throws a clear message when none was built.
    public static func pulsedotBinary() throws -> String {
        if let path = ProcessInfo.processInfo.environment["PULSEDOT_BIN"], !path.isEmpty { return path }
        let fm = FileManager.default
        var best: (String, Date)?
        for config in ["release", "debug"] {
            let path = packageRoot.appendingPathComponent(".build/\(config)/pulsedot").path
            if let attrs = try? fm.attributesOfItem(atPath: path), let date = attrs[.modificationDate] as? Date {
                if best == nil || date > best!.1 { best = (path, date) }
            }
        }
        guard let found = best else {
            throw TestFailure("no pulsedot binary: run `swift build` (or set PULSEDOT_BIN) before these tests")
        }
        return found.0
    }

    /// A fresh empty directory under the system temporary directory, named after `prefix`.
    public static func temporaryDirectory(_ prefix: String) throws -> URL {
        var template = Array("/tmp/pulsedot-\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed: errno \(errno)") }
        return URL(fileURLWithPath: String(cString: made))
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then released).
    public static func freeTCPPort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw TestFailure("bind: errno \(errno)") }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        return UInt16(bigEndian: addr.sin_port)
    }

    /// Whether an optional real-part test family was switched off by the person running the tests.
    /// `PULSEDOT_SKIP=qemu,gpsd` (see README). Never set in CI.
    public static func optedOut(_ family: String) -> Bool {
        let list = ProcessInfo.processInfo.environment["PULSEDOT_SKIP"] ?? ""
        return list.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == family }
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
