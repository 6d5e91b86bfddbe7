import Glibc
import KMS
import Raster
import XCTest

/// One scanned-out buffer flushed with DirtyFB: what SPI/USB panels and virtual GPUs need. The
/// fake panel here changes only on what is flushed, as virtio-gpu's does.
final class DamageOutputTests: XCTestCase {
    private func flushedCard(orientation: PanelOrientation? = nil) -> FakeCard {
        let card = FakeCard.simple(orientation: orientation)
        card.needsFlush = true
        card.vblankErrno = EOPNOTSUPP
        card.dirtyErrno = 0
        return card
    }

    func testAutoChoosesDamageWithoutVBlankAndKeepsOneBuffer() throws {
        let card = flushedCard()
        var lines: [String] = []
        let output = try Scene.make(card, KMSConfiguration(update: .auto)) { lines.append($0) }
        try output.start()
        XCTAssertEqual(output.strategy, .damage)
        XCTAssertEqual(card.buffers.count, 1)
        XCTAssertNil(output.pollDescriptor)
        XCTAssertEqual(lines.filter { $0.contains("update = auto") },
                       ["/dev/dri/card0 (fake) Virtual-1: update = auto chose damage: no vblank on this CRTC (Operation not supported) and the driver takes DirtyFB"])
    }

    func testDirtyClipsAreTightAndThePanelShowsTheCanvas() throws {
        for rotation in Rotation.allCases {
            let card = flushedCard()
            let output = try Scene.make(card, KMSConfiguration(rotation: rotation, update: .damage))
            Scene.fill(output.canvas, output.canvas.bounds) { _, _ in Scene.background }
            try output.start()
            let logicalRects = [Rect(x: 2, y: 3, width: 5, height: 7), Rect(x: 20, y: 10, width: 11, height: 4),
                                Rect(x: 0, y: 0, width: 1, height: 1)]
            var copied = 0
            for (i, r) in logicalRects.enumerated() {
                let before = card.log.count
                Scene.fill(output.canvas, r, Scene.pattern(i + 1))
                try output.present(damage: r)
                copied += r.area
                // The clip is the logical rectangle turned onto the panel, nothing more.
                let (w, h) = (output.mode.width, output.mode.height)
                let a = Scene.physical(rotation, x: r.x, y: r.y, panelWidth: w, panelHeight: h)
                let b = Scene.physical(rotation, x: r.maxX - 1, y: r.maxY - 1, panelWidth: w, panelHeight: h)
                let clip = Rect(x: min(a.0, b.0), y: min(a.1, b.1), width: abs(a.0 - b.0) + 1, height: abs(a.1 - b.1) + 1)
                XCTAssertEqual(Array(card.log[before...]), ["dirty fb \(output.card === card ? card.buffers.keys.first! : 0) \(clip)"], "\(rotation)")
                Scene.assertPanelShowsCanvas(card, output, "rotation \(rotation.degrees), rect \(i)")
            }
            XCTAssertEqual(output.statistics.pixelsCopied, copied, "only the damage is copied")
        }
    }

    /// Damage in places far apart is copied and flushed place by place: one DirtyFB call with a
    /// clip for each, not the rectangle holding them all.
    func testPlacesApartAreCopiedAndFlushedApart() throws {
        for rotation in [Rotation.r0, .r90] {
            let card = flushedCard()
            let output = try Scene.make(card, KMSConfiguration(rotation: rotation, update: .damage))
            Scene.fill(output.canvas, output.canvas.bounds) { _, _ in Scene.background }
            try output.start()
            let a = Rect(x: 1, y: 2, width: 4, height: 3), b = Rect(x: 30, y: 20, width: 6, height: 2)
            Scene.fill(output.canvas, a, Scene.pattern(1))
            Scene.fill(output.canvas, b, Scene.pattern(2))
            var region = DamageRegion(a)
            region.add(b)
            let before = card.log.count, copied = output.statistics.pixelsCopied
            try output.present(damage: region)
            let line = try XCTUnwrap(card.log[before...].first { $0.hasPrefix("dirty") })
            XCTAssertEqual(line.split(separator: " ").count, 3 + 2, "two clips: \(line)")
            XCTAssertEqual(output.statistics.pixelsCopied - copied, a.area + b.area, "only the two places")
            Scene.assertPanelShowsCanvas(card, output, "rotation \(rotation.degrees)")
        }
    }

    func testWithoutDirtyFBThePanelWouldNotChange() throws {
        // The reason the QEMU virtio-gpu test fails when DirtyFB is not called: prove the fake
        // panel (like virtio-gpu's) ignores unflushed writes.
        let card = flushedCard()
        let output = try Scene.make(card, KMSConfiguration(update: .damage))
        Scene.fill(output.canvas, output.canvas.bounds) { _, _ in Scene.background }
        try output.start()
        card.failures["dirty"] = [EIO]
        Scene.fill(output.canvas, Rect(x: 10, y: 10, width: 4, height: 4), Scene.pattern(1))
        XCTAssertThrowsError(try output.present(damage: Rect(x: 10, y: 10, width: 4, height: 4)))
        XCTAssertEqual(card.panel(11, 11), Scene.background)
    }

    func testDamageConfiguredOnADriverWithoutDirtyFBStopsCallingIt() throws {
        let card = FakeCard.simple()  // bochs-like: writes show directly, DirtyFB is ENOSYS
        var lines: [String] = []
        let output = try Scene.make(card, KMSConfiguration(update: .damage)) { lines.append($0) }
        try output.start()
        XCTAssertEqual(output.strategy, .damage)
        XCTAssertTrue(lines.contains { $0.contains("update = damage (configured), but DirtyFB fails (Function not implemented)") }, "\(lines)")
        Scene.fill(output.canvas, Rect(x: 1, y: 1, width: 3, height: 3), Scene.pattern(1))
        try output.present(damage: Rect(x: 1, y: 1, width: 3, height: 3))
        XCTAssertEqual(output.dirtyCalls, 0)
        Scene.assertPanelShowsCanvas(card, output, "direct scan-out")
    }

    func testRGB565IsNarrowedIntoAPaddedStride() throws {
        let card = flushedCard()
        card.resourcesValue.planes[0].formats = [FourCC.xrgb8888, FourCC.rgb565]
        let output = try Scene.make(card, KMSConfiguration(format: .rgb565, update: .damage))
        XCTAssertEqual(output.format, .rgb565)
        let buffer = card.buffers.values.first!
        XCTAssertGreaterThan(buffer.pixels.stride, buffer.pixels.width * 2, "the fake pads the pitch")
        Scene.fill(output.canvas, output.canvas.bounds, Scene.pattern(7))
        try output.start()
        Scene.assertPanelShowsCanvas(card, output, "rgb565 start")
        Scene.fill(output.canvas, Rect(x: 7, y: 9, width: 13, height: 5), Scene.pattern(8))
        try output.present(damage: Rect(x: 7, y: 9, width: 13, height: 5))
        Scene.assertPanelShowsCanvas(card, output, "rgb565 damage")
    }
}
