@testable import Demo
import Foundation
import TestSupport
import XCTest

/// `pulsedot demo --kiosk`: the town's Place d'Armes with the made-up live feed, drawn by the
/// daemon's own kiosk pieces; frames.jsonl says what the board and the markers show.
final class DemoKioskTests: XCTestCase {
    func run(_ dir: String) throws -> (picture: Data, lines: [[String: Any]]) {
        var demo = DemoKiosk(files: DemoFiles(directory: dir, lapSeconds: 40), overrides: ["display.mode=640x400"])
        demo.seconds = 40
        demo.pngFps = 1
        let path = try demo.run()
        let text = try String(contentsOfFile: dir + "/kiosk/frames.jsonl", encoding: .utf8)
        let lines = try text.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        return (try Data(contentsOf: URL(fileURLWithPath: path)), lines)
    }

    func testTheBoardTheMarkersAndTheAlertTheSameEveryRun() throws {
        let root = try TestEnvironment.temporaryDirectory("demo-kiosk")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try run(root.path + "/a")
        XCTAssertEqual(first.lines.count, 41)
        let kiosk = try XCTUnwrap(first.lines.last?["kiosk"] as? [String: Any])
        XCTAssertEqual(kiosk["live"] as? String, "live")
        let rows = try XCTUnwrap(kiosk["rows"] as? [[String: Any]])
        XCTAssertTrue(rows.contains { $0["cancelled"] as? Bool == true }, "\(rows)")
        XCTAssertTrue(rows.contains { $0["skipped"] as? Bool == true }, "\(rows)")
        XCTAssertTrue(rows.contains { $0["live"] as? Bool == true && $0["cancelled"] as? Bool == false && $0["skipped"] as? Bool == false }, "\(rows)")
        XCTAssertEqual(kiosk["alerts"] as? [String], ["Place d'Armes : arrêt déplacé de 30 m pendant les travaux"])
        // Every marker only ever moves forwards along the loop, and some move.
        var alongs: [String: [Double]] = [:]
        for line in first.lines {
            for m in (line["kiosk"] as? [String: Any])?["markers"] as? [[String: Any]] ?? [] {
                alongs[m["vehicle"] as! String, default: []].append(m["along"] as! Double)
            }
        }
        XCTAssertFalse(alongs.isEmpty)
        for (vehicle, a) in alongs { XCTAssertEqual(a, a.sorted(), vehicle) }
        XCTAssertTrue(alongs.values.contains { Set($0).count > 2 }, "\(alongs)")
        // A virtual clock: the same picture every run.
        XCTAssertEqual(try run(root.path + "/b").picture, first.picture)
    }
}
