import Config
import Raster
import Shaping
import Transit

/// The banner the daemon shows for a trip with a given next stop, made as the transit worker
/// makes it (the same content, fonts and sizes), for `pulsedot transit banner`: an integrator
/// sees the banner of any stop without driving there, and a test compares a real screen with it.
public enum BannerPreview {
    /// `nextStop`: the index of the next stop in the trip's stops; nil for a trip not placed yet.
    public static func picture(trip: Trip, nextStop: Int?, settings: TransitSettings, width: Int, scale: Double) throws(ShapingError) -> Overlay {
        let content = BannerRequest.content(trip: trip, next: nextStop, routeColor: settings.routeColor, language: settings.language)
        let banner = try TransitBanner(catalog: FontCatalog(families: settings.fonts ?? FontCatalog.defaultFamilies), scale: scale)
        return try banner.render(content.drawn, width: width).overlay
    }
}
