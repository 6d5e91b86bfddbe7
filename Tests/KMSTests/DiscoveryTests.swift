import Glibc
import KMS
import Raster
import XCTest

final class DiscoveryTests: XCTestCase {
    private func disconnected(_ path: String) -> FakeCard {
        let card = FakeCard.simple(path: path)
        card.resourcesValue.connectors[0].state = .disconnected
        card.resourcesValue.connectors[0].modes = []
        return card
    }

    func testAutoTakesTheFirstCardWithAConnectedConnector() throws {
        let first = disconnected("/dev/dri/card0"), second = FakeCard.simple(path: "/dev/dri/card1")
        let cards = ["/dev/dri/card0": first, "/dev/dri/card1": second]
        let output = try Discovery.open(KMSConfiguration(), cards: ["/dev/dri/card0", "/dev/dri/card1"]) { path in cards[path]! }
        XCTAssertTrue(output.card === second)
        XCTAssertTrue(first.closed, "the card not taken is closed again")
        output.close()
    }

    func testNothingConnectedReportsTheFirstCardAndWaits() {
        let cards = ["/dev/dri/card0": disconnected("/dev/dri/card0"), "/dev/dri/card1": disconnected("/dev/dri/card1")]
        XCTAssertThrowsError(try Discovery.open(KMSConfiguration(), cards: ["/dev/dri/card0", "/dev/dri/card1"]) { cards[$0]! }) { error in
            XCTAssertEqual("\(error)", "/dev/dri/card0 (fake): no display connected (connectors: Virtual-1 disconnected); waiting for one to be plugged in")
            XCTAssertEqual((error as? KMSError)?.recovery, .retry)
        }
    }

    func testNoCardAtAll() {
        XCTAssertThrowsError(try Discovery.open(KMSConfiguration(), cards: []) { _ in fatalError("no card to open") }) { error in
            XCTAssertEqual("\(error)", "no DRM device: /dev/dri has no card* (is a DRM driver loaded? `pulsedot probe` lists what is there); waiting for one")
            XCTAssertEqual((error as? KMSError)?.recovery, .retry)
        }
    }

    func testAMissingDevicePathIsNamed() {
        XCTAssertThrowsError(try Discovery.open(KMSConfiguration(device: "/nonexistent/card7"))) { error in
            XCTAssertEqual("\(error)", "no DRM device: /nonexistent/card7 does not exist (is a DRM driver loaded? `pulsedot probe` lists what is there); waiting for one")
        }
    }

    func testNotADRMDevice() {
        XCTAssertThrowsError(try Discovery.open(KMSConfiguration(device: "/dev/null"))) { error in
            XCTAssertTrue("\(error)".hasPrefix("/dev/null is not a usable DRM device: DRM_IOCTL_VERSION /dev/null: "), "\(error)")
            XCTAssertEqual((error as? KMSError)?.recovery, .giveUp)
        }
    }

    func testCardNodesAreListedInNumberOrder() throws {
        let dir = "/tmp/pulsedot-dri-\(getpid())"
        mkdir(dir, 0o755)
        defer { for n in ["card10", "card2", "renderD128", "card0"] { unlink("\(dir)/\(n)") }; rmdir(dir) }
        for n in ["card10", "card2", "renderD128", "card0"] { close(creat("\(dir)/\(n)", 0o644)) }
        XCTAssertEqual(Discovery.cardPaths(in: dir), ["\(dir)/card0", "\(dir)/card2", "\(dir)/card10"])
        XCTAssertEqual(Discovery.cardPaths(in: dir + "/missing"), [], "no /dev/dri: no cards, not an error")
        XCTAssertEqual(Discovery.cardPaths(in: dir + "/card0"), [], "nor from a file")
    }
}
