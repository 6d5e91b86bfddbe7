import KMS
import Raster
import XCTest

final class SelectionTests: XCTestCase {
    let device = "/dev/dri/card0 (fake)"

    func connector(_ modes: [DisplayMode], name: String = "HDMI-A-1", state: ConnectionState = .connected,
                   id: UInt32 = 1, crtc: UInt32? = nil, possible: UInt32 = 0b11) -> ConnectorInfo {
        ConnectorInfo(id: id, name: name, state: state, modes: modes, currentCrtc: crtc, possibleCrtcs: possible)
    }

    func mode(_ w: Int, _ h: Int, _ mhz: Int = 60000, preferred: Bool = false, user: Bool = false) -> DisplayMode {
        DisplayMode(width: w, height: h, refreshMilliHz: mhz, preferred: preferred, userDefined: user)
    }

    // MARK: Mode requests

    func testModeRequestParsing() throws {
        XCTAssertEqual(try ModeRequest(parsing: "1280x800"), ModeRequest(width: 1280, height: 800))
        XCTAssertEqual(try ModeRequest(parsing: "1920x1080@60"), ModeRequest(width: 1920, height: 1080, refreshMilliHz: 60000))
        XCTAssertEqual(try ModeRequest(parsing: "720x480@59.94"), ModeRequest(width: 720, height: 480, refreshMilliHz: 59940))
        for bad in ["", "1280", "1280x", "x800", "1280x800@", "1280x800@0", "-1x5", "1280x800@60@60", "axb", "1280X800"] {
            XCTAssertThrowsError(try ModeRequest(parsing: bad), bad) { error in
                XCTAssertEqual("\(error)", "mode \(bad): expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 1280x800 or 1920x1080@60")
            }
        }
    }

    func testRequestedModeMatchesWithinHalfAHertzAndPrefersPreferred() throws {
        let c = connector([mode(1920, 1080, 50000), mode(1920, 1080, 59940), mode(1280, 800, 75000, preferred: true),
                           mode(1280, 800, 60000)])
        XCTAssertEqual(try Selection.mode(ModeRequest(parsing: "1920x1080@60"), of: c, device: device).refreshMilliHz, 59940)
        // Without a rate: the highest one of that size…
        XCTAssertEqual(try Selection.mode(ModeRequest(parsing: "1920x1080"), of: c, device: device).refreshMilliHz, 59940)
        // …unless one of them is the preferred mode.
        XCTAssertEqual(try Selection.mode(ModeRequest(parsing: "1280x800"), of: c, device: device).refreshMilliHz, 75000)
    }

    func testModeNotOfferedListsTheOfferedOnes() {
        let c = connector([mode(1280, 800, 74994, preferred: true), mode(1024, 768, 60004)], name: "Virtual-1")
        XCTAssertThrowsError(try Selection.mode(ModeRequest(parsing: "1920x1080@60"), of: c, device: device)) { error in
            XCTAssertEqual("\(error)", "/dev/dri/card0 (fake) Virtual-1: mode 1920x1080@60 is not offered; offered: 1280x800@75 (preferred), 1024x768@60")
            XCTAssertEqual((error as? KMSError)?.recovery, .giveUp)
        }
    }

    func testDefaultModeIsUserDefinedThenPreferredThenLargestNeverFirst() throws {
        let small = mode(640, 480), big = mode(1920, 1200), bigFast = mode(1920, 1200, 75000)
        let pref = mode(1280, 800, preferred: true), user = mode(1024, 768, user: true)
        XCTAssertEqual(try Selection.mode(nil, of: connector([small, pref, user, big]), device: device), user)
        XCTAssertEqual(try Selection.mode(nil, of: connector([small, big, pref]), device: device), pref)
        XCTAssertEqual(try Selection.mode(nil, of: connector([small, big, bigFast]), device: device), bigFast)
    }

    // MARK: Connectors

    func testConnectorByNameOrFirstConnected() throws {
        let m = [mode(800, 480, preferred: true)]
        let list = [connector(m, name: "HDMI-A-1", state: .disconnected, id: 1),
                    connector(m, name: "DSI-1", state: .connected, id: 2),
                    connector(m, name: "HDMI-A-2", state: .connected, id: 3)]
        XCTAssertEqual(try Selection.connector(named: nil, in: list, device: device).name, "DSI-1")
        XCTAssertEqual(try Selection.connector(named: "HDMI-A-2", in: list, device: device).name, "HDMI-A-2")
        XCTAssertThrowsError(try Selection.connector(named: "DP-1", in: list, device: device)) { error in
            XCTAssertEqual("\(error)", "/dev/dri/card0 (fake): no connector named DP-1 (it has: HDMI-A-1, DSI-1, HDMI-A-2)")
            XCTAssertEqual((error as? KMSError)?.recovery, .giveUp)
        }
        XCTAssertThrowsError(try Selection.connector(named: "HDMI-A-1", in: list, device: device)) { error in
            XCTAssertEqual("\(error)", "/dev/dri/card0 (fake): connector HDMI-A-1 has no display connected; waiting for one to be plugged in")
            XCTAssertEqual((error as? KMSError)?.recovery, .retry)
        }
    }

