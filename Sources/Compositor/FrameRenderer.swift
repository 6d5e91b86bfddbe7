import LocationDot
import Raster

/// What lies under the dot: a plain colour, a prepared frame (a map) at least the canvas's size
/// (a larger frame is shown from `FrameRenderer.backgroundOrigin`: a view that pans without a
/// copy), or a map of tiles restored from the tiles' own slots. A frame's pixels are the renderer's
/// to read from then on: a change to them is announced with `FrameRenderer.invalidate(_:)`
/// (canvas coordinates, even off the view), which also renarrows the RGB565 copy-out's map.
public enum FrameBackground {
    case color(Color)
    case frame(OwnedPixelBuffer)
    case tiles(TileMosaic)
}

/// The one frame pipeline every output shares (`render`, `demo`, `show`, `run`, `bench`):
/// restore the background where anything changed → the map layers → the dot → the screen layers
/// (`Layer`) → copy the changed region out to the target's format. It draws into an XRGB8888
/// canvas it owns; the 8-bit result is narrowed to RGB565 only when copied out. After `init`,
/// rendering allocates nothing.
public final class FrameRenderer {
    public let width: Int
    public let height: Int
    /// The frame everything is drawn into (XRGB8888, in RAM; a display copies from it or adopts it as its canvas).
    public let canvas: OwnedPixelBuffer
    public let background: FrameBackground
    public let style: DotStyle
    public let scale: Double
    private var painter: DotPainter
    /// What the dot covered in the previous frame: restored before the next one is painted.
    private var lastDot: Rect = .empty
    private var needsFullFrame = true
    /// Background that changed under the canvas since the last frame (a tile that arrived).
    private var staleBackground: Rect = .empty
    /// How far a tiled view moved since the last frame, for `render` to scroll the canvas by.
    private var pendingScroll: (x: Int, y: Int)?
    /// Layers over the map and under the dot (a route line), in drawing order.
    public private(set) var mapLayers: [any Layer] = []
    /// Layers over everything, fixed on the screen (the map's credit, a banner), in drawing order.
    public private(set) var screenLayers: [any Layer] = []
    /// Whether there is any layer: a frame without layers skips their bookkeeping altogether.
    private var layered = false
    /// The background frame's pixel at the canvas's top-left corner. (Read and set by the one
    /// thread that renders: a dynamic exclusivity check per frame cost more than the access.)
    @exclusivity(unchecked) public private(set) var backgroundOrigin = (x: 0, y: 0)
    /// The background frame narrowed to RGB565 for one rotation (`prepareCopyOut`), and the canvas
    /// rectangle that may differ from the background view since the last `render` (the dot, the
    /// overlay); nil when the canvas is not known to show the background elsewhere.
    private var narrowed: NarrowedCopy?
    private var fresh: Rect?
    /// Canvas pixels left behind the map image: with the RGB565 copy-out over a narrowed map, a
    /// frame restores only where the dot is (copy-out takes the rest from the narrowed map), so a
    /// panning view does not copy the whole map twice per frame. `wholeCanvas()` catches up.
    private var lagging: Rect = .empty
    /// The dot of the last frame, for catching the canvas up: what a full redraw would paint.
    @exclusivity(unchecked) private var lastPaint: (appearance: DotAppearance?, x: Double, y: Double) = (nil, 0, 0)

    /// Fails when the background colour is not opaque or a background frame has the wrong size.
    public init(width: Int, height: Int, style: DotStyle, scale: Double, background: FrameBackground) throws(FrameError) {
        guard width > 0, height > 0 else { throw FrameError("a frame needs a positive size, not \(width)x\(height)") }
        switch background {
        case .color(let c):
            guard c.a == 255 else { throw FrameError("the background must be opaque (#RRGGBB), not a colour with alpha") }
        case .frame(let f):
            guard f.buffer.width >= width, f.buffer.height >= height, f.buffer.format == .xrgb8888 else {
                throw FrameError("a background image of \(f.buffer.width)x\(f.buffer.height) \(f.buffer.format) does not cover a \(width)x\(height) xrgb8888 frame")
            }
        case .tiles(let m):
            guard m.canvasWidth == width, m.canvasHeight == height else {
                throw FrameError("a tile mosaic for \(m.canvasWidth)x\(m.canvasHeight) cannot be the background of a \(width)x\(height) frame")
            }
        }
        guard scale > 0, scale.isFinite else { throw FrameError("scale must be a number > 0, not \(scale)") }
        self.width = width
        self.height = height
        self.style = style
        self.scale = scale
        self.background = background
        self.canvas = OwnedPixelBuffer(width: width, height: height, format: .xrgb8888)
        self.painter = DotPainter(style: style, scale: scale)
        painter.reserve(width: width, height: height)
    }

