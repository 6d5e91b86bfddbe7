import CPNG

extension PNGRead {
    /// The pixel size in a PNG's header, without decoding the image: how the configuration checks
    /// a map image (and says what it will cost) before the daemon decodes it once at start.
    public static func size(path: String) throws(PNGError) -> (width: Int, height: Int) {
        var image = newImage()
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw PNGError(file: path, problem: readProblem(message(of: image), source: .file(path)))
        }
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width * height <= maximumPNGPixels else {
            throw PNGError(file: path, problem: "image of \(width)x\(height) pixels is larger than the \(maximumPNGPixels) pixels PulseDot decodes")
        }
        return (width, height)
    }
}
