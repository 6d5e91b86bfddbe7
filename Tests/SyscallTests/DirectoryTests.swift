import Glibc
import XCTest
@testable import Syscall

final class DirectoryTests: XCTestCase {
    private func scratch() -> String {
        var template = Array("/tmp/pulsedot-dir-XXXXXX".utf8CString)
        return String(cString: mkdtemp(&template)!)
    }

    func testCreatesParentsAndAcceptsExisting() throws {
        let root = scratch()
        try Directory.create(root + "/a/b/c")
        XCTAssertTrue(Directory.isDirectory(root + "/a/b/c"))
        try Directory.create(root + "/a/b/c")
        try Directory.create(root + "/a//b/")
    }

    func testRefusesAFileInTheWay() throws {
        let root = scratch()
        let fd = open(root + "/file", O_CREAT | O_WRONLY, 0o644)
        close(fd)
        XCTAssertThrowsError(try Directory.create(root + "/file/sub")) { error in
            XCTAssertEqual("\(error)", "mkdir \(root)/file: Not a directory (errno 20)")
        }
    }
}
