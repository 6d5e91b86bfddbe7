import Config
import FeedFetch
import HTTPWire
import Syscall
import Systemd

/// How the daemon fetches the `[realtime]` feeds, for the kiosk and for `trip = realtime` alike:
/// the timeout, the CAs, the proxy and the key from `[realtime]`, and a fetcher started on them.
extension RunDaemon {
    /// A fetcher for `feeds`, started; nil (said) when no thread can be had. `who` begins each line.
    func startFetcher(_ feeds: [FeedSource], who: String) -> FeedFetcher? {
        let r = settings.realtime
        var options = FetchOptions(timeout: .milliseconds(Int64(r.timeout * 1000)))
        options.caFile = r.caFile
        options.proxy = r.proxy
        if let name = r.apiKeyCredential {
            do throws(FetchError) { options.apiKey = try APIKey.load(credential: name, header: r.apiKeyHeader) } catch {
                log.error("\(who): \(error.message): the feeds are fetched without a key")
            }
        }
        do throws(SyscallError) {
            let fetcher = try FeedFetcher(sources: feeds, every: .milliseconds(Int64(r.every * 1000)), options: options)
            fetcher.start()
            let via = r.proxy.map { " through the proxy \($0.host):\($0.port)" } ?? ""
            log.info("\(who): fetching \(feeds.map { $0.name }.joined(separator: ", ")) every \(formatNumber(r.every)) s\(via)")
            return fetcher
        } catch {
            log.error("\(who): no thread to fetch the feeds on (\(error.description))")
            return nil
        }
    }
}
