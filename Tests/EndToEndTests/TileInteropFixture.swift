import Foundation
import PNG
import TestSupport
import XCTest

/// Map tiles made by GDAL, an independent real tool, from one georeferenced test image: MBTiles
/// files (PNG and JPEG tiles) by `gdal_translate`, and `{z}/{x}/{y}` folders (XYZ and TMS rows) by
/// `gdal2tiles.py`. The image covers a 4×3 block of zoom-15 tiles exactly, one image pixel per
/// tile pixel, and every pixel says where it is, so a tile drawn from the wrong place, a flipped
/// row or a pixel shifted by one shows as a wrong colour.
///
/// What each tool wrote is listed and checked here (zooms, tile ranges, counts), so the tests
/// reading the tiles rest on what the tools really did, not on what they were asked.
final class TileInteropFixture {
    /// The image's tile grid: zoom 15, columns 17600…17603 and rows 10740…10742 (XYZ), in Berlin.
    static let zoom = 15
    static let firstColumn = 17_600, firstRow = 10_740
    static let columns = 4, rows = 3
    static let tilePixels = 256
    static let width = columns * tilePixels, height = rows * tilePixels
    /// Half the Web Mercator world's width in metres (EPSG:3857's extent).
    static let worldHalf = 20_037_508.342789244

    /// gdal_translate's ZOOM_LEVEL_STRATEGY=UPPER takes the first zoom strictly finer than the
    /// image; an image exactly at zoom 15's resolution gets zoom 16, each pixel as 2×2 tile pixels.
    static let mbtilesZoom = zoom + 1

    static let gdalTranslate = "/usr/bin/gdal_translate"
    static let gdalinfo = "/usr/bin/gdalinfo"
    static let gdallocationinfo = "/usr/bin/gdallocationinfo"
    /// Debian's gdal2tiles.py runs with Debian's python3, whose `osgeo` is python3-gdal.
    static let gdal2tiles = "/usr/bin/gdal2tiles.py"
    static let python = "/usr/bin/python3"

    /// One pixel's colour.
    struct RGB: Equatable, Hashable, CustomStringConvertible {
        var r: UInt8, g: UInt8, b: UInt8
        var description: String { "(\(r), \(g), \(b))" }
    }

    enum Product: String, CaseIterable {
        case mbtilesPNG = "png.mbtiles", mbtilesJPEG = "jpeg.mbtiles", xyzFolder = "xyz", tmsFolder = "tms"
    }

    /// The tiles one product holds at one zoom: how many, and their extent in XYZ columns and rows.
    struct Level: Equatable, CustomStringConvertible {
        var count: Int, west: Int, east: Int, north: Int, south: Int
        var description: String { "\(count) tiles, columns \(west)…\(east), rows \(north)…\(south)" }
    }

    let directory: URL
    let sourcePNG: String
    let sourceGeoTIFF: String
    /// Per product, zoom → what is there, as listed by this fixture (not by the code under test).
    private(set) var produced: [Product: [Int: Level]] = [:]

    func path(_ product: Product) -> String { directory.appendingPathComponent(product.rawValue).path }

