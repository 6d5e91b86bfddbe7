import Syscall
@testable import GPSD

/// A resolver the test answers by hand (or never): it records every lookup the client starts and
/// wakes the client's poll through a real eventfd when the test hands it an answer.
final class ScriptedResolver: HostResolver {
    private let wake: EventFD
    private var ready: [ResolveAnswer] = []
    /// `host:port` of every lookup started, in order.
    private(set) var lookups: [String] = []

    init() throws {
        wake = try EventFD(name: "scripted resolver")
    }

    deinit { wake.close() }

    var descriptor: Int32? { wake.descriptor.rawValue }

    func startLookup(host: String, port: UInt16) throws(ResolveError) {
        lookups.append("\(host):\(port)")
    }

    func takeAnswers() -> [ResolveAnswer] {
        _ = try? wake.drain()
        defer { ready = [] }
        return ready
    }

    /// The answer to the oldest lookup not answered yet, as the worker would post it.
    func answer(_ answer: ResolveAnswer) throws {
        ready.append(answer)
        try wake.signal()
    }
}
