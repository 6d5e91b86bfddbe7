import Glibc
import Syscall

/// systemd's service notification protocol, spoken directly (Debian ships no static libsystemd,
/// and the binary must link fully static): one datagram of `KEY=VALUE` lines per message to the
/// AF_UNIX socket named by `$NOTIFY_SOCKET` — a path, or `@name` in the abstract namespace.
/// Without `$NOTIFY_SOCKET` (not started by systemd, or not `Type=notify`) there is no notifier.
public struct SystemdNotifier: Sendable {
    public let address: UnixSocketAddress
    /// Half of `$WATCHDOG_USEC` (systemd's advice), when the watchdog is on and meant for us.
    public let watchdogInterval: Duration?
    private let socket: FileDescriptor

    /// Why the environment could not be used. The daemon logs it and runs on without systemd.
    public struct SetupError: Error, Equatable, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// From the environment values (nil = unset). `pid` is this process: a `WATCHDOG_PID` naming
    /// another process means the watchdog belongs to it. Returns nil without `NOTIFY_SOCKET`.
    public init?(notifySocket: String?, watchdogUsec: String?, watchdogPid: String?, pid: Int32) throws(SetupError) {
        guard let notifySocket, !notifySocket.isEmpty else { return nil }
        do {
            address = try UnixSocketAddress(notifySocket)
        } catch {
            throw SetupError(description: "NOTIFY_SOCKET=\(notifySocket): not a socket path or @abstract name (\(error.message))")
        }
        var interval: Duration?
        if let watchdogUsec, !watchdogUsec.isEmpty {
            guard let usec = Int64(watchdogUsec), usec > 0 else {
                throw SetupError(description: "WATCHDOG_USEC=\(watchdogUsec): not a positive number of microseconds")
            }
            let forUs = watchdogPid.map { Int32($0) == pid } ?? true
            interval = forUs ? .microseconds(usec / 2) : nil
        }
        watchdogInterval = interval
        do {
            socket = try FileDescriptor.unixDatagramSocket(name: "NOTIFY_SOCKET \(notifySocket)")
        } catch {
            throw SetupError(description: "systemd notification socket: \(error)")
        }
    }

    /// From this process's environment.
    public static func fromEnvironment() throws(SetupError) -> SystemdNotifier? {
        func env(_ name: String) -> String? { Environment.value(name) }
        return try SystemdNotifier(notifySocket: env("NOTIFY_SOCKET"), watchdogUsec: env("WATCHDOG_USEC"),
                                   watchdogPid: env("WATCHDOG_PID"), pid: getpid())
    }

    /// Sends `lines` as one datagram, newline-separated. A full queue (systemd busy) drops the
    /// message rather than block the frame loop; the next status or watchdog ping follows soon.
    @discardableResult
    public func send(_ lines: [String]) throws(SyscallError) -> Bool {
        let bytes = Array(lines.joined(separator: "\n").utf8)
        return try bytes.withBytes { (buffer) throws(SyscallError) in try socket.send(buffer, to: address) } != nil
    }

    /// `READY=1` once initialised — also when no display is there yet (say so in `status`).
    public func ready(status: String? = nil) throws(SyscallError) {
        try send(["READY=1"] + Self.statusLines(status))
    }

    /// `STATUS=…`: what `systemctl status` shows (output, fix state, fps, source).
    public func status(_ text: String) throws(SyscallError) {
        try send(Self.statusLines(text))
    }

    /// `WATCHDOG=1`: the poll loop is alive. Send every `watchdogInterval` (see `WatchdogCadence`).
    public func watchdog() throws(SyscallError) {
        try send(["WATCHDOG=1"])
    }

    /// `RELOADING=1` with the monotonic time in µs (systemd ≥ 253 requires it to match the reload
    /// request); send `ready()` when the new configuration runs or was rejected.
    public func reloading(now: MonotonicInstant, status: String? = nil) throws(SyscallError) {
        try send(["RELOADING=1", "MONOTONIC_USEC=\(now.nanoseconds / 1000)"] + Self.statusLines(status))
    }

    /// `STOPPING=1` on the way out.
    public func stopping(status: String? = nil) throws(SyscallError) {
        try send(["STOPPING=1"] + Self.statusLines(status))
    }

    public func close() { socket.close() }

    /// A STATUS line; newlines would start new assignments, so they become spaces.
    static func statusLines(_ status: String?) -> [String] {
        guard let status else { return [] }
        return ["STATUS=" + String(status.map { $0 == "\n" || $0 == "\r" ? " " : $0 })]
    }
}

/// When to send `WATCHDOG=1`: every `interval` on the monotonic clock, driven by the poll loop
/// itself (never by display flips, which stop while a screen is off). Pure; fold `nextDue` into
/// the poll timeout and call `sent(at:)` after each ping.
public struct WatchdogCadence: Equatable, Sendable {
    public let interval: Duration
    public private(set) var lastSent: MonotonicInstant?

    public init(interval: Duration) {
        self.interval = interval
    }

    /// The first ping is due at once (right after READY=1).
    public var nextDue: MonotonicInstant {
        // 0 is boot time: long past, yet safe in the wrapping arithmetic of poll timeouts.
        lastSent.map { $0.advanced(by: interval) } ?? MonotonicInstant(nanoseconds: 0)
    }

    public func isDue(at now: MonotonicInstant) -> Bool { now >= nextDue }

    public mutating func sent(at now: MonotonicInstant) { lastSent = now }
}
