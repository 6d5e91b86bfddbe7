import GTFS
import XCTest

final class GTFSValueTests: XCTestCase {
    func testTimesMayPassMidnight() {
        XCTAssertEqual(GTFSValue.time("04:40:00"), 16_800)
        XCTAssertEqual(GTFSValue.time("4:40:00"), 16_800)
        XCTAssertEqual(GTFSValue.time("24:00:00"), 86_400)
        XCTAssertEqual(GTFSValue.time("25:35:10"), 92_110)
        XCTAssertEqual(GTFSValue.time("100:00:00"), 360_000)
        for bad in ["", "4:40", "04:60:00", "04:00:60", "4:4:00", "aa:00:00", "-1:00:00", "04:00:00 x"] {
            XCTAssertNil(GTFSValue.time(bad), bad)
        }
    }

    func testDatesAreDaysOfTheCalendar() {
        XCTAssertEqual(GTFSValue.date("20190614"), 20_190_614)
        XCTAssertEqual(GTFSValue.date("20200229"), 20_200_229)
        for bad in ["20190229", "19000229", "20191301", "20190631", "2019061", "2019-06-14", "201906140"] {
            XCTAssertNil(GTFSValue.date(bad), bad)
        }
    }

    func testColours() {
        XCTAssertEqual(GTFSValue.color("FFCC00"), 0xFFCC00)
        XCTAssertEqual(GTFSValue.color("0a1B2c"), 0x0A1B2C)
        for bad in ["#FFCC00", "FFF", "GG0000", ""] { XCTAssertNil(GTFSValue.color(bad), bad) }
    }

    func testNumbers() {
        XCTAssertEqual(GTFSValue.integer("-3"), -3)
        XCTAssertNil(GTFSValue.integer("+3"))
        XCTAssertNil(GTFSValue.integer("3.0"))
        XCTAssertEqual(GTFSValue.number("-3.72328"), -3.72328)
        XCTAssertNil(GTFSValue.number("nan"))
        XCTAssertNil(GTFSValue.number("inf"))
    }

    func testCivilDaysRoundTrip() {
        XCTAssertEqual(CivilDay.day(fromDate: 19_700_101), 0)
        XCTAssertEqual(CivilDay.day(fromDate: 20_190_914), 18_153)
        XCTAssertEqual(CivilDay.date(fromDay: 18_153), 20_190_914)
        for day in stride(from: -25_567, to: 800_000, by: 997) {
            XCTAssertEqual(CivilDay.day(fromDate: CivilDay.date(fromDay: day)), day)
        }
        XCTAssertEqual(CivilDay.text(20_190_614), "2019-06-14")
    }
}
