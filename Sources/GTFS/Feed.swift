import Syscall

/// A GTFS feed as published: a folder of `.txt` files or a zip of them (members found by their
/// base name, so a zip of a folder works too). Files are opened one at a time as CSV tables read
/// in chunks; nothing is held whole.
public final class Feed {
    private enum Storage {
        case folder
        case zip(ZipArchive, [String: ZipArchive.Entry])
    }

    public let path: String
    private let storage: Storage
    /// The feed's `.txt` files by name, with their uncompressed sizes.
    public let files: [String: Int64]

    public init(path: String) throws(GTFSError) {
        self.path = path
        let status: FileStatus
        do { status = try FileStatus(path: path) } catch {
            throw GTFSError(file: path, message: "cannot open the feed: \(error.message)")
        }
        if status.kind == .directory {
            var files: [String: Int64] = [:]
            let names: [String]
            do { names = try Directory.entries(path) } catch { throw GTFSError(file: path, message: "cannot list the folder: \(error.message)") }
            for name in names where name.hasSuffix(".txt") {
                if let s = try? FileStatus(path: Self.join(path, name)), s.kind == .regularFile { files[name] = s.size }
            }
            storage = .folder
            self.files = files
        } else {
            let archive = try ZipArchive(RandomAccessFile(path: path))
            var byName: [String: ZipArchive.Entry] = [:]
            var depth: [String: Int] = [:]
            for entry in archive.entries where entry.name.hasSuffix(".txt") {
                let parts = entry.name.split(separator: "/")
                guard let base = parts.last, !base.hasPrefix("._") else { continue }
                // The shallowest copy wins: a feed zipped with its folder has one level more.
                if let d = depth[String(base)], d <= parts.count { continue }
                depth[String(base)] = parts.count
                byName[String(base)] = entry
            }
            storage = .zip(archive, byName)
            files = byName.mapValues { $0.uncompressedSize }
        }
    }

    public func contains(_ name: String) -> Bool { files[name] != nil }

    /// The sum of the files' sizes, uncompressed: what an importer must be ready to read.
    public var totalSize: Int64 { files.values.reduce(0, +) }

    /// The name errors give a file of this feed: `feed.zip/stops.txt`, `folder/stops.txt`.
    public func displayName(_ name: String) -> String {
        if case .zip(_, let entries) = storage, let entry = entries[name] { return Self.join(path, entry.name) }
        return Self.join(path, name)
    }

    /// The bytes of one file, read in chunks.
    public func source(_ name: String) throws(GTFSError) -> any ByteSource {
        switch storage {
        case .folder:
            guard files[name] != nil else { throw GTFSError(file: displayName(name), message: "no such file in the feed") }
            return try FileSource(path: Self.join(path, name))
        case .zip(let archive, let entries):
            guard let entry = entries[name] else { throw GTFSError(file: displayName(name), message: "no such file in the feed") }
            return try archive.open(entry)
        }
    }

    /// One file as a CSV table, its header read.
    public func table(_ name: String) throws(GTFSError) -> CSVTable {
        try CSVTable(source: source(name), file: displayName(name))
    }

    /// SHA-256 in hex: of the zip file's bytes; of a folder, over its `.txt` files in name order,
    /// each as its name, a NUL, its size in decimal, a NUL, then its bytes (so moving bytes from
    /// one file to the next changes the hash).
    public func hash() throws(GTFSError) -> String {
        var hasher = SHA256()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
        defer { chunk.deallocate() }
        func feed(_ source: any ByteSource) throws(GTFSError) {
            while true {
                let n = try source.read(into: chunk)
                if n == 0 { return }
                hasher.update(UnsafeRawBufferPointer(rebasing: chunk[..<n]))
            }
        }
        switch storage {
        case .zip:
            try feed(FileSource(path: path))
        case .folder:
            for name in files.keys.sorted() {
                hasher.update(name)
                hasher.update([0])
                hasher.update(String(files[name]!))
                hasher.update([0])
                try feed(FileSource(path: Self.join(path, name)))
            }
        }
        return hasher.finish()
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