    public var bounds: Rect { canvas.buffer.bounds }

    /// Draws the dot with `appearance` centred at (`centerX`, `centerY`) in canvas pixels (sub-pixel;
    /// the canvas centre is (width/2, height/2)), or no dot when `appearance` is nil. Returns the
    /// canvas region that changed: last frame's dot and this one's, and what the layers changed,
    /// each place apart (the whole canvas the first time). That is this frame's damage for
    /// `Damage.add`.
    @discardableResult
    public func render(_ appearance: DotAppearance?, centerX: Double, centerY: Double) -> DamageRegion {
        if let scroll = pendingScroll {
            pendingScroll = nil
            if !needsFullFrame, case .tiles(let m) = background {
                return renderScrolled(appearance, centerX: centerX, centerY: centerY, by: scroll, over: m)
            }
        }
        var changed = DamageRegion(lastDot)
        changed.add(staleBackground)
        if layered { takeLayerDamage(into: &changed) }
        staleBackground = .empty
        var dot = Rect.empty
        if let appearance {
            dot = painter.bounds(centerX: centerX, centerY: centerY, appearance: appearance).intersection(bounds)
            changed.add(dot)
        }
        if needsFullFrame {
            changed = DamageRegion(bounds)
            needsFullFrame = false
        }
        // Each part is made whole on its own (the parts never overlap): the background, the map
        // layers, the dot, the screen layers.
        if case .frame(let f) = background, !layered || !mapLayersMeet(changed) {
            // The background restore and the dot in one pass; only over the dot's rectangle when
            // copy-out reads the rest from the narrowed map.
            let shown = dot.isEmpty ? nil : appearance
            let view = backgroundView(f)
            if !layered && narrowed != nil {
                dot = dot.union(painter.paint(into: canvas.buffer, over: view, centerX: centerX, centerY: centerY,
                                              appearance: shown, clip: dot))
                lagging = lagging.union(changed.bounds)
            } else {
                for i in 0..<changed.count {
                    let part = changed[i]
                    if part.intersection(dot).isEmpty {
                        canvas.buffer.copy(part, from: view)
                    } else {
                        dot = dot.union(painter.paint(into: canvas.buffer, over: view, centerX: centerX, centerY: centerY,
                                                      appearance: shown, clip: part))
                    }
                }
            }
            lastPaint = (shown, centerX, centerY)
        } else {
            if !lagging.isEmpty { catchUp() }
            for i in 0..<changed.count {
                let part = changed[i]
                restoreBackground(part)
                drawMapLayers(clip: part)
                if let appearance, !dot.intersection(part).isEmpty {
                    dot = dot.union(painter.paint(into: canvas.buffer, centerX: centerX, centerY: centerY,
                                                  appearance: appearance, clip: part))
                }
            }
        }
        if layered {
            for layer in screenLayers {
                for i in 0..<changed.count { layer.draw(into: canvas.buffer, clip: changed[i]) }
            }
            fresh = dot.union(layerFrames())
        } else {
            fresh = dot
        }
        lastDot = dot
        return changed
    }

    /// Adds `layer` on top of the others of its place; the next frame is drawn whole.
    public func add(_ layer: any Layer, on place: LayerPlace) {
        switch place {
        case .map: mapLayers.append(layer)
        case .screen: screenLayers.append(layer)
        }
        layered = true
        needsFullFrame = true
    }

    /// Takes `layer` out of the scene; the next frame is drawn whole.
    public func remove(_ layer: any Layer) {
        mapLayers.removeAll { $0 === layer }
        screenLayers.removeAll { $0 === layer }
        layered = !mapLayers.isEmpty || !screenLayers.isEmpty
        needsFullFrame = true
        fresh = nil
    }

    /// What every layer says changed on the canvas since the last frame, added to `region`.
    private func takeLayerDamage(into region: inout DamageRegion) {
        for layer in mapLayers { layer.takeDamage(into: &region, within: bounds) }
        for layer in screenLayers { layer.takeDamage(into: &region, within: bounds) }
    }

    /// Where any layer may differ from the background: with the dot, what copy-out narrows.
    private func layerFrames() -> Rect {
        var r = Rect.empty
        for layer in mapLayers { r = r.union(layer.frame) }
        for layer in screenLayers { r = r.union(layer.frame) }
        return r
    }

    private func mapLayersMeet(_ region: DamageRegion) -> Bool {
        for layer in mapLayers where region.meets(layer.frame) { return true }
        return false
    }

    private func drawMapLayers(clip: Rect) {
        if !layered { return }
        for layer in mapLayers { layer.draw(into: canvas.buffer, clip: clip) }
    }

