import Foundation
import GTFSRealtime
import XCTest

/// The Swift reader against Google's own bindings: every feed make_feeds.py builds is read by
/// both, and the two readings compare field by field; the broken ones are refused in one line.
final class RealtimeReaderTests: XCTestCase {
    private func feed(_ name: String) throws -> BindingsFeeds.Case {
        try BindingsFeeds.shared.get()(name)
    }

    private func assertReadsAsTheBindingsDo(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let c = try feed(name)
        XCTAssertFalse(c.bindingsRefuse, "the bindings refuse their own \(name)", file: file, line: line)
        let expected = try XCTUnwrap(c.expected, name, file: file, line: line)
        let read = try FeedMessage(decoding: c.bytes)
        let diffs = FeedDictionary.differences(expected, FeedDictionary.feed(read))
        XCTAssertEqual(diffs, [], "\(name):\n" + diffs.joined(separator: "\n"), file: file, line: line)
        XCTAssertEqual(read.skippedEntities, c.skipped, name, file: file, line: line)
        XCTAssertGreaterThan(read.entities.count, 0, name, file: file, line: line)
    }

    func testVehiclePositionsReadAsTheBindingsWroteThem() throws {
        try assertReadsAsTheBindingsDo("vehicles")
    }

    func testTripUpdatesReadAsTheBindingsWroteThem() throws {
        try assertReadsAsTheBindingsDo("trip_updates")
    }

    func testAnAlertReadsAsTheBindingsWroteIt() throws {
        try assertReadsAsTheBindingsDo("alert")
    }

    func testAnAlertsTextIsPickedByLanguage() throws {
        let c = try feed("alert")
        let alert = try XCTUnwrap(try FeedMessage(decoding: c.bytes).entities.first?.alert)
        let entity = try XCTUnwrap((c.expected?["entity"] as? [[String: Any]])?.first?["alert"] as? [String: Any])
        let header = try XCTUnwrap((entity["header_text"] as? [String: Any])?["translation"] as? [[String: Any]])
        for translation in header {
            let language = try XCTUnwrap(translation["language"] as? String)
            XCTAssertEqual(alert.headerText?.text(for: language), translation["text"] as? String, language)
        }
        // A language the feed does not have: the first translation.
        XCTAssertEqual(alert.headerText?.text(for: "xx"), header.first?["text"] as? String)
        let description = (entity["description_text"] as? [String: Any])?["translation"] as? [[String: Any]]
        XCTAssertEqual(alert.descriptionText?.text(for: "de"), description?.first?["text"] as? String)
    }

    func testUnknownFieldsExtensionsAndGroupsAreSkipped() throws {
        try assertReadsAsTheBindingsDo("unknown_fields")
    }

    func testTheSameBytesReadTheSameThroughABufferPointer() throws {
        let c = try feed("unknown_fields")
        let fromArray = try FeedMessage(decoding: c.bytes)
        let fromBuffer = try c.bytes.withUnsafeBytes { try FeedMessage(decoding: $0) }
        XCTAssertEqual(fromArray, fromBuffer)
    }

    func testOneCorruptEntityIsSkippedAndTheOthersKept() throws {
        let c = try feed("corrupt_entity")
        XCTAssertTrue(c.bindingsRefuse, "the bindings were expected to refuse the whole message")
        let read = try FeedMessage(decoding: c.bytes)
        let diffs = FeedDictionary.differences(try XCTUnwrap(c.expected), FeedDictionary.feed(read))
        XCTAssertEqual(diffs, [], diffs.joined(separator: "\n"))
        XCTAssertEqual(read.skippedEntities, c.skipped)
        let why = try XCTUnwrap(read.firstSkipError)
        XCTAssertEqual(why.field, "entity.trip_update", why.description)
        XCTAssertFalse(why.description.contains("\n"))
    }

