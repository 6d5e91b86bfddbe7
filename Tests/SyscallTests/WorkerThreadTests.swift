import Glibc
import XCTest
@testable import Syscall

/// The worker thread and its result queue as a poll loop uses them. Nothing here sleeps to let
/// time pass: every wait is a poll on a result queue's eventfd, with a timeout long enough that
/// only a broken worker reaches it.
final class WorkerThreadTests: XCTestCase {
    private static let generousMilliseconds: Int32 = 20_000
    private var generousMilliseconds: Int32 { Self.generousMilliseconds }

    /// Polls `results` like the loop would until `count` outputs have come (or the generous
    /// timeout passes, which fails the test).
    private func collect<T>(_ count: Int, from results: ResultQueue<T>,
                            file: StaticString = #filePath, line: UInt = #line) throws -> [T] {
        var got: [T] = []
        let end = MonotonicInstant.now().advanced(by: .milliseconds(Int64(generousMilliseconds)))
        while got.count < count {
            let now = MonotonicInstant.now()
            guard now < end else {
                XCTFail("\(got.count) of \(count) results within \(generousMilliseconds) ms", file: file, line: line)
                break
            }
            var fds = [pollfd(fd: results.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
            _ = try Poll.wait(&fds, timeoutMilliseconds: Poll.timeoutMilliseconds(until: end, now: now))
            if fds[0].revents & Int16(POLLIN) != 0 { got += results.takeResults() }
        }
        return got
    }

    private func readable(_ fd: FileDescriptor) throws -> Bool {
        var fds = [pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)]
        return try Poll.wait(&fds, timeoutMilliseconds: 0) == 1
    }

    /// A job that waits until the test opens `gate` (or the generous timeout passes).
    private static func waitFor(_ gate: EventFD) -> Bool {
        var fds = [pollfd(fd: gate.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
        return ((try? Poll.wait(&fds, timeoutMilliseconds: generousMilliseconds)) ?? 0) == 1
    }

    func testAJobRunsOnTheWorkerAndItsResultMakesTheQueueReadable() throws {
        let worker = try WorkerThread(name: "test worker")
        defer { worker.close() }
        let results = try ResultQueue<pthread_t>(name: "test results")
        XCTAssertEqual(results.descriptor.name, "test results")
        XCTAssertFalse(try readable(results.descriptor), "nothing posted yet")
        try worker.submit({ pthread_self() }, replyingTo: results)
        let ran = try collect(1, from: results)
        XCTAssertEqual(ran.count, 1)
        XCTAssertEqual(pthread_equal(try XCTUnwrap(ran.first), pthread_self()), 0, "the job ran on another thread")
        XCTAssertFalse(try readable(results.descriptor), "taking the results drains the eventfd")
        XCTAssertTrue(results.takeResults().isEmpty)
    }

    func testTheWorkerThreadBlocksEverySignal() throws {
        let watched = [SIGTERM, SIGHUP, SIGINT, SIGUSR1]
        // Unblocked here first, so a worker that merely inherited this thread's mask would fail.
        var unblock = sigset_t(), saved = sigset_t()
        sigemptyset(&unblock)
        for s in watched { sigaddset(&unblock, s) }
        XCTAssertEqual(pthread_sigmask(SIG_UNBLOCK, &unblock, &saved), 0)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }

        let worker = try WorkerThread(name: "signal test")
        defer { worker.close() }
        var mine = sigset_t()
        XCTAssertEqual(pthread_sigmask(SIG_BLOCK, nil, &mine), 0)
        XCTAssertEqual(watched.filter { sigismember(&mine, $0) == 1 }, [], "the creating thread's mask is put back")

        let results = try ResultQueue<[Int32]>(name: "signal results")
        // Every standard signal that can be blocked (SIGKILL and SIGSTOP never can).
        let candidates = Array(Int32(1)...31).filter { $0 != SIGKILL && $0 != SIGSTOP }
        try worker.submit({ () -> [Int32] in
            var old = sigset_t()
            guard pthread_sigmask(SIG_BLOCK, nil, &old) == 0 else { return [-1] }
            return candidates.filter { sigismember(&old, $0) != 1 }
        }, replyingTo: results)
        let unblockedOnWorker = try collect(1, from: results).first
        XCTAssertEqual(unblockedOnWorker, [], "signals the worker could receive")
        XCTAssertTrue(watched.allSatisfy(candidates.contains))
    }

    func testResultsComeBackInTheOrderTheJobsWereSubmitted() throws {
        let worker = try WorkerThread(name: "order test")
        defer { worker.close() }
        let results = try ResultQueue<Int>(name: "order results")
        for i in 0..<500 { try worker.submit({ i }, replyingTo: results) }
        XCTAssertEqual(try collect(500, from: results), Array(0..<500))
    }

    func testCloseWaitsForTheJobUnderWayAndDropsTheRest() throws {
        let worker = try WorkerThread(name: "closing worker")
        let closer = try WorkerThread(name: "closer")
        defer { closer.close() }
        let results = try ResultQueue<String>(name: "close results")
        let gate = try EventFD(name: "gate")
        defer { gate.close() }
        try worker.submit {
            results.post("started")
            results.post(Self.waitFor(gate) ? "first job finished" : "first job gave up waiting")
        }
        try worker.submit { results.post("second job ran") }
        XCTAssertEqual(try collect(1, from: results), ["started"])

        // close() blocks its caller, so another thread calls it; the gate opens only once the
        // close has begun, and the job under way must still end before close() returns.
        try closer.submit {
            worker.close()
            results.post("closed")
        }
        let end = MonotonicInstant.now().advanced(by: .milliseconds(Int64(generousMilliseconds)))
        while !worker.isClosing && MonotonicInstant.now() < end { sched_yield() }
        XCTAssertTrue(worker.isClosing)
        try gate.signal()
        XCTAssertEqual(try collect(2, from: results), ["first job finished", "closed"])

        XCTAssertThrowsError(try worker.submit {}) { error in
            XCTAssertEqual("\(error)", "worker thread closing worker is closed: the job was not run")
        }
        worker.close()  // a second close is a no-op
    }

    func testLettingGoOfAWorkerDoesNotWaitForAHungJob() throws {
        let results = try ResultQueue<String>(name: "detach results")
        let gate = try EventFD(name: "gate")
        defer { gate.close() }
        var worker: WorkerThread? = try WorkerThread(name: "dropped worker")
        try worker!.submit {
            results.post("started")
            results.post(Self.waitFor(gate) ? "finished after the gate opened" : "gave up waiting")
        }
        XCTAssertEqual(try collect(1, from: results), ["started"])
        worker = nil
        XCTAssertFalse(try readable(results.descriptor), "the job is still waiting: the last reference went without a join")
        try gate.signal()
        XCTAssertEqual(try collect(1, from: results), ["finished after the gate opened"], "the detached thread finishes its job")
    }

    func testAPostAfterCloseIsDroppedAndNeverReachesAReusedDescriptor() throws {
        let results = try ResultQueue<Int>(name: "closed results")
        let number = results.descriptor.rawValue
        results.close()
        let newcomer = try EventFD(name: "newcomer")
        defer { newcomer.close() }
        try XCTSkipUnless(newcomer.descriptor.rawValue == number, "another thread took descriptor \(number) meanwhile")
        results.post(1)
        XCTAssertEqual(try newcomer.drain(), 0, "the closed queue's number now belongs to another file")
        XCTAssertEqual(results.takeResults(), [])
    }
}
