import Foundation
import Glibc
import JSON
import KMS
import XCTest

/// `pulsedot probe --json` for a DRM card, read through the fake card.
final class ProbeReportTests: XCTestCase {
    private func twoConnectorCard() -> FakeCard {
        let modes = [DisplayMode(width: 800, height: 480, refreshMilliHz: 59940, preferred: true),
                     DisplayMode(width: 640, height: 480, refreshMilliHz: 60000, userDefined: true)]
        let panel = ConnectorInfo(id: 31, name: "DSI-1", state: .connected, widthMM: 154, heightMM: 86,
                                  orientation: .leftSideUp, modes: modes, currentCrtc: 40, possibleCrtcs: 3)
        let hdmi = ConnectorInfo(id: 32, name: "HDMI-A-1", state: .disconnected, modes: [], possibleCrtcs: 2)
        let res = CardResources(connectors: [panel, hdmi],
                                crtcs: [CrtcInfo(id: 40, index: 0, mode: modes[0], framebuffer: 5), CrtcInfo(id: 41, index: 1)],
                                planes: [PlaneInfo(id: 50, isPrimary: true, possibleCrtcs: 1, formats: [FourCC.xrgb8888, FourCC.rgb565]),
                                         PlaneInfo(id: 51, isPrimary: false, possibleCrtcs: 3, formats: [FourCC.xrgb8888]),
                                         PlaneInfo(id: 52, isPrimary: true, possibleCrtcs: 2, formats: [])])
        let card = FakeCard(path: "/dev/dri/card1", driver: "vc4", resources: res)
        card.caps = CardCapabilities(dumbBuffers: true, preferShadow: false)
        card.dirtyErrno = 0
        card.vblankErrno = 0
        return card
    }

    /// The whole report, key order and number forms included: what scripts and bug reports read.
    func testJSONReport() throws {
        let probe = try CardProbe.read(twoConnectorCard())
        XCTAssertEqual(probe.json, #"{"device":"/dev/dri/card1","driver":"vc4","dumbBuffers":true,"preferShadow":false,"dirtyFB":"yes","atomic":false,"cursorWidth":null,"cursorHeight":null,"connectors":[{"name":"DSI-1","id":31,"status":"connected","widthMM":154,"heightMM":86,"panelOrientation":"Left Side Up","rotation":270,"modes":[{"name":"800x480@60","width":800,"height":480,"refreshMilliHz":59940,"preferred":true,"userDefined":false},{"name":"640x480@60","width":640,"height":480,"refreshMilliHz":60000,"preferred":false,"userDefined":true}]},{"name":"HDMI-A-1","id":32,"status":"disconnected","widthMM":0,"heightMM":0,"panelOrientation":null,"rotation":null,"modes":[]}],"crtcs":[{"id":40,"index":0,"mode":"800x480@60","vblank":"yes"},{"id":41,"index":1,"mode":null,"vblank":"yes"}],"primaryPlanes":[{"id":50,"possibleCrtcs":1,"formats":["xrgb8888","rgb565"]},{"id":52,"possibleCrtcs":2,"formats":[]}],"planes":[{"id":50,"type":"primary","possibleCrtcs":1,"crtcs":[40],"formats":["xrgb8888","rgb565"],"properties":[],"inFormats":null},{"id":51,"type":"overlay","possibleCrtcs":3,"crtcs":[40,41],"formats":["xrgb8888"],"properties":[],"inFormats":null},{"id":52,"type":"primary","possibleCrtcs":2,"crtcs":[41],"formats":[],"properties":[],"inFormats":null}]}"#)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(probe.json.utf8)) as? [String: Any])
        XCTAssertEqual((object["connectors"] as? [[String: Any]])?.count, 2)
    }

    /// Names come from the kernel and a driver may put anything in them: they stay valid JSON.
    func testNamesAreEscaped() throws {
        let card = twoConnectorCard()
        card.resourcesValue.connectors[0].name = "DSI\"1\\\t\r\n\u{1}é"
        let probe = try CardProbe.read(card)
        XCTAssertTrue(probe.json.contains(#"{"name":"DSI\"1\\\t\r\n\u0001é","id":31,"#), probe.json)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(probe.json.utf8)) as? [String: Any])
        XCTAssertEqual((object["connectors"] as? [[String: Any]])?.first?["name"] as? String, "DSI\"1\\\t\r\n\u{1}é")
    }

    /// `pulsedot probe` writes the reports of several cards into one array: the same objects as
    /// each report on its own, commas between.
    func testReportsNestInOneDocument() throws {
        let first = try CardProbe.read(twoConnectorCard())
        let second = try CardProbe.read(FakeCard.simple(path: "/dev/dri/card2"))
        let document = JSONWriter.object { w in
            w.array("devices") { w in
                first.writeJSON(to: &w)
                second.writeJSON(to: &w)
            }
        }
        XCTAssertEqual(document, #"{"devices":["# + first.json + "," + second.json + "]}")
    }
}
