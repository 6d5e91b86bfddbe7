import Foundation
import Geo
import PNG

/// The field trial's world: a bus loop through a few city blocks, the georeferenced map it is
/// drawn on, the kiosk's configuration, and where the project's own projection puts a fix on the
/// screen. The map is made here, so its colours stay clear of the dot's (blue, red after the
/// reload, stale grey): the dot is found in a screendump by colour alone.
struct FieldRoute {
    static let mapWidth = 1280, mapHeight = 800
    /// Web Mercator zoom 16 around the centre: about 1.6 m a pixel at this latitude.
    static let center = GeoPoint(latitude: 48.2082, longitude: 16.3738)
    static let zoom = 16.0
    /// Bus speed, m/s (36 km/h).
    static let speed = 10.0
    /// The loop, metres east and north of the centre, driven clockwise (190 s a lap).
    static let waypoints: [(x: Double, y: Double)] = [
        (-320, -140), (-320, 160), (80, 160), (80, 40), (330, 40), (330, -140),
    ]

    let bounds: GeoBounds
    let projection: MapProjection

    init() throws {
        let tiles = try MapProjection.webMercator(center: Self.center, zoom: Self.zoom,
                                                  canvasWidth: Self.mapWidth, canvasHeight: Self.mapHeight)
        let nw = tiles.geoPoint(for: MapPoint(x: 0, y: 0))
        let se = tiles.geoPoint(for: MapPoint(x: Double(Self.mapWidth), y: Double(Self.mapHeight)))
        // The configuration carries the bounds as text: project with what the daemon will read.
        let text = Self.boundsText(GeoBounds(west: nw.longitude, south: se.latitude, east: se.longitude, north: nw.latitude))
        let parts = text.split(separator: ",").map { Double($0)! }
        bounds = GeoBounds(west: parts[0], south: parts[1], east: parts[2], north: parts[3])
        projection = try MapProjection.georeferenced(bounds: bounds, imageWidth: Self.mapWidth, imageHeight: Self.mapHeight)
    }

    static func boundsText(_ b: GeoBounds) -> String {
        [b.west, b.south, b.east, b.north].map { String(format: "%.9f", $0) }.joined(separator: ",")
    }

    // MARK: The drive

    private static var legs: [(from: (x: Double, y: Double), to: (x: Double, y: Double), length: Double)] {
        (0..<waypoints.count).map { i in
            let a = waypoints[i], b = waypoints[(i + 1) % waypoints.count]
            return (a, b, hypot(b.x - a.x, b.y - a.y))
        }
    }

