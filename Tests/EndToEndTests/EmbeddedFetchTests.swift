import Foundation
import TestSupport
import XCTest

/// `pulsedot realtime fetch` from the Embedded build (OpenSSL and zlib linked statically), run
/// under qemu-user against feed_server.py: TLS verified, gzip and chunked bodies decoded, the
/// limits and refusals said in the very words the x86-64 build says them.
final class EmbeddedFetchTests: XCTestCase {
    func testFetchingOverTLSSaysTheSameOnARM() throws {
        let server = try FeedServer()
        // Addresses, not names: a static glibc resolves names through NSS modules it may lack.
        let url = { (path: String, port: String) in server.url(path, host: "127.0.0.1", port: port) }
        let cases: [[String]] = [
            [url("/gzip.pb", "good")], [url("/chunked.pb", "good")],
            [url("/bomb", "good"), "--max-bytes", "1000000"], [url("/huge-chunked", "good"), "--max-bytes", "1000000"],
            [url("/status/500", "good")], [url("/loop/a", "good")], [url("/truncated", "good")],
            [url("/vehicles.pb", "expired")], [url("/vehicles.pb", "wrong")],
        ]
        for arch in EmbeddedBinaries.tested {
            for arguments in cases {
                let command = ["realtime", "fetch"] + arguments + ["--ca-file", server.caFile]
                let mine = try EmbeddedBinaries.run(arch, command)
                let theirs = try runProgram(try TestEnvironment.pulsedotBinary(), command)
                XCTAssertEqual(mine.status, theirs.status, "\(arch) \(arguments): \(mine.stderr)")
                // The fetch line has the time it took, the feed's age its second, and where a
                // limit stopped the body hangs on how the reads fell: left out.
                let steady = { (text: String) in
                    text.split(separator: "\n").filter { !$0.contains(": HTTP 200,") && !$0.hasPrefix("timestamp:") }
                        .map { $0.components(separatedBy: " (stopped after")[0] }
                }
                XCTAssertEqual(steady(mine.stdout), steady(theirs.stdout), "\(arch) \(arguments)")
                XCTAssertEqual(steady(mine.stderr), steady(theirs.stderr), "\(arch) \(arguments)")
                if theirs.status == 0 { XCTAssertTrue(mine.stdout.contains("entities: 40 ("), mine.stdout) }
            }
        }
    }
}
