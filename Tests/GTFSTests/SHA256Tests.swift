import Foundation
import GTFS
import TestSupport
import XCTest

final class SHA256Tests: XCTestCase {
    func testKnownVectors() {
        func hash(_ text: String) -> String {
            var h = SHA256()
            h.update(text)
            return h.finish()
        }
        XCTAssertEqual(hash(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    /// Fed in pieces of every size around the 64-byte block, the digest is the same as whole.
    func testPiecesOfAnySizeGiveTheSameDigest() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        var whole = SHA256()
        whole.update(bytes)
        let expected = whole.finish()
        for piece in [1, 55, 56, 63, 64, 65, 127, 999] {
            var h = SHA256()
            var i = 0
            while i < bytes.count {
                h.update(Array(bytes[i..<min(i + piece, bytes.count)]))
                i += piece
            }
            XCTAssertEqual(h.finish(), expected, "pieces of \(piece)")
        }
    }

    /// The feed's hash is coreutils' sha256sum of the zip.
    func testAZipFeedsHashIsSha256sumOfTheFile() throws {
        let path = ZipArchiveTests.fortaleza
        let sum = try runProgram("/usr/bin/sha256sum", [path])
        XCTAssertEqual(sum.status, 0)
        XCTAssertEqual(try Feed(path: path).hash(), String(sum.stdout.prefix(64)))
    }
}
