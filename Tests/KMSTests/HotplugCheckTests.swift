import DisplayCore
import Glibc
import KMS
import Raster
import XCTest

/// A second look at the driven connector after a uevent: current state only (no new probe), a
/// failed link set up again in the same mode.
final class HotplugCheckTests: XCTestCase {
    private func started(_ card: FakeCard) throws -> KMSOutput {
        let output = try Scene.make(card, KMSConfiguration(update: .flip))
        Scene.fill(output.canvas, output.canvas.bounds, Scene.pattern(1))
        try output.start()
        return output
    }

    func testConnectedDisconnectedAndALinkToSetUpAgain() throws {
        let card = FakeCard.simple()
        let output = try started(card)
        let id = output.connector.id
        XCTAssertEqual(output.hotplugDevice, card.path)
        XCTAssertEqual(try output.recheckConnector(), .connected)
        XCTAssertEqual(card.log.last, "connector \(id) current")
        card.currentState = .disconnected
        XCTAssertEqual(try output.recheckConnector(), .disconnected)
        card.currentState = .connected
        card.linkBad = true
        let modesets = card.log.filter { $0.hasPrefix("setCrtc") }.count
        XCTAssertEqual(try output.recheckConnector(), .modesetAgain)
        let again = card.log.filter { $0.hasPrefix("setCrtc") }
        XCTAssertEqual(again.count, modesets + 1, "\(card.log)")
        XCTAssertTrue(again.last?.contains("\(output.mode)") ?? false, "the same mode: \(again)")
    }

    func testPluggedBackItGetsItsModeAgainUnlessTheMonitorLacksIt() throws {
        let card = FakeCard.simple()
        let output = try started(card)
        card.currentState = .disconnected
        XCTAssertEqual(try output.recheckConnector(), .disconnected)
        XCTAssertEqual(try output.recheckConnector(), .disconnected, "still out")
        card.currentState = .connected
        XCTAssertEqual(try output.recheckConnector(), .modesetAgain)
        XCTAssertEqual(card.log.filter { $0.hasPrefix("setCrtc") }.count, 2, "the start and the replug: \(card.log)")
        XCTAssertEqual(try output.recheckConnector(), .connected, "once set again, nothing more to do")
        // Unplugged, and another monitor that has other modes only.
        card.currentState = .disconnected
        _ = try output.recheckConnector()
        card.currentState = .connected
        card.currentModes = [DisplayMode(width: 800, height: 600, refreshMilliHz: 60_000, preferred: true)]
        XCTAssertEqual(try output.recheckConnector(), .modeGone)
        XCTAssertEqual(card.log.filter { $0.hasPrefix("setCrtc") }.count, 2)
    }

    func testACardThatWentAwayIsThrown() throws {
        let card = FakeCard.simple()
        let output = try started(card)
        card.failures["connectorState"] = [ENODEV]
        XCTAssertThrowsError(try output.recheckConnector())
    }
}
