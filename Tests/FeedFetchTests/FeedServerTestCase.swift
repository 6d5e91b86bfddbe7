import TestSupport
import XCTest

/// One feed_server.py for a test class, started by the first test that asks, stopped after the
/// class's last test.
class FeedServerTestCase: XCTestCase {
    nonisolated(unsafe) static var shared: FeedServer?

    override class func tearDown() {
        shared = nil
        super.tearDown()
    }

    func server() throws -> FeedServer {
        if let s = Self.shared { return s }
        let s = try FeedServer()
        Self.shared = s
        return s
    }
}
