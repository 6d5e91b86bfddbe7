import Raster

/// A route drawn into the map itself — a tile's slot, a map image — rather than over every frame:
/// the map then carries it, so a frame costs what it costs without one, and a plane's map picture
/// copied from the map pans it along. Putting the route back when its travelled part or next stop
/// changes needs the map's own pixels under it, so those are kept here, in 16 px cells, for the
/// cells the route may colour and no others: a strip along the line, not a copy of the map.
///
/// Every surface the route is drawn into must get it through `apply` while the surface still
/// shows the bare map, and be repainted (`repaint`) with the route's map damage after each
/// change of its travelled part or next stop. Its line, stops and style are those it had at
/// `init` (the cells kept depend on them): another line or look is another underlay, made after
/// this one was removed. Nothing here allocates after `init`.
public final class RouteUnderlay {
    public static let shift = 4
    static let size = 1 << shift

    public let route: RouteLayer
    /// The cells kept (`RouteLayer.cellKey`), sorted; cell i's pixels at `store + i·size²`.
    private let keys: [Int64]
    private let store: UnsafeMutablePointer<UInt32>

    /// Off the frame path: finds the cells the route may colour and sets their room aside.
    public init(route: RouteLayer) {
        self.route = route
        keys = route.cells(shift: Self.shift)
        store = .allocate(capacity: max(keys.count, 1) * Self.size * Self.size)
    }

    deinit { store.deallocate() }

    /// Bytes kept for the map under the route.
    public var byteCount: Int { keys.count * Self.size * Self.size * 4 }

    /// Keeps the bare map's pixels under the route in `surface` (XRGB8888; its top-left is map
    /// pixel (`originX`, `originY`)), then draws the route there. Returns the surface rectangle
    /// that may have changed.
    @discardableResult
    public func apply(to surface: PixelBuffer, originX: Int, originY: Int) -> Rect {
        let touched = forEachCell(in: surface.bounds, of: surface, originX: originX, originY: originY, save: true)
        if !touched.isEmpty { route.draw(into: surface, clip: touched, originX: originX, originY: originY) }
        return touched
    }

    /// The map's pixels put back in `rect` (map pixels) of `surface`, and the route drawn there as
    /// it is now: `route.takeMapDamage()` after a change of the travelled part or the next stop.
    /// Returns the surface rectangle that may have changed.
    @discardableResult
    public func repaint(_ rect: Rect, in surface: PixelBuffer, originX: Int, originY: Int) -> Rect {
        let local = Rect(x: rect.x - originX, y: rect.y - originY, width: rect.width, height: rect.height)
        let touched = forEachCell(in: local, of: surface, originX: originX, originY: originY, save: false)
        // Every pixel the route may colour inside `touched` was just put back: it is drawn once.
        if !touched.isEmpty { route.draw(into: surface, clip: touched, originX: originX, originY: originY) }
        return touched
    }

    /// Takes the route out of `surface` (the map's pixels back). Returns the rectangle changed.
    @discardableResult
    public func remove(from surface: PixelBuffer, originX: Int, originY: Int) -> Rect {
        forEachCell(in: surface.bounds, of: surface, originX: originX, originY: originY, save: false)
    }

    /// Copies every kept cell's part inside `local` (surface pixels) from the surface (`save`) or
    /// back into it; returns the rectangle those parts span.
    private func forEachCell(in local: Rect, of surface: PixelBuffer, originX: Int, originY: Int, save: Bool) -> Rect {
        precondition(surface.format == .xrgb8888, "a route is drawn into an xrgb8888 map")
        let area = local.intersection(surface.bounds)
        if area.isEmpty || keys.isEmpty { return .empty }
        let mx = area.x + originX, my = area.y + originY
        let c0 = mx >> Self.shift, c1 = (mx + area.width - 1) >> Self.shift
        let r0 = my >> Self.shift, r1 = (my + area.height - 1) >> Self.shift
        var touched = Rect.empty
        var row = r0
        while row <= r1 {
            var i = lowerBound(RouteLayer.cellKey(column: c0, row: row))
            let last = RouteLayer.cellKey(column: c1, row: row)
            while i < keys.count, keys[i] <= last {
                let column = Int(Int32(bitPattern: UInt32(truncatingIfNeeded: keys[i]) ^ 0x8000_0000))
                let cell = Rect(x: (column << Self.shift) - originX, y: (row << Self.shift) - originY, width: Self.size, height: Self.size)
                let part = cell.intersection(area)
                if !part.isEmpty {
                    copy(part, cell: cell, slot: store + i * Self.size * Self.size, surface: surface, save: save)
                    touched = touched.union(part)
                }
                i += 1
            }
            row += 1
        }
        return touched
    }

    private func copy(_ part: Rect, cell: Rect, slot: UnsafeMutablePointer<UInt32>, surface: PixelBuffer, save: Bool) {
        var kept = slot + (part.y - cell.y) * Self.size + (part.x - cell.x)
        for y in part.y..<part.maxY {
            let pixels = surface.row(y).assumingMemoryBound(to: UInt32.self) + part.x
            if save { kept.update(from: pixels, count: part.width) } else { pixels.update(from: kept, count: part.width) }
            kept += Self.size
        }
    }

    /// The first index whose key is at least `key`.
    private func lowerBound(_ key: Int64) -> Int {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
