import Shaping
import TestSupport
import XCTest

/// The visual order of mixed lines against the `fribidi` command (libfribidi-bin): the bidi
/// analysis itself, and the order the shaped runs come out in.
final class BidiTests: XCTestCase {
    static let lines = [
        "Linie 7 → شارع الملك فهد 15 ירושלים",
        "محطة 12 Central Station (شمال)",
        "תחנה מרכזית Tel Aviv 2000",
        "Bus 42: القدس - Jerusalem",
        "שער יפו / Jaffa Gate 3",
    ]

    /// fribidi's base direction and visual-to-logical map for one line.
    func fribidi(_ text: String) throws -> (rightToLeft: Bool, visualToLogical: [Int]) {
        let result = try runProgram("/bin/sh", ["-c", "printf '%s\\n' \"$1\" | fribidi --nopad --nobreak --novisual --basedir --vtol",
                                                "sh", text])
        XCTAssertEqual(result.status, 0, result.stderr)
        let out = result.stdout.split(separator: "\n")
        XCTAssertEqual(out.count, 2, result.stdout)
        return (out[0].hasSuffix("R"), out[1].split(separator: " ").map { Int($0)! })
    }

    func testTheVisualOrderIsFribidis() throws {
        for text in Self.lines {
            let scalars = text.unicodeScalars.map { $0.value }
            let reference = try fribidi(text)
            let mine = BidiLine(scalars)
            XCTAssertEqual(mine.paragraphIsRightToLeft, reference.rightToLeft, text)
            XCTAssertEqual(mine.visualToLogical, reference.visualToLogical, text)
        }
    }

    func testShapedRunsComeInFribidisOrder() throws {
        let catalog = try XCTUnwrap(HBShapeTests.fonts)
        let set = try FontSet(catalog: catalog, pixelHeight: 20)
        for text in Self.lines {
            let line = set.shape(text)
            // Scalar index of each UTF-8 offset, to turn the runs back into characters.
            var scalarAt: [Int: Int] = [:], offset = 0
            for (i, s) in text.unicodeScalars.enumerated() { scalarAt[offset] = i; offset += String(s).utf8.count }
            scalarAt[offset] = text.unicodeScalars.count
            var order: [Int] = []
            for run in line.runs {
                let indices = Array(scalarAt[run.utf8Start]!..<scalarAt[run.utf8End]!)
                order += run.isRightToLeft ? indices.reversed() : indices
            }
            let reference = try fribidi(text)
            XCTAssertEqual(order, reference.visualToLogical, text)
            XCTAssertEqual(line.paragraphIsRightToLeft, reference.rightToLeft, text)
        }
    }

    func testAnEmptyLineAndALineOfNeutralsAreLeftToRight() {
        XCTAssertEqual(BidiLine([]).visualToLogical, [])
        let digits = BidiLine("12 - 34".unicodeScalars.map { $0.value })
        XCTAssertFalse(digits.paragraphIsRightToLeft)
        XCTAssertEqual(digits.visualToLogical, Array(0..<7))
    }
}
