import Config
import LocationDot
import PNG
import Raster

/// The dot's `image` and `headingImage`, decoded from the PNGs the settings name into the style
/// the painter takes — by the users of the settings (the daemon at start and reload, show, render,
/// the demo, check-config), not while they are parsed. A PNG that cannot be taken is refused as a
/// setting is: one line with the file, line, key and value.
public enum DotImages {
    public static func load(_ settings: inout Settings) throws(SettingError) {
        settings.dot.style.image = try mask(settings.dot.imagePath, key: "image", settings)
        settings.dot.style.headingImage = try mask(settings.dot.headingImagePath, key: "headingImage", settings)
    }

    private static func mask(_ path: String?, key: String, _ settings: Settings) throws(SettingError) -> AlphaMask? {
        guard let path else { return nil }
        do throws(PNGError) {
            return try PNGRead.alphaMask(path: path)
        } catch {
            // The key's value already names the file.
            throw settings.failure(key, error.problem)
        }
    }
}
