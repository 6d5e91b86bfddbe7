import GTFSRealtime
import XCTest

/// What the bindings cannot write: groups (deprecated, yet legal on the wire, so skipped like any
/// unknown field) nested within the reader's limit and past it. Bytes written by hand here.
final class WireFormatTests: XCTestCase {
    /// An empty header, then one entity with id "x" followed by `extra`.
    private func feed(entityTail extra: [UInt8]) -> [UInt8] {
        let entity: [UInt8] = [0x0A, 0x01, UInt8(ascii: "x")] + extra
        precondition(entity.count < 128, "one-byte lengths only")
        return [0x0A, 0x00, 0x12, UInt8(entity.count)] + entity
    }

    /// Field 97 as a group: start tag 97 << 3 | 3, end tag 97 << 3 | 4, as varints.
    private let start: [UInt8] = [0x8B, 0x06], end: [UInt8] = [0x8C, 0x06]

    private func repeated(_ bytes: [UInt8], _ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        for _ in 0..<count { out += bytes }
        return out
    }

    func testNestedGroupsAreSkipped() throws {
        let groups: [UInt8] = repeated(start, 5) + [0x08, 0x01] + repeated(end, 5)
        let read = try FeedMessage(decoding: feed(entityTail: groups))
        XCTAssertEqual(read.entities.map { $0.id }, ["x"])
        XCTAssertEqual(read.skippedEntities, 0)
    }

    func testGroupsNestedPastTheLimitSkipTheirEntity() throws {
        let read = try FeedMessage(decoding: feed(entityTail: repeated(start, 40)))
        XCTAssertEqual(read.entities.count, 0)
        XCTAssertEqual(read.skippedEntities, 1)
        XCTAssertEqual(read.firstSkipError?.kind, .groupsTooDeep)
        XCTAssertEqual(read.firstSkipError?.field.hasPrefix("entity"), true)
    }

    func testAGroupEndingWithAnotherNumberSkipsItsEntity() throws {
        let read = try FeedMessage(decoding: feed(entityTail: start + [0x94, 0x06]))
        XCTAssertEqual(read.skippedEntities, 1)
        XCTAssertEqual(read.firstSkipError?.kind, .badWireType(4))
    }
}
