#if hasFeature(Embedded)
// Embedded Swift's standard library has no substring search (it lives in _StringProcessing,
// which Embedded Swift lacks); the few messages the daemon looks into are short.
extension String {
    public func contains(_ other: String) -> Bool {
        let haystack = Array(utf8), needle = Array(other.utf8)
        if needle.isEmpty { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }
}
#endif
