import Glibc
import KMS
import XCTest

/// `pulsedot probe`'s card report: what the driver answered, in words.
final class ProbeTests: XCTestCase {
    func testUnexpectedVBlankAndDirtyFBErrorsAreNamed() throws {
        let card = FakeCard.simple()
        card.vblankErrno = EIO
        card.dirtyErrno = EINTR
        let probe = try CardProbe.read(card)
        XCTAssertTrue(probe.text.contains("  DirtyFB: unknown (Interrupted system call)\n"), probe.text)
        XCTAssertTrue(probe.text.contains("  crtc 10 (index 0): off, vblank: unknown (Input/output error)\n"), probe.text)
        XCTAssertTrue(card.buffers.isEmpty, "the probe's buffer is freed again")
    }
}
