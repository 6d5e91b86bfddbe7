import XCTest
// Placeholder until RasterTests gets its real tests; replace this file.
final class RasterTestsPlaceholder: XCTestCase { func testBuilds() {} }
