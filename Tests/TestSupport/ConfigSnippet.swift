/// Configuration text the end-to-end tests share, so a key renamed or a default changed is
/// changed in one place for all of them.
public enum ConfigSnippet {
    /// A `[display]` section writing PNG frames into `folder` (a headless run the test reads back).
    public static func pngDisplay(_ folder: String, mode: String, fps: Int, pngFps: Int) -> String {
        "[display]\noutput = png:\(folder)\nmode = \(mode)\nfps = \(fps)\npngFps = \(pngFps)"
    }
}
