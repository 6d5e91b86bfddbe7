import KMS
import Raster
import XCTest

/// What probe says the service would drive: the card, connector, mode and rotation the KMS output
/// would choose for the same configuration.
final class ServiceChoiceTests: XCTestCase {
    private func probe(_ path: String, driver: String = "vc4", connectors: [ConnectorInfo], dumb: Bool = true) -> CardProbe {
        CardProbe(path: path, driver: driver, capabilities: CardCapabilities(dumbBuffers: dumb, preferShadow: false),
                  connectors: connectors, crtcs: [], planes: [], dirtyErrno: 0, atomicErrno: 0)
    }

    private let modes = [DisplayMode(width: 800, height: 480, refreshMilliHz: 59940, preferred: true),
                         DisplayMode(width: 1280, height: 720, refreshMilliHz: 60000)]

    private var cards: [CardProbe] {
        [probe("/dev/dri/card0", driver: "v3d", connectors: []),
         probe("/dev/dri/card1", connectors: [
            ConnectorInfo(id: 32, name: "HDMI-A-1", state: .disconnected, modes: [], possibleCrtcs: 2),
            ConnectorInfo(id: 31, name: "DSI-1", state: .connected, orientation: .leftSideUp, modes: modes, possibleCrtcs: 1),
         ])]
    }

    func testTheFirstCardThatCanServeTheConfigurationAsTheOutputChoosesIt() throws {
        let choice = try ServiceChoice.choose(KMSConfiguration(), among: cards)
        XCTAssertEqual(choice.device, "/dev/dri/card1")
        XCTAssertEqual(choice.connector.name, "DSI-1")
        XCTAssertEqual(choice.mode.width, 800)
        XCTAssertEqual(choice.rotation, .r270, "the panel's orientation")
        XCTAssertEqual(choice.rotationSource, "panel orientation \"Left Side Up\"")
    }

    func testConfiguredValuesWin() throws {
        let configured = KMSConfiguration(device: "/dev/dri/card1", connector: "DSI-1",
                                          mode: ModeRequest(width: 1280, height: 720), rotation: .r90)
        let choice = try ServiceChoice.choose(configured, among: cards)
        XCTAssertEqual(choice.mode.width, 1280)
        XCTAssertEqual(choice.rotation, .r90)
        XCTAssertEqual(choice.rotationSource, "configured")
    }

    func testWhatTheServiceWouldNotFindIsTheOutputsOwnError() {
        XCTAssertThrowsError(try ServiceChoice.choose(KMSConfiguration(connector: "HDMI-A-2"), among: cards)) { error in
            XCTAssertEqual("\(error)", "/dev/dri/card0 (v3d): no connector named HDMI-A-2 (it has: none)")
        }
        XCTAssertThrowsError(try ServiceChoice.choose(KMSConfiguration(device: "/dev/dri/card1", connector: "HDMI-A-1"), among: cards)) { error in
            XCTAssertEqual("\(error)", "/dev/dri/card1 (vc4): connector HDMI-A-1 has no display connected; waiting for one to be plugged in")
        }
        XCTAssertThrowsError(try ServiceChoice.choose(KMSConfiguration(mode: ModeRequest(width: 1920, height: 1080)), among: [cards[1]])) { error in
            XCTAssertTrue("\(error)".hasPrefix("/dev/dri/card1 (vc4) DSI-1: mode 1920x1080 is not offered"), "\(error)")
            XCTAssertTrue("\(error)".contains("1920x1080"), "\(error)")
        }
        XCTAssertThrowsError(try ServiceChoice.choose(KMSConfiguration(), among: [probe("/dev/dri/card2", connectors: cards[1].connectors, dumb: false)])) { error in
            XCTAssertTrue("\(error)".contains("no dumb buffers"), "\(error)")
        }
    }
}
