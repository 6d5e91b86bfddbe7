import XCTest
// Placeholder until KMSTests gets its real tests; replace this file.
final class KMSTestsPlaceholder: XCTestCase { func testBuilds() {} }
