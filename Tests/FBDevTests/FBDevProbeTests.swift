import FBDev
import Foundation
import Glibc
import JSON
import XCTest

/// `pulsedot probe`'s framebuffer report, read from a device (nothing written or panned).
final class FBDevProbeTests: XCTestCase {
    func testReportsLayoutPanningAndVSync() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30, virtualHeight: 60, layout: .rgb565, padding: 4)
        let probe = try FramebufferProbe.read(fb, clock: { fb.time })
        XCTAssertEqual(probe.text, """
        /dev/fb0: framebuffer memfb
          screen: 40x30, virtual 40x60, offset 0,0
          pixels: 16 bpp, red 5@11 green 6@5 blue 5@0: RGB565
          line length: 84 bytes, memory: 5040 bytes
          double buffering by panning: yes
          FBIO_WAITFORVSYNC: no (Inappropriate ioctl for device)

        """)
        XCTAssertFalse(fb.log.contains { $0.hasPrefix("pan") || $0.hasPrefix("map") })
        XCTAssertEqual(probe.json, #"{"device":"/dev/fb0","id":"memfb","width":40,"height":30,"virtualWidth":40,"virtualHeight":60,"bitsPerPixel":16,"lineLength":84,"memoryLength":5040,"format":"rgb565","red":{"offset":11,"length":5},"green":{"offset":5,"length":6},"blue":{"offset":0,"length":5},"transp":{"offset":0,"length":0},"pan":true,"vsync":"no"}"#)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(probe.json.utf8)) as? [String: Any])
        XCTAssertEqual(json["format"] as? String, "rgb565")
        XCTAssertEqual(json["width"] as? Int, 40)
        XCTAssertEqual(json["lineLength"] as? Int, 84)
        XCTAssertEqual(json["pan"] as? Bool, true)
        XCTAssertEqual(json["vsync"] as? String, "no")
        XCTAssertEqual((json["green"] as? [String: Int])?["length"], 6)
    }

    func testAnUnsupportedLayoutIsReportedNotThrown() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30)
        fb.variable.bitsPerPixel = 24
        fb.vsyncErrno = 0
        let probe = try FramebufferProbe.read(fb, clock: { fb.time })
        XCTAssertTrue(probe.text.contains("  pixels: 24 bpp, red 8@16 green 8@8 blue 8@0: unsupported: 24 bpp, red 8@16 green 8@8 blue 8@0 (24 bits per pixel)\n"), probe.text)
        XCTAssertTrue(probe.text.contains("FBIO_WAITFORVSYNC: yes"), probe.text)
        XCTAssertTrue(probe.text.contains("double buffering by panning: no (the virtual screen (40x30) has no room for a second 40x30 screen)"), probe.text)
        XCTAssertEqual(probe.json, #"{"device":"/dev/fb0","id":"memfb","width":40,"height":30,"virtualWidth":40,"virtualHeight":30,"bitsPerPixel":24,"lineLength":160,"memoryLength":4800,"format":null,"unsupported":"24 bpp, red 8@16 green 8@8 blue 8@0 (24 bits per pixel)","red":{"offset":16,"length":8},"green":{"offset":8,"length":8},"blue":{"offset":0,"length":8},"transp":{"offset":0,"length":0},"pan":false,"vsync":"yes"}"#)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(probe.json.utf8)) as? [String: Any])
        XCTAssertTrue(json["format"] is NSNull)
        XCTAssertEqual(json["unsupported"] as? String, "24 bpp, red 8@16 green 8@8 blue 8@0 (24 bits per pixel)")
        XCTAssertEqual(json["vsync"] as? String, "yes")
    }

    func testAnUnexpectedVSyncErrorIsNamed() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30)
        fb.vsyncErrno = EIO
        let probe = try FramebufferProbe.read(fb, clock: { fb.time })
        XCTAssertTrue(probe.text.contains("  FBIO_WAITFORVSYNC: unknown (Input/output error)\n"), probe.text)
        fb.vsyncErrno = EINVAL
        let refused = try FramebufferProbe.read(fb, clock: { fb.time })
        XCTAssertTrue(refused.text.contains("  FBIO_WAITFORVSYNC: no (Invalid argument)\n"), refused.text)
    }

    func testAVSyncThatReturnsAtOnceIsReportedAsNone() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30)
        fb.vsyncErrno = 0
        fb.vsyncPeriod = 0
        let probe = try FramebufferProbe.read(fb, clock: { fb.time })
        XCTAssertTrue(probe.text.contains("  FBIO_WAITFORVSYNC: no (it returns at once: no vblank interrupt)\n"), probe.text)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(probe.json.utf8)) as? [String: Any])
        XCTAssertEqual(json["vsync"] as? String, "no")
    }

    /// The id is the driver's 16 bytes and the path is the user's: both stay valid JSON.
    func testTextFieldsAreEscaped() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30)
        fb.fixed.id = "fb\"\\\n\t\u{7}ü"
        let probe = try FramebufferProbe.read(fb, clock: { fb.time })
        XCTAssertTrue(probe.json.hasPrefix(#"{"device":"/dev/fb0","id":"fb\"\\\n\t\u0007ü","width":40,"#), probe.json)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(probe.json.utf8)) as? [String: Any])
        XCTAssertEqual(json["id"] as? String, "fb\"\\\n\t\u{7}ü")
    }

    /// `pulsedot probe` writes every framebuffer's report into one array.
    func testReportsNestInOneDocument() throws {
        let a = MemoryFramebuffer.make(width: 40, height: 30)
        let b = MemoryFramebuffer.make(width: 20, height: 10, layout: .rgb565)
        let first = try FramebufferProbe.read(a, clock: { a.time }), second = try FramebufferProbe.read(b, clock: { b.time })
        let document = JSONWriter.array { w in
            first.writeJSON(to: &w)
            second.writeJSON(to: &w)
        }
        XCTAssertEqual(document, "[" + first.json + "," + second.json + "]")
    }
}
