import Foundation
import TestSupport
import XCTest

/// `pulsedot transit banner`: a trip's banner with its Nth stop next, as wide as asked, another
/// for another stop; what is not a stop of the trip, or not a trip, refused in one line.
final class TransitBannerCommandTests: XCTestCase {
    func testTheBannerOfEachStopAndWhatIsRefused() throws {
        let dir = try TestEnvironment.temporaryDirectory("transit-banner-command")
        defer { try? FileManager.default.removeItem(at: dir) }
        let binary = try TestEnvironment.pulsedotBinary()
        let index = dir.appendingPathComponent("index.sqlite").path
        XCTAssertEqual(try runProgram(binary, ["transit", "import", TransitImportTests.feed, "--out", index]).status, 0)
        let trip = "D804-T01V01B01-I"
        func banner(_ next: String, _ extra: [String] = []) throws -> (status: Int32, stderr: String, image: ScreenImage?) {
            let out = dir.appendingPathComponent("banner-\(next).png").path
            let r = try runProgram(binary, ["transit", "banner", index, "--trip", trip, "--next-stop", next, "--width", "800",
                                            "--set", "transit.fonts=DejaVu Sans", "--out", out] + extra)
            return (r.status, r.stderr, r.status == 0 ? try ScreenImage.read(out) : nil)
        }
        let second = try banner("2"), third = try banner("3"), none = try banner("none")
        for b in [second, third, none] { XCTAssertEqual(b.status, 0, b.stderr) }
        let a = try XCTUnwrap(second.image), b = try XCTUnwrap(third.image), c = try XCTUnwrap(none.image)
        XCTAssertEqual(a.width, 800)
        XCTAssertGreaterThan(a.height, 40)
        XCTAssertEqual([b.width, b.height, c.width, c.height], [800, a.height, 800, a.height])
        XCTAssertNotEqual(a.rgb, b.rgb, "another next stop, another banner")
        XCTAssertNotEqual(a.rgb, c.rgb, "no next stop named before the vehicle is placed")
        // Twice the scale: twice as tall.
        let large = try banner("2", ["--scale", "2"])
        XCTAssertEqual(try XCTUnwrap(large.image).height, 2 * a.height, accuracy: 2)

        let zero = try banner("0")
        XCTAssertEqual(zero.status, 2)
        XCTAssertTrue(zero.stderr.hasPrefix("pulsedot: transit banner: --next-stop 0: expected 1 to "), zero.stderr)
        let r = try runProgram(binary, ["transit", "banner", index, "--trip", "NOPE", "--next-stop", "1", "--out", dir.appendingPathComponent("x.png").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("no trip 'NOPE'"), r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
    }
}
