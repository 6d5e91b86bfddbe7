import DisplayCore
import KMS
import Raster
import XCTest

/// A routed copy-out (the renderer's, which narrows only what it drew) carries every frame's
/// damage into the buffers, flips and DirtyFB alike; the panel still shows the canvas.
final class CopyRouteTests: XCTestCase {
    func testEveryFrameGoesThroughTheRoutedCopyOut() throws {
        for update in [UpdateMode.flip, .damage] {
            let card = FakeCard.simple()
            card.resourcesValue.planes[0].formats = [FourCC.xrgb8888, FourCC.rgb565]
            let output = try Scene.make(card, KMSConfiguration(format: .rgb565, update: update))
            let copies = Scene.recordCopyOut(of: output)
            Scene.fill(output.canvas, output.canvas.bounds) { _, _ in Scene.background }
            try output.start()
            for frame in 1...4 {
                let square = Rect(x: frame * 6, y: frame * 4, width: 7, height: 5)
                Scene.fill(output.canvas, square, Scene.pattern(frame))
                try output.present(damage: square)
                if update == .flip { try output.handleEvents() }
                Scene.assertPanelShowsCanvas(card, output, "\(update) frame \(frame)")
                XCTAssertEqual(copies.regions.last.map { $0.intersection(square) == square }, true, "\(update) frame \(frame): \(copies.regions)")
            }
            XCTAssertEqual(copies.regions.count, 4, "\(update): one routed copy per frame")
        }
    }
}
