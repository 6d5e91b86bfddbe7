import Raster
import Tiles

/// A fixed pool of decoded tiles: `slotCount` XRGB8888 squares in one allocation made at start,
/// each holding one tile, the least recently used one given up when a new tile needs room. Memory
/// is the pool's and nothing else, however large the map or long the drive. Used by the loop
/// only; a slot lent to the worker (`loading`) is not read or reused until it comes back.
final class TileCache {
    enum State: Equatable {
        case free
        /// Lent to the worker, which is writing the tile into it.
        case loading
        /// Holds the tile; `blank`: the map has none there (or it was damaged), the colour shows.
        case ready(blank: Bool)
    }

    let tileSize: Int
    let slotCount: Int
    private let storage: UnsafeMutableRawPointer
    /// RGB565 copies of the slots, slot for slot, for an RGB565 panel (`keepNarrowed`): copy-out
    /// then moves the map's pixels as they are instead of narrowing each one every frame.
    private(set) var narrowedStorage: UnsafeMutableRawPointer?
    private var ids: [TileID?]
    private(set) var states: [State]
    private var lastUse: [UInt64]
    private var index: [TileID: Int]
    private var clock: UInt64 = 0

    var slotBytes: Int { tileSize * tileSize * 4 }
    var byteCount: Int { slotBytes * slotCount }

    init(tileSize: Int, slotCount: Int) {
        precondition(slotCount > 0 && tileSize > 0, "a tile cache needs at least one slot")
        self.tileSize = tileSize
        self.slotCount = slotCount
        storage = .allocate(byteCount: tileSize * tileSize * 4 * slotCount, alignment: 64)
        ids = Array(repeating: nil, count: slotCount)
        states = Array(repeating: .free, count: slotCount)
        lastUse = Array(repeating: 0, count: slotCount)
        index = [:]
        index.reserveCapacity(slotCount)
    }

    deinit {
        storage.deallocate()
        narrowedStorage?.deallocate()
    }

    var narrowedByteCount: Int { narrowedStorage == nil ? 0 : tileSize * tileSize * 2 * slotCount }

    /// Keeps an RGB565 copy of every slot from now on: allocated once, the tiles already there
    /// narrowed now (a loading slot is narrowed when it comes back).
    func keepNarrowed() {
        guard narrowedStorage == nil else { return }
        narrowedStorage = .allocate(byteCount: tileSize * tileSize * 2 * slotCount, alignment: 64)
        for s in 0..<slotCount where states[s] == .ready(blank: false) { narrow(s) }
    }

    /// The RGB565 copy of `slot`, when copies are kept.
    func narrowed(_ slot: Int) -> PixelBuffer? {
        guard let n = narrowedStorage else { return nil }
        return PixelBuffer(base: n + slot * tileSize * tileSize * 2, width: tileSize, height: tileSize,
                           stride: tileSize * 2, format: .rgb565)
    }

    /// Narrows `slot` into its RGB565 copy (nothing when none are kept).
    func narrow(_ slot: Int) {
        guard let n = narrowed(slot) else { return }
        let p = pixels(slot)
        p.copyOut(region: p.bounds, to: n, rotation: .r0)
    }

    /// Narrows `region` of `slot` again (its pixels changed there: a route drawn into them).
    func narrow(_ slot: Int, _ region: Rect) {
        guard let n = narrowed(slot) else { return }
        pixels(slot).copyOut(region: region, to: n, rotation: .r0)
    }

    /// The tile `slot` holds (or is loading).
    func id(ofSlot slot: Int) -> TileID? { ids[slot] }

    /// The slot holding (or loading) `id`.
    func slot(of id: TileID) -> Int? { index[id] }

    func pixels(_ slot: Int) -> PixelBuffer {
        PixelBuffer(base: storage + slot * slotBytes, width: tileSize, height: tileSize, stride: tileSize * 4, format: .xrgb8888)
    }

    /// The pixels a view shows for `id`: its slot when ready and not blank, else nil (the colour).
    func shownPixels(of id: TileID) -> UnsafeRawPointer? {
        guard let s = index[id], states[s] == .ready(blank: false) else { return nil }
        return UnsafeRawPointer(storage + s * slotBytes)
    }

    /// The RGB565 copy of what `shownPixels(of:)` gives for `id`, when copies are kept.
    func shownNarrowed(of id: TileID) -> UnsafeRawPointer? {
        guard shownPixels(of: id) != nil, let s = index[id], let n = narrowed(s) else { return nil }
        return UnsafeRawPointer(n.base)
    }

    /// Marks `slot` as just used: the last to be given up.
    func touch(_ slot: Int) {
        clock &+= 1
        lastUse[slot] = clock
    }

    /// A slot for `id`, lent for loading: a free one, or the least recently used ready one that
    /// `keep` does not protect (the tiles in view). Nil when every slot is loading or kept.
    func claim(for id: TileID, keep: (TileID) -> Bool) -> Int? {
        var victim: Int?
        var oldest = UInt64.max
        for s in 0..<slotCount {
            switch states[s] {
            case .loading:
                continue
            case .free:
                victim = s
                oldest = 0
            case .ready:
                if lastUse[s] < oldest, let held = ids[s], !keep(held) {
                    victim = s
                    oldest = lastUse[s]
                }
            }
            if oldest == 0 { break }
        }
        guard let s = victim else { return nil }
        if let old = ids[s] { index[old] = nil }
        ids[s] = id
        states[s] = .loading
        index[id] = s
        touch(s)
        return s
    }

    /// The worker is done with `slot`.
    func finish(_ slot: Int, blank: Bool) {
        guard states[slot] == .loading else { return }
        states[slot] = .ready(blank: blank)
    }

    /// Tiles ready to show (for check-config's and the metrics' counts).
    var readyCount: Int { states.reduce(0) { $1 == .free || $1 == .loading ? $0 : $0 + 1 } }
}
