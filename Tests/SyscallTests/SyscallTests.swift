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
        // Glibc's Swift module hides pipe2 (it needs _GNU_SOURCE): pipe, then non-blocking by fcntl.
        XCTAssertEqual(pipe(&fds), 0)
        XCTAssertEqual(fcntl(fds[0], F_SETFL, O_NONBLOCK), 0)
        XCTAssertEqual(fcntl(fds[1], F_SETFL, O_NONBLOCK), 0)
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

    func testErrnoTextIsTheOneTheErrorsCarry() {
        XCTAssertEqual(SyscallError.message(errno: EIO), "Input/output error")
        XCTAssertEqual(SyscallError.message(errno: ENOSYS), "Function not implemented")
        XCTAssertEqual(SyscallError(call: "read", object: "x", errno: EAGAIN).message, SyscallError.message(errno: EAGAIN))
    }
}

final class EnvironmentTests: XCTestCase {
    func testSetEmptyAndUnsetVariablesAreToldApart() {
        let name = "PULSEDOT_TEST_\(getpid())"
        defer { unsetenv(name) }
        XCTAssertNil(Environment.value(name))
        setenv(name, "/run/pulsedot", 1)
        XCTAssertEqual(Environment.value(name), "/run/pulsedot")
        setenv(name, "", 1)
        XCTAssertEqual(Environment.value(name), "")
        unsetenv(name)
        XCTAssertNil(Environment.value(name))
    }
}
