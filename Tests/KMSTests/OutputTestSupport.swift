import DisplayDoubles
import DisplayCore
import KMS
import Raster
import XCTest

/// Drawing and checking helpers shared by the output tests.
enum Scene: PanelScene {
    static let background: UInt32 = 0x0020_3040

    static func make(_ card: FakeCard, _ configuration: KMSConfiguration = KMSConfiguration(),
                     log: @escaping (String) -> Void = { _ in }) throws -> KMSOutput {
        try KMSOutput(card: card, resources: card.resourcesValue, configuration: configuration, log: log,
                      clock: { card.now })
    }

    static func fill(_ canvas: PixelBuffer, _ rect: Rect, _ value: (Int, Int) -> UInt32) {
        let r = rect.intersection(canvas.bounds)
        if r.isEmpty { return }
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX { canvas.row(y).storeBytes(of: value(x, y), toByteOffset: x * 4, as: UInt32.self) }
        }
    }

    /// The regions an output's copy-out was asked for, in order.
    final class CopyRecord { var regions: [Rect] = [] }

    /// Routes `output`'s copy-out through the canvas's own, recording each region.
    static func recordCopyOut(of output: any Display) -> CopyRecord {
        let record = CopyRecord()
        let canvas = output.canvas
        output.route(copyOut: CanvasCopier { region, target, rotation in
            record.regions.append(region)
            return canvas.copyOut(region: region, to: target, rotation: rotation)
        })
        return record
    }

    /// A distinct colour per pixel and frame, so a pixel from the wrong place or frame shows.
    static func pattern(_ frame: Int) -> (Int, Int) -> UInt32 {
        { x, y in UInt32(truncatingIfNeeded: (frame &* 0x9E37) ^ (y << 8) ^ x) & 0x00FF_FFFF | 0x0080_0000 }
    }

    /// look.md's narrowing: r5 = (r·31 + 127) / 255, g6 = (g·63 + 127) / 255.
    static func rgb565(_ v: UInt32) -> UInt32 {
        let r = (v >> 16) & 0xFF, g = (v >> 8) & 0xFF, b = v & 0xFF
        return ((r * 31 + 127) / 255) << 11 | ((g * 63 + 127) / 255) << 5 | ((b * 31 + 127) / 255)
    }

    /// Asserts that every pixel of the panel shows the canvas, turned and converted.
    static func assertPanelShowsCanvas(_ card: FakeCard, _ output: KMSOutput, _ context: String,
                                       file: StaticString = #filePath, line: UInt = #line) {
        let canvas = output.canvas
        let (w, h) = (output.mode.width, output.mode.height)
        var wrong = 0
        var first = ""
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let (px, py) = physical(output.rotation, x: x, y: y, panelWidth: w, panelHeight: h)
                let v = logical(canvas, x, y)
                let want = output.format == .rgb565 ? rgb565(v) : v
                let got = card.panel(px, py)
                if got != want {
                    if wrong == 0 { first = "logical (\(x), \(y)) → panel (\(px), \(py)): \(String(got, radix: 16)) instead of \(String(want, radix: 16))" }
                    wrong += 1
                }
            }
        }
        XCTAssertEqual(wrong, 0, "\(context): \(wrong) pixels wrong, first \(first)", file: file, line: line)
    }
}
