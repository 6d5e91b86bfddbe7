import XCTest
// Placeholder until GPSDTests gets its real tests; replace this file.
final class GPSDTestsPlaceholder: XCTestCase { func testBuilds() {} }
