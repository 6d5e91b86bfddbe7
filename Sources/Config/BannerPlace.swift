/// Where `[transit] banner` puts the transit banner: along the top or the bottom edge, or nowhere.
public enum BannerPlace: String, Sendable, CaseIterable {
    case top, bottom, none
}
