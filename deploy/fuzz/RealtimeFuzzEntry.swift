// libFuzzer entry for the GTFS-realtime reader: a feed's bytes as they come off the network,
// read with tight limits (so the limit paths are reached in small inputs) and with the defaults.
// Built by deploy/fuzz/fuzz-realtime; not part of the package.
import GTFSRealtime

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let buffer = UnsafeRawBufferPointer(start: data, count: size)
    let tight = RealtimeLimits(entities: 16, itemsPerList: 8, items: 64)
    check(buffer, tight)
    check(buffer, RealtimeLimits())
    return 0
}

private func check(_ buffer: UnsafeRawBufferPointer, _ limits: RealtimeLimits) {
    let first = read(buffer, limits)
    // The same bytes read the same, from a buffer or from an array.
    let again = read(buffer, limits)
    let fromArray = read(Array(buffer), limits)
    precondition(comparable(first) == comparable(again) && comparable(first) == comparable(fromArray), "two readings of the same bytes differ")
    switch first {
    case .failure(let error):
        precondition(!error.description.contains("\n"), "an error of more than one line")
        precondition(error.offset >= 0 && error.offset <= buffer.count, "an error past the end: \(error.offset)")
    case .success(let feed):
        precondition(feed.entities.count <= limits.entities, "more entities than the limit")
        // Every entity, kept or skipped, took at least its tag and its length.
        precondition(2 * (feed.entities.count + feed.skippedEntities) <= buffer.count, "entities out of nothing")
        precondition((feed.skippedEntities > 0) == (feed.firstSkipError != nil), "skipped without a reason")
        if let why = feed.firstSkipError {
            precondition(!why.description.contains("\n"), "a skip reason of more than one line")
        }
        precondition(feed.header.incrementality != .differential, "a DIFFERENTIAL feed read")
        for entity in feed.entities {
            let lists = [entity.tripUpdate?.stopTimeUpdates.count ?? 0, entity.alert?.activePeriods.count ?? 0,
                         entity.alert?.informedEntities.count ?? 0, entity.alert?.headerText?.translations.count ?? 0,
                         entity.alert?.descriptionText?.translations.count ?? 0]
            precondition(lists.allSatisfy { $0 <= limits.itemsPerList }, "a list over its limit")
        }
    }
}

private func read(_ buffer: UnsafeRawBufferPointer, _ limits: RealtimeLimits) -> Result<FeedMessage, RealtimeError> {
    do throws(RealtimeError) {
        return .success(try FeedMessage(decoding: buffer, limits: limits))
    } catch {
        return .failure(error)
    }
}

private func read(_ bytes: [UInt8], _ limits: RealtimeLimits) -> Result<FeedMessage, RealtimeError> {
    do throws(RealtimeError) {
        return .success(try FeedMessage(decoding: bytes, limits: limits))
    } catch {
        return .failure(error)
    }
}

/// The reading with every NaN (which the feed may carry, and which equals nothing, itself
/// included) replaced by a number made of its bits, so that two readings compare.
private func comparable(_ result: Result<FeedMessage, RealtimeError>) -> Result<FeedMessage, RealtimeError> {
    guard case .success(var feed) = result else { return result }
    func fix(_ x: inout Float?) { if let v = x, v.isNaN { x = Float(bitPattern: v.bitPattern & 0x7F_FFFF) } }
    func fix(_ x: inout Double?) { if let v = x, v.isNaN { x = Double(bitPattern: v.bitPattern & 0xF_FFFF_FFFF_FFFF) } }
    for i in feed.entities.indices {
        guard var p = feed.entities[i].vehicle?.position else { continue }
        fix(&p.latitude)
        fix(&p.longitude)
        fix(&p.bearing)
        fix(&p.speed)
        fix(&p.odometer)
        feed.entities[i].vehicle?.position = p
    }
    return .success(feed)
}
