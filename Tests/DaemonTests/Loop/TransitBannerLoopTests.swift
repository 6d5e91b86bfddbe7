import Daemon
import Foundation
import Glibc
import Raster
import Shaping
import TestSupport
import XCTest

/// The transit banner on the loop's frames: made on the transit worker (inline here) when the next
/// stop changes, composited along the top of the canvas, pixel for pixel the banner `TransitBanner`
/// makes of the same content over the same map; gone when `banner = none`.
final class TransitBannerLoopTests: XCTestCase {
    /// The canvas at `seconds`, copied out as the frame drawn then shows it.
    private func snapshot(_ h: LoopHarness, at seconds: Double, into out: OwnedPixelBuffer) {
        h.waiting.at(seconds) { out.buffer.copy(out.buffer.bounds, from: h.display!.canvas) }
    }

    private func drive(_ h: LoopHarness) -> Double {
        var t = 1.0
        func fix(_ y: Double) {
            let p = TransitLoopTests.at(y)
            h.waiting.at(t) { h.source.deliver(latitude: p.lat, longitude: p.lon, at: h.waiting.now()) }
            t += 0.5
        }
        for _ in 0..<3 { fix(0) }
        for y in stride(from: 20.0, through: 700, by: 20) { fix(y) }
        for _ in 0..<6 { fix(700) }
        return t
    }

    /// `content`'s banner as `TransitBanner` makes it, over a canvas of `background`.
    private func expected(_ content: BannerContent, background: UInt32) throws -> OwnedPixelBuffer {
        let made = try TransitBanner(catalog: FontCatalog(), scale: 1).render(content, width: 320)
        let out = OwnedPixelBuffer(width: 320, height: 240, format: .xrgb8888)
        for y in 0..<240 { for x in 0..<320 { out.buffer.row(y).storeBytes(of: background, toByteOffset: x * 4, as: UInt32.self) } }
        made.overlay.draw(into: out.buffer, clip: out.buffer.bounds)
        return out
    }

    /// Pixels of the banner's rows left of the route (the line runs north through the canvas's
    /// middle, under the banner) that differ from `reference`.
    private func differing(_ a: OwnedPixelBuffer, _ reference: OwnedPixelBuffer, rows: Int) -> Int {
        var n = 0
        for y in 0..<rows { for x in 0..<110 where a.buffer.pixel(x: x, y: y) & 0xFF_FFFF != reference.buffer.pixel(x: x, y: y) & 0xFF_FFFF { n += 1 } }
        return n
    }

    func testTheBannerNamesTheNextStopAndChangesWhenTheVehicleReachesIt() throws {
        let dir = try TestEnvironment.temporaryDirectory("transit-banner").path
        let feed = try TransitLoopTests.writeFeed(in: dir, lastDay: "20271231")
        let h = try LoopHarness(config: TransitLoopTests.config(feed: feed, dir: dir))
        let end = drive(h)
        let towardsB = OwnedPixelBuffer(width: 320, height: 240, format: .xrgb8888)
        let atB = OwnedPixelBuffer(width: 320, height: 240, format: .xrgb8888)
        snapshot(h, at: 10.05, into: towardsB)
        snapshot(h, at: end - 0.45, into: atB)
        h.waiting.signal(SIGTERM, at: end)
        XCTAssertEqual(try h.run(), 0)
        XCTAssertTrue(h.logged("transit: the banner").isEmpty && h.logged("banner fonts").isEmpty, "nothing said of the banner: \(h.log)")

        let blue = Color(r: 0x00, g: 0x66, b: 0xCC)
        XCTAssertEqual(towardsB.buffer.pixel(x: 14, y: 14) & 0xFF_FFFF, 0x0066CC, "the line's badge in the route colour, top left")
        // Below the banner, far from the dot and the line: the map.
        let background = towardsB.buffer.pixel(x: 4, y: 236)
        let rows = try expected(BannerContent(line: "7", routeColor: blue, routeTextColor: .white, destination: "Dworzec",
                                              nextStop: "Dworzec", following: []), background: background)
        let first = try expected(BannerContent(line: "7", routeColor: blue, routeTextColor: .white, destination: "Dworzec",
                                               nextStop: "Piotrkowska, róg", following: ["Dworzec"]), background: background)
        let height = try TransitBanner(catalog: FontCatalog(), scale: 1).render(
            BannerContent(line: "7", routeColor: blue, routeTextColor: .white, destination: "", nextStop: "", following: []), width: 320).overlay.height
        XCTAssertEqual(differing(towardsB, first, rows: height), 0, "on the way to B: B next, Dworzec after it")
        XCTAssertEqual(differing(atB, rows, rows: height), 0, "at B: Dworzec next, nothing after it")
        XCTAssertGreaterThan(differing(towardsB, atB, rows: height), 100, "the banner changed at B")
        XCTAssertEqual(towardsB.buffer.pixel(x: 4, y: height + 2), background, "the map under the banner's edge")
    }

    func testNoBannerWhenTheSettingSaysNone() throws {
        let dir = try TestEnvironment.temporaryDirectory("transit-banner-none").path
        let feed = try TransitLoopTests.writeFeed(in: dir, lastDay: "20271231")
        let h = try LoopHarness(config: TransitLoopTests.config(feed: feed, dir: dir) + "banner = none\n")
        let end = drive(h)
        let frame = OwnedPixelBuffer(width: 320, height: 240, format: .xrgb8888)
        snapshot(h, at: 10.05, into: frame)
        h.waiting.signal(SIGTERM, at: end)
        XCTAssertEqual(try h.run(), 0)
        let background = frame.buffer.pixel(x: 4, y: 236)
        for y in 0..<60 { for x in 0..<110 { XCTAssertEqual(frame.buffer.pixel(x: x, y: y), background, "(\(x), \(y))"); if frame.buffer.pixel(x: x, y: y) != background { return } } }
    }
}
