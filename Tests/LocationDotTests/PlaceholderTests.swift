import XCTest
// Placeholder until LocationDotTests gets its real tests; replace this file.
final class LocationDotTestsPlaceholder: XCTestCase { func testBuilds() {} }
