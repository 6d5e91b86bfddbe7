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

    func testEntriesListEveryNameButTheDots() throws {
        let root = scratch()
        XCTAssertEqual(try Directory.entries(root), [])
        for name in ["card0", "fb10", ".hidden"] { close(creat(root + "/" + name, 0o644)) }
        try Directory.create(root + "/sub")
        XCTAssertEqual(try Directory.entries(root).sorted(), [".hidden", "card0", "fb10", "sub"])
    }

    func testEntriesNameTheDirectoryThatCannotBeListed() throws {
        let root = scratch()
        XCTAssertThrowsError(try Directory.entries(root + "/missing")) { error in
            XCTAssertEqual("\(error)", "opendir \(root)/missing: No such file or directory (errno 2)")
        }
        close(creat(root + "/file", 0o644))
        XCTAssertThrowsError(try Directory.entries(root + "/file")) { error in
            XCTAssertEqual(error as? SyscallError, SyscallError(call: "opendir", object: root + "/file", errno: ENOTDIR))
        }
    }
}
