extension Configuration {
    /// What no single line can check, after the file and the overrides: the map's two forms must
    /// not be mixed, a trip needs its feed, and a headless output cannot write frames faster than
    /// it draws them. No file is opened here: what the map's files hold is checked by their users
    /// (`MapFiles.open` in Scene), in the same one-line form. Errors
    /// name the line of the key at fault (the one that was set, when only one of a pair was).
    public static func validate(_ s: Settings) throws(SettingError) {
        let fail = s.failure
        try validateTiles(s, fail: fail)
        let map = s.map
        if map.tiles.path != nil {
            // A tiled map takes center and zoom, and bounds to show part of it.
        } else if map.imagePath != nil {
            if map.bounds == nil {
                throw fail("map.image", "a map image needs bounds = WEST,SOUTH,EAST,NORTH (its geographic edges)")
            }
            if map.center != nil {
                throw fail("map.center", "a map image is placed by its bounds; remove center (or remove image and bounds for a plain map)")
            }
            if s.origins["map.zoom"] != nil {
                throw fail("map.zoom", "a map image is placed by its bounds; remove zoom (or remove image and bounds for a plain map)")
            }
        } else if map.bounds != nil {
            throw fail("map.bounds", "bounds place a map image: set image = FILE.png too (a plain map uses center and zoom)")
        }
        if s.display.brightness.dim != nil, !s.display.brightness.isActive {
            throw fail("display.dim", "dimming needs brightness = PERCENT or ambient: the level the backlight goes back to after the spans")
        }
        if s.transit.realtimeTrip {
            if s.transit.vehicleID == nil { throw fail("transit.trip", "trip = realtime follows the trip the feeds give this vehicle: set vehicleId = ID too") }
            if s.realtime.vehiclePositions == nil && s.realtime.tripUpdates == nil {
                throw fail("transit.trip", "trip = realtime reads the [realtime] feeds: set [realtime] vehiclePositions or tripUpdates too")
            }
            if s.transit.tripFile != nil { throw fail("transit.tripFile", "trip = realtime and a tripFile both name the trip: keep one") }
        }
        if s.transit.trip != nil || s.transit.autoTrip || s.transit.realtimeTrip, s.transit.gtfs == nil {
            throw fail("transit.trip", "a trip is one of a feed's: set gtfs = PATH too (or trip = none)")
        }
        if s.kiosk.isActive {
            if s.transit.gtfs == nil { throw fail("kiosk.stop", "a kiosk's board is read from a feed: set [transit] gtfs = PATH too (or stop = none)") }
            guard case .position = s.source.source else {
                throw fail("kiosk.stop", "a kiosk stands still: set [source] position = LAT,LON (where the screen stands) too (or stop = none)")
            }
            if s.transit.trip != nil || s.transit.autoTrip || s.transit.realtimeTrip || s.transit.tripFile != nil {
                throw fail(s.origins["transit.trip"] != nil ? "transit.trip" : "kiosk.stop", "a kiosk shows a stop's departures, not a vehicle's trip: remove [transit] trip and tripFile (or stop = none)")
            }
        }
        if case .png = s.display.output, s.display.pngFps > s.display.fps {
            let problem = "pngFps (\(formatNumber(s.display.pngFps))) is above fps (\(formatNumber(s.display.fps))): frames cannot be written faster than they are drawn"
            throw fail(s.origins["display.pngFps"] != nil ? "display.pngFps" : "display.fps", problem)
        }
    }
}
