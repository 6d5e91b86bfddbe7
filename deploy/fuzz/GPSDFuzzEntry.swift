// libFuzzer entry for the gpsd client's input path: whatever bytes a peer sends go through the line
// framer (in chunk sizes the input itself chooses, so every split point gets explored), then the
// message decoder, then Fix and its JSON line. Built by deploy/fuzz/fuzz-gpsd; not part of the package.
import GPSD
import Location
import Syscall

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let input = UnsafeRawBufferPointer(start: data, count: size)
    // The first byte picks the chunk size (1...64, or everything at once) and a small line limit
    // half of the time, so oversize handling is reached without megabyte inputs.
    let control = input[0]
    let body = UnsafeRawBufferPointer(rebasing: input[1...])
    let chunk = control & 0x40 == 0 ? Int(control & 0x3F) + 1 : body.count
    let limit = control & 0x80 == 0 ? 64 : LineFramer.defaultMaximumLineLength
    var framer = LineFramer(maximumLineLength: limit)
    var lines = 0, oversize = 0, consumed = 0
    var offset = 0
    while offset < body.count {
        let n = min(max(chunk, 1), body.count - offset)
        framer.append(UnsafeRawBufferPointer(rebasing: body[offset..<(offset + n)])) { event in
            switch event {
            case .line(let line):
                precondition(line.count <= limit, "framer handed out a line over its limit")
                precondition(!line.contains(0x0A), "framer handed out a line with a newline in it")
                lines += 1
                consumed += line.count
                check(MessageDecoder.decode(line))
            case .oversize(let length):
                precondition(length > limit - 1, "oversize reported for a short line")
                oversize += 1
            }
        }
        precondition(framer.capacity == limit + 2, "framer buffer grew")
        precondition(framer.isDiscarding || framer.pendingByteCount <= limit + 1, "framer holds too much")
        offset += n
    }
    return 0
}

private func check(_ outcome: DecodeOutcome) {
    guard case .message(.tpv(let tpv)) = outcome else { return }
    guard let fix = Fix(tpv, receivedAt: MonotonicInstant(nanoseconds: 0)) else { return }
    precondition(fix.latitude.isFinite && abs(fix.latitude) <= 90, "latitude escaped validation")
    precondition(fix.longitude.isFinite && abs(fix.longitude) <= 180, "longitude escaped validation")
    precondition((fix.horizontalError ?? 0) >= 0, "negative error escaped validation")
    // The printed line must be JSON that reads back to the same position.
    guard case .object(let printed) = try! JSONParser.parse(fix.jsonLine),
          case .number(let lat)? = printed["lat"], case .number(let lon)? = printed["lon"] else {
        preconditionFailure("Fix.jsonLine is not a JSON object with lat and lon")
    }
    precondition(lat == fix.latitude && lon == fix.longitude, "Fix.jsonLine does not round-trip")
}
