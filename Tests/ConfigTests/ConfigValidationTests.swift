@testable import Config
import PNG
import TestSupport
import XCTest

/// The whole-configuration checks run after every line and override: each names the file and the
/// line of the key at fault.
final class ConfigValidationTests: XCTestCase, ConfigFileTesting {
    private var dir = ""
    var file: String { dir + "/pulsedot.conf" }

    override func setUpWithError() throws {
        dir = try TestEnvironment.temporaryDirectory("config-validate").path
        try PNGWrite.rgb(width: 8, height: 6, rgb: [UInt8](repeating: 128, count: 8 * 6 * 3), to: dir + "/route.png")
    }

    func testAMapImageWithItsBounds() throws {
        let s = try Configuration.parse("[map]\nimage = route.png\nbounds = -73.6,45.49,-73.54,45.52\nbackground = #000000\nfollow = center\n",
                                        file: file).settings
        XCTAssertEqual(s.map.imagePath, dir + "/route.png", "relative to the file")
    }

    func testBoundsWithoutImage() {
        assertError("[map]\nzoom = 14\nbounds = -73.6,45.49,-73.54,45.52\n",
                    "\(file):3: map.bounds = -73.6,45.49,-73.54,45.52: bounds place a map image: set image = FILE.png too (a plain map uses center and zoom)")
    }

    func testImageWithoutBounds() {
        assertError("[dot]\nscale = 2\n[map]\nimage = route.png\n",
                    "\(file):4: map.image = \(dir)/route.png: a map image needs bounds = WEST,SOUTH,EAST,NORTH (its geographic edges)")
    }

    func testImageWithCenterOrZoom() {
        let image = "[map]\nimage = route.png\nbounds = -73.6,45.49,-73.54,45.52\n"
        assertError(image + "center = 45.5,-73.57\n",
                    "\(file):4: map.center = 45.5,-73.57: a map image is placed by its bounds; remove center (or remove image and bounds for a plain map)")
        assertError(image + "\n# street level\nzoom = 16\n",
                    "\(file):6: map.zoom = 16: a map image is placed by its bounds; remove zoom (or remove image and bounds for a plain map)")
    }

    func testOverridesAreCheckedTooAndCanRepairAFile() throws {
        // An override that creates the mixture is named as an override.
        assertError("[map]\ncenter = 45.5,-73.57\n", overrides: ["map.bounds=-73.6,45.49,-73.54,45.52"],
                    "--set map.bounds = -73.6,45.49,-73.54,45.52: bounds place a map image: set image = FILE.png too (a plain map uses center and zoom)")
        // An override that completes the file makes it valid.
        let s = try Configuration.parse("[map]\nbounds = -73.6,45.49,-73.54,45.52\n", file: file,
                                        overrides: ["map.image=\(dir)/route.png"]).settings
        XCTAssertNotNil(s.map.imagePath)
    }

    func testPolarCentreIsRefusedAtItsLine() {
        assertError("[map]\nzoom = 3\ncenter = 86,0\n",
                    "\(file):3: map.center = 86,0: latitude 86 is beyond Web Mercator's limit of ±85.05112878° (polar regions cannot be drawn on the map)")
    }

    func testPngCannotWriteFasterThanItDraws() throws {
        assertError("[display]\noutput = png:frames\nfps = 10\npngFps = 12\n",
                    "\(file):4: display.pngFps = 12: pngFps (12) is above fps (10): frames cannot be written faster than they are drawn")
        // Only fps was given: the error names it.
        assertError("[display]\noutput = png:frames\nfps = 1\n",
                    "\(file):3: display.fps = 1: pngFps (2) is above fps (1): frames cannot be written faster than they are drawn")
        // Without png: output pngFps means nothing, so nothing is wrong.
        XCTAssertNoThrow(try Configuration.parse("[display]\noutput = kms\nfps = 1\n", file: file))
    }
}
