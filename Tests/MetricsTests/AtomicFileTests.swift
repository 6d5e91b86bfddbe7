import Foundation
import Glibc
import Syscall
import TestSupport
import XCTest

/// The textfile collector's side of the bargain: a complete file, readable by another user, under
/// a name it reads only once whole.
final class AtomicFileTests: XCTestCase {
    func testModeIs0644EvenUnderUmask0077() throws {
        let dir = try TestEnvironment.temporaryDirectory("atomic").path
        let previous = umask(0o077)
        defer { umask(previous) }
        try AtomicFile.write("a 1\n", directory: dir, name: "pulsedot.prom")
        let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/pulsedot.prom")
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o644)
    }

    func testTemporaryNameIsNotReadByTheCollectorAndIsGoneAfterSuccess() throws {
        let dir = try TestEnvironment.temporaryDirectory("atomic").path
        let temporary = AtomicFile.temporaryPath(directory: dir, name: "pulsedot.prom")
        XCTAssertFalse(temporary.hasSuffix(".prom"), temporary)
        XCTAssertEqual(temporary, dir + "/.pulsedot.prom.tmp")
        try AtomicFile.write("a 1\n", directory: dir, name: "pulsedot.prom")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["pulsedot.prom"])
        XCTAssertEqual(try String(contentsOfFile: dir + "/pulsedot.prom", encoding: .utf8), "a 1\n")
    }

    func testAnExistingFileIsReplacedByANewInodeAndAnOpenReaderKeepsTheOld() throws {
        let dir = try TestEnvironment.temporaryDirectory("atomic").path
        let path = dir + "/pulsedot.prom"
        try AtomicFile.write("old 1\n", directory: dir, name: "pulsedot.prom")
        let before = try FileStatus(path: path).identity
        let reader = try XCTUnwrap(FileHandle(forReadingAtPath: path))
        defer { try? reader.close() }
        try AtomicFile.write("new 2\n", directory: dir, name: "pulsedot.prom")
        XCTAssertNotEqual(try FileStatus(path: path).identity, before)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "new 2\n")
        XCTAssertEqual(String(decoding: reader.readDataToEndOfFile(), as: UTF8.self), "old 1\n")
    }

    func testAStaleTemporaryFromACrashIsOverwritten() throws {
        let dir = try TestEnvironment.temporaryDirectory("atomic").path
        try "half a fi".write(toFile: dir + "/.pulsedot.prom.tmp", atomically: false, encoding: .utf8)
        try AtomicFile.write("a 1\n", directory: dir, name: "pulsedot.prom")
        XCTAssertEqual(try String(contentsOfFile: dir + "/pulsedot.prom", encoding: .utf8), "a 1\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["pulsedot.prom"])
    }

    func testAMissingDirectoryIsAnErrorNamingThePath() throws {
        let dir = try TestEnvironment.temporaryDirectory("atomic").path + "/missing"
        XCTAssertThrowsError(try AtomicFile.write("a 1\n", directory: dir, name: "pulsedot.prom")) { error in
            let failure = error as? SyscallError
            XCTAssertEqual(failure?.call, "open")
            XCTAssertEqual(failure?.errno, ENOENT)
            XCTAssertTrue(failure?.description.contains(dir) ?? false, "\(error)")
        }
    }

    func testADirectoryThatIsAFileIsAnErrorNamingThePath() throws {
        let base = try TestEnvironment.temporaryDirectory("atomic").path
        let dir = base + "/plain"
        try "x".write(toFile: dir, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try AtomicFile.write("a 1\n", directory: dir, name: "pulsedot.prom")) { error in
            XCTAssertEqual((error as? SyscallError)?.errno, ENOTDIR)
            XCTAssertTrue("\(error)".contains(dir), "\(error)")
        }
    }

    func testAReadOnlyDirectoryIsAnErrorNamingThePath() throws {
        if geteuid() == 0 {
            // Root is refused nothing: the same test again as an unprivileged user.
            let run = try TestEnvironment.rerunAsNobody("MetricsTests.AtomicFileTests/testAReadOnlyDirectoryIsAnErrorNamingThePath")
            XCTAssertEqual(run.status, 0, run.output)
            XCTAssertTrue(run.output.contains("Executed 1 test, with 0 failures"), run.output)
            return
        }
        let dir = try TestEnvironment.temporaryDirectory("atomic").path
        XCTAssertEqual(chmod(dir, 0o500), 0)
        defer { chmod(dir, 0o700) }
        XCTAssertThrowsError(try AtomicFile.write("a 1\n", directory: dir, name: "pulsedot.prom")) { error in
            XCTAssertEqual((error as? SyscallError)?.errno, EACCES)
            XCTAssertTrue("\(error)".contains(dir), "\(error)")
        }
    }

    func testAFailedRenameLeavesNoTemporaryAndNamesTheTarget() throws {
        let dir = try TestEnvironment.temporaryDirectory("atomic").path
        // A non-empty directory where the file should go: rename cannot replace it.
        try FileManager.default.createDirectory(atPath: dir + "/pulsedot.prom/inside", withIntermediateDirectories: true)
        XCTAssertThrowsError(try AtomicFile.write("a 1\n", directory: dir, name: "pulsedot.prom")) { error in
            XCTAssertEqual((error as? SyscallError)?.call, "rename")
            XCTAssertEqual((error as? SyscallError)?.object, dir + "/pulsedot.prom")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["pulsedot.prom"])
    }
}
