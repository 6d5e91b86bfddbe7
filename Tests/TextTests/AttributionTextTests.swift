import XCTest
import Text

/// The attribution metadata's HTML reduced to the line a screen shows.
final class AttributionTextTests: XCTestCase {
    private func plain(_ html: String) -> String { AttributionText.plain(fromHTML: html) }

    func testRealWorldAttributions() {
        // OpenStreetMap's own tiles and an OpenMapTiles extract, as their MBTiles files carry them.
        XCTAssertEqual(plain(#"<a href="https://www.openstreetmap.org/copyright">&copy; OpenStreetMap contributors</a>"#),
                       "© OpenStreetMap contributors")
        XCTAssertEqual(plain(#"<a href="https://www.openmaptiles.org/" target="_blank">&copy; OpenMapTiles</a> <a href="https://www.openstreetmap.org/copyright" target="_blank">&copy; OpenStreetMap contributors</a>"#),
                       "© OpenMapTiles © OpenStreetMap contributors")
        XCTAssertEqual(plain("© OpenMapTiles © OpenStreetMap contributors"), "© OpenMapTiles © OpenStreetMap contributors")
        XCTAssertEqual(plain("Map data &copy; <a href='https://openstreetmap.org'>OpenStreetMap</a>&nbsp;contributors, Imagery &amp; tiles &#169; Someone"),
                       "Map data © OpenStreetMap contributors, Imagery & tiles © Someone")
    }

    func testEntities() {
        XCTAssertEqual(plain("&copy;&amp;&lt;&gt;&quot;&#39;"), "©&<>\"'")
        XCTAssertEqual(plain("&#169; &#xA9; &#XA9; &#x1F5FA;"), "© © © \u{1F5FA}")
        // An escaped tag is text, not markup.
        XCTAssertEqual(plain("&lt;b&gt;bold&lt;/b&gt;"), "<b>bold</b>")
        // Old names and numbers without their `;`, as browsers read them.
        XCTAssertEqual(plain("&copy OSM &amp co &#169x"), "© OSM & co ©x")
        // Unknown names, impossible numbers and a bare `&` stay as written.
        XCTAssertEqual(plain("&foo; &copy2020 AT&T & &#0; &#xD800; &#99999999999; &#; &#x;"),
                       "&foo; &copy2020 AT&T & &#0; &#xD800; &#99999999999; &#; &#x;")
    }

    func testWhitespaceCollapsesAndIsTrimmed() {
        XCTAssertEqual(plain("  \n\t © \r\n  OSM \u{A0}&nbsp; contributors \n"), "© OSM contributors")
        XCTAssertEqual(plain("a\u{1}b"), "a b")
        XCTAssertEqual(plain(""), "")
        XCTAssertEqual(plain(" &nbsp; <br> "), "")
    }

    func testTagsInlineAndBlock() {
        XCTAssertEqual(plain("Open<b>Street</b>Map"), "OpenStreetMap")
        XCTAssertEqual(plain("Tiles<br/>Data<BR>More<p>Para</P>End"), "Tiles Data More Para End")
        XCTAssertEqual(plain(#"<a title="a > b" href='x>y'>OSM</a>"#), "OSM")
        XCTAssertEqual(plain("A<!-- a > b -->B<!DOCTYPE html>C"), "ABC")
    }

    func testStrayAndUnterminatedMarkup() {
        // A `<` that opens no tag is a less-than sign.
        XCTAssertEqual(plain("zoom < 5, a<3 and 2 <= x <"), "zoom < 5, a<3 and 2 <= x <")
        XCTAssertEqual(plain("</ 5"), "</ 5")
        // A tag the metadata cut off takes what follows it with it.
        XCTAssertEqual(plain(#"&copy; OpenStreetMap <a href="https://www.openstreetmap.org/copy"#), "© OpenStreetMap")
        XCTAssertEqual(plain("&copy; OSM</a"), "© OSM")
        XCTAssertEqual(plain("© OSM <!-- never closed > "), "© OSM")
    }
}
