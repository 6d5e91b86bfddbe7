import Raster
import TileDecode
import Tiles

/// What the tile worker does with one request: read the tile's bytes and decode them into the
/// lent slot, or — for a zoom deeper than the tile set has — decode the ancestor and enlarge the
/// part the tile covers. Runs on the worker thread only, so the store and the decoder are its own.
final class TileProducer {
    let store: any TileStore
    let decoder: TileDecoder
    /// The zoom the view shows and the deepest zoom the tile set has at or above it.
    let zoom: Int
    let sourceZoom: Int
    /// The last ancestor decoded (four or sixteen tiles in view share one), and how that went.
    private let ancestor: OwnedPixelBuffer?
    private var ancestorID: TileID?
    private var ancestorOutcome = Outcome.missing

    enum Outcome: Equatable {
        case decoded
        /// The map has no tile there: the colour shows, nothing to report.
        case missing
        /// Damaged or unreadable: the colour shows, and the log says why (naming z/x/y).
        case failed(String)
    }

    init(store: any TileStore, decoder: TileDecoder, zoom: Int, sourceZoom: Int) {
        self.store = store
        self.decoder = decoder
        self.zoom = zoom
        self.sourceZoom = sourceZoom
        let n = decoder.tileSize.pixels
        ancestor = zoom > sourceZoom ? OwnedPixelBuffer(width: n, height: n, format: .xrgb8888) : nil
    }

    func produce(_ request: TileRequest) -> TileDelivery {
        let id = request.id
        var outcome: Outcome
        if let ancestor {
            let levels = zoom - sourceZoom
            let parent = TileID(z: sourceZoom, x: id.x >> levels, y: id.y >> levels)
            if parent != ancestorID {
                ancestorID = parent
                ancestorOutcome = decode(parent, into: ancestor.buffer)
            }
            outcome = ancestorOutcome
            if outcome == .decoded {
                let mask = (1 << levels) - 1
                TileScaler.enlarge(ancestor.buffer, levels: levels, column: id.x & mask, row: id.y & mask, into: request.pixels)
            }
        } else {
            outcome = decode(id, into: request.pixels)
        }
        switch outcome {
        case .decoded:
            var delivery = TileDelivery(id: id, slot: request.slot, blank: false, problem: nil)
            if let n = request.narrowed {
                request.pixels.copyOut(region: request.pixels.bounds, to: n, rotation: .r0)
                delivery.narrowed = true
            }
            return delivery
        case .missing: return TileDelivery(id: id, slot: request.slot, blank: true, problem: nil)
        case .failed(let why): return TileDelivery(id: id, slot: request.slot, blank: true, problem: why)
        }
    }

    private func decode(_ id: TileID, into slot: PixelBuffer) -> Outcome {
        switch store.read(id) {
        case .missing:
            return .missing
        case .failed(let problem):
            return .failed(problem)
        case .bytes(let bytes):
            do throws(TileDecodeError) {
                try decoder.decode(bytes, into: slot)
                return .decoded
            } catch {
                return .failed("tile \(id): \(error)")
            }
        }
    }
}
