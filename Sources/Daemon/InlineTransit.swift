import Compositor
import Config
import DisplayCore
import Location
import Raster
import Scene
import Shaping
import Transit

/// Transit on one view with no worker thread: the feed imported and the trip loaded when it is
/// made, the line moved and the banner made in place whenever the fixes change what they show.
/// The loop hands the import and the banner to the transit worker so that no frame waits for
/// them; a player on a virtual clock (the headless demo) must wait for them instead, or its
/// frames would depend on how fast the worker happened to be. The pieces are the loop's own
/// (TransitLoader, TransitFollower, TransitRoute, BannerPainter), so the pictures are too.
public final class InlineTransit {
    private let view: SceneView
    private let settings: TransitSettings
    private let follower = TransitFollower()
    /// The banner's scale; nil: the view's. A view standing for a larger screen (a contact
    /// sheet's tile) shrinks it so that the banner takes the share of the view it takes there.
    public var bannerScale: Double?
    private var messages: [TransitMessage] = []

    /// Nil when `settings` name no feed. `now`: seconds since the epoch, the instant the trip's
    /// service day is looked up at.
    public init?(settings: TransitSettings, view: SceneView, now: Double) throws(TransitError) {
        self.settings = settings
        self.view = view
        guard let request = follower.begin(settings) else { return nil }
        follower.take(try TransitLoader.load(request, now: now) { _ in }, settings: settings)
    }

    /// The trip followed; nil when the settings name none.
    public var trip: Trip? { follower.loaded?.trip }

    /// What a frame drawn now records about the trip.
    public var stamp: TransitStamp? { follower.stamp }

    /// A fix the view was given, placed on the trip; `time` in seconds on the caller's clock. A
    /// replay played faster than the drive should time fixes by the receiver's clock: the trip is
    /// looked for only as far ahead as the vehicle could have driven since the last fix, and a
    /// clock sped up past the vehicle loses it after a long dropout.
    public func add(_ fix: Fix, time: Double) {
        _ = follower.update(RouteProgress.Fix(latitude: fix.latitude, longitude: fix.longitude, speed: fix.speed, time: time))
    }

    /// The line and the banner on the view as the fixes so far leave them.
    public func show() throws(ShapingError) {
        showRoute()
        try showBanner()
    }

    private func showRoute() {
        guard let trip = follower.loaded?.trip else { return }
        let distance = follower.lastUpdate?.distance, next = follower.nextStopIndex
        if let route = follower.route, view.route === route.layer {
            if route.move(distance: distance, nextStop: next) { view.routeMoved() }
            return
        }
        guard let route = TransitRoute(trip: trip, view: view, settings: settings) else { return }
        route.move(distance: distance, nextStop: next)
        follower.route = route
        view.showRoute(route.layer)
    }

    /// Made only when what it shows changed, as the loop asks for it.
    private func showBanner() throws(ShapingError) {
        guard settings.banner != .none, let trip = follower.loaded?.trip else { return }
        let bottom = settings.banner == .bottom
        let content = BannerRequest.content(trip: trip, next: follower.nextStopIndex, routeColor: settings.routeColor,
                                            language: settings.language)
        let request = BannerRequest(content: content, width: view.renderer.width, scale: bannerScale ?? view.scale,
                                    families: settings.fonts ?? FontCatalog.defaultFamilies, bottom: bottom)
        guard request != follower.bannerAsked else { return }
        follower.bannerAsked = request
        let handover = TransitHandover()
        follower.bannerPainter.paint(request, to: handover)
        handover.take(into: &messages)
        for case .banner(let outcome) in messages {
            switch outcome.picture {
            case .success(let picture): view.showBanner(picture, atBottom: bottom)
            case .failure(let error): throw error
            }
        }
    }
}
