import Foundation
import TestSupport
import XCTest

/// The package's shape as README's "Architecture" states it, checked from the sources: every
/// project module a file imports is a direct dependency of its target (SwiftPM itself accepts
/// modules reached through another dependency), a test target depends on nothing else,
/// dependencies point one way, no target holds more than a quarter of the code, no file is two
/// ideas long.
final class ArchitectureTests: XCTestCase {
    struct Target {
        let name: String
        let dependencies: Set<String>
        let path: URL
    }

    /// The targets of Package.swift, read from its text: `.target(name: "X", dependencies: [...], path: "...")`.
    static func targets() throws -> [String: Target] {
        let root = TestEnvironment.packageRoot
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(
            pattern: #"\.(target|executableTarget|testTarget|systemLibrary)\(name: "(\w+)"(?:, dependencies: \[([^\]]*)\])?(?:[^)]*path: "([^"]+)")?"#)
        var result: [String: Target] = [:]
        for m in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            func group(_ i: Int) -> String? { Range(m.range(at: i), in: text).map { String(text[$0]) } }
            let kind = group(1)!, name = group(2)!
            let deps = (group(3) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            let path = group(4) ?? (kind == "testTarget" ? "Tests/\(name)" : "Sources/\(name)")
            result[name] = Target(name: name, dependencies: Set(deps.filter { !$0.isEmpty }), path: root.appendingPathComponent(path))
        }
        return result
    }

    static func swiftFiles(in directory: URL) -> [URL] {
        let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    static func imports(of file: URL) throws -> [String] {
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard let i = words.firstIndex(of: "import"), words[..<i].allSatisfy({ $0.hasPrefix("@") }), i + 1 < words.count else { return nil }
            return String(words[i + 1])
        }
    }

    func testEveryImportedProjectModuleIsADirectDependency() throws {
        let targets = try Self.targets()
        XCTAssertGreaterThan(targets.count, 20, "Package.swift was not read")
        var problems: [String] = []
        for target in targets.values {
            for file in Self.swiftFiles(in: target.path) {
                for module in try Self.imports(of: file) where targets[module] != nil && module != target.name {
                    if !target.dependencies.contains(module) {
                        problems.append("\(file.path.replacingOccurrences(of: TestEnvironment.packageRoot.path + "/", with: "")) imports \(module), which target \(target.name) does not list in Package.swift")
                    }
                }
            }
        }
        XCTAssertEqual(problems, [], problems.joined(separator: "\n"))
    }

    /// Under Tests/ the converse holds too: a test target's line in Package.swift then says what
    /// it tests and with what, and a moved test takes its dependencies with it.
    func testEveryTestDependencyIsImported() throws {
        let tests = TestEnvironment.packageRoot.appendingPathComponent("Tests").path + "/"
        var problems: [String] = []
        for target in try Self.targets().values where target.path.path.hasPrefix(tests) {
            let imported = Set(try Self.swiftFiles(in: target.path).flatMap(Self.imports))
            for module in target.dependencies.subtracting(imported).sorted() {
                problems.append("\(target.name) lists \(module) in Package.swift, which none of its files imports")
            }
        }
        XCTAssertEqual(problems, [], problems.joined(separator: "\n"))
    }

    func testDependenciesPointOneWay() throws {
        let targets = try Self.targets()
        // Depth-first search for a cycle; SwiftPM refuses one too, but says less.
        var state: [String: Int] = [:]
        var cycle: [String] = []
        func visit(_ name: String, _ path: [String]) {
            if state[name] == 2 || !cycle.isEmpty { return }
            if state[name] == 1 { cycle = path + [name]; return }
            state[name] = 1
            for d in targets[name]?.dependencies.sorted() ?? [] { visit(d, path + [name]) }
            state[name] = 2
        }
        for name in targets.keys.sorted() { visit(name, []) }
        XCTAssertEqual(cycle, [])
        // The pure libraries import nothing of the system or the project beyond themselves.
        for pure in ["Raster", "LocationDot", "Geo", "Compositor", "JSON", "Metrics", "GTFSRealtime"] {
            let target = try XCTUnwrap(targets[pure], pure)
            for file in Self.swiftFiles(in: target.path) {
                let outside = try Self.imports(of: file).filter { $0 != "Synchronization" && !target.dependencies.contains($0) }
                XCTAssertEqual(outside, [], "\(file.lastPathComponent) in \(pure) imports \(outside)")
            }
        }
    }

    /// Config parses the settings table and opens nothing: it depends on the modules of the values
    /// it parses (positions, colours, pixel formats, a gpsd address, a trip's id, a log level) and
    /// on Syscall for paths, never on what reads a map's files or draws them (PNG, TileDecode,
    /// Tiles, TileMap, Scene): the users of the settings open those (`MapFiles`, `DotImages`).
    func testConfigDependsOnlyOnTheValuesItParses() throws {
        let config = try XCTUnwrap(try Self.targets()["Config"])
        XCTAssertEqual(config.dependencies.sorted(), ["DisplayCore", "GPSD", "Geo", "HTTPWire", "LocationDot", "Raster", "Syscall", "Systemd", "Transit"],
                       "a new dependency of Config: is it a value the table parses, or a file its users should open?")
    }

    func testNoTargetHoldsMoreThanAQuarterOfTheCodeAndNoFileIsTwoIdeasLong() throws {
        let sources = TestEnvironment.packageRoot.appendingPathComponent("Sources")
        var lines: [String: Int] = [:]
        var long: [String] = []
        for file in Self.swiftFiles(in: sources) {
            let count = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count
            let target = file.path.dropFirst(sources.path.count + 1).split(separator: "/").first.map(String.init) ?? ""
            lines[target, default: 0] += count
            if count > 420 { long.append("\(file.lastPathComponent): \(count) lines") }
        }
        let total = lines.values.reduce(0, +)
        XCTAssertGreaterThan(total, 10_000)
        for (target, count) in lines.sorted(by: { $0.key < $1.key }) {
            XCTAssertLessThanOrEqual(count * 4, total, "\(target) holds \(count) of \(total) lines")
        }
        XCTAssertEqual(long, [])
    }
}