    /// A frame after the tiled view moved by `scroll`: the canvas's picture — the map and its
    /// map layers — is moved along with it in whole-row copies, and only what that got wrong is
    /// restored from the tiles, with the map layers drawn again there: the strips it uncovered,
    /// the old dot and the screen layers where they moved to, the screen layers' own places, tiles
    /// that arrived, what layers changed — before the dot and the screen layers are drawn. Every
    /// pixel ends up as a full redraw would leave it; on screen the whole canvas changed.
    private func renderScrolled(_ appearance: DotAppearance?, centerX: Double, centerY: Double,
                                by scroll: (x: Int, y: Int), over mosaic: TileMosaic) -> DamageRegion {
        canvas.buffer.scrollContents(byX: -scroll.x, y: -scroll.y)
        fresh = nil
        func moved(_ r: Rect) -> Rect { Rect(x: r.x - scroll.x, y: r.y - scroll.y, width: r.width, height: r.height) }
        func restore(_ r: Rect) {
            let r = r.intersection(bounds)
            if r.isEmpty { return }
            mosaic.restore(r, into: canvas.buffer)
            drawMapLayers(clip: r)
        }
        let all = bounds
        if scroll.x > 0 { restore(Rect(x: width - scroll.x, y: 0, width: scroll.x, height: height)) }
        if scroll.x < 0 { restore(Rect(x: 0, y: 0, width: -scroll.x, height: height)) }
        if scroll.y > 0 { restore(Rect(x: 0, y: height - scroll.y, width: width, height: scroll.y)) }
        if scroll.y < 0 { restore(Rect(x: 0, y: 0, width: width, height: -scroll.y)) }
        restore(moved(lastDot))
        for layer in screenLayers {
            restore(moved(layer.frame))
            restore(layer.frame)
        }
        restore(staleBackground)
        staleBackground = .empty
        if layered {
            var damaged = DamageRegion()
            takeLayerDamage(into: &damaged)
            for i in 0..<damaged.count { restore(damaged[i]) }
        }
        var dot = Rect.empty
        if let appearance {
            dot = painter.bounds(centerX: centerX, centerY: centerY, appearance: appearance).intersection(all)
            if !dot.isEmpty {
                dot = dot.union(painter.paint(into: canvas.buffer, centerX: centerX, centerY: centerY, appearance: appearance, clip: all))
            }
        }
        if layered { for layer in screenLayers { layer.draw(into: canvas.buffer, clip: all) } }
        // Every pixel is now what a full redraw leaves: the tiles, but for the dot and the layers.
        fresh = layered ? dot.union(layerFrames()) : dot
        lastDot = dot
        return DamageRegion(all)
    }

    /// The tiled view moved by (`dx`, `dy`) map pixels: the next `render` scrolls the canvas by as
    /// much and redraws only what that uncovers. A move of half the canvas or more is redrawn whole.
    public func scrollCanvas(byX dx: Int, y dy: Int) {
        guard case .tiles = background else {
            needsFullFrame = true
            return
        }
        let total = (x: (pendingScroll?.x ?? 0) + dx, y: (pendingScroll?.y ?? 0) + dy)
        // Background marked stale so far was in the old view's coordinates.
        staleBackground = Rect(x: staleBackground.x - dx, y: staleBackground.y - dy, width: staleBackground.width,
                               height: staleBackground.height).intersection(bounds)
        if abs(total.x) * 2 >= width || abs(total.y) * 2 >= height { needsFullFrame = true }
        pendingScroll = total
    }

    /// Forgets what is on the canvas: the next `render` redraws it all (when the canvas was
    /// written by someone else, or the view moved over an unchanged background). The narrowed
    /// background copy stays: its pixels are still the background's.
    public func invalidate() {
        needsFullFrame = true
        fresh = nil
    }

    /// The background frame's pixels were rewritten in place (a composed map window moved): the
    /// narrowed copy follows them, and the next `render` redraws the canvas. Narrowing the whole
    /// map costs as much as a dozen full frames, so only a real rewrite asks for it.
    public func backgroundRewritten() {
        invalidate()
        if case .frame(let f) = background, let n = narrowed { n.refresh(f.buffer.bounds, from: f.buffer) }
    }

    /// The background under `rect` changed (a tile arrived, the frame's pixels were rewritten):
    /// the next `render` redraws it.
    public func invalidate(_ rect: Rect) {
        staleBackground = staleBackground.union(rect.intersection(bounds))
        fresh = nil
        if case .frame(let f) = background, let n = narrowed {
            n.refresh(Rect(x: rect.x + backgroundOrigin.x, y: rect.y + backgroundOrigin.y, width: rect.width,
                           height: rect.height).intersection(f.buffer.bounds), from: f.buffer)
        }
    }

