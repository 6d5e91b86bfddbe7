import Syscall

// Placeholder until the folder reader lands (replaced by it on merge).
public final class TileFolder: TileStore {
    public let path: String
    public let metadata: MBTilesMetadata
    public init(path: String, scheme: TileScheme) throws(TileSetError) {
        throw TileSetError("\(path): tile folders are not readable yet")
    }
    public func read(_ id: TileID) -> TileRead { .missing }
    public func hasBeenReplaced() throws(SyscallError) -> Bool { false }
    public func close() {}
}
