import DisplayDoubles
import FBDev
import Glibc
import Raster
import Syscall
import XCTest

/// Drawing and checking helpers shared by the framebuffer tests.
enum Scene: PanelScene {
    static func make(_ fb: MemoryFramebuffer, _ configuration: FBDevConfiguration = FBDevConfiguration(),
                     log: @escaping (String) -> Void = { _ in }) throws -> FBDevOutput {
        try FBDevOutput(device: fb, configuration: configuration, log: log, clock: { [unowned fb] in fb.time })
    }

    /// Waits (a real poll, at most two seconds) for the vblank wait under way to end, and lets
    /// the output act on it, as the daemon's loop does when the descriptor is readable.
    static func settle(_ output: FBDevOutput, file: StaticString = #filePath, line: UInt = #line) throws {
        guard let fd = output.pollDescriptor else { return }
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        let ready = try Poll.wait(&fds, timeoutMilliseconds: 2000)
        XCTAssertEqual(ready, 1, "the vblank wait never ended", file: file, line: line)
        try output.handleEvents()
    }

    static func fill(_ canvas: PixelBuffer, _ rect: Rect, _ value: (Int, Int) -> UInt32) {
        let r = rect.intersection(canvas.bounds)
        if r.isEmpty { return }
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX { canvas.row(y).storeBytes(of: value(x, y), toByteOffset: x * 4, as: UInt32.self) }
        }
    }

    /// A distinct colour per pixel and frame, with the top byte 0 (so a forced alpha shows).
    static func pattern(_ frame: Int) -> (Int, Int) -> UInt32 {
        { x, y in UInt32(truncatingIfNeeded: (frame &* 0x9E37) ^ (y << 8) ^ (x &* 7)) & 0x00FF_FFFF | 0x0080_0000 }
    }

    /// What a framebuffer of `layout` must hold for shadow pixel `v` (0x00RRGGBB), from the layout's
    /// meaning and look.md's narrowing r5 = (r·31 + 127) / 255, g6 = (g·63 + 127) / 255.
    static func expected(_ layout: FramebufferLayout, _ v: UInt32) -> UInt32 {
        let r = (v >> 16) & 0xFF, g = (v >> 8) & 0xFF, b = v & 0xFF
        let r5 = (r * 31 + 127) / 255, g6 = (g * 63 + 127) / 255, b5 = (b * 31 + 127) / 255
        switch layout.description {
        case "XRGB8888": return v
        case "ARGB8888": return 0xFF00_0000 | r << 16 | g << 8 | b
        case "XBGR8888": return (v & 0xFF00_0000) | b << 16 | g << 8 | r
        case "ABGR8888": return 0xFF00_0000 | b << 16 | g << 8 | r
        case "RGB565": return r5 << 11 | g6 << 5 | b5
        case "BGR565": return b5 << 11 | g6 << 5 | r5
        default: fatalError("no expectation for \(layout)")
        }
    }

    /// Asserts that every panel pixel shows the canvas, turned and converted; returns the number
    /// of wrong pixels.
    @discardableResult
    static func assertPanelShowsCanvas(_ fb: MemoryFramebuffer, _ output: FBDevOutput, _ context: String,
                                       file: StaticString = #filePath, line: UInt = #line) -> Int {
        let canvas = output.canvas
        var wrong = 0
        var first = ""
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let (px, py) = physical(output.rotation, x: x, y: y, panelWidth: output.width, panelHeight: output.height)
                let want = expected(output.layout, logical(canvas, x, y))
                let got = fb.panel(px, py)
                if got != want {
                    if wrong == 0 { first = "logical (\(x), \(y)) → panel (\(px), \(py)): \(hex(got)), want \(hex(want))" }
                    wrong += 1
                }
            }
        }
        XCTAssertEqual(wrong, 0, "\(context): \(wrong) wrong pixels, first \(first)", file: file, line: line)
        return wrong
    }

    static func hex(_ v: UInt32) -> String { "0x" + String(v, radix: 16) }
}
