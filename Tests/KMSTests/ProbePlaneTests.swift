import Foundation
import Glibc
import KMS
import XCTest

/// `pulsedot probe`'s plane list, read through the fake card: every plane, its type, CRTCs,
/// formats and properties, and the atomic and cursor capabilities.
final class ProbePlaneTests: XCTestCase {
    static let typeChoices = [PlaneProperty.Choice("Overlay", 0), PlaneProperty.Choice("Primary", 1), PlaneProperty.Choice("Cursor", 2)]

    static func typeProperty(_ value: UInt64) -> PlaneProperty {
        PlaneProperty(id: 7, name: "type", value: value, kind: .enumeration(typeChoices), immutable: true)
    }

    /// Two CRTCs; a primary plane on the first, an overlay on both (with blending, alpha, zpos and
    /// rotation, like vc4's), a cursor on the second.
    private func planeCard() -> FakeCard {
        let card = FakeCard.simple()
        card.resourcesValue.crtcs = [CrtcInfo(id: 10, index: 0), CrtcInfo(id: 11, index: 1)]
        let blend = PlaneProperty(id: 40, name: "pixel blend mode", value: 1,
                                  kind: .enumeration([.init("None", 2), .init("Pre-multiplied", 1), .init("Coverage", 0)]))
        let overlayProps = [Self.typeProperty(0),
                            PlaneProperty(id: 30, name: "FB_ID", value: 0, kind: .object, atomicOnly: true),
                            PlaneProperty(id: 32, name: "SRC_W", value: 100 << 16 | 0x8000, kind: .range(min: 0, max: UInt64(UInt32.max)), atomicOnly: true),
                            PlaneProperty(id: 31, name: "CRTC_X", value: UInt64(bitPattern: -12), kind: .signedRange(min: Int64(Int32.min), max: Int64(Int32.max)), atomicOnly: true),
                            blend,
                            PlaneProperty(id: 41, name: "alpha", value: 0xFFFF, kind: .range(min: 0, max: 0xFFFF)),
                            PlaneProperty(id: 42, name: "zpos", value: 3, kind: .range(min: 1, max: 7), immutable: true),
                            PlaneProperty(id: 43, name: "rotation", value: 0b1_0001,
                                          kind: .bitmask([.init("rotate-0", 0), .init("rotate-180", 2), .init("reflect-x", 4)])),
                            PlaneProperty(id: 44, name: "IN_FORMATS", value: 99, kind: .blob, immutable: true)]
        card.resourcesValue.planes = [
            PlaneInfo(id: 20, type: .primary, possibleCrtcs: 0b01, formats: [FourCC.xrgb8888, FourCC.rgb565],
                      properties: [Self.typeProperty(1)]),
            PlaneInfo(id: 21, type: .overlay, possibleCrtcs: 0b11, formats: [FourCC.code("AR24"), FourCC.xrgb8888],
                      properties: overlayProps,
                      inFormats: [FormatModifiers(modifier: 0, name: "LINEAR", formats: [FourCC.code("AR24"), FourCC.xrgb8888]),
                                  FormatModifiers(modifier: 0x0700_0000_0000_0001, formats: [FourCC.code("AR24")])]),
            PlaneInfo(id: 22, type: .cursor, possibleCrtcs: 0b10, formats: [FourCC.code("AR24")],
                      properties: [Self.typeProperty(2)]),
        ]
        card.caps = CardCapabilities(dumbBuffers: true, preferShadow: false, cursorWidth: 64, cursorHeight: 64)
        card.atomicErrno = 0
        return card
    }

    func testTextListsEveryPlaneWithItsProperties() throws {
        let card = planeCard()
        let text = try CardProbe.read(card).text
        let expected = """
          atomic: yes
          cursor size limit: 64x64

        """
        XCTAssertTrue(text.contains(expected), text)
        let planes = """
          plane 20: primary, crtc 10, formats xrgb8888 rgb565
            type = Primary (enum Overlay, Primary, Cursor; immutable)
          plane 21: overlay, crtc 10,11, formats AR24 xrgb8888
            type = Overlay (enum Overlay, Primary, Cursor; immutable)
            FB_ID = 0 (object id; atomic)
            SRC_W = 6586368 (100.5 px; 0..4294967295; atomic)
            CRTC_X = -12 (-2147483648..2147483647; atomic)
            pixel blend mode = Pre-multiplied (enum None, Pre-multiplied, Coverage)
            alpha = 65535 (0..65535)
            zpos = 3 (1..7; immutable)
            rotation = rotate-0|reflect-x (bits rotate-0, rotate-180, reflect-x)
            IN_FORMATS LINEAR: AR24 xrgb8888
            IN_FORMATS 0x700000000000001: AR24
          plane 22: cursor, crtc 11, formats AR24
            type = Cursor (enum Overlay, Primary, Cursor; immutable)

        """
        XCTAssertTrue(text.hasSuffix(planes), text)
        // Atomic is asked for before the planes are read: that is what shows FB_ID and CRTC_X.
        let order = card.log.filter { $0 == "enableAtomic" || $0 == "planes" }
        XCTAssertEqual(order, ["enableAtomic", "planes"])
    }