    /// The receiver's fix `n` seconds into the drive (the loop repeats for ever).
    func fix(_ n: Int) -> NMEA.Fix {
        let legs = Self.legs
        let loop = legs.reduce(0) { $0 + $1.length }
        var s = (Double(n) * Self.speed).truncatingRemainder(dividingBy: loop)
        for leg in legs {
            if s <= leg.length {
                let f = s / leg.length
                let x = leg.from.x + (leg.to.x - leg.from.x) * f, y = leg.from.y + (leg.to.y - leg.from.y) * f
                let course = (atan2(leg.to.x - leg.from.x, leg.to.y - leg.from.y) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
                return NMEA.Fix(latitude: Self.center.latitude + y / 111_320,
                                longitude: Self.center.longitude + x / (111_320 * cos(Self.center.latitude * .pi / 180)),
                                speed: Self.speed, course: course)
            }
            s -= leg.length
        }
        return fix(0)
    }

    /// Where the daemon must draw `fix` on a `width`×`height` screen: the project's own projection
    /// and its `follow = off` viewport (the image centred on the screen).
    func screenPoint(_ fix: NMEA.Fix, width: Int, height: Int) -> (x: Double, y: Double) {
        let viewport = MapViewport(follow: .off, offMap: .hide, canvasWidth: width, canvasHeight: height, projection: projection)
        let p = viewport.canvasPoint(projection.point(for: GeoPoint(latitude: fix.latitude, longitude: fix.longitude)),
                                     offset: viewport.initialOffset)
        return (p.x, p.y)
    }

    // MARK: The kiosk's files

    static let pavement: (UInt8, UInt8, UInt8) = (0xED, 0xE4, 0xD3)

    /// A plain city map: pavement, blocks, parks, and the streets the bus takes.
    func mapImage() -> [UInt8] {
        let w = Self.mapWidth, h = Self.mapHeight
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        func put(_ x: Int, _ y: Int, _ c: (UInt8, UInt8, UInt8)) {
            guard x >= 0, y >= 0, x < w, y < h else { return }
            let i = (y * w + x) * 3
            rgb[i] = c.0; rgb[i + 1] = c.1; rgb[i + 2] = c.2
        }
        // Warm colours only: even under the dot's shadow none turns blue, red or the stale grey
        // (which is slightly blue: #8E8E93).
        let park: (UInt8, UInt8, UInt8) = (0xCF, 0xE3, 0xB4)
        // Cream, not white: pure white on screen is the ring around the dot, whose size tells
        // the entrance pop (FieldTrialScreen).
        let street: (UInt8, UInt8, UInt8) = (0xFF, 0xF3, 0xDC)
        let block: (UInt8, UInt8, UInt8) = (0xE2, 0xD5, 0xBD)
        for y in 0..<h {
            for x in 0..<w {
                let inPark = (x / 160 + y / 160) % 5 == 0
                let inBlock = (x % 80) > 8 && (y % 80) > 8
                put(x, y, inPark ? park : inBlock ? block : Self.pavement)
            }
        }
        for leg in Self.legs {
            let a = screenPoint(geoFix(leg.from), width: w, height: h)
            let b = screenPoint(geoFix(leg.to), width: w, height: h)
            let steps = Int(max(abs(b.x - a.x), abs(b.y - a.y))) + 1
            for i in 0...steps {
                let f = Double(i) / Double(steps)
                let cx = Int((a.x + (b.x - a.x) * f).rounded()), cy = Int((a.y + (b.y - a.y) * f).rounded())
                for dy in -5...5 { for dx in -5...5 { put(cx + dx, cy + dy, street) } }
            }
        }
        return rgb
    }

    private func geoFix(_ p: (x: Double, y: Double)) -> NMEA.Fix {
        NMEA.Fix(latitude: Self.center.latitude + p.y / 111_320,
                 longitude: Self.center.longitude + p.x / (111_320 * cos(Self.center.latitude * .pi / 180)),
                 speed: 0, course: 0)
    }

    /// /etc/pulsedot/pulsedot.conf of the trial: the map, gpsd as shipped, the display driven by
    /// KMS, a short `staleAfter` so the fault scenarios fit in a CI run. The headless render
    /// changes the source, the map's path and the output.
    func configuration(color: String, staleAfter: Int, source: String = "gpsd = 127.0.0.1:2947",
                       image: String = "/etc/pulsedot/map.png", output: String = "output = kms") -> String {
        """
        # PulseDot field trial (written by Tests/EndToEndTests/FieldTrialRoute.swift)
        [dot]
        annotationColor = \(color)

        [source]
        \(source)
        staleAfter = \(staleAfter)

        [display]
        \(output)
        fps = 30

        [map]
        image = \(image)
        bounds = \(Self.boundsText(bounds))
        follow = off

        [log]
        summaryEvery = 20

        """
    }

    /// The overlay for deploy/vm/build-vm-image: the configuration and the map.
    func writeOverlay(to dir: URL, color: String, staleAfter: Int) throws {
        let etc = dir.appendingPathComponent("etc/pulsedot")
        try FileManager.default.createDirectory(at: etc, withIntermediateDirectories: true)
        try configuration(color: color, staleAfter: staleAfter).write(to: etc.appendingPathComponent("pulsedot.conf"), atomically: true, encoding: .utf8)
        try PNGWrite.rgb(width: Self.mapWidth, height: Self.mapHeight, rgb: mapImage(), to: etc.appendingPathComponent("map.png").path)
    }
}
