import Foundation
import TestSupport
import XCTest

/// The transit banner on vkms with `composition = planes`: it takes an overlay of its own above
/// the dot's, the dot keeps its plane, the metrics say so, and what the controller composed (the
/// writeback) has at its top the banner `pulsedot transit banner` draws on the host for the same
/// trip and next stop, within the rounding of the controller's blend.
extension KMSPlanesTests {
    /// The plane id a `planes:` line gives after `words` ("the dot on overlay plane ").
    static func plane(in said: Substring, after words: String) -> Int? {
        guard let r = said.range(of: words) else { return nil }
        return Int(said[r.upperBound...].prefix { $0.isNumber })
    }

    func checkTheBannerOnAnOverlayPlane(_ vm: QEMUMachine, _ bus: TransitBannerGuest,
                                        file: StaticString = #filePath, line: UInt = #line) throws {
        let atB = try bus.expected(next: 3, width: 1024)
        let folder = TransitBannerGuest.guestFolder
        let pid = try vm.spawn("FONTCONFIG_FILE=\(folder)/guest-fonts.conf STATE_DIRECTORY=/tmp pulsedot run --config \(folder)/bus.conf "
            + "--set display.output=kms --set display.composition=planes --set metrics.textfile=/tmp/banner.prom --set metrics.every=1")
        let said = try vm.waitForOutput(pid, containing: "<5>transit: arrived at Piotrkowska, róg (stop 2 of 3)")
        let decided = try vm.waitForOutput(pid, containing: ", the banner on overlay plane ")
        guard let planesLine = decided.split(separator: "\n").last(where: { $0.contains(", the banner on overlay plane ") }) else {
            throw TestFailure("no plane decision with the banner:\n\(decided)")
        }
        let dotPlane = try XCTUnwrap(Self.plane(in: planesLine, after: "the dot on overlay plane "), String(planesLine), file: file, line: line)
        let bannerPlane = try XCTUnwrap(Self.plane(in: planesLine, after: "the banner on overlay plane "), String(planesLine),
                                        file: file, line: line)
        XCTAssertGreaterThan(bannerPlane, dotPlane, "the banner above the dot", file: file, line: line)
        XCTAssertFalse(said.contains("composited"), said, file: file, line: line)

        // The banner's overlay holds still along the top edge while the bus stands at B.
        let shown = try planes(vm)
        let overlay = try XCTUnwrap(shown.first { $0.id == bannerPlane }, file: file, line: line)
        XCTAssertEqual([overlay.int("CRTC_X"), overlay.int("CRTC_Y"), overlay.int("CRTC_W"), overlay.int("CRTC_H")],
                       [0, 0, 1024, atB.height], "\(overlay.values)", file: file, line: line)
        try vm.waitForOutput(pid, "the banner in the metrics", timeout: 30) { _ in
            ((try? vm.run("cat /tmp/banner.prom").output) ?? "").contains("pulsedot_layer_on_plane{layer=\"banner\"} 1")
        }
        let prom = try vm.run("cat /tmp/banner.prom").output
        XCTAssertTrue(prom.contains("pulsedot_layer_on_plane{layer=\"dot\"} 1"), prom, file: file, line: line)

        // What the controller composed: the banner blended over the plain map.
        let shot = try writebackSnapshot(vm, pid: pid).shot
        XCTAssertEqual(try vm.stop(pid), 0, file: file, line: line)
        var worst = 0, compared = 0
        for y in 0..<atB.height {
            for x in 0..<1024 where abs(x - 512) > 60 {
                let a = shot.pixel(x, y), b = atB.pixel(x, y)
                worst = max(worst, abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b))
                compared += 1
            }
        }
        print("banner writeback: worst channel difference \(worst)/255 over \(compared) pixels")
        XCTAssertGreaterThan(compared, 50_000, file: file, line: line)
        XCTAssertLessThanOrEqual(worst, 2, "the writeback's banner against the host's (\(compared) pixels)", file: file, line: line)
        for p in try planes(vm) { XCTAssertEqual(p.int("FB_ID"), 0, "after exit: plane \(p.id) \(p.values)", file: file, line: line) }
    }
}
