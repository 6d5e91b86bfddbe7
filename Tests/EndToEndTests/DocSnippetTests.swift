import Foundation
import TestSupport
import XCTest

/// Every configuration snippet the documentation shows (```ini blocks in README.md and docs/*.md)
/// is a file `pulsedot check-config` accepts, so an example cannot drift from the parser: paths
/// the snippet names are mapped to real files of the same kind (a tile set, an image, an NMEA
/// log) made here.
final class DocSnippetTests: XCTestCase {
    struct Snippet {
        let file: String
        let line: Int
        let text: String
    }

    /// The ```ini blocks of `path`, each with the line it starts on.
    static func snippets(in path: URL) throws -> [Snippet] {
        let lines = try String(contentsOf: path, encoding: .utf8).components(separatedBy: "\n")
        var found: [Snippet] = [], body: [String]?, start = 0
        for (i, line) in lines.enumerated() {
            if body == nil, line.trimmingCharacters(in: .whitespaces) == "```ini" {
                body = []
                start = i + 2
            } else if body != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                found.append(Snippet(file: path.lastPathComponent, line: start, text: body!.joined(separator: "\n") + "\n"))
                body = nil
            } else if body != nil {
                body!.append(line)
            }
        }
        return found
    }

    func testEveryConfigurationSnippetInTheDocsPassesCheckConfig() throws {
        let root = TestEnvironment.packageRoot
        var documents = [root.appendingPathComponent("README.md")]
        let docs = root.appendingPathComponent("docs")
        for name in try FileManager.default.contentsOfDirectory(atPath: docs.path).sorted() where name.hasSuffix(".md") {
            documents.append(docs.appendingPathComponent(name))
        }
        let snippets = try documents.flatMap { try Self.snippets(in: $0) }
        XCTAssertFalse(snippets.isEmpty, "no ```ini snippet in README.md or docs/*.md: the test would check nothing")

        let binary = try TestEnvironment.pulsedotBinary()
        let dir = try TestEnvironment.temporaryDirectory("doc-snippets")
        let tiles = dir.appendingPathComponent("city.mbtiles").path
        let made = try runProgram(binary, ["bench", "--write-city", tiles, "--city-tiles", "8x8"], timeout: 300)
        XCTAssertEqual(made.status, 0, made.stderr)
        let image = dir.appendingPathComponent("map.png").path
        let rendered = try runProgram(binary, ["render", "--out", image, "--width", "64", "--height", "48", "--at", "0"])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        let nmea = dir.appendingPathComponent("drive.nmea").path
        try "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n".write(toFile: nmea, atomically: true, encoding: .utf8)

        for (n, snippet) in snippets.enumerated() {
            // Absolute paths in a snippet are the board's; here they are files of the same kind.
            var text = ""
            for line in snippet.text.split(separator: "\n", omittingEmptySubsequences: false) {
                var l = String(line)
                if let eq = l.firstIndex(of: "="), !l.hasPrefix("#") {
                    let value = l[l.index(after: eq)...].trimmingCharacters(in: .whitespaces)
                    if value.hasPrefix("/") {
                        let mapped = value.hasSuffix(".mbtiles") ? tiles : value.hasSuffix(".png") ? image
                            : value.hasSuffix(".nmea") ? nmea : value.hasSuffix(".zip") ? TransitImportTests.feed : value
                        l = String(l[...eq]) + " " + mapped
                    }
                }
                text += l + "\n"
            }
            let file = dir.appendingPathComponent("snippet-\(n).conf")
            try text.write(to: file, atomically: true, encoding: .utf8)
            let run = try runProgram(binary, ["check-config", file.path])
            XCTAssertEqual(run.status, 0, "\(snippet.file):\(snippet.line): the snippet fails check-config: \(run.stderr)\n\(snippet.text)")
        }
    }
}
