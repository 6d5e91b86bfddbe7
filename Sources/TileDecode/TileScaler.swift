import Raster

/// A tile for a zoom level the tile set lacks, made from a decoded ancestor: the part of the
/// ancestor the child covers, enlarged by pixel replication. Replication rather than filtering:
/// integer copies, so the same bytes on every machine, and the seams between neighbouring
/// enlarged tiles match because no pixel reads across a tile's edge.
public enum TileScaler {
    /// Fills `child` from `parent`, `levels` zoom levels up (1: the parent's quarter at 2x,
    /// 2: a sixteenth at 4x). `column` and `row` are where the child sits within that parent,
    /// counted from the left and from the top: the child's x and y modulo 2^levels in the XYZ
    /// scheme (a TMS reader flips y first). Both buffers XRGB8888, the same square size.
    public static func enlarge(_ parent: PixelBuffer, levels: Int, column: Int, row: Int, into child: PixelBuffer) {
        let size = parent.width
        precondition(parent.format == .xrgb8888 && child.format == .xrgb8888 && parent.height == size
                     && child.width == size && child.height == size,
                     "tiles are enlarged between xrgb8888 squares of one size, not \(parent.width)x\(parent.height) to \(child.width)x\(child.height)")
        precondition(levels >= 1 && size % (1 << levels) == 0 && size >> levels >= 1,
                     "\(levels) levels cannot enlarge a \(size) px tile")
        let factor = 1 << levels
        precondition((0..<factor).contains(column) && (0..<factor).contains(row),
                     "a child \(levels) levels down sits at column and row 0...\(factor - 1), not \(column), \(row)")
        precondition(parent.base != child.base, "a tile cannot be enlarged onto itself")
        let span = size >> levels
        for sy in 0..<span {
            let source = UnsafePointer(parent.row(row * span + sy).assumingMemoryBound(to: UInt32.self)) + column * span
            let first = child.row(sy * factor).assumingMemoryBound(to: UInt32.self)
            for sx in 0..<span {
                let pixel = source[sx]
                for k in 0..<factor { first[sx * factor + k] = pixel }
            }
            // The other rows of the band are the same row again.
            for k in 1..<factor {
                child.row(sy * factor + k).copyMemory(from: first, byteCount: size * 4)
            }
        }
    }
}
