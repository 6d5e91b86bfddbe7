// The standard library's byte access (`withUnsafeBytes`, `withUTF8`, `withUnsafeMutableBytes`)
// only rethrows untyped errors, which would erase the typed errors of the calls made inside it.
// These carry the typed error out through a `Result`, in one place.

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` for a body that throws a typed error.
    public func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withUnsafeBytes { bytes in Result { () throws(E) -> R in try body(bytes) } }.get()
    }

    /// `withUnsafeMutableBytes` for a body that throws a typed error.
    public mutating func withMutableBytes<R, E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withUnsafeMutableBytes { bytes in Result { () throws(E) -> R in try body(bytes) } }.get()
    }
}

extension String {
    /// The text's UTF-8 bytes, contiguous, for a body that throws a typed error.
    public func withUTF8Bytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        var text = self
        return try text.withUTF8 { bytes in Result { () throws(E) -> R in try body(UnsafeRawBufferPointer(bytes)) } }.get()
    }
}
