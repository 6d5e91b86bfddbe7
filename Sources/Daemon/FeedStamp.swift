import Syscall

/// What the feed's files are on disk, so that a reload loads a feed replaced at the same path
/// (by rename, as a tile set is) and keeps the one loaded when nothing changed: the path's
/// identity, size and time for a zip; for a folder, its own identity and each file's.
struct FeedStamp: Equatable, Sendable {
    struct Entry: Equatable, Sendable {
        var name: String
        var identity: FileIdentity
        var size: Int64
        var modified: Int64
    }

    var entries: [Entry]

    /// nil when the path cannot be examined: the load then says why.
    static func read(_ path: String) -> FeedStamp? {
        guard let status = try? FileStatus(path: path) else { return nil }
        var entries = [Entry(name: "", identity: status.identity, size: status.size, modified: status.modificationTime)]
        if status.kind == .directory {
            guard let names = try? Directory.entries(path) else { return nil }
            for name in names.sorted() {
                guard let s = try? FileStatus(path: path + "/" + name) else { continue }
                entries.append(Entry(name: name, identity: s.identity, size: s.size, modified: s.modificationTime))
            }
        }
        return FeedStamp(entries: entries)
    }
}
