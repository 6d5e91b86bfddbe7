import Compositor
import Foundation
import LocationDot
import Raster
import Scene
import XCTest

/// Golden frames: a few whole frames checked by hash, so any change to what reaches the screen —
/// clock, painter, blending, copy-out — is noticed, and so x86-64 and ARM can be compared.
///
/// To regenerate deliberately (after an intended change to the look; say why in the commit):
///     PULSEDOT_REGENERATE_GOLDEN=1 swift test --filter SceneTests.GoldenFrameTests
/// The test then fails on purpose, printing the new table; paste it over `golden` below and look at
/// the frames it wrote (their paths are printed) before committing.
final class GoldenFrameTests: XCTestCase {
    struct Case {
        let name: String
        let frame: StillFrame
        let style: DotStyle
    }

    static var cases: [Case] {
        var stock = DotStyle()
        stock.delayBetweenPulseCycles = 0
        stock.pulseAnimationDuration = 1.5
        var half = StillFrame()
        half.time = 0.5
        var one = StillFrame()
        one.time = 1.0
        var rgb565 = StillFrame()
        rgb565.time = 1.0
        rgb565.format = .rgb565
        var pop = StillFrame()
        pop.time = 0.06 // the pop's 1.25 overshoot
        pop.entrance = true
        var scale3 = StillFrame()
        scale3.time = 1.5
        scale3.scale = 3
        scale3.width = 360
        scale3.height = 360
        return [
            Case(name: "default-t0.5", frame: half, style: DotStyle()),
            Case(name: "stock-t1.0", frame: one, style: stock),
            Case(name: "rgb565-t1.0", frame: rgb565, style: DotStyle()),
            Case(name: "entrance-t0.06", frame: pop, style: DotStyle()),
            Case(name: "scale3-t1.5", frame: scale3, style: DotStyle()),
        ]
    }

    /// FNV-1a 64 of each frame's visible bytes (see `hash`).
    static let golden: [String: UInt64] = [
        "default-t0.5": 0x8028bede9829e9b9,
        "stock-t1.0": 0x150925a76af8d989,
        "rgb565-t1.0": 0x34fdd11dc9144fd9,
        "entrance-t0.06": 0xf091b5bde82d47d3,
        "scale3-t1.5": 0xb89b0b2e0b444b0d,
    ]

    /// FNV-1a 64 over the pixels row by row: for XRGB8888 the B, G, R bytes (X is padding nobody
    /// shows), for RGB565 both bytes; never the stride's padding.
    static func hash(_ buffer: PixelBuffer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func eat(_ b: UInt8) { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        for y in 0..<buffer.height {
            let row = buffer.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<buffer.width {
                switch buffer.format {
                case .xrgb8888: eat(row[x * 4]); eat(row[x * 4 + 1]); eat(row[x * 4 + 2])
                case .rgb565: eat(row[x * 2]); eat(row[x * 2 + 1])
                }
            }
        }
        return h
    }

    func testHashIsFNV1a() {
        // A 1×1 XRGB frame whose B, G, R bytes are "abc" hashes like the string "abc".
        let frame = OwnedPixelBuffer(width: 1, height: 1, format: .xrgb8888)
        frame.bytes.copyBytes(from: Array("abcX".utf8))
        XCTAssertEqual(Self.hash(frame.buffer), 0xe71fa2190541574b) // FNV-1a 64 of "abc"
    }

    func testGoldenFrames() throws {
        let regenerate = ProcessInfo.processInfo.environment["PULSEDOT_REGENERATE_GOLDEN"] == "1"
        var table = ""
        for c in Self.cases {
            let frame = try c.frame.render(style: c.style)
            let h = Self.hash(frame.buffer)
            table += "        \"\(c.name)\": 0x\(String(h, radix: 16)),\n"
            if regenerate {
                let path = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(c.name).png").path
                try c.frame.write(style: c.style, to: path)
                print("golden \(c.name): \(path)")
            } else {
                XCTAssertEqual(h, Self.golden[c.name], "\(c.name): frame changed (see the class comment to regenerate)")
            }
        }
        if regenerate {
            XCTFail("PULSEDOT_REGENERATE_GOLDEN=1: paste this over `golden` and unset the variable:\n\(table)")
        }
    }

    func testSameFrameTwiceIsTheSameBytes() throws {
        for c in Self.cases {
            let a = try c.frame.render(style: c.style), b = try c.frame.render(style: c.style)
            XCTAssertTrue(Array(a.bytes) == Array(b.bytes), "\(c.name): two renders differ")
        }
    }

    /// The incremental path (restore where the dot was, paint where it is) gives the same pixels as
    /// a frame drawn from scratch.
    func testIncrementalFramesMatchFreshOnes() throws {
        let style = DotStyle()
        let renderer = try FrameRenderer(width: 200, height: 160, style: style, scale: 2, background: .color(StillFrame.defaultBackground))
        let clock = DotClock(style: style)
        for step in 0..<12 {
            let t = Double(step) * 0.37
            let x = 60 + Double(step) * 7.3, y = 80 - Double(step) * 1.1
            let changed = renderer.render(clock.appearance(at: t), centerX: x, centerY: y)
            let fresh = try FrameRenderer(width: 200, height: 160, style: style, scale: 2, background: .color(StillFrame.defaultBackground))
            XCTAssertEqual(fresh.render(clock.appearance(at: t), centerX: x, centerY: y).bounds, fresh.bounds)
            XCTAssertTrue(Array(renderer.canvas.bytes) == Array(fresh.canvas.bytes), "step \(step): incremental frame differs from a fresh one")
            if step > 0 { XCTAssertNotEqual(changed.bounds, renderer.bounds, "later frames redraw only the dot's region") }
        }
    }
}