    /// Shows a larger background frame from (x, y) (clamped so the canvas stays inside it); the
    /// next `render` redraws everything when that moved the view.
    public func scrollBackground(toX x: Int, y: Int) {
        guard case .frame(let f) = background else { return }
        let o = (x: min(max(x, 0), f.buffer.width - width), y: min(max(y, 0), f.buffer.height - height))
        if o != backgroundOrigin {
            backgroundOrigin = o
            needsFullFrame = true
            fresh = nil
        }
    }

    /// Copies `region` of the canvas into `target` (XRGB8888 as is, RGB565 narrowed by
    /// look.md's tables), turned by `rotation` (`target` is the panel); returns the target
    /// rectangle written. Into RGB565 after `prepareCopyOut` for that rotation, over a background
    /// frame, only what the last `render` drew is narrowed; the rest comes from the narrowed map.
    @discardableResult
    public func copyOut(_ region: Rect, to target: PixelBuffer, rotation: Rotation = .r0) -> Rect {
        if target.format == .rgb565, let fresh {
            if let n = narrowed, n.rotation == rotation {
                return canvas.buffer.copyOut(region: region, to: target, rotation: rotation, narrowed: n,
                                             originX: backgroundOrigin.x, originY: backgroundOrigin.y, fresh: fresh)
            }
            if !lagging.isEmpty { catchUp() }
            if rotation == .r0, case .tiles(let m) = background, m.hasNarrowed {
                return m.copyOutNarrowed(region, from: canvas.buffer, to: target, fresh: fresh)
            }
        }
        if !lagging.isEmpty { catchUp() }
        return canvas.buffer.copyOut(region: region, to: target, rotation: rotation)
    }

    /// Every part of `region` copied out as `copyOut(_:to:rotation:)` copies one.
    @discardableResult
    public func copyOut(_ region: DamageRegion, to target: PixelBuffer, rotation: Rotation = .r0) -> Copied {
        Copied(region) { copyOut($0, to: target, rotation: rotation) }
    }

    /// The whole canvas as the last frame drew it, for readers other than `copyOut` (a
    /// screenshot, a display's own canvas): the parts left behind the map are restored now.
    public func wholeCanvas() -> PixelBuffer {
        if !lagging.isEmpty { catchUp() }
        return canvas.buffer
    }

    /// Makes the lagging pixels what the last frame would have drawn there: the map, and the dot
    /// over it where it reaches.
    private func catchUp() {
        if case .frame(let f) = background {
            painter.paint(into: canvas.buffer, over: backgroundView(f), centerX: lastPaint.x, centerY: lastPaint.y,
                          appearance: lastPaint.appearance, clip: lagging)
        }
        lagging = .empty
    }

    /// Makes the RGB565 copy of a background frame that copy-out to `format` in `rotation` reads
    /// (once, when the map is there: 2 bytes per map pixel); nothing for XRGB8888, a colour, or a
    /// map whose copy would take more than `maximumBytes`.
    public func prepareCopyOut(format: PixelFormat, rotation: Rotation = .r0, maximumBytes: Int = .max) {
        // Tiles keep RGB565 copies in their pool (unturned panels): asked for here, made by the
        // map's owner at its next move, used once they are all there.
        if format == .rgb565, rotation == .r0, case .tiles(let m) = background { m.requestNarrowed() }
        guard format == .rgb565, case .frame(let f) = background, narrowed?.rotation != rotation else { return }
        if f.buffer.width * f.buffer.height > maximumBytes / 2 { return }
        narrowed = NarrowedCopy(of: f.buffer, rotation: rotation)
    }

    /// Bytes of the narrowed background copy (0 without one).
    public var narrowedBytes: Int { narrowed.map { $0.frame.buffer.stride * $0.frame.buffer.height } ?? 0 }

    /// The canvas-sized part of the background frame shown from `backgroundOrigin`.
    private func backgroundView(_ f: OwnedPixelBuffer) -> PixelBuffer {
        PixelBuffer(base: f.buffer.row(backgroundOrigin.y) + backgroundOrigin.x * 4, width: width,
                    height: height, stride: f.buffer.stride, format: .xrgb8888)
    }

    private func restoreBackground(_ rect: Rect) {
        switch background {
        case .color(let c): canvas.buffer.fill(rect, with: c)
        case .frame(let f): canvas.buffer.copy(rect, from: backgroundView(f))
        case .tiles(let m): m.restore(rect, into: canvas.buffer)
        }
    }
}

/// A frame that cannot be set up, as one line.
public struct FrameError: Error, Equatable, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
