import Foundation
import TestSupport
import XCTest

/// How many heap allocations one run of the program under test made, counted by valgrind.
///
/// A dynamically linked program (the normal build): memcheck's preload library takes the place of
/// glibc's `malloc` and reports `total heap usage: N allocs`. A static program (the Embedded build,
/// `deploy/embedded/build-embedded`) has no dynamic loader to put that library in: memcheck counts 0 there,
/// every allocation unseen. Callgrind needs no preload, and counts the calls made to glibc's
/// allocating entry points linked into the program: the same question, asked of the same code.
enum HeapCount {
    struct Counted {
        let allocations: Int
        let status: Int32
        /// The program's own standard error, with valgrind's lines.
        let stderr: String
    }

    /// glibc's names for its allocating entry points (an alias may be the name valgrind finds).
    private static let allocating: Set<String> = [
        "malloc", "__libc_malloc", "calloc", "__libc_calloc", "realloc", "__libc_realloc",
        "posix_memalign", "__posix_memalign", "aligned_alloc", "memalign", "__libc_memalign", "valloc", "pvalloc",
    ]

    static func isStatic(_ binary: String) throws -> Bool {
        let headers = try runProgram("/usr/bin/readelf", ["-l", binary])
        guard headers.status == 0 else { throw TestFailure("readelf -l \(binary) failed: \(headers.stderr)") }
        return !headers.stdout.contains("INTERP")
    }

    static func run(_ binary: String, _ arguments: [String], timeout: TimeInterval = 600) throws -> Counted {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind") else {
            throw TestFailure("valgrind is needed (sudo deploy/install-deps --test)")
        }
        if try isStatic(binary) { return try callgrind(binary, arguments, timeout: timeout) }
        let run = try runProgram("/usr/bin/valgrind", ["--tool=memcheck", "--leak-check=no", binary] + arguments, timeout: timeout)
        guard let line = run.stderr.split(separator: "\n").first(where: { $0.contains("total heap usage:") }),
              let match = line.range(of: #"([0-9,]+) allocs"#, options: .regularExpression),
              let count = Int(line[match].replacingOccurrences(of: ",", with: "").replacingOccurrences(of: " allocs", with: "")) else {
            throw TestFailure("no heap summary from valgrind:\n\(run.stderr)")
        }
        return Counted(allocations: count, status: run.status, stderr: run.stderr)
    }

    private static func callgrind(_ binary: String, _ arguments: [String], timeout: TimeInterval) throws -> Counted {
        let dir = try TestEnvironment.temporaryDirectory("callgrind")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("callgrind.out").path
        let run = try runProgram("/usr/bin/valgrind", ["--tool=callgrind", "--callgrind-out-file=\(out)", binary] + arguments,
                                 timeout: timeout)
        guard let profile = try? String(contentsOfFile: out, encoding: .utf8) else {
            throw TestFailure("callgrind wrote no profile:\n\(run.stderr)")
        }
        return Counted(allocations: callsOfAllocating(in: profile), status: run.status, stderr: run.stderr)
    }

    /// The sum of `calls=` over every call made to an allocating function, from callgrind's
    /// profile format: `fn=(id) name` / `cfn=(id) name` name a function the first time, `(id)` alone
    /// afterwards; a `calls=N …` line follows the `cfn=` of the function called.
    static func callsOfAllocating(in profile: String) -> Int {
        var names: [Substring: Substring] = [:]
        var callee: Substring?
        var total = 0
        for line in profile.split(separator: "\n") {
            if line.hasPrefix("fn=") || line.hasPrefix("cfn=") {
                let spec = line.drop(while: { $0 != "=" }).dropFirst()
                var name = spec
                if spec.hasPrefix("("), let close = spec.firstIndex(of: ")") {
                    let id = spec[spec.startIndex...close]
                    let rest = spec[spec.index(after: close)...].drop(while: { $0 == " " })
                    if !rest.isEmpty { names[id] = rest }
                    name = names[id] ?? rest
                }
                if line.hasPrefix("cfn=") { callee = name }
            } else if line.hasPrefix("calls="), let called = callee {
                if allocating.contains(String(called)),
                   let n = Int(line.dropFirst("calls=".count).prefix(while: { $0.isNumber })) {
                    total += n
                }
                callee = nil
            }
        }
        return total
    }
}
