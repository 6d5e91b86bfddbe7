import FeedFetch
import Foundation
import HTTPWire
import Syscall
import TestSupport
import XCTest

/// The fetch thread: every source fetched every period, results handed over without the caller
/// waiting, counters for the metrics, and a server that goes away and comes back.
final class FeedFetcherTests: XCTestCase {
    func options(_ server: FeedServer) -> FetchOptions {
        var o = FetchOptions()
        o.caFile = server.caFile
        o.timeout = .seconds(3)
        o.stallTimeout = .seconds(1)
        return o
    }

    func sources(_ server: FeedServer, _ paths: [String]) throws -> [FeedSource] {
        try paths.map { FeedSource(name: $0, url: try HTTPURL(parsing: server.url($0))) }
    }

    /// Takes results as the loop would, with one atomic load per look, until `enough` holds.
    func collect(_ fetcher: FeedFetcher, timeout: Double, until enough: ([FeedResult]) -> Bool) -> [FeedResult] {
        var all: [FeedResult] = []
        var taken: [FeedResult] = []
        _ = ChildProcess.waitUntil(timeout: timeout) {
            if fetcher.handover.hasResults {
                fetcher.handover.take(into: &taken)
                all += taken
            }
            return enough(all)
        }
        return all
    }

    func testEverySourceIsFetchedEveryPeriodAndCounted() throws {
        let server = try FeedServer()
        let fetcher = try FeedFetcher(sources: sources(server, ["/vehicles.pb", "/status/500", "/slow"]), every: .milliseconds(400), options: options(server))
        let started = MonotonicInstant.now()
        fetcher.start()
        XCTAssertLessThan(started.duration(to: .now()).seconds, 0.05, "start returns at once")
        let results = collect(fetcher, timeout: 20) { r in r.filter { $0.source == 0 }.count >= 3 && r.contains { $0.source == 2 } }
        fetcher.stopAndWait()
        let feeds = results.filter { $0.source == 0 }
        XCTAssertGreaterThanOrEqual(feeds.count, 3)
        guard case .success(let first) = feeds[0].outcome, case .success(let second) = feeds[1].outcome else {
            return XCTFail("the feed was not fetched: \(feeds.map { "\($0.outcome)" })")
        }
        XCTAssertEqual(first.body, .fresh(server.feed))
        XCTAssertEqual(second.body, .notModified, "the ETag of the first 200 is sent with the next request")
        for result in results where result.source == 1 {
            guard case .failure(let error) = result.outcome else { return XCTFail("500 fetched") }
            XCTAssertEqual(error.kind, .httpStatus)
        }
        guard case .failure(let slow) = results.first(where: { $0.source == 2 })!.outcome else { return XCTFail("slow fetched") }
        XCTAssertEqual(slow.kind, .timeout)
        let slowTook = results.first(where: { $0.source == 2 })!.duration.seconds
        XCTAssertTrue((1.0..<1.5).contains(slowTook), "a failed fetch's duration is its no-progress timeout: \(slowTook) s")
        let counters = fetcher.counters
        XCTAssertGreaterThanOrEqual(counters.fetches, results.count)
        XCTAssertGreaterThanOrEqual(counters.notModified, 1)
        XCTAssertGreaterThanOrEqual(counters.errors(.httpStatus), 1)
        XCTAssertGreaterThanOrEqual(counters.errors(.timeout), 1)
        XCTAssertEqual(counters.errors(.tls), 0)
        XCTAssertGreaterThan(counters.lastDurationMilliseconds, 0)
        // Periods are counted from each fetch's start: three fetches of source 0 took two periods
        // and the slow source's timeout at least.
        let spread = feeds[2].finishedAt - feeds[0].finishedAt
        XCTAssertGreaterThanOrEqual(spread, 0.75)
    }

    func testTheServerGoneIsSaidAndBackIsLiveAgain() throws {
        let server = try FeedServer()
        let fetcher = try FeedFetcher(sources: sources(server, ["/vehicles.pb"]), every: .milliseconds(200), options: options(server))
        fetcher.start()
        defer { fetcher.stopAndWait() }
        let live = collect(fetcher, timeout: 10) { $0.contains { if case .success = $0.outcome { true } else { false } } }
        XCTAssertFalse(live.isEmpty)
        server.stop()
        let gone = collect(fetcher, timeout: 10) { r in r.contains { if case .failure = $0.outcome { true } else { false } } }
        guard case .failure(let error) = gone.last(where: { if case .failure = $0.outcome { true } else { false } })?.outcome else {
            return XCTFail("no failure while the server was gone")
        }
        XCTAssertEqual(error.kind, .connect, error.description)
        XCTAssertTrue(error.description.contains("Connection refused"), error.description)
        try server.start()
        let back = collect(fetcher, timeout: 10) { $0.contains { if case .success = $0.outcome { true } else { false } } }
        XCTAssertTrue(back.contains { if case .success = $0.outcome { true } else { false } }, "not live again: \(back.map { "\($0.outcome)" })")
    }

    func testStopReturnsAtOnceWhileAFetchHangs() throws {
        let server = try FeedServer()
        let fetcher = try FeedFetcher(sources: sources(server, ["/slow"]), every: .seconds(60), options: options(server))
        fetcher.start()
        usleep(200_000)
        let started = MonotonicInstant.now()
        fetcher.stop()
        XCTAssertLessThan(started.duration(to: .now()).seconds, 0.05)
        fetcher.stopAndWait()
        XCTAssertLessThan(started.duration(to: .now()).seconds, 2, "the fetch under way ends within its timeout")
        XCTAssertFalse(fetcher.handover.hasResults, "a result after stop is dropped")
    }
}
