import Compositor
import LocationDot
import PNG
import Raster
import Scene

/// The dot's cycle at a glance: one halo cycle (no pop) in evenly spaced tiles, left to right in
/// time, each tile rendered by its own FrameRenderer straight into its place. `pulsedot demo`
/// writes it next to the drive's contact sheet (`dot-cycle.png`); the README shows it.
public struct DemoCycle: Sendable {
    public var style = DotStyle()
    public var scale = 2.0
    public var tileSize = 240
    public var sheetTiles = 8
    /// Space between tiles on the sheet, in this colour.
    public var gutter = 4
    public var gutterColor = Color.white

    public init() {}

    /// One halo cycle (C = D + d), or 4 s when the halo is off, spread over the sheet's tiles.
    public var sheetTimes: [Double] {
        let d = style.delayBetweenPulseCycles
        let cycle = d.isFinite ? style.outerPulseAnimationDuration + d : 4
        return (0..<sheetTiles).map { Double($0) * cycle / Double(sheetTiles) }
    }

    /// Writes the sheet to `path`.
    public func write(to path: String) throws(DemoError) {
        let sheet: OwnedPixelBuffer
        do { sheet = try contactSheet() } catch { throw DemoError(error) }
        do {
            try withExtendedLifetime(sheet) { () throws(PNGError) in try PNGWrite.frame(sheet.buffer, to: path) }
        } catch { throw DemoError(error) }
    }

    /// The tiles side by side, each rendered by its own FrameRenderer straight into its place.
    public func contactSheet() throws(FrameError) -> OwnedPixelBuffer {
        let times = sheetTimes
        let width = times.count * tileSize + (times.count + 1) * gutter
        let height = tileSize + 2 * gutter
        let sheet = OwnedPixelBuffer(width: width, height: height, format: .xrgb8888)
        sheet.buffer.fill(sheet.buffer.bounds, with: gutterColor)
        let renderer = try FrameRenderer(width: tileSize, height: tileSize, style: style, scale: scale,
                                         background: .color(StillFrame.defaultBackground))
        let clock = DotClock(style: style)
        for (i, t) in times.enumerated() {
            renderer.invalidate()
            renderer.render(clock.appearance(at: t), centerX: Double(tileSize) / 2, centerY: Double(tileSize) / 2)
            let x = gutter + i * (tileSize + gutter)
            let tile = PixelBuffer(base: sheet.buffer.row(gutter) + x * 4, width: tileSize, height: tileSize,
                                   stride: sheet.buffer.stride, format: .xrgb8888)
            renderer.copyOut(renderer.bounds, to: tile)
        }
        return sheet
    }
}
