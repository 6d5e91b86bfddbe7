import Glibc
import XCTest
@testable import Syscall

final class ReadFileTests: XCTestCase {
    func testReadsWholeFilesAndRefusesHugeOnes() throws {
        var template = Array("/tmp/pulsedot-readfile-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        XCTAssertGreaterThanOrEqual(fd, 0)
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        // Larger than one 64 KiB read, so the loop has to go round.
        let content = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        XCTAssertEqual(content.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }, content.count)
        close(fd)
        XCTAssertEqual(try FileDescriptor.readWholeFile(path), content)
        XCTAssertThrowsError(try FileDescriptor.readWholeFile(path, limit: 100_000)) { error in
            XCTAssertEqual(error as? SyscallError, SyscallError(call: "read", object: path, errno: EFBIG))
        }
        // Only regular files: a device, a folder or a FIFO is refused at the open, which never
        // blocks (a FIFO with no writer would otherwise hold the reader for good).
        XCTAssertThrowsError(try FileDescriptor.readWholeFile("/dev/null")) { error in
            XCTAssertEqual("\(error)", "open /dev/null: a device, not a regular file")
        }
        XCTAssertThrowsError(try FileDescriptor.readWholeFile("/tmp")) { error in
            XCTAssertEqual("\(error)", "open /tmp: a folder, not a regular file")
        }
        let fifo = path + ".fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        XCTAssertThrowsError(try FileDescriptor.readWholeFile(fifo)) { error in
            XCTAssertEqual("\(error)", "open \(fifo): a FIFO, not a regular file")
        }
    }
}
