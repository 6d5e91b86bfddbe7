import Geo
import Glibc
import Syscall

// Value parsers shared by the [source], [display] and [map] keys: file paths and positions.

/// A path as written in a configuration file is taken relative to that file's directory, so a
/// configuration and its files (map, replay, dot images) can move together; on the command line
/// (`--set`) it is relative to the current directory, as any program's arguments are.
func resolvePath(_ text: String, origin: SettingOrigin) -> String {
    guard !text.hasPrefix("/"), let file = origin.file, let slash = file.lastIndex(of: "/") else { return text }
    return String(file[...slash]) + text
}

/// A file the daemon will read later (a replay): checked now, so a typo fails at check-config and
/// at reload rather than minutes into a run.
func parseReadableFile(_ text: String, origin: SettingOrigin, what: String) throws(SettingProblem) -> String {
    guard !text.isEmpty else { throw SettingProblem("empty path (expected \(what), or none)") }
    let path = resolvePath(text, origin: origin)
    do {
        let fd = try FileDescriptor.openRegularFile(path)
        defer { fd.close() }
        // A folder or a FIFO is refused at the open, which never blocks.
        let byte = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
        defer { byte.deallocate() }
        _ = try fd.read(into: byte)
    } catch {
        let shown = path == text ? "" : "\(path): "
        throw SettingProblem("\(shown)cannot be read (\(error.message); \(what) is expected here)")
    }
    return path
}

/// `LAT,LON` in decimal degrees, checked to be a position Web Mercator can draw.
func parseGeoPoint(_ text: String, what: String) throws(SettingProblem) -> GeoPoint {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { trimmed(String($0)) }
    guard parts.count == 2, let lat = decimal(parts[0]), let lon = decimal(parts[1]) else {
        throw SettingProblem("not a position (expected LAT,LON in decimal degrees, e.g. 45.5017,-73.5673)")
    }
    let point = GeoPoint(latitude: lat, longitude: lon)
    do {
        try MapProjection.check(point, what: what)
    } catch {
        throw SettingProblem(problemText(error))
    }
    return point
}

/// The projection's reasons, with numbers as they were written ("89", not "89.0").
private func problemText(_ error: ProjectionError) -> String {
    switch error {
    case let .polarLatitude(lat, _):
        return "latitude \(formatNumber(lat)) is beyond Web Mercator's limit of ±\(formatNumber(MapProjection.maxLatitude))° (polar regions cannot be drawn on the map)"
    case let .latitudeOutOfRange(lat, _):
        return "latitude \(formatNumber(lat)) is not a latitude (allowed: -90 to 90 degrees)"
    case let .longitudeOutOfRange(lon, _):
        return "longitude \(formatNumber(lon)) is not a longitude (allowed: -180 to 180 degrees)"
    case let .emptyBounds(b):
        return "bounds \(formatBounds(b)) enclose no area (need SOUTH < NORTH and WEST ≠ EAST; WEST > EAST crosses the antimeridian)"
    default:
        return error.description
    }
}

/// `WEST,SOUTH,EAST,NORTH` in decimal degrees; WEST > EAST crosses the antimeridian.
func parseBounds(_ text: String) throws(SettingProblem) -> GeoBounds {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { trimmed(String($0)) }
    let numbers = parts.compactMap(decimal)
    guard parts.count == 4, numbers.count == 4 else {
        throw SettingProblem("not bounds (expected WEST,SOUTH,EAST,NORTH in decimal degrees, e.g. -73.60,45.49,-73.54,45.52)")
    }
    let bounds = GeoBounds(west: numbers[0], south: numbers[1], east: numbers[2], north: numbers[3])
    do {
        // The projection's own checks (ranges, polar limit, empty area), on a stand-in size.
        _ = try MapProjection.georeferenced(bounds: bounds, imageWidth: 1, imageHeight: 1)
    } catch {
        throw SettingProblem(problemText(error))
    }
    return bounds
}

package func formatGeoPoint(_ p: GeoPoint) -> String { "\(formatNumber(p.latitude)),\(formatNumber(p.longitude))" }

package func formatBounds(_ b: GeoBounds) -> String {
    [b.west, b.south, b.east, b.north].map(formatNumber).joined(separator: ",")
}

/// A finite decimal number (the same syntax `parseNumber` takes), or nil.
private func decimal(_ text: String) -> Double? {
    try? parseNumber(text, range: .any)
}
