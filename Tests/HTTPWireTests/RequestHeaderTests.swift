import HTTPWire
import XCTest

/// The request is checked where it is written: a header's name must be a token (RFC 9110), so a
/// name with CR/LF cannot add a header; the names that frame or route the request cannot carry a
/// configured key; a value with a line break is refused without echoing it (it may be the key).
final class RequestHeaderTests: XCTestCase {
    let url = try! HTTPURL(parsing: "https://feeds.example.org/vp.pb")

    func testANameWithALineBreakCannotAddAHeader() {
        XCTAssertThrowsError(try HTTPRequest.get(url, fields: [("X-Key\r\nX-Injected", "yes")])) { error in
            XCTAssertEqual("\(error)", "request header 'X-Key\\r\\nX-Injected': not a header name (RFC 9110: letters, digits and !#$%&'*+-.^_`|~ only)")
            XCTAssertFalse("\(error)".contains("\n"))
        }
        for name in ["", "X Key", "X:Key", "Ключ", "X-Key\u{0}"] {
            XCTAssertThrowsError(try HTTPRequest.get(url, fields: [(name, "v")]), name)
        }
    }

    func testTokensPassAndTheValueIsNeverEchoed() throws {
        let bytes = try HTTPRequest.get(url, fields: [("X-Api_Key.v2~", "secret")])
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "GET /vp.pb HTTP/1.1\r\nHost: feeds.example.org\r\nX-Api_Key.v2~: secret\r\n\r\n")
        XCTAssertThrowsError(try HTTPRequest.get(url, fields: [("X-Key", "sec\r\nret")])) { error in
            XCTAssertFalse("\(error)".contains("sec"), "\(error)")
        }
    }

    func testTheRequestsOwnFramingCannotCarryAKey() {
        for name in ["Host", "content-length", "Transfer-Encoding", "CONNECTION"] {
            XCTAssertEqual(HTTPFieldName.configuredProblem(name), "\(name) frames or routes the request itself: it cannot carry a key", name)
        }
        XCTAssertNil(HTTPFieldName.configuredProblem("X-API-Key"))
        XCTAssertNil(HTTPFieldName.configuredProblem("Authorization"))
    }
}
