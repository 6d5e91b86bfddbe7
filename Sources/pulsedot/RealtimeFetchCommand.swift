import Config
import FeedFetch
import HTTPWire
import Syscall

// `pulsedot realtime fetch URL`: one fetch as the daemon makes it (TLS verified, gzip, limits,
// redirects, the API key from a credential), for checking a feed's URL and key from the kiosk.

let realtimeFetchUsage = Usage(
    command: "realtime fetch", summary: "fetch a GTFS-realtime feed once, as the daemon does, and print what it holds",
    operands: [.init(name: "URL", summary: "the feed's https:// (or http://) URL")],
    options: [
        .valued("ca-file", "FILE", "PEM certificates to trust instead of the system's (/etc/ssl/certs)"),
        .valued("max-bytes", "N", "refuse a body larger than N bytes once decoded (default \(FetchOptions().maxBytes))"),
        .valued("timeout", "SECONDS", "give the whole fetch this long, and nothing received for half of it (at most 5 s) ends it too (default 10)"),
        .valued("api-key-credential", "NAME", "send the key in $CREDENTIALS_DIRECTORY/NAME (systemd-run -p LoadCredential=NAME:PATH)"),
        .valued("api-key-header", "NAME", "the header carrying the key (default \(RealtimeSettings.defaultAPIKeyHeader))"),
        .valued("proxy", "URL", "tunnel through this HTTP proxy (http://HOST:PORT) with CONNECT, as [realtime] proxy does"),
    ],
    notes: """
        The fetch line (status, bytes, time, the server's Date and Age) goes to stderr, the summary \
        `realtime info` prints to stdout. Exit 0 with the summary; 1 when the fetch or the feed is \
        refused, in one line naming the URL and what went wrong (never the API key).
        """)

func realtimeFetchCommand(_ parsed: Arguments) -> Int32 {
    guard parsed.positional.count == 1 else {
        writeError("pulsedot: realtime fetch: expected one URL\n" + realtimeFetchUsage.text)
        return 2
    }
    let url: HTTPURL
    do { url = try HTTPURL(parsing: parsed.positional[0]) } catch {
        return fail("realtime fetch: \(parsed.positional[0]): \(error.message)")
    }
    var options = FetchOptions(timeout: .seconds(10))
    options.caFile = parsed.value("ca-file")
    if let text = parsed.value("max-bytes") {
        guard let n = Int(text), n > 0 else { return fail("realtime fetch: --max-bytes \(text): expected a whole number of bytes over 0") }
        options.maxBytes = n
    }
    if let text = parsed.value("timeout") {
        guard let s = Double(text), s > 0, s <= 600 else { return fail("realtime fetch: --timeout \(text): expected seconds from 0 to 600") }
        let caFile = options.caFile, maxBytes = options.maxBytes
        options = FetchOptions(timeout: .milliseconds(Int64(s * 1000)))
        options.caFile = caFile
        options.maxBytes = maxBytes
    }
    if let text = parsed.value("proxy") {
        do { options.proxy = try HTTPURL(parsing: text) } catch {
            return fail("realtime fetch: --proxy \(text): \(error.message)")
        }
    }
    if let name = parsed.value("api-key-credential") {
        do throws(FetchError) {
            options.apiKey = try APIKey.load(credential: name, header: parsed.value("api-key-header") ?? RealtimeSettings.defaultAPIKeyHeader)
        } catch {
            writeError("pulsedot: realtime fetch: \(error)\n")
            return 1
        }
    }
    let fetched: FetchedFeed
    do throws(FetchError) { fetched = try FeedClient.fetch(url, options: options) } catch {
        writeError("pulsedot: realtime fetch: \(error)\n")
        return 1
    }
    guard case .fresh(let bytes) = fetched.body else {
        writeError("pulsedot: realtime fetch: \(fetched.url): HTTP \(fetched.status) without a body\n")
        return 1
    }
    var line = "pulsedot: realtime fetch: \(fetched.url): HTTP \(fetched.status), \(bytes.count) bytes"
    if fetched.wireBytes != Int64(bytes.count) { line += " (\(fetched.wireBytes) on the wire)" }
    line += " in \(Int(fetched.duration.seconds * 1000)) ms"
    if fetched.redirects > 0 { line += ", \(fetched.redirects) redirect\(fetched.redirects == 1 ? "" : "s")" }
    if let date = fetched.serverDate { line += ", server date \(date)" }
    if let age = fetched.age { line += ", age \(age) s" }
    writeError(line + "\n")
    return printSummary(of: bytes, source: fetched.url, command: "realtime fetch")
}
