import Glibc
import XCTest
@testable import Syscall

final class EventFDTests: XCTestCase {
    private func readable(_ fd: FileDescriptor) throws -> Bool {
        var fds = [pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)]
        return try Poll.wait(&fds, timeoutMilliseconds: 0) == 1 && fds[0].revents & Int16(POLLIN) != 0
    }

    func testSignalsCollectUntilDrainedAndDrainingNothingIsNotAnError() throws {
        let wake = try EventFD(name: "test wake-up")
        defer { wake.close() }
        XCTAssertEqual(wake.descriptor.name, "test wake-up")
        XCTAssertNotEqual(fcntl(wake.descriptor.rawValue, F_GETFL) & O_NONBLOCK, 0, "a drain must never block the loop")
        XCTAssertNotEqual(fcntl(wake.descriptor.rawValue, F_GETFD) & FD_CLOEXEC, 0)
        XCTAssertFalse(try readable(wake.descriptor))
        XCTAssertEqual(try wake.drain(), 0)
        try wake.signal()
        try wake.signal()
        XCTAssertTrue(try readable(wake.descriptor))
        XCTAssertEqual(try wake.drain(), 2)
        XCTAssertFalse(try readable(wake.descriptor))
    }

    func testSignalOnAClosedDescriptorNamesIt() throws {
        let wake = try EventFD(name: "gone")
        wake.close()
        XCTAssertThrowsError(try wake.signal()) { error in
            XCTAssertEqual("\(error)", "write gone: Bad file descriptor (errno 9)")
        }
    }
}
