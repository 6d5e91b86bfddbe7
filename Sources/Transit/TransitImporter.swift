import GTFS
import Syscall

/// Builds the index of a feed: into `<cache>/<sha256 of the feed>.sqlite` (reused when it is
/// already there) or into a named file; always written to a temporary file beside the target and
/// renamed over it when complete, so a reader sees the old index or the new one, never half.
public enum TransitImporter {
    /// What an import did.
    public struct Report: Sendable {
        public let path: String
        public let feedHash: String
        /// The index for this feed was already in the cache.
        public let reused: Bool
        /// One line per kind of row left out, with its count and the first.
        public let skipped: [String]
        public let info: TransitIndex.Info
    }

    /// Room asked for beyond the feed's own size: SQLite's temporary sort space for the indexes.
    static let headroom: Int64 = 16 << 20
    /// The page cache while importing, in KiB (SQLite's negative cache_size): enough for the
    /// indexes being built to stay in memory for a city's feed, and bounded for a country's.
    static let importCacheKiB = 16384

    public static func cachePath(directory: String, feedHash: String) -> String {
        join(directory, feedHash + ".sqlite")
    }

    /// What the cache holds for a feed, found without building anything.
    public struct Lookup: Sendable {
        /// Where the feed's index is, or would be built.
        public let path: String
        public let feedHash: String
        /// The index's summary; nil when it is not built yet.
        public let info: TransitIndex.Info?
    }

    /// The feed opened (its files listed, the required ones there) and hashed, and the index the
    /// cache holds for that hash looked up; nothing is written. A check's way to a feed: an import
    /// of a large feed takes minutes and is the daemon's to run, off its frame loop.
    public static func lookUp(feedAt feedPath: String, cacheDirectory: String) throws(TransitError) -> Lookup {
        let (_, hash) = try checkedFeed(feedPath) { _ in }
        let target = cachePath(directory: cacheDirectory, feedHash: hash)
        return Lookup(path: target, feedHash: hash, info: try built(target, feedHash: hash)?.info())
    }

    /// The feed opened, its files checked (before anything is hashed or written, so a feed
    /// missing one is refused at once) and its hash.
    static func checkedFeed(_ feedPath: String, progress: (String) -> Void) throws(TransitError) -> (Feed, String) {
        let feed: Feed
        do { feed = try Feed(path: feedPath) } catch { throw .feed(error) }
        try FeedImport.checkFiles(feed)
        progress("hashing \(feedPath)")
        do { return (feed, try feed.hash()) } catch { throw .feed(error) }
    }

    /// The index at `target` when it was built from the feed with this hash.
    static func built(_ target: String, feedHash: String) -> TransitIndex? {
        guard let index = try? TransitIndex(path: target), index.feedHash == feedHash else { return nil }
        return index
    }

    public static func importFeed(at feedPath: String, output: String? = nil, cacheDirectory: String,
                                  progress: @escaping (String) -> Void) throws(TransitError) -> Report {
        let (feed, hash) = try checkedFeed(feedPath, progress: progress)
        let target = output ?? cachePath(directory: cacheDirectory, feedHash: hash)
        if output == nil, let index = built(target, feedHash: hash) {
            progress("index for this feed already built: \(target)")
            return Report(path: target, feedHash: hash, reused: true, skipped: [], info: try index.info())
        }
        let (directory, name) = split(target)
        do { try Directory.create(directory) } catch { throw .system(error) }
        let needed = feed.totalSize + headroom
        let available: Int64
        do { available = try FileSystem.availableBytes(directory) } catch { throw .system(error) }
        guard available >= needed else { throw .noSpace(directory: directory, needed: needed, available: available) }

        let temporary = AtomicFile.temporaryPath(directory: directory, name: name)
        do { try FileSystem.remove(temporary) } catch { throw .system(error) }
        var skipped: [String] = []
        do throws(TransitError) {
            let database = try IndexDatabase.open(temporary, writable: true)
            // The file is renamed into place only when complete, so a crash leaves a temporary
            // file to overwrite, never a damaged index: SQLite's rollback journal buys nothing.
            try database.execute("PRAGMA journal_mode = OFF; PRAGMA cache_size = -\(importCacheKiB); PRAGMA temp_store = FILE")
            let importer = FeedImport(feed: feed, database: database, progress: progress)
            try importer.run()
            skipped = importer.tally.lines
            try database.execute("""
                INSERT INTO meta (key, value) VALUES ('version', \(IndexSchema.version)), ('feed_sha256', '\(hash)'),
                ('feed', \(sqlQuoted(feedPath))), ('skipped', \(importer.tally.total))
                """, doing: "writing the index's metadata")
        } catch {
            try? FileSystem.remove(temporary)
            throw error
        }
        do { try FileSystem.rename(temporary, to: target) } catch {
            try? FileSystem.remove(temporary)
            throw .system(error)
        }
        let index = try TransitIndex(path: target)
        return Report(path: target, feedHash: hash, reused: false, skipped: skipped, info: try index.info())
    }

    static func sqlQuoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
    }

    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
