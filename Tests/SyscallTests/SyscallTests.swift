import Glibc
import XCTest
@testable import Syscall

final class SyscallTests: XCTestCase {
    func testMissingFileNamesCallAndPath() {
        XCTAssertThrowsError(try FileDescriptor.open("/nonexistent/pulsedot", O_RDONLY)) { error in
            let e = error as! SyscallError
            XCTAssertEqual(e.call, "open")
            XCTAssertEqual(e.errno, ENOENT)
            XCTAssertEqual(e.description, "open /nonexistent/pulsedot: No such file or directory (errno 2)")
        }
    }

    func testPipeRoundTripAndEAGAIN() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe2(&fds, O_NONBLOCK | O_CLOEXEC), 0)
        let r = FileDescriptor(rawValue: fds[0], name: "pipe"), w = FileDescriptor(rawValue: fds[1], name: "pipe")
        defer { r.close(); w.close() }
        var buf = [UInt8](repeating: 0, count: 16)
        XCTAssertNil(try buf.withUnsafeMutableBytes { try r.read(into: $0) })
        let written = try Array("hello".utf8).withUnsafeBytes { try w.write($0) }
        XCTAssertEqual(written, 5)
        let n = try buf.withUnsafeMutableBytes { try r.read(into: $0) }
        XCTAssertEqual(n, 5)
        XCTAssertEqual(Array(buf[0..<5]), Array("hello".utf8))
    }
}
