import Foundation
import GTFS
import TestSupport
import XCTest

/// The zip reader against zips made by other tools: the real Fortaleza feed (each member equal to
/// what `unzip -p` gives), `zip` with stored and deflated members in a folder, and damaged copies.
final class ZipArchiveTests: XCTestCase {
    static let fortaleza = "/work/shared/testdata/gtfs/fortaleza.zip"

    /// A member read through the entry source in the given chunk size.
    static func contents(_ archive: ZipArchive, _ entry: ZipArchive.Entry, chunk: Int = 65536) throws -> [UInt8] {
        let source = try archive.open(entry)
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { return out }
            out += buffer[..<n]
        }
    }

    func testFortalezaMembersEqualWhatUnzipGives() throws {
        let archive = try ZipArchive(RandomAccessFile(path: Self.fortaleza))
        XCTAssertEqual(Set(archive.entries.map(\.name)),
                       ["agency.txt", "calendar.txt", "routes.txt", "shapes.txt", "stop_times.txt", "stops.txt", "trips.txt"])
        for entry in archive.entries {
            let expected = try runProgram("/usr/bin/unzip", ["-p", Self.fortaleza, entry.name])
            XCTAssertEqual(expected.status, 0)
            let got = try Self.contents(archive, entry, chunk: entry.name == "stops.txt" ? 7 : 65536)
            XCTAssertEqual(got.count, Int(entry.uncompressedSize), entry.name)
            XCTAssertTrue(got == Array(expected.stdout.utf8), entry.name)
        }
    }

    /// `zip` writes a folder's files, some stored (-0 for .txt under 100 bytes is what zip picks
    /// itself), the rest deflated; the feed finds them by base name.
    func testStoredAndDeflatedMembersInAFolder() throws {
        let dir = try TestEnvironment.temporaryDirectory("zip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "a,b\n1,2\n".write(to: folder.appendingPathComponent("tiny.txt"), atomically: true, encoding: .utf8)
        let big = (0..<5000).map { "row\($0),\"x,\($0)\"\n" }.joined()
        try ("k,v\n" + big).write(to: folder.appendingPathComponent("big.txt"), atomically: true, encoding: .utf8)
        let stored = dir.appendingPathComponent("stored.zip").path, deflated = dir.appendingPathComponent("deflated.zip").path
        try Self.shell("cd \(dir.path) && zip -q -0 -r \(stored) feed")
        try Self.shell("cd \(dir.path) && zip -q -9 -r \(deflated) feed")
        for (path, method) in [(stored, UInt16(0)), (deflated, UInt16(8))] {
            let archive = try ZipArchive(RandomAccessFile(path: path))
            let entry = try XCTUnwrap(archive.entries.first { $0.name == "feed/big.txt" })
            XCTAssertEqual(entry.method, method)
            XCTAssertEqual(String(decoding: try Self.contents(archive, entry, chunk: 1000), as: UTF8.self), "k,v\n" + big)
            let feed = try Feed(path: path)
            XCTAssertEqual(feed.files, ["tiny.txt": 8, "big.txt": Int64(4 + big.utf8.count)])
            let table = try feed.table("big.txt")
            XCTAssertEqual(table.file, path + "/feed/big.txt")
            var rows = 0
            while try table.next() { rows += 1 }
            XCTAssertEqual(rows, 5000)
        }
    }

    func testATruncatedZipIsSaidInOneLine() throws {
        let dir = try TestEnvironment.temporaryDirectory("zip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.fortaleza))
        let cut = dir.appendingPathComponent("cut.zip").path
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cut))
        XCTAssertThrowsError(try Feed(path: cut)) { error in
            XCTAssertEqual("\(error)", "\(cut): not a zip file, or a truncated one: no end of central directory record")
        }
        XCTAssertThrowsError(try ZipArchive(RandomAccessMemory(Array(whole.prefix(10)), name: "ten.zip"))) { error in
            XCTAssertEqual("\(error)", "ten.zip: not a zip file: 10 bytes is too short for one")
        }
        // The central directory kept, a member's data cut away: the entry says it runs past the end.
        var bytes = [UInt8](whole)
        let archive = try ZipArchive(RandomAccessMemory(bytes, name: "f.zip"))
        let stops = try XCTUnwrap(archive.entries.first { $0.name == "stop_times.txt" })
        bytes.replaceSubrange(Int(stops.localHeaderOffset + 100)..<Int(stops.localHeaderOffset + 5000), with: [UInt8](repeating: 0, count: 4900))
        let damaged = try ZipArchive(RandomAccessMemory(bytes, name: "f.zip"))
        XCTAssertThrowsError(try Self.contents(damaged, try XCTUnwrap(damaged.entries.first { $0.name == "stop_times.txt" }))) { error in
            XCTAssertTrue("\(error)".hasPrefix("f.zip/stop_times.txt: damaged deflate data after "), "\(error)")
        }
    }

    func testADamagedStoredMemberFailsItsCRC() throws {
        let dir = try TestEnvironment.temporaryDirectory("zip")
        defer { try? FileManager.default.removeItem(at: dir) }
        try "stop_id,stop_name\nS1,Centro\n".write(to: dir.appendingPathComponent("stops.txt"), atomically: true, encoding: .utf8)
        let path = dir.appendingPathComponent("s.zip").path
        try Self.shell("cd \(dir.path) && zip -q -0 \(path) stops.txt")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let at = try XCTUnwrap(Self.find(Array("S1,Centro".utf8), in: bytes))
        bytes[at + 3] = UInt8(ascii: "X")
        let archive = try ZipArchive(RandomAccessMemory(bytes, name: "s.zip"))
        XCTAssertThrowsError(try Self.contents(archive, archive.entries[0])) { error in
            XCTAssertEqual("\(error)", "s.zip/stops.txt: CRC-32 mismatch: the member's bytes are damaged")
        }
    }

    /// A member that inflates past the size its directory entry declares stops there: 20 MB of
    /// zeros declared as 1000 bytes never reaches the reader whole.
    func testAZipBombStopsAtTheDeclaredSize() throws {
        let dir = try TestEnvironment.temporaryDirectory("zip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bomb.zip").path
        let script = "import zipfile,sys\nwith zipfile.ZipFile(sys.argv[1],'w',zipfile.ZIP_DEFLATED) as z: z.writestr('stop_times.txt', b'0'*20000000)"
        XCTAssertEqual(try runProgram("/usr/bin/python3", ["-c", script, path]).status, 0)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let central = try XCTUnwrap(Self.find([0x50, 0x4B, 0x01, 0x02], in: bytes))
        bytes.replaceSubrange((central + 24)..<(central + 28), with: [0xE8, 0x03, 0, 0])
        let archive = try ZipArchive(RandomAccessMemory(bytes, name: "bomb.zip"))
        XCTAssertEqual(archive.entries[0].uncompressedSize, 1000)
        XCTAssertThrowsError(try Self.contents(archive, archive.entries[0])) { error in
            XCTAssertEqual("\(error)", "bomb.zip/stop_times.txt: inflates to more than the 1000 bytes its directory entry declares (a damaged zip or a zip bomb)")
        }
    }

    func testZip64DirectoryRecords() throws {
        let dir = try TestEnvironment.temporaryDirectory("zip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("z64.zip").path
        // Streamed from stdin, zip cannot know the size beforehand and writes Zip64 records.
        let script = "printf 'stop_id\\nS1\\n' | /usr/bin/zip -q -fz \(path) -"
        try Self.shell(script)
        let archive = try ZipArchive(RandomAccessFile(path: path))
        XCTAssertEqual(archive.entries.map(\.name), ["-"])
        XCTAssertEqual(String(decoding: try Self.contents(archive, archive.entries[0]), as: UTF8.self), "stop_id\nS1\n")
    }

    /// Runs a shell command line; its failure fails the test with what it printed.
    static func shell(_ script: String) throws {
        let run = try runProgram("/bin/sh", ["-c", script], timeout: 120)
        guard run.status == 0 else { throw TestFailure("\(script): status \(run.status): \(run.stderr)") }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
