import Foundation
import TestSupport
import XCTest

/// Debian's own policy checker on the packages `deploy/package/build-deb` makes: the dynamic package of
/// this machine, a Debian revision of it, and the static Embedded packages the run builds
/// (`EmbeddedBinaries.tested`), each with `lintian --fail-on error,warning`. Overrides must all
/// be used: one that matches nothing hides nothing today and would hide a real problem tomorrow.
final class LintianTests: XCTestCase {
    static let lintian = "/usr/bin/lintian"

    private func requireLintian() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.lintian) else {
            throw TestFailure("\(Self.lintian) is missing: deploy/install-deps --test installs Debian's lintian")
        }
    }

    /// The errors and warnings lintian reports for `deb`, and its exit status; fails the test on
    /// unused or mismatched overrides and on lintian itself failing.
    private func lint(_ deb: URL, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try requireLintian()
        // Info tags too, where unused-override is reported.
        let run = try runProgram(Self.lintian, ["--fail-on", "error,warning", "--display-info", deb.path], timeout: 600)
        // 0: clean; 2: a tag at a --fail-on level; anything else is lintian failing to check.
        XCTAssertTrue(run.status == 0 || run.status == 2, "lintian \(deb.lastPathComponent) exited \(run.status): \(run.stderr)", file: file, line: line)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        for stale in lines where stale.contains("unused-override") || stale.contains("mismatched-override") || stale.contains("malformed-override") {
            XCTFail("\(deb.lastPathComponent): \(stale)", file: file, line: line)
        }
        let problems = lines.filter { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }
        // The status and the lines must tell the same story, or the parsing above misses tags.
        XCTAssertEqual(run.status == 2, !problems.isEmpty, "lintian status \(run.status) with:\n\(run.stdout)", file: file, line: line)
        return problems
    }

    private func assertClean(_ deb: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let problems = try lint(deb, file: file, line: line)
        XCTAssertEqual(problems, [], "lintian --fail-on error,warning \(deb.lastPathComponent)", file: file, line: line)
    }

    func testThisMachinesPackagePassesLintian() throws {
        let started = Date()
        try assertClean(try PackagingFixture.package().deb)
        print("lintian on the \(try PackagingFixture.package().deb.lastPathComponent): \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    }

    func testARevisionPassesLintian() throws {
        // changelog.Debian.gz beside the release's changelog.gz, and a maintainer of the fleet's own.
        let dir = try PackagingFixture.scratch("lintian-rev", for: self)
        let made = try PackagingFixture.run(PackagingFixture.script("build-deb"),
                                            ["--out", dir.path, "--binary", try TestEnvironment.pulsedotBinary(), "--revision", "1",
                                             "--maintainer", "Fleet Operations <fleet@example.org>"])
        try PackagingFixture.check(made, "build-deb --revision 1")
        try assertClean(URL(fileURLWithPath: made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// The static packages: one program carrying glibc, libdrm, libpng, zlib, SQLite, TurboJPEG,
    /// FreeType, brotli, OpenSSL, HarfBuzz, FriBiDi, fontconfig and expat, which lintian accepts only with the overrides' reasons, the licences
    /// in the copyright file and their sources in Static-Built-Using.
    func testStaticPackagesPassLintianAndNameWhatTheyCarry() throws {
        let dir = try PackagingFixture.scratch("lintian-static", for: self)
        for arch in EmbeddedBinaries.tested {
            let binary = try EmbeddedBinaries.binary(arch)
            let made = try runProgram(PackagingFixture.script("build-deb"),
                                      ["--arch", arch.rawValue, "--binary", binary, "--out", dir.path], timeout: 300)
            XCTAssertEqual(made.status, 0, "\(arch): \(made.stderr)")
            guard made.status == 0 else { continue }
            let deb = URL(fileURLWithPath: made.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            let started = Date()
            try assertClean(deb)
            print("lintian on the \(deb.lastPathComponent): \(String(format: "%.1f", Date().timeIntervalSince(started))) s")

            let field = try runProgram("/usr/bin/dpkg-deb", ["-f", deb.path, "Static-Built-Using"])
            XCTAssertEqual(field.status, 0, field.stderr)
            let builtUsing = field.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let sources = try linkedSources(arch)
            for source in sources {
                XCTAssertTrue(builtUsing.contains(source), "\(arch): \(source) is linked in but Static-Built-Using is '\(builtUsing)'")
            }
            // glibc's LGPL asks for its source to stay available: Built-Using keeps it in the archive.
            let licensed = try runProgram("/usr/bin/dpkg-deb", ["-f", deb.path, "Built-Using"])
            XCTAssertEqual(licensed.stdout.trimmingCharacters(in: .whitespacesAndNewlines), sources.first { $0.hasPrefix("glibc ") })

            let root = dir.appendingPathComponent("root-\(arch.rawValue)")
            let extracted = try runProgram("/usr/bin/dpkg-deb", ["-x", deb.path, root.path])
            XCTAssertEqual(extracted.status, 0, extracted.stderr)
            let copyright = try DEP5(contentsOf: root.appendingPathComponent("usr/share/doc/pulsedot/copyright"))
            for source in sources {
                let name = String(source.prefix { $0 != " " })
                guard let files = Self.copyrightFiles[name] else {
                    XCTFail("\(arch): \(name) is linked into the program but its licence is not stated in deploy/package/debian/copyright.static")
                    continue
                }
                XCTAssertNotNil(copyright.license(ofFiles: files), "\(arch): no Files: \(files) paragraph for \(name)")
            }
            XCTAssertEqual(copyright.unexplainedLicenses, [], "\(arch): License names without their text")
        }
    }

    /// Where the copyright file states each linked source package's licence (Files: patterns
    /// name the library's source tree).
    private static let copyrightFiles = [
        "glibc": "glibc/*", "gcc-12-cross": "libgcc/*", "gcc-12": "libgcc/*", "libjpeg-turbo": "libjpeg-turbo/*",
        "freetype": "freetype/*", "libpng1.6": "libpng/*", "zlib": "zlib/*", "sqlite3": "sqlite3/*",
        "libdrm": "libdrm/*", "brotli": "brotli/*", "openssl": "openssl/*", "harfbuzz": "harfbuzz/*", "fribidi": "fribidi/*",
        "fontconfig": "fontconfig/*", "expat": "expat/*",
    ]

    /// "source (= version)" of every library deploy/embedded/build-embedded links for `arch`, read from its
    /// link line (so a library added there and forgotten by build-deb fails here), plus the C
    /// library and libgcc every static link brings.
    private func linkedSources(_ arch: EmbeddedBinaries.Arch) throws -> [String] {
        let script = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("deploy/embedded/build-embedded"), encoding: .utf8)
        guard let link = script.split(separator: "\n").first(where: { $0.contains("-ldrm") }) else {
            throw TestFailure("deploy/embedded/build-embedded has no link line with -ldrm")
        }
        var names = link.split(separator: " ").filter { $0.hasPrefix("-l") }.map { "lib" + $0.dropFirst(2) + ".a" }
        // The shaping libraries are named once, in their own array, beside the HarfBuzz built there.
        if let shaping = script.split(separator: "\n").first(where: { $0.hasPrefix("shaping_libs=(") }) {
            names += shaping.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "()")) }
                .filter { $0.hasPrefix("-l") }.map { "lib" + $0.dropFirst(2) + ".a" }
        } else {
            XCTFail("deploy/embedded/build-embedded has no shaping_libs line")
        }
        names.append("libc.a")
        XCTAssertGreaterThanOrEqual(names.count, 9, "the link line: \(link)")
        let multiarch = arch == .arm64 ? "aarch64-linux-gnu" : "arm-linux-gnueabihf"
        var archives = names.map { "/usr/lib/\(multiarch)/\($0)" }
        let gcc = try runProgram("/usr/bin/\(multiarch)-gcc", ["-print-libgcc-file-name"])
        XCTAssertEqual(gcc.status, 0, gcc.stderr)
        archives.append(gcc.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        var sources: Set<String> = []
        for archive in archives {
            let owner = try runProgram("/usr/bin/dpkg-query", ["-S", archive])
            XCTAssertEqual(owner.status, 0, "\(archive): \(owner.stderr)")
            guard owner.status == 0, let package = owner.stdout.split(separator: "\n").first?.components(separatedBy: ": ").first else { continue }
            let source = try runProgram("/usr/bin/dpkg-query", ["-W", "-f=${source:Package} (= ${source:Version})", package])
            XCTAssertEqual(source.status, 0, source.stderr)
            sources.insert(source.stdout)
        }
        // HarfBuzz is compiled there from Debian's source package of the installed libharfbuzz-dev.
        let harfbuzz = try runProgram("/usr/bin/dpkg-query", ["-W", "-f=${source:Package} (= ${source:Version})", "libharfbuzz-dev"])
        XCTAssertEqual(harfbuzz.status, 0, harfbuzz.stderr)
        sources.insert(harfbuzz.stdout)
        return sources.sorted()
    }
}

/// A machine-readable debian/copyright (DEP-5): its paragraphs as fields.
struct DEP5 {
    let paragraphs: [[String: String]]

    init(contentsOf url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        var paragraphs: [[String: String]] = []
        for block in text.components(separatedBy: "\n\n") where !block.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            var fields: [String: String] = [:]
            var last: String?
            for line in block.split(separator: "\n", omittingEmptySubsequences: true) {
                if line.hasPrefix(" "), let key = last { fields[key, default: ""] += "\n" + line; continue }
                guard let colon = line.firstIndex(of: ":") else { throw TestFailure("\(url.path): not a field: \(line)") }
                let key = String(line[..<colon])
                fields[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                last = key
            }
            paragraphs.append(fields)
        }
        self.paragraphs = paragraphs
    }

    var header: [String: String] { paragraphs.first ?? [:] }

    /// The License line (its first line: the short name) of the Files paragraph naming `files`.
    func license(ofFiles files: String) -> String? {
        paragraphs.first { $0["Files"] == files }?["License"].map { String($0.prefix { $0 != "\n" }) }
    }

    /// The licence's text: its stand-alone paragraph's body.
    func text(ofLicense name: String) -> String? {
        guard let paragraph = paragraphs.first(where: { $0["Files"] == nil && $0["License"]?.hasPrefix(name + "\n") == true }),
              let license = paragraph["License"] else { return nil }
        return String(license.dropFirst(name.count + 1))
    }

    /// Short names used by Files paragraphs ("A and B", "A or B") that have no stand-alone text.
    var unexplainedLicenses: [String] {
        let used = paragraphs.filter { $0["Files"] != nil }.compactMap { $0["License"] }
            .map { String($0.prefix { $0 != "\n" }) }
            .flatMap { $0.components(separatedBy: " and ").flatMap { $0.components(separatedBy: " or ") } }
        return Set(used).filter { text(ofLicense: $0) == nil }.sorted()
    }
}
