import Glibc
import Syscall

// Drop-ins: `FILE.d/*.conf` beside the main file, read after it. The package's main file never
// changes after install, so dpkg never asks about it; a board's own settings live in drop-ins that
// dpkg does not own (a site file, then a per-vehicle file, each overriding the one before).

extension Configuration {
    /// The directory of drop-ins for the main file `file`.
    public static func dropInDirectory(of file: String) -> String { file + ".d" }

    /// Reads `path`, or `defaultPath` when nil, then its drop-ins, applies `overrides` and
    /// validates the result. A missing default file means the defaults (with a note); a missing
    /// file that was asked for is an error. A missing drop-in directory is no error; one that
    /// cannot be listed, or a drop-in that cannot be read, is, naming it. (`defaultPath` is a
    /// parameter for tests.)
    public static func load(path: String?, overrides: [String] = [],
                            defaultPath: String = Configuration.defaultPath) throws(ConfigurationError) -> Configuration {
        let file = path ?? defaultPath
        var settings = Settings()
        var mainFile: String? = file
        var bytes: [UInt8]?
        do {
            bytes = try FileDescriptor.readWholeFile(file, limit: maximumFileSize)
        } catch {
            guard path == nil && error.errno == ENOENT else {
                throw ConfigurationError(file: file, line: nil, problem: "cannot read the configuration (\(error.message))")
            }
            mainFile = nil
        }
        if let bytes { try read(String(decoding: bytes, as: UTF8.self), file: file, into: &settings) }
        let dropIns = try dropInFiles(of: file)
        for dropIn in dropIns {
            let bytes: [UInt8]
            do {
                bytes = try FileDescriptor.readWholeFile(dropIn, limit: maximumFileSize)
            } catch {
                throw ConfigurationError(file: dropIn, line: nil, problem: "cannot read the drop-in (\(error.message))")
            }
            try read(String(decoding: bytes, as: UTF8.self), file: dropIn, into: &settings)
        }
        var configuration = try apply(settings, file: mainFile, overrides: overrides)
        configuration.dropIns = dropIns
        if mainFile == nil {
            configuration.notes.append(dropIns.isEmpty ? "no configuration file at \(file): using the defaults"
                                       : "no configuration file at \(file): the defaults, then its \(count(dropIns.count, "drop-in"))")
        }
        return configuration
    }

    /// The drop-ins of `file`, in the order they are read: the names in `FILE.d/` that end in
    /// `.conf` and do not start with a dot, sorted by their bytes. Anything else there is left
    /// alone: dpkg's `.dpkg-dist` and `.dpkg-old`, editors' `~` backups and `.#` lock files.
    public static func dropInFiles(of file: String) throws(ConfigurationError) -> [String] {
        let directory = dropInDirectory(of: file)
        let names: [String]
        do {
            names = try Directory.entries(directory)
        } catch {
            if error.errno == ENOENT { return [] }
            throw ConfigurationError(file: directory, line: nil, problem: "cannot list the drop-ins (\(error.message))")
        }
        return names.filter { isDropInName($0) }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .map { directory + "/" + $0 }
    }

    static func isDropInName(_ name: String) -> Bool {
        name.hasSuffix(".conf") && name.utf8.count > 5 && !name.hasPrefix(".")
    }
}

/// "1 drop-in", "2 drop-ins".
func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
