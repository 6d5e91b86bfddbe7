extension PNGRead {
    /// The pixel size in a PNG's header, without decoding the image: how the configuration checks
    /// a map image (and says what it will cost) before the daemon decodes it once at start.
    public static func size(path: String) throws(PNGError) -> (width: Int, height: Int) {
        try readPNG(.file(path)) { png in (png.width, png.height) }
    }
}
