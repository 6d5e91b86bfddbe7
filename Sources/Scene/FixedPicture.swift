import Compositor

/// A picture fixed on the screen (the credit, the banner) and where it is drawn.
final class FixedPicture {
    let layer: PictureLayer
    /// "credit", "banner": for the log and the metrics.
    let name: String
    /// In the renderer's screen layers; false: on a plane of its own.
    var inCanvas = true

    init(layer: PictureLayer, name: String) {
        self.layer = layer
        self.name = name
    }
}
