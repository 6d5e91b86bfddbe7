import Syscall

/// The addresses for a host name, or why there are none.
public typealias ResolveAnswer = Result<[SocketAddress], ResolveError>

/// Looks gpsd's host name up without blocking the client's poll loop. The client starts at most
/// one lookup at a time and polls `descriptor` for POLLIN while it waits; every lookup started
/// gets exactly one answer from `takeAnswers`, in the order started, however late.
public protocol HostResolver: AnyObject {
    /// Readable when `takeAnswers` has something; nil before the first lookup.
    var descriptor: Int32? { get }
    /// Begins looking `host` up; the answer comes later through `takeAnswers`. Throws when the
    /// lookup could not even be started.
    func startLookup(host: String, port: UInt16) throws(ResolveError)
    /// The answers that have come in since the last call, oldest first; never blocks.
    func takeAnswers() -> [ResolveAnswer]
}
