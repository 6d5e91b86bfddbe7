import Glibc
import Syscall

extension APIKey {
    /// The key systemd passed with `LoadCredential=NAME:PATH` (or `SetCredential=`):
    /// `$CREDENTIALS_DIRECTORY/NAME`, its trailing line break dropped. Errors name the file, never
    /// a byte of what it holds.
    public static func load(credential name: String, header: String) throws(FetchError) -> APIKey {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw FetchError(.setup, url: "(API key)", "credential name '\(name)' is not a plain file name")
        }
        guard let directory = Environment.value("CREDENTIALS_DIRECTORY"), !directory.isEmpty else {
            throw FetchError(.setup, url: "(API key)", "credential \(name): $CREDENTIALS_DIRECTORY is not set (give the key with LoadCredential=\(name):PATH in the unit)")
        }
        let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        var bytes: [UInt8]
        do { bytes = try FileDescriptor.readWholeFile(path, limit: 4096) } catch {
            throw FetchError(.setup, url: "(API key)", "credential \(name): \(error.description)")
        }
        while let last = bytes.last, last == 0x0A || last == 0x0D || last == 0x20 || last == 0x09 { bytes.removeLast() }
        guard !bytes.isEmpty else { throw FetchError(.setup, url: "(API key)", "credential \(name) (\(path)) is empty") }
        guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw FetchError(.setup, url: "(API key)", "credential \(name) (\(path)) holds a line break or control character inside the key")
        }
        return APIKey(header: header, value: String(decoding: bytes, as: UTF8.self))
    }
}
