import Glibc
import KMS
import XCTest

final class StrategyTests: XCTestCase {
    func testAutoFlipsWithVBlankElseDamageWithDirtyFBElseFlip() {
        let withVBlank = UpdateStrategy.choose(.auto, vblankErrno: 0, dirtyErrno: 0)
        XCTAssertEqual(withVBlank.0, .flip)
        XCTAssertEqual(withVBlank.reason, "update = auto chose flip: the CRTC has a working vblank")
        let virtio = UpdateStrategy.choose(.auto, vblankErrno: EOPNOTSUPP, dirtyErrno: 0)
        XCTAssertEqual(virtio.0, .damage)
        XCTAssertEqual(virtio.reason, "update = auto chose damage: no vblank on this CRTC (Operation not supported) and the driver takes DirtyFB")
        let bochs = UpdateStrategy.choose(.auto, vblankErrno: EOPNOTSUPP, dirtyErrno: ENOSYS)
        XCTAssertEqual(bochs.0, .flip)
        XCTAssertEqual(bochs.reason, "update = auto chose flip: no vblank (Operation not supported) and no DirtyFB (Function not implemented); a timer paces frames")
    }

    func testConfiguredStrategyWins() {
        XCTAssertEqual(UpdateStrategy.choose(.flip, vblankErrno: EOPNOTSUPP, dirtyErrno: 0).0, .flip)
        XCTAssertEqual(UpdateStrategy.choose(.damage, vblankErrno: 0, dirtyErrno: 0).0, .damage)
        let blind = UpdateStrategy.choose(.damage, vblankErrno: 0, dirtyErrno: ENOSYS)
        XCTAssertEqual(blind.0, .damage)
        XCTAssertTrue(blind.reason.contains("DirtyFB fails (Function not implemented)"), blind.reason)
    }
}
