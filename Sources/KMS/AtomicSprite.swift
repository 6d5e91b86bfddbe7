import DisplayCore
import Glibc
import Raster
import Syscall

/// The dot's plane of `AtomicKMSOutput` (`SpritePlane`): the picture painted in canvas
/// orientation, turned into the plane's buffer on a turned panel, shown at its place; and what
/// the controller composed, read back through the writeback connector.
extension AtomicKMSOutput {
    public var showsWholeSprite: Bool { planes.isCursor }

    public func showSprite(x: Int, y: Int, width: Int, height: Int) {
        precondition(width > 0 && height > 0 && width <= spriteWidth && height <= spriteHeight,
                     "a \(width)x\(height) sprite does not fit the \(spriteWidth)x\(spriteHeight) plane")
        precondition(!showsWholeSprite || (width == spriteWidth && height == spriteHeight), "a cursor plane shows its whole buffer")
        var place = Rect(x: x, y: y, width: width, height: height)
        if let turnedSprite {
            // The picture turned into the plane's buffer, and its place on the panel.
            let picture = PixelBuffer(base: turnedSprite.buffer.base, width: width, height: height,
                                      stride: turnedSprite.buffer.stride, format: .xrgb8888)
            picture.copyOut(region: picture.bounds, to: sprites[spriteDrawing].pixels, rotation: rotation)
            place = rotation.map(rect: place, logicalWidth: shadow.width, logicalHeight: shadow.height)
        }
        sprite = SpriteState(framebuffer: sprites[spriteDrawing].framebuffer, x: place.x, y: place.y,
                             width: place.width, height: place.height)
        spriteChanged = true
    }

    public func hideSprite() {
        if sprite.framebuffer == 0 { return }
        sprite = SpriteState()
        spriteChanged = true
    }

    public func composedScreen() -> PixelBuffer? {
        guard let w = planes.writeback, started, !closed, !blanked else { return nil }
        finishPendingCommit()
        if captureBuffer == nil {
            do { captureBuffer = try card.createBuffer(width: mode.width, height: mode.height, format: .xrgb8888) } catch {
                log("\(name): no buffer for the writeback capture: \(error)")
                return nil
            }
        }
        guard let target = captureBuffer else { return nil }
        fence.pointee = -1
        request.removeAll()
        request.set(w.connector, w.fb, UInt64(target.framebuffer))
        request.set(w.connector, w.fencePointer, UInt64(UInt(bitPattern: fence)))
        do { try card.commit(request, flags: []) } catch {
            log("\(name): the writeback capture was refused: \(error)")
            return nil
        }
        guard fence.pointee >= 0, card.waitForFence(fence.pointee, timeoutMilliseconds: 1000) else {
            log("\(name): the writeback capture did not complete within a second")
            return nil
        }
        if rotation == .r0 { return target.pixels }
        if turnedCapture == nil { turnedCapture = OwnedPixelBuffer(width: shadow.width, height: shadow.height, format: .xrgb8888) }
        let logical = turnedCapture!.buffer
        target.pixels.copyOut(region: target.pixels.bounds, to: logical, rotation: rotation.inverse)
        return logical
    }
}