    private func assertRefused(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> RealtimeError? {
        let c = try feed(name)
        do {
            let read = try FeedMessage(decoding: c.bytes)
            XCTFail("\(name) read as \(read.entities.count) entities", file: file, line: line)
            return nil
        } catch {
            let text = error.description
            XCTAssertFalse(text.contains("\n"), text, file: file, line: line)
            XCTAssertTrue(text.contains("byte \(error.offset)"), text, file: file, line: line)
            XCTAssertLessThanOrEqual(error.offset, c.bytes.count, text, file: file, line: line)
            return error
        }
    }

    func testATruncatedMessageIsRefusedNamingItsByteAndField() throws {
        XCTAssertTrue(try feed("truncated").bindingsRefuse)
        let error = try XCTUnwrap(try assertRefused("truncated"))
        XCTAssertTrue(error.field.hasPrefix("entity"), error.description)
    }

    func testGarbageIsRefusedInOneLine() throws {
        XCTAssertTrue(try feed("garbage").bindingsRefuse)
        _ = try assertRefused("garbage")
    }

    func testADifferentialFeedIsRefusedInOneLine() throws {
        let error = try XCTUnwrap(try assertRefused("differential"))
        XCTAssertEqual(error.kind, .differential)
        XCTAssertTrue(error.description.contains("DIFFERENTIAL"), error.description)
    }

    func testLimitsRefuseTooManyEntitiesAndSkipAnEntityWithTooLongAList() throws {
        let c = try feed("trip_updates")
        let full = try FeedMessage(decoding: c.bytes)
        XCTAssertThrowsError(try FeedMessage(decoding: c.bytes, limits: RealtimeLimits(entities: full.entities.count - 1))) { error in
            XCTAssertEqual((error as? RealtimeError)?.kind, .tooMany("entities", limit: full.entities.count - 1))
        }
        let longest = full.entities.compactMap { $0.tripUpdate?.stopTimeUpdates.count }.max() ?? 0
        let limited = try FeedMessage(decoding: c.bytes, limits: RealtimeLimits(itemsPerList: longest - 1))
        let over = full.entities.filter { ($0.tripUpdate?.stopTimeUpdates.count ?? 0) == longest }.count
        XCTAssertEqual(limited.skippedEntities, over)
        XCTAssertEqual(limited.entities.count, full.entities.count - over)
    }

    func testNoHeaderIsRefused() {
        XCTAssertThrowsError(try FeedMessage(decoding: [UInt8]())) { error in
            XCTAssertEqual((error as? RealtimeError)?.kind, .missingHeader)
        }
    }
}

/// A bus's trip from the feeds: its VehiclePosition's, else a TripUpdate naming it.
final class VehicleTripTests: XCTestCase {
    func testVehiclePositionFirstThenTripUpdate() {
        func descriptor(_ id: String) -> TripDescriptor { var d = TripDescriptor(); d.tripID = id; return d }
        func vehicle(_ id: String) -> VehicleDescriptor { var v = VehicleDescriptor(); v.id = id; return v }
        var position = VehiclePosition()
        position.vehicle = vehicle("17")
        position.trip = descriptor("T-position")
        var update = TripUpdate()
        update.vehicle = vehicle("17")
        update.trip = descriptor("T-update")
        var other = TripUpdate()
        other.vehicle = vehicle("18")
        other.trip = descriptor("T-18")
        func entity(_ v: VehiclePosition? = nil, _ u: TripUpdate? = nil, deleted: Bool? = nil) -> FeedEntity {
            var e = FeedEntity()
            e.vehicle = v
            e.tripUpdate = u
            e.isDeleted = deleted
            return e
        }
        let both = FeedMessage(header: FeedHeader(), entities: [entity(nil, update), entity(position)])
        XCTAssertEqual(both.trip(ofVehicle: "17")?.tripID, "T-position")
        XCTAssertEqual(FeedMessage(header: FeedHeader(), entities: [entity(nil, other), entity(nil, update)]).trip(ofVehicle: "17")?.tripID, "T-update")
        XCTAssertEqual(both.trip(ofVehicle: "18"), nil)
        XCTAssertNil(FeedMessage(header: FeedHeader(), entities: [entity(position, deleted: true)]).trip(ofVehicle: "17"))
    }
}
