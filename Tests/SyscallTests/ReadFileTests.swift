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
        XCTAssertEqual(try FileDescriptor.readWholeFile("/dev/null"), [])
    }
}
