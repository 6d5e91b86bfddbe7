import XCTest
// Placeholder until EndToEndTests gets its real tests; replace this file.
final class EndToEndTestsPlaceholder: XCTestCase { func testBuilds() {} }
