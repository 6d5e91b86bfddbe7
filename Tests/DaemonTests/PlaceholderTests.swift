import XCTest
// Placeholder until DaemonTests gets its real tests; replace this file.
final class DaemonTestsPlaceholder: XCTestCase { func testBuilds() {} }
