import Compositor
import Config
import Outputs
import Raster
import Scene
import Shaping
import Systemd
import Transit

/// The transit banner in the loop: asked of the transit worker when what it shows changes (the
/// next stop, the trip, a reload, another display), put on the drawn view when it comes back.
/// Without a trip the banner goes at once: it never names a stale next stop.
extension RunDaemon {
    func transitBannerShown() {
        guard let d = display.driven else { return }
        guard settings.transit.banner != .none, let trip = transit.loaded?.trip else {
            transit.bannerAsked = nil
            transit.bannerMade = nil
            if d.view.banner != nil { d.view.showBanner(nil, atBottom: false) }
            return
        }
        let content = BannerRequest.content(trip: trip, next: transit.nextStopIndex, routeColor: settings.transit.routeColor,
                                            language: settings.transit.language)
        let bottom = settings.transit.banner == .bottom
        var request = BannerRequest(content: content, width: d.view.renderer.width, scale: d.view.scale,
                                    families: settings.transit.fonts ?? FontCatalog.defaultFamilies, bottom: bottom)
        if request == transit.bannerAsked {
            // Made already: a new view of the same size shows the same picture; else on its way.
            if let made = transit.bannerMade, d.view.banner?.picture !== made { d.view.showBanner(made, atBottom: bottom) }
            return
        }
        transit.bannerMade = nil
        transit.bannerSerial += 1
        request.serial = transit.bannerSerial
        transit.bannerAsked = request
        let painter = transit.bannerPainter, handover = transit.handover, asked = request
        if !environment.runTransitJob({ painter.paint(asked, to: handover) }) {
            log.error("transit: no worker thread to make the banner on: no banner until a reload")
        }
    }

    /// A banner the worker made: shown if it is the one asked last.
    func transitBannerMade(_ outcome: BannerOutcome) {
        if let note = outcome.note { log.warning("transit: " + note) }
        guard outcome.serial == transit.bannerAsked?.serial, let d = display.driven else { return }
        switch outcome.picture {
        case .success(let picture):
            transit.bannerMade = picture
            d.view.showBanner(picture, atBottom: settings.transit.banner == .bottom)
            transit.bannerFailed = false
        case .failure(let error):
            if !transit.bannerFailed { log.error("transit: the banner cannot be made (\(error.description)); the map and the dot are drawn without it") }
            transit.bannerFailed = true
        }
    }
}
