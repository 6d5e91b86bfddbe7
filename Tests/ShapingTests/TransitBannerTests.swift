import Raster
import Shaping
import XCTest

/// The banner laid out and drawn: badge on the left in the route's colours, the next stop large,
/// the following stops small, each text at the start of its reading direction, with real fonts.
final class TransitBannerTests: XCTestCase {
    let route = Color(r: 0x00, g: 0x66, b: 0xCC)
    var background: UInt32 { Overlay.premultiplied(TransitBanner.background) }

    func banner(next: String, following: [String], destination: String = "Jerusalem Central Station",
                width: Int = 800, scale: Double = 1) throws -> (overlay: Overlay, layout: BannerLayout) {
        let banner = try TransitBanner(catalog: try XCTUnwrap(HBShapeTests.fonts), scale: scale)
        let content = BannerContent(line: "7", routeColor: route, routeTextColor: .white, destination: destination,
                                    nextStop: next, following: following)
        return try banner.render(content, width: width)
    }

    /// Pixels of `rect` that are neither the banner's background nor the badge's colour.
    func ink(_ o: Overlay, _ rect: Rect) -> Int {
        var n = 0
        for y in rect.y..<rect.maxY { for x in rect.x..<rect.maxX where o.pixel(x: x, y: y) != background { n += 1 } }
        return n
    }

    func testAnArabicNextStopSitsRightAndACJKFollowingStopLeft() throws {
        let (o, layout) = try banner(next: "محطة الجامعة الأردنية", following: ["新宿駅西口", "Kraków Główny"])
        XCTAssertEqual(o.width, 800)
        XCTAssertEqual(layout.badge.x, 12); XCTAssertEqual(layout.badge.y, 12)
        XCTAssertEqual(o.pixel(x: layout.badge.x + 1, y: layout.badge.y + 1), Overlay.premultiplied(route))
        XCTAssertEqual(layout.destination.x, layout.badge.maxX + 8)
        // Right to left: the Arabic name ends at the right padding, nothing left of it on its row.
        XCTAssertEqual(layout.nextStop.maxX, 800 - 12)
        XCTAssertGreaterThan(layout.nextStop.x, 400)
        XCTAssertEqual(ink(o, Rect(x: 0, y: layout.nextStop.y, width: layout.nextStop.x - 2, height: layout.nextStop.height)), 0)
        XCTAssertEqual(layout.following.count, 2)
        XCTAssertEqual(layout.following[0].x, 12)
        XCTAssertEqual(layout.following[1].x, 12 + (776 - 8) / 2 + 8)
        // Rows top to bottom, none overlapping; the next stop's line is the tallest.
        XCTAssertGreaterThanOrEqual(layout.nextStop.y, layout.badge.maxY)
        XCTAssertGreaterThanOrEqual(layout.following[0].y, layout.nextStop.maxY)
        XCTAssertGreaterThan(layout.nextStop.height, layout.following[0].height * 3 / 2)
        XCTAssertEqual(o.height, layout.following[0].maxY + 12)
        for box in [layout.destination, layout.nextStop] + layout.following {
            XCTAssertEqual(box.intersection(o.frame), box, "\(box) outside the banner")
            XCTAssertGreaterThan(ink(o, box), box.width * box.height / 20, "too little ink in \(box)")
        }
        // The banner's own colour between the rows, the badge's inside it.
        XCTAssertEqual(o.pixel(x: 4, y: 4), background)
    }

    func testLongNamesAreCutToTheirBoxes() throws {
        let long = "Dworzec Główny Zachodni, peron 4, stanowisko 12, wyjście na ulicę Marszałkowską"
        let (o, layout) = try banner(next: long, following: [long, long], destination: long, width: 480)
        for box in [layout.destination, layout.nextStop] + layout.following {
            XCTAssertEqual(box.intersection(o.frame), box)
        }
        XCTAssertLessThanOrEqual(layout.following[0].maxX, layout.following[1].x)
        XCTAssertLessThanOrEqual(layout.nextStop.maxX, 480 - 12)
    }

    func testScaleTwoDoublesTheBanner() throws {
        let one = try banner(next: "Kraków Główny", following: ["Łódź"]), two = try banner(next: "Kraków Główny", following: ["Łódź"], width: 1600, scale: 2)
        XCTAssertEqual(Double(two.overlay.height) / Double(one.overlay.height), 2, accuracy: 0.1)
        XCTAssertEqual(Double(two.layout.nextStop.width) / Double(one.layout.nextStop.width), 2, accuracy: 0.1)
        XCTAssertEqual(one.layout.following.count, 1)
    }
}
