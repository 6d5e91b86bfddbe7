import Glibc
import XCTest
import Syscall

final class IoctlTests: XCTestCase {
    private func makePipe() -> (FileDescriptor, FileDescriptor) {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        return (FileDescriptor(rawValue: fds[0], name: "pipe-read"), FileDescriptor(rawValue: fds[1], name: "pipe-write"))
    }

    func testStructureArgumentIsFilledByTheKernel() throws {
        let (r, w) = makePipe()
        defer { r.close(); w.close() }
        _ = try Array("seven b".utf8).withUnsafeBytes { try w.write($0) }
        var pending: Int32 = -1
        try r.ioctl(UInt(FIONREAD), "FIONREAD", &pending)
        XCTAssertEqual(pending, 7)
    }

    func testFailureNamesRequestAndDevice() {
        let (r, w) = makePipe()
        defer { r.close(); w.close() }
        // KDSETMODE (0x4B3A) on something that is not a virtual console: the kernel says ENOTTY.
        XCTAssertThrowsError(try w.ioctl(0x4B3A, "KDSETMODE", value: 0)) { error in
            let e = error as! SyscallError
            XCTAssertEqual(e.errno, ENOTTY)
            XCTAssertEqual(e.description, "ioctl KDSETMODE pipe-write: Inappropriate ioctl for device (errno 25)")
        }
    }
}
