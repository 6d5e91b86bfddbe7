import Raster
import Shaping
import Transit

/// What the banner is asked to show, at what width and scale, in which fonts. The loop asks again
/// only when this changes (the next stop, a reload, another display); `serial` tells the answer
/// to the last question from those before it.
struct BannerRequest: Sendable, Equatable {
    var content: Content
    var width: Int
    var scale: Double
    var families: [String]
    /// Along the bottom edge (else the top): placed, not drawn, differently.
    var bottom = false
    var serial = 0

    struct Content: Sendable, Equatable {
        var line: String
        var routeColor: Color
        var routeTextColor: Color
        var destination: String
        var nextStop: String
        var following: [String]
        var language: String?

        /// What `TransitBanner` draws.
        var drawn: BannerContent {
            BannerContent(line: line, routeColor: routeColor, routeTextColor: routeTextColor, destination: destination,
                          nextStop: nextStop, following: following, language: language)
        }
    }

    static func == (a: BannerRequest, b: BannerRequest) -> Bool {
        a.content == b.content && a.width == b.width && a.scale == b.scale && a.families == b.families && a.bottom == b.bottom
    }

    /// The banner for the vehicle on `trip`, the next stop at `next` (nil: not placed on the trip
    /// yet, so no next stop is named rather than a stale one). Stops where no one may board or
    /// leave are passed, not announced, so the two after the next skip them too.
    static func content(trip: Trip, next: Int?, routeColor: Color, language: String?) -> Content {
        var badge = routeColor, text = Color.white
        if let c = trip.route.color, c & 0xFF_FFFF != 0xFF_FFFF {
            badge = Color(r: UInt8((c >> 16) & 0xFF), g: UInt8((c >> 8) & 0xFF), b: UInt8(c & 0xFF))
            // GTFS's route_text_color defaults to black where route_color is given.
            let t = trip.route.textColor ?? 0
            text = Color(r: UInt8((t >> 16) & 0xFF), g: UInt8((t >> 8) & 0xFF), b: UInt8(t & 0xFF))
        }
        var destination = trip.destination, nextName = "", following: [String] = []
        if let next, next < trip.stops.count {
            nextName = trip.stops[next].name
            destination = trip.stops[next].headsign ?? destination
            following = trip.stops[(next + 1)...].filter { $0.announced }.prefix(2).map { $0.name }
        }
        return Content(line: trip.route.shortName ?? trip.route.routeID, routeColor: badge, routeTextColor: text,
                       destination: destination, nextStop: nextName, following: following, language: language)
    }
}

/// A banner made on the transit worker, handed to the loop. The worker lets go of the picture
/// once posted; from then on only the loop touches it.
struct BannerOutcome: @unchecked Sendable {
    let serial: Int
    let picture: Result<Overlay, ShapingError>
    /// Families of the request fontconfig does not have, said the first time they are missing.
    var note: String? = nil
}

/// Makes banners on the transit worker: the fonts found by fontconfig and opened at three sizes
/// once, kept while the families and the scale stay the same. Only the transit worker's one
/// thread uses it, one job after another, so nothing in it is shared between threads at a time.
final class BannerPainter: @unchecked Sendable {
    private var banner: TransitBanner?
    private var families: [String] = []
    private var missingSaid: [String] = []

    /// The job: the banner for `request`, posted to `handover`; a family fontconfig does not have
    /// is said once, with what the banner is set in instead.
    func paint(_ request: BannerRequest, to handover: TransitHandover) {
        var note: String?
        do throws(ShapingError) {
            if banner == nil || families != request.families || banner?.scale != request.scale {
                banner = nil
                let catalog = try FontCatalog(families: request.families)
                if catalog.missing != missingSaid, !catalog.missing.isEmpty {
                    note = "banner fonts not installed: \(catalog.missing.joined(separator: ", ")); text in their scripts falls back to \(catalog.fonts.map { $0.family }.joined(separator: ", "))"
                }
                missingSaid = catalog.missing
                banner = try TransitBanner(catalog: catalog, scale: request.scale)
                families = request.families
            }
            let made = try banner!.render(request.content.drawn, width: request.width)
            handover.post(.banner(BannerOutcome(serial: request.serial, picture: .success(made.overlay), note: note)))
        } catch {
            handover.post(.banner(BannerOutcome(serial: request.serial, picture: .failure(error), note: note)))
        }
    }
}
