import FBDev
import Glibc
import Raster
import XCTest

/// What the metrics call a presented frame on a framebuffer: a pan that succeeded, or a frame
/// written in place.
final class FBDevPresentationCountTests: XCTestCase {
    private let square = Rect(x: 2, y: 2, width: 6, height: 5)

    func testPansCountWhenTheySucceed() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30, virtualHeight: 60)
        let output = try Scene.make(fb)
        try output.start()
        XCTAssertEqual(output.strategy, .flip)
        try output.present(damage: square)
        try output.present(damage: .empty)
        fb.failures["pan"] = [EBUSY]
        try output.present(damage: square)
        XCTAssertEqual(output.presentation.presented, 1, "the busy pan showed nothing")
        try output.present(damage: square)
        XCTAssertEqual(output.presentation.presented, 2)
    }

    func testInPlaceFramesCountAndTheirVSyncWaitIsMeasured() throws {
        let fb = MemoryFramebuffer.make(width: 40, height: 30)
        fb.vsyncErrno = 0
        let output = try Scene.make(fb)
        try output.start()
        XCTAssertEqual(output.strategy, .damage)
        try output.present(damage: square)
        try Scene.settle(output)
        try output.present(damage: square)
        try Scene.settle(output)
        try output.present(damage: .empty)
        XCTAssertEqual(output.presentation.presented, 2)
        XCTAssertEqual(output.presentation.waitedNanoseconds, 2 * fb.vsyncPeriod, "one vblank waited per frame written")
    }
}