    func testAtomicRefusedIsSaidAndHidesAtomicProperties() throws {
        let card = planeCard()
        card.atomicErrno = EOPNOTSUPP
        card.caps.cursorWidth = nil
        let probe = try CardProbe.read(card)
        XCTAssertTrue(probe.text.contains("  atomic: no (Operation not supported)\n  cursor size limit: unknown (the driver does not say)\n"), probe.text)
        XCTAssertFalse(probe.text.contains("FB_ID"), probe.text)
        XCTAssertTrue(probe.json.contains(#""atomic":false,"cursorWidth":null,"cursorHeight":64,"#), probe.json)
    }

    func testJSONHasEveryPlane() throws {
        let probe = try CardProbe.read(planeCard())
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(probe.json.utf8)) as? [String: Any])
        XCTAssertEqual(object["atomic"] as? Bool, true)
        XCTAssertEqual(object["cursorWidth"] as? Int, 64)
        let planes = try XCTUnwrap(object["planes"] as? [[String: Any]])
        XCTAssertEqual(planes.map { $0["id"] as? Int }, [20, 21, 22])
        XCTAssertEqual(planes.map { $0["type"] as? String }, ["primary", "overlay", "cursor"])
        XCTAssertEqual(planes.map { $0["crtcs"] as? [Int] }, [[10], [10, 11], [11]])
        XCTAssertEqual(planes[0]["formats"] as? [String], ["xrgb8888", "rgb565"])
        XCTAssertTrue(planes[0]["inFormats"] is NSNull)
        // "primaryPlanes" stays for scripts written before the full list.
        XCTAssertEqual((object["primaryPlanes"] as? [[String: Any]])?.map { $0["id"] as? Int }, [20])
        XCTAssertTrue(probe.json.contains(#"{"name":"pixel blend mode","kind":"enum","value":"Pre-multiplied","immutable":false,"atomic":false,"choices":["None","Pre-multiplied","Coverage"]}"#), probe.json)
        XCTAssertTrue(probe.json.contains(#"{"name":"CRTC_X","kind":"signed range","value":"-12","immutable":false,"atomic":true,"min":"-2147483648","max":"2147483647"}"#), probe.json)
        XCTAssertTrue(probe.json.contains(#""inFormats":[{"modifier":"0x0","name":"LINEAR","formats":["AR24","xrgb8888"]},{"modifier":"0x700000000000001","name":null,"formats":["AR24"]}]"#), probe.json)
    }

    func testAPlaneListFailureNamesTheCall() {
        let card = planeCard()
        card.failures["planes"] = [EIO]
        XCTAssertThrowsError(try CardProbe.read(card)) { error in
            XCTAssertEqual("\(error)", "planes /dev/dri/card0: Input/output error (errno 5)")
        }
    }

    func testAPlaneWithoutTypeSaysSo() throws {
        let card = planeCard()
        card.resourcesValue.planes = [PlaneInfo(id: 5, type: nil, possibleCrtcs: 0, formats: [])]
        let text = try CardProbe.read(card).text
        XCTAssertTrue(text.hasSuffix("  plane 5: unknown type, crtc none, formats none\n"), text)
    }

    func testValuesOutsideTheirChoicesAreShownAsNumbers() {
        let e = PlaneProperty(id: 1, name: "pixel blend mode", value: 9, kind: .enumeration([.init("None", 2)]))
        XCTAssertEqual(e.valueText, "9 (not one of its choices)")
        let b = PlaneProperty(id: 1, name: "rotation", value: 0b1000_0001, kind: .bitmask([.init("rotate-0", 0)]))
        XCTAssertEqual(b.valueText, "rotate-0|0x80")
        XCTAssertEqual(PlaneType(kernelValue: 3), nil)
        XCTAssertEqual(PlaneType(kernelValue: 2), .cursor)
    }
}