    /// The tools, or a skip naming the missing one; with CI set, a missing tool fails instead.
    static func requireTools() throws {
        for tool in [gdalTranslate, gdalinfo, gdallocationinfo, gdal2tiles, python]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            let message = "\(tool) is missing: sudo deploy/install-deps --test (gdal-bin, python3-gdal)"
            if let ci = ProcessInfo.processInfo.environment["CI"], !ci.isEmpty { throw TestFailure(message) }
            throw XCTSkip(message)
        }
    }

    /// Writes the image and runs the four conversions; throws with the tool's own error output
    /// when one fails, or naming what it made when that is not what the tests rely on.
    init() throws {
        try Self.requireTools()
        directory = try TestEnvironment.temporaryDirectory("tile-interop")
        sourcePNG = directory.appendingPathComponent("source.png").path
        sourceGeoTIFF = directory.appendingPathComponent("source.tif").path
        do {
            try writeSource()
            try convert()
            try checkProducts()
        } catch {
            remove()
            throw error
        }
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// The fixture for every test class that reads it: made once per test run (five tool runs
    /// are the slow part), its folder removed when the test process ends.
    static func shared() throws -> TileInteropFixture {
        if let made = Self.made { return made }
        let fixture = try TileInteropFixture()
        made = fixture
        atexit { TileInteropFixture.made?.remove() }
        return fixture
    }

    nonisolated(unsafe) private static var made: TileInteropFixture?

    // MARK: - The source image

    /// Red is the column inside its 256-px block, green the row, blue the block's index (row-major,
    /// 10 apart by 20): unique per pixel, smooth inside each tile so JPEG keeps it close.
    static func color(column: Int, row: Int) -> RGB {
        let block = (row / tilePixels) * columns + column / tilePixels
        return RGB(r: UInt8(column % tilePixels), g: UInt8(row % tilePixels), b: UInt8(10 + block * 20))
    }

    /// The image's edges in EPSG:3857 metres: the zoom-15 tile grid's lines.
    static var metres: (west: Double, north: Double, east: Double, south: Double) {
        let tile = 2 * worldHalf / Double(1 << zoom)
        return (-worldHalf + Double(firstColumn) * tile, worldHalf - Double(firstRow) * tile,
                -worldHalf + Double(firstColumn + columns) * tile, worldHalf - Double(firstRow + rows) * tile)
    }

    private func writeSource() throws {
        var rgb = [UInt8](repeating: 0, count: Self.width * Self.height * 3)
        for row in 0..<Self.height {
            for column in 0..<Self.width {
                let c = Self.color(column: column, row: row), i = (row * Self.width + column) * 3
                rgb[i] = c.r; rgb[i + 1] = c.g; rgb[i + 2] = c.b
            }
        }
        try PNGWrite.rgb(width: Self.width, height: Self.height, rgb: rgb, to: sourcePNG)
        let m = Self.metres
        try run(Self.gdalTranslate, ["-q", "-a_srs", "EPSG:3857", "-a_ullr", "\(m.west)", "\(m.north)", "\(m.east)", "\(m.south)",
                                     sourcePNG, sourceGeoTIFF])
        // What GDAL will read back: the projection and the pixel grid asked for.
        let info = try run(Self.gdalinfo, ["-json", sourceGeoTIFF])
        let json = try JSONSerialization.jsonObject(with: Data(info.utf8)) as? [String: Any]
        let transform = json?["geoTransform"] as? [Double] ?? []
        let wkt = (json?["coordinateSystem"] as? [String: Any])?["wkt"] as? String ?? ""
        let pixel = 2 * Self.worldHalf / Double(1 << Self.zoom) / Double(Self.tilePixels)
        let expected = [m.west, pixel, 0, m.north, 0, -pixel]
        guard transform.count == 6, zip(transform, expected).allSatisfy({ abs($0 - $1) < 1e-6 }),
              wkt.contains("ID[\"EPSG\",3857]") else {
            throw TestFailure("gdal_translate georeferenced \(sourceGeoTIFF) as \(transform) in \(wkt.suffix(60)), not \(expected) in EPSG:3857")
        }
    }

    // MARK: - The conversions

    private func convert() throws {
        for (product, format) in [(Product.mbtilesPNG, "PNG"), (.mbtilesJPEG, "JPEG")] {
            try run(Self.gdalTranslate, ["-q", "-of", "MBTILES", "-co", "TILE_FORMAT=\(format)", "-co", "RESAMPLING=NEAREST",
                                         "-co", "ZOOM_LEVEL_STRATEGY=UPPER", sourceGeoTIFF, path(product)])
        }
        try run(Self.gdal2tiles, ["--xyz", "-z", "\(Self.zoom)", "-r", "near", sourceGeoTIFF, path(.xyzFolder)])
        try run(Self.gdal2tiles, ["-z", "\(Self.zoom)", "-r", "near", sourceGeoTIFF, path(.tmsFolder)])
    }

    /// Runs a tool to its end; a failure is thrown with its status and what it wrote.
    @discardableResult
    private func run(_ tool: String, _ arguments: [String]) throws -> String {
        let result = try runProgram(tool, arguments, timeout: 120)
        guard result.status == 0 else {
            let name = URL(fileURLWithPath: tool).lastPathComponent
            throw TestFailure("\(name) \(arguments.joined(separator: " ")) failed (status \(result.status)): \(result.stderr)\(result.stdout.suffix(2000))")
        }
        return result.stdout
    }

    // MARK: - What the tools made

    private func checkProducts() throws {
        for product in [Product.mbtilesPNG, .mbtilesJPEG] { produced[product] = try mbtilesLevels(path(product)) }
        produced[.xyzFolder] = try folderLevels(path(.xyzFolder), tms: false)
        produced[.tmsFolder] = try folderLevels(path(.tmsFolder), tms: true)

        // gdal_translate writes exactly the block, at the finer zoom.
        let scale = 1 << (Self.mbtilesZoom - Self.zoom)
        let block = Level(count: Self.columns * Self.rows * scale * scale,
                          west: Self.firstColumn * scale, east: (Self.firstColumn + Self.columns) * scale - 1,
                          north: Self.firstRow * scale, south: (Self.firstRow + Self.rows) * scale - 1)
        for product in [Product.mbtilesPNG, .mbtilesJPEG] where produced[product] != [Self.mbtilesZoom: block] {
            throw TestFailure("gdal_translate made \(product.rawValue) with \(produced[product] ?? [:]), not zoom \(Self.mbtilesZoom) with \(block)")
        }
        // gdal2tiles writes the block and, rounding the image's edges outwards, may add a ring of
        // tiles beside it (in GDAL 3.6 a column to the west and a row to the south).
        for product in [Product.xyzFolder, .tmsFolder] {
            let levels = produced[product] ?? [:]
            guard let level = levels[Self.zoom], levels.count == 1,
                  level.west >= Self.firstColumn - 1, level.west <= Self.firstColumn,
                  level.east >= Self.firstColumn + Self.columns - 1, level.east <= Self.firstColumn + Self.columns,
                  level.north >= Self.firstRow - 1, level.north <= Self.firstRow,
                  level.south >= Self.firstRow + Self.rows - 1, level.south <= Self.firstRow + Self.rows,
                  level.count == (level.east - level.west + 1) * (level.south - level.north + 1) else {
                throw TestFailure("gdal2tiles made \(product.rawValue) with \(levels), not zoom \(Self.zoom) covering columns \(Self.firstColumn)…\(Self.firstColumn + Self.columns - 1), rows \(Self.firstRow)…\(Self.firstRow + Self.rows - 1)")
            }
        }
    }

    /// Zooms, counts and extents of an MBTiles file, read with Python's own SQLite module.
    private func mbtilesLevels(_ file: String) throws -> [Int: Level] {
        let script = """
        import sqlite3, sys
        db = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True)
        for row in db.execute('SELECT zoom_level, COUNT(*), MIN(tile_column), MAX(tile_column), MIN(tile_row), MAX(tile_row) FROM tiles GROUP BY zoom_level'):
            print(*row)
        """
        var levels: [Int: Level] = [:]
        for line in try run(Self.python, ["-c", script, file]).split(separator: "\n") {
            let n = line.split(separator: " ").compactMap { Int($0) }
            guard n.count == 6 else { throw TestFailure("\(file): unexpected tile summary \(line)") }
            // TMS rows: the largest is the northernmost.
            let last = (1 << n[0]) - 1
            levels[n[0]] = Level(count: n[1], west: n[2], east: n[3], north: last - n[5], south: last - n[4])
        }
        return levels
    }

    /// Zooms, counts and extents of a `{z}/{x}/{y}.png` folder, listed with FileManager.
    private func folderLevels(_ folder: String, tms: Bool) throws -> [Int: Level] {
        let fm = FileManager.default
        var levels: [Int: Level] = [:]
        for zName in try fm.contentsOfDirectory(atPath: folder) {
            guard let z = Int(zName) else { continue }
            for xName in try fm.contentsOfDirectory(atPath: folder + "/" + zName) {
                guard let x = Int(xName) else { throw TestFailure("\(folder)/\(zName)/\(xName) is not a column") }
                for file in try fm.contentsOfDirectory(atPath: "\(folder)/\(zName)/\(xName)") {
                    guard file.hasSuffix(".png"), let row = Int(file.dropLast(4)) else {
                        throw TestFailure("\(folder)/\(zName)/\(xName)/\(file) is not a PNG tile")
                    }
                    let y = tms ? (1 << z) - 1 - row : row
                    if var level = levels[z] {
                        level.count += 1
                        level.west = min(level.west, x); level.east = max(level.east, x)
                        level.north = min(level.north, y); level.south = max(level.south, y)
                        levels[z] = level
                    } else {
                        levels[z] = Level(count: 1, west: x, east: x, north: y, south: y)
                    }
                }
            }
        }
        return levels
    }

    // MARK: - Where a point is in the source

    /// A point as a fraction of the Web Mercator world: x east from the antimeridian, y south from
    /// the top (the spherical formulas written out here, not the project's projection).
    static func worldFraction(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        let phi = latitude * .pi / 180
        return ((longitude + 180) / 360, 0.5 - log(tan(.pi / 4 + phi / 2)) / (2 * .pi))
    }

    /// The inverse of `worldFraction`.
    static func coordinate(worldX: Double, worldY: Double) -> (latitude: Double, longitude: Double) {
        (atan(sinh(.pi * (1 - 2 * worldY))) * 180 / .pi, worldX * 360 - 180)
    }

    /// Where a world fraction falls on the source image, in pixels from its top-left corner
    /// (pixel (c, r) spans c…c+1, r…r+1).
    static func sourcePosition(worldX: Double, worldY: Double) -> (x: Double, y: Double) {
        let pixels = Double(tilePixels << zoom)
        return (worldX * pixels - Double(firstColumn * tilePixels), worldY * pixels - Double(firstRow * tilePixels))
    }

    static func sourcePosition(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        let w = worldFraction(latitude: latitude, longitude: longitude)
        return sourcePosition(worldX: w.x, worldY: w.y)
    }

    /// The latitude and longitude of source pixel (column, row)'s centre.
    static func coordinate(column: Int, row: Int) -> (latitude: Double, longitude: Double) {
        let pixels = Double(tilePixels << zoom)
        return coordinate(worldX: (Double(firstColumn * tilePixels + column) + 0.5) / pixels,
                          worldY: (Double(firstRow * tilePixels + row) + 0.5) / pixels)
    }

    /// The source pixel at a point, or nil when the point is not at least `margin` pixels inside
    /// the image: tools round the image's edges, so only pixels well inside are the source's.
    static func expectedColor(latitude: Double, longitude: Double, margin: Double = 2) -> RGB? {
        let p = sourcePosition(latitude: latitude, longitude: longitude)
        guard p.x >= margin, p.y >= margin, p.x < Double(width) - margin, p.y < Double(height) - margin else { return nil }
        return color(column: Int(p.x), row: Int(p.y))
    }

    /// The source pixel under the centre of pixel (i, j) of tile z/x/y (XYZ), and how far outside
    /// the image that centre is, in source pixels (0 inside; column and row then name no pixel).
    static func sourcePixel(z: Int, x: Int, y: Int, i: Int, j: Int) -> (column: Int, row: Int, outside: Double) {
        let pixels = Double(tilePixels << z)
        let p = sourcePosition(worldX: (Double(x * tilePixels + i) + 0.5) / pixels, worldY: (Double(y * tilePixels + j) + 0.5) / pixels)
        let dx = max(0, -p.x, p.x - Double(width)), dy = max(0, -p.y, p.y - Double(height))
        return (Int(p.x.rounded(.down)), Int(p.y.rounded(.down)), max(dx, dy))
    }
}
