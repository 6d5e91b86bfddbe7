// libFuzzer entry for the HTTP/1.1 response reader: a server's bytes as they come off the
// socket, read as a head, then as a chunked body, whole and in pieces (the first byte of the
// input picks the piece size), each way's outcome checked against the others.
// Built by deploy/fuzz/fuzz-http; not part of the package.
import HTTPWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 1 else { return 0 }
    let piece = Int(data[0] % 16) + 1
    let bytes = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let whole = head(bytes, piece: bytes.count)
    let split = head(bytes, piece: piece)
    precondition(same(whole, split), "a head read whole and in pieces of \(piece) differs")
    if case .failure(let error) = whole { precondition(!error.message.contains("\n"), "an error of more than one line") }
    if case .success(let found) = whole, let (h, used) = found {
        precondition(used <= bytes.count)
        precondition((100...999).contains(h.status), "status \(h.status)")
        precondition(h.fields.count <= ResponseHead.maxFields)
        for field in h.fields {
            precondition(!field.name.isEmpty && field.name == field.name.lowercased(), "field name \(field.name)")
            precondition(!field.value.contains("\r") && !field.value.contains("\n"), "a line break in a value")
        }
        if let framing = try? BodyFraming(for: h), case .exactly(let n) = framing.length { precondition(n >= 0) }
    }
    let chunkedWhole = dechunk(bytes, piece: bytes.count)
    let chunkedSplit = dechunk(bytes, piece: piece)
    switch (chunkedWhole, chunkedSplit) {
    case (.success(let a), .success(let b)):
        precondition(a.body == b.body && a.done == b.done && a.used == b.used, "chunks read whole and in pieces differ")
        precondition(a.body.count <= bytes.count)
    case (.failure(let a), .failure(let b)):
        precondition(a.kind == b.kind, "chunks refused differently whole and in pieces: \(a) / \(b)")
        precondition(!a.message.contains("\n"))
    default:
        preconditionFailure("chunks read whole and in pieces of \(piece): one refused, one not")
    }
    if let text = String(validating: bytes, as: UTF8.self), text.utf8.count < 200 {
        if let url = try? HTTPURL(parsing: text) {
            // A parsed URL prints as one that parses back to itself.
            precondition((try? HTTPURL(parsing: url.description)) == url, "\(url) does not parse back")
            _ = try? url.resolving(text)
        }
        _ = HTTPDate.parse(text)
    }
    return 0
}

private func head(_ bytes: UnsafeRawBufferPointer, piece: Int) -> Result<(ResponseHead, Int)?, HTTPWireError> {
    var reader = HeadReader(limit: 2048)
    var start = 0
    do throws(HTTPWireError) {
        while start < bytes.count {
            let end = min(start + max(piece, 1), bytes.count)
            if let found = try reader.take(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) {
                return .success((found.head, start + found.used))
            }
            start = end
        }
        return .success(nil)
    } catch {
        return .failure(error)
    }
}

private func same(_ a: Result<(ResponseHead, Int)?, HTTPWireError>, _ b: Result<(ResponseHead, Int)?, HTTPWireError>) -> Bool {
    switch (a, b) {
    case (.success(let x), .success(let y)):
        if x == nil, y == nil { return true }
        guard let (hx, ux) = x, let (hy, uy) = y else { return false }
        return hx == hy && ux == uy
    case (.failure(let x), .failure(let y)): return x == y
    default: return false
    }
}

private struct Dechunked {
    var body: [UInt8] = []
    var done = false
    var used = 0
}

private func dechunk(_ bytes: UnsafeRawBufferPointer, piece: Int) -> Result<Dechunked, HTTPWireError> {
    var decoder = ChunkedDecoder()
    var out = Dechunked()
    var start = 0
    do throws(HTTPWireError) {
        while start < bytes.count, !decoder.isDone {
            let end = min(start + max(piece, 1), bytes.count)
            var at = start
            while at < end {
                let step = try decoder.step(UnsafeRawBufferPointer(rebasing: bytes[at..<end]))
                if step.consumed == 0 { break }
                precondition(step.data.lowerBound >= 0 && step.data.upperBound <= step.consumed, "data outside what was taken")
                out.body += UnsafeRawBufferPointer(rebasing: bytes[(at + step.data.lowerBound)..<(at + step.data.upperBound)])
                at += step.consumed
            }
            out.used = at
            start = end
        }
    } catch {
        return .failure(error)
    }
    out.done = decoder.isDone
    return .success(out)
}
