import Compositor
import Raster
import Tiles

/// A transit route carried by the tiles themselves: drawn into each tile as it comes into the
/// pool (and into its RGB565 copy), so a frame over a still map costs what it costs without a
/// route, scrolling moves it with the map, and a plane's map picture — drawn from the same slots —
/// shows it too. When the travelled part or the next stop changes, only the tiles in the pool the
/// change touches are repainted there, from the map's pixels kept under the route.
extension TiledMap {
    /// Draws `route` (map pixels of this map) into the tiles from now on, taking out the one
    /// drawn before. Off the frame path (it allocates); the whole canvas is then to be redrawn.
    public func setRoute(_ route: RouteLayer?) {
        if route === routeUnderlay?.route { return }
        let old = routeUnderlay
        routeUnderlay = route.map { RouteUnderlay(route: $0) }
        // Drawn whole below: what the route said changed so far is in it.
        _ = route?.takeMapDamage()
        for slot in 0..<cache.slotCount where cache.states[slot] == .ready(blank: false) {
            guard let id = cache.id(ofSlot: slot) else { continue }
            let o = origin(of: id), pixels = cache.pixels(slot)
            var region = old?.remove(from: pixels, originX: o.x, originY: o.y) ?? .empty
            if let u = routeUnderlay { region = region.union(u.apply(to: pixels, originX: o.x, originY: o.y)) }
            if !region.isEmpty { cache.narrow(slot, region) }
        }
        if pictureTiles != nil { pictureOutdated = true }
    }

    /// The route drawn into the tiles, if any.
    public var route: RouteLayer? { routeUnderlay?.route }

    /// Bytes kept for the map's pixels under the route.
    public var routeBytes: Int { routeUnderlay?.byteCount ?? 0 }

    /// After the route's travelled part or next stop changed: the tiles in the pool it touches
    /// repainted where it changed (and their RGB565 copies). Returns the canvas area to redraw.
    /// Allocates nothing.
    public func routeMoved() -> Rect {
        guard let u = routeUnderlay else { return .empty }
        let damage = u.route.takeMapDamage()
        if damage.isEmpty { return .empty }
        let shift = tileSet.tileSize.trailingZeroBitCount
        var changed = Rect.empty
        for row in (damage.y >> shift)...((damage.maxY - 1) >> shift) {
            for column in (damage.x >> shift)...((damage.maxX - 1) >> shift) {
                guard column >= 0, column < columns, row >= 0, row < rows else { continue }
                let id = TileID(z: zoom, x: firstColumn + column, y: firstRow + row)
                guard let slot = cache.slot(of: id), cache.states[slot] == .ready(blank: false) else { continue }
                let ox = column << shift, oy = row << shift
                let r = u.repaint(damage, in: cache.pixels(slot), originX: ox, originY: oy)
                if r.isEmpty { continue }
                cache.narrow(slot, r)
                changed = changed.union(Rect(x: ox + r.x - mosaic.offset.x, y: oy + r.y - mosaic.offset.y, width: r.width, height: r.height))
                if pictureTiles?.contains(column: column, row: row) == true { pictureOutdated = true }
            }
        }
        return changed.intersection(Rect(x: 0, y: 0, width: mosaic.canvasWidth, height: mosaic.canvasHeight))
    }

    /// A tile the worker finished: the route drawn into it, its RGB565 copy brought up to date.
    func settle(_ slot: Int, id: TileID, narrowedByWorker: Bool) {
        var region = Rect.empty
        if let u = routeUnderlay {
            let o = origin(of: id)
            region = u.apply(to: cache.pixels(slot), originX: o.x, originY: o.y)
        }
        if !narrowedByWorker {
            cache.narrow(slot)
        } else if !region.isEmpty {
            cache.narrow(slot, region)
        }
    }

    /// The map pixel at tile `id`'s top-left.
    private func origin(of id: TileID) -> (x: Int, y: Int) {
        let size = tileSet.tileSize
        return ((id.x - firstColumn) * size, (id.y - firstRow) * size)
    }
}
