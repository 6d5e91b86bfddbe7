import Raster

/// The display's primary plane showing a window of a map picture larger than the screen: the
/// view pans by moving the window (the plane's source rectangle), so a moving map costs the CPU
/// nothing until the window nears the picture's edge and the map is drawn anew into the spare
/// picture around the view. Pictures are in the scan-out format, the canvas's size plus a margin
/// on each side, and unturned (a turned panel composes in software).
///
/// While the plane shows a picture, the canvas is not on screen: its damage is kept, and
/// `showCanvas` puts the whole canvas back (the caller then presents it).
public protocol MapScrollPlane: AnyObject {
    /// False once the display stopped scrolling (its driver refused a window at run time): the
    /// canvas is shown again and the map drawn into it.
    var scrollsMap: Bool { get }
    /// The size of each map picture: at least the canvas's.
    var pictureWidth: Int { get }
    var pictureHeight: Int { get }
    /// The picture neither on screen nor queued, to draw the map into. Waits (at most a frame)
    /// for a commit still in flight that takes the other picture off the screen.
    func sparePicture() -> PixelBuffer
    /// From the next `present`: the spare picture, its canvas-sized window at (`x`, `y`).
    func showSparePicture(windowX x: Int, windowY y: Int)
    /// From the next `present`: the picture on screen with its window at (`x`, `y`).
    func moveWindow(toX x: Int, y: Int)
    /// From the next `present`: the canvas again, whole.
    func showCanvas()
    /// Whether a picture (not the canvas) is what the plane shows from the next `present`.
    var showsPicture: Bool { get }
}
