import Compositor
import Geo
import Raster

/// The kiosk scene's vehicles: `count` markers the size of a kiosk's (a disc in a white ring, a
/// wedge, a two-digit label's pill; plain shapes here, the text being the worker's cost, not the
/// frame's) spread over the canvas on a grid, each driving its own heading at the scene's speed,
/// so a marker moves a whole pixel every few frames as a bus seen at zoom 17 does.
public enum BenchMarkers {
    /// A marker's size in pixels at `scale`, as `MarkerSprite` makes one with a two-digit label.
    public static func size(scale: Double) -> (width: Int, height: Int, reach: Int) {
        let reach = Int(((9.0 + 2.5 + 6.0) * scale).rounded(.up)) + 1
        let pill = Int((16 * scale).rounded()) + 2 * Int((4 * scale).rounded())
        return (2 * reach + pill + Int((4 * scale).rounded()), 2 * reach, reach)
    }

    public static func layer(count: Int, scene: BenchScene, scale: Double, frames: Int) -> MarkerLayer {
        let (width, height, reach) = size(scale: scale)
        let picture = Overlay(width: width, height: height)
        let r = 9.0 * scale, ring = 2.5 * scale
        for y in 0..<height {
            for x in 0..<(2 * reach) {
                let dx = Double(x) + 0.5 - Double(reach), dy = Double(y) + 0.5 - Double(height) / 2
                let d = (dx * dx + dy * dy).squareRoot()
                if d <= r { picture.blend(x: x, y: y, Color(r: 0xAF, g: 0x52, b: 0xDE), coverage: UInt8(min(255, (r - d + 0.5) * 255))) }
                else if d <= r + ring + 0.5 { picture.blend(x: x, y: y, .white, coverage: UInt8(min(255, (r + ring + 0.5 - d) * 255))) }
            }
        }
        picture.fill(Rect(x: 2 * reach, y: height / 4, width: width - 2 * reach, height: height / 2), with: Color(r: 0xAF, g: 0x52, b: 0xDE))
        let columns = max(1, Int(Double(count).squareRoot().rounded(.up)))
        let rows = (count + columns - 1) / columns
        let seconds = Double(frames) / BenchScene.frameRate
        let speed = (scene.stepX * scene.stepX + scene.stepY * scene.stepY).squareRoot() * BenchScene.frameRate
        var motions: [MarkerLayer.Motion] = []
        for i in 0..<count {
            let cx = Double(scene.canvasWidth) * (Double(i % columns) + 0.5) / Double(columns)
            let cy = Double(scene.canvasHeight) * (Double(i / columns) + 0.5) / Double(rows)
            // Headings spread around the compass, 37° apart.
            let heading = PortableMath.radians(Double(i * 37 % 360))
            let ex = cx + PortableMath.sin(heading) * speed * seconds, ey = cy - PortableMath.cos(heading) * speed * seconds
            motions.append(MarkerLayer.Motion(picture: i == 0 ? picture : copy(picture), anchorX: reach, anchorY: height / 2,
                                              path: [Point256(x: cx, y: cy), Point256(x: ex, y: ey)], start: 0, duration: seconds))
        }
        let layer = MarkerLayer()
        layer.setMarkers(motions)
        return layer
    }

    /// Each marker owns its picture: the layer places each one by moving it.
    static func copy(_ o: Overlay) -> Overlay {
        let c = Overlay(width: o.width, height: o.height)
        for y in 0..<o.height { for x in 0..<o.width { c.setPixel(x: x, y: y, o.pixel(x: x, y: y)) } }
        return c
    }
}