    func testNoConnectedConnectorSaysWhatThereIsAndWaits() {
        let list = [connector([], name: "HDMI-A-1", state: .disconnected), connector([], name: "DSI-1", state: .unknown, id: 2)]
        XCTAssertThrowsError(try Selection.connector(named: nil, in: list, device: device)) { error in
            XCTAssertEqual("\(error)", "/dev/dri/card0 (fake): no display connected (connectors: HDMI-A-1 disconnected, DSI-1 unknown); waiting for one to be plugged in")
            XCTAssertEqual((error as? KMSError)?.recovery, .retry)
        }
    }

    // MARK: CRTCs

    func testCrtcIsTheCurrentOneElseAFreePossibleOne() throws {
        let crtcs = [CrtcInfo(id: 40, index: 0), CrtcInfo(id: 41, index: 1), CrtcInfo(id: 42, index: 2)]
        let m = [mode(800, 480)]
        let busy = connector(m, name: "HDMI-A-1", id: 1, crtc: 41, possible: 0b111)
        let driven = connector(m, name: "DSI-1", id: 2, crtc: 42, possible: 0b110)
        let off = connector(m, name: "DP-1", id: 3, crtc: nil, possible: 0b110)
        let res = CardResources(connectors: [busy, driven, off], crtcs: crtcs, planes: [])
        XCTAssertEqual(try Selection.crtc(for: driven, in: res, device: device).id, 42)
        // 41 and 42 are possible but taken; index 0 is not possible: the first possible one.
        XCTAssertEqual(try Selection.crtc(for: off, in: res, device: device).id, 41)
        let free = CardResources(connectors: [driven, off], crtcs: crtcs, planes: [])
        XCTAssertEqual(try Selection.crtc(for: off, in: free, device: device).id, 41)
        let impossible = connector(m, name: "LVDS-1", id: 4, possible: 0)
        XCTAssertThrowsError(try Selection.crtc(for: impossible, in: res, device: device)) { error in
            XCTAssertEqual("\(error)", "/dev/dri/card0 (fake): no CRTC can drive connector LVDS-1")
        }
    }

    // MARK: Formats

    func testFormatFallsBackWithOneLineNamingBoth() {
        let asked = Selection.format(.rgb565, planeFormats: [FourCC.xrgb8888, FourCC.code("BX24")], device: device)
        XCTAssertEqual(asked.format, .xrgb8888)
        XCTAssertEqual(asked.note, "/dev/dri/card0 (fake): the primary plane does not offer rgb565 (it offers xrgb8888, BX24); using xrgb8888")
        let ok = Selection.format(.rgb565, planeFormats: [FourCC.xrgb8888, FourCC.rgb565], device: device)
        XCTAssertEqual(ok.format, .rgb565)
        XCTAssertNil(ok.note)
        let only565 = Selection.format(.xrgb8888, planeFormats: [FourCC.rgb565], device: device)
        XCTAssertEqual(only565.format, .rgb565)
        // No plane list (no universal planes): XRGB8888 is the one format every driver scans out.
        XCTAssertEqual(Selection.format(.xrgb8888, planeFormats: nil, device: device).format, .xrgb8888)
        XCTAssertEqual(Selection.format(.rgb565, planeFormats: nil, device: device).format, .xrgb8888)
    }

    func testFourCCCodesAreTheKernels() {
        XCTAssertEqual(FourCC.xrgb8888, 0x3432_5258)  // 'X' 'R' '2' '4'
        XCTAssertEqual(FourCC.rgb565, 0x3631_4752)  // 'R' 'G' '1' '6'
        XCTAssertEqual(FourCC.name(FourCC.code("AB24")), "AB24")
    }

    // MARK: Rotation

    func testPanelOrientationMapsToClockwiseRotationAndConfigurationWins() {
        XCTAssertEqual(PanelOrientation.normal.rotation, .r0)
        XCTAssertEqual(PanelOrientation.upsideDown.rotation, .r180)
        XCTAssertEqual(PanelOrientation.leftSideUp.rotation, .r270)
        XCTAssertEqual(PanelOrientation.rightSideUp.rotation, .r90)
        XCTAssertEqual(Selection.rotation(configured: nil, orientation: .rightSideUp).rotation, .r90)
        XCTAssertEqual(Selection.rotation(configured: nil, orientation: .rightSideUp).source, "panel orientation \"Right Side Up\"")
        XCTAssertEqual(Selection.rotation(configured: .r0, orientation: .upsideDown).rotation, .r0)
        XCTAssertEqual(Selection.rotation(configured: nil, orientation: nil).rotation, .r0)
    }
}
