import KMS
import XCTest

/// The IN_FORMATS blob as the kernel lays it out (struct drm_format_modifier_blob), decoded.
final class InFormatsBlobTests: XCTestCase {
    /// A blob: the 24-byte header, the formats, then 24-byte modifier entries, at the offsets the
    /// header gives (here with a gap, as the kernel may align them).
    private func blob(formats: [UInt32], modifiers: [(mask: UInt64, offset: UInt32, modifier: UInt64)], version: UInt32 = 1) -> [UInt8] {
        var bytes: [UInt8] = []
        func put32(_ v: UInt32) { for i in 0..<4 { bytes.append(UInt8((v >> (8 * UInt32(i))) & 0xFF)) } }
        func put64(_ v: UInt64) { put32(UInt32(v & 0xFFFF_FFFF)); put32(UInt32(v >> 32)) }
        let formatsAt: UInt32 = 24
        let modifiersAt = (formatsAt + UInt32(formats.count * 4) + 7) / 8 * 8 + 8
        put32(version); put32(0); put32(UInt32(formats.count)); put32(formatsAt)
        put32(UInt32(modifiers.count)); put32(modifiersAt)
        for f in formats { put32(f) }
        while bytes.count < modifiersAt { bytes.append(0xEE) }
        for m in modifiers { put64(m.mask); put32(m.offset); put32(0); put64(m.modifier) }
        return bytes
    }

    func testModifiersGetTheFormatsTheirMaskNames() throws {
        let ar24 = FourCC.code("AR24"), xr24 = FourCC.xrgb8888, rg16 = FourCC.rgb565
        let bytes = blob(formats: [ar24, xr24, rg16],
                         modifiers: [(0b111, 0, 0), (0b101, 0, 0x0100_0000_0000_0002), (0b1, 2, 7)])
        let decoded = try InFormatsBlob.decode(bytes) { $0 == 0 ? "LINEAR" : nil }
        XCTAssertEqual(decoded, [FormatModifiers(modifier: 0, name: "LINEAR", formats: [ar24, xr24, rg16]),
                                 FormatModifiers(modifier: 0x0100_0000_0000_0002, formats: [ar24, rg16]),
                                 FormatModifiers(modifier: 7, formats: [rg16])])
    }

    func testAShortBlobIsAnErrorNotARead() {
        let whole = blob(formats: [FourCC.xrgb8888], modifiers: [(1, 0, 0)])
        XCTAssertThrowsError(try InFormatsBlob.decode(Array(whole.dropLast(4)))) { error in
            XCTAssertEqual("\(error)", "IN_FORMATS blob of \(whole.count - 4) bytes ends before offset \(whole.count)")
        }
        XCTAssertThrowsError(try InFormatsBlob.decode([1, 0, 0]))
    }

    func testAMaskBeyondTheFormatsIsAnError() {
        let bytes = blob(formats: [FourCC.xrgb8888], modifiers: [(0b10, 0, 5)])
        XCTAssertThrowsError(try InFormatsBlob.decode(bytes)) { error in
            XCTAssertEqual("\(error)", "IN_FORMATS modifier 0x5 names format 1 of 1")
        }
    }

    func testAnotherVersionIsRefused() {
        XCTAssertThrowsError(try InFormatsBlob.decode(blob(formats: [], modifiers: [], version: 2))) { error in
            XCTAssertEqual("\(error)", "IN_FORMATS blob version 2 (this build reads version 1)")
        }
    }
}
