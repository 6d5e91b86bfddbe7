import Config
import Daemon
import PNG
import Raster
import Shaping
import Transit

// `pulsedot transit banner INDEX --trip T --next-stop N --out FILE.png`: argument parsing only.

let transitBannerUsage = Usage(
    command: "transit banner", summary: "draw the banner the daemon shows for a trip and its next stop to a PNG",
    operands: [.init(name: "INDEX", summary: "an index written by `pulsedot transit import`")],
    options: [
        .valued("trip", "TRIP_ID[@HH:MM:SS]", "the trip, as the setting `trip` names it", required: true),
        .valued("next-stop", "N", "the next stop: the Nth of the trip's stops (as the log counts them), or none before the vehicle is placed", required: true),
        .valued("out", "FILE.png", "where the PNG goes", required: true),
        .valued("width", "W", "the screen's width in pixels (default 1280)"),
        .valued("scale", "S", "pixels per point (default 1; the same as --set scale=S)"),
        .valued("set", "KEY=VALUE", "a configuration key: transit.fonts, transit.language, transit.routeColor, map.background", repeatable: true),
    ],
    notes: """
        The PNG is the banner over the map's background colour (map.background), as wide as the \
        screen and as tall as the banner, pixel for pixel what the daemon puts at the top of a \
        screen of that width and scale where the map is plain. The names are in transit.language \
        where the feed translates them. Exit 0 with the PNG written; 1 when the index, the trip or \
        the fonts refuse; 2 for a bad option.
        """)

func transitBannerCommand(_ args: Arguments) -> Int32 {
    guard args.positional.count == 1 else {
        writeError("pulsedot: transit banner: expected one INDEX\n" + transitBannerUsage.text)
        return 2
    }
    guard let tripText = args.value("trip"), let nextText = args.value("next-stop"), let out = args.value("out") else {
        return fail("transit banner needs --trip, --next-stop and --out")
    }
    let width: Int, settings: Settings
    do { width = try args.int("width", default: 1280, range: 16...16384) } catch { return fail("\(error)") }
    do { settings = try lookSettings(args) } catch { return fail("\(error)") }
    let choice: TripChoice
    do throws(TransitError) { choice = try TripChoice.parse(tripText) } catch { return fail("transit banner: --trip \(tripText): \(error)") }
    let trip: Trip
    do throws(TransitError) {
        trip = try TransitIndex(path: args.positional[0]).trip(choice, language: settings.transit.language)
    } catch {
        return failed("transit banner: \(error)")
    }
    var next: Int?
    if nextText != "none" {
        guard let n = Int(nextText), n >= 1, n <= trip.stops.count else {
            return fail("transit banner: --next-stop \(nextText): expected 1 to \(trip.stops.count) (the trip's stops), or none")
        }
        next = n - 1
    }
    let banner: Overlay
    do throws(ShapingError) {
        banner = try BannerPreview.picture(trip: trip, nextStop: next, settings: settings.transit, width: width, scale: settings.dot.scale ?? 1)
    } catch {
        return failed("transit banner: \(error)")
    }
    let image = OwnedPixelBuffer(width: width, height: banner.height, format: .xrgb8888)
    image.buffer.fill(image.buffer.bounds, with: settings.map.background)
    banner.draw(into: image.buffer, clip: image.buffer.bounds)
    do throws(PNGError) { try PNGWrite.frame(image.buffer, to: out) } catch { return failed("transit banner: \(out): \(error)") }
    return 0
}
