import Config
import PNG
import Raster
import Scene
import TestSupport
import XCTest

/// The dot's `image` and `headingImage` decoded by the users of the settings (`DotImages.load`),
/// refused in one line naming the file, line, key and value, as a value the parser refuses.
final class DotImagesTests: XCTestCase {
    func testImagesAreDecodedAndChecked() throws {
        let dir = try TestEnvironment.temporaryDirectory("dot-images").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let good = dir + "/arrow.png", flat = dir + "/flat.png"
        try PNGWrite.rgba(RGBAImage(width: 2, height: 1, rgba: [0, 0, 0, 255, 0, 0, 0, 10]), to: good)
        try PNGWrite.rgb(width: 2, height: 1, rgb: [1, 2, 3, 4, 5, 6], to: flat)

        var s = Settings()
        try s.set("image=\(good)")
        try s.set("headingImage=\(good)")
        try DotImages.load(&s)
        XCTAssertEqual(s.dot.style.image, AlphaMask(width: 2, height: 1, alpha: [255, 10]))
        XCTAssertEqual(s.dot.style.headingImage, AlphaMask(width: 2, height: 1, alpha: [255, 10]))
        try s.set("image=none")
        try DotImages.load(&s)
        XCTAssertNil(s.dot.style.image, "none takes a loaded image away")
        XCTAssertNotNil(s.dot.style.headingImage)

        try s.set("image=\(flat)")
        XCTAssertThrowsError(try DotImages.load(&s)) { error in
            XCTAssertTrue("\(error)".hasPrefix("image = \(flat): has no alpha channel"), "\(error)")
        }
        try s.set("image=none")
        try s.set("headingImage=\(dir)/missing.png")
        XCTAssertThrowsError(try DotImages.load(&s)) { error in
            XCTAssertEqual("\(error)", "headingImage = \(dir)/missing.png: no such file (a PNG image is expected here)")
        }
        // From a configuration file: the file's line, and the path as resolved from its folder.
        var c = try Configuration.parse("[dot]\nscale = 2\n\nimage = gone.png\n", file: dir + "/pulsedot.conf")
        XCTAssertThrowsError(try DotImages.load(&c.settings)) { error in
            XCTAssertEqual("\(error)", "\(dir)/pulsedot.conf:4: image = \(dir)/gone.png: no such file (a PNG image is expected here)")
        }
    }
}
