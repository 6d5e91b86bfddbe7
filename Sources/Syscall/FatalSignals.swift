import Glibc

/// One last ioctl when the process dies of a fatal signal (a crash, SIGQUIT, a stray SIGSEGV):
/// the console is put back into text mode before the default action, so a crash does not leave
/// the screen dark until the unit's ExecStopPost= runs — or forever, when started by hand.
/// Termination signals the frame loop reads (SIGTERM, SIGINT through signalfd) never come here.
///
/// The handler only loads three integers and makes two system calls, both async-signal-safe;
/// then it puts back the action that was there before (the Swift runtime's backtracer, or the
/// default) and raises the signal again, so the process still dies as it would have.
public enum FatalSignalGuard {
    public static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT, SIGQUIT]

    /// Arms the guard: on a fatal signal, `ioctl(descriptor, request, value)`. Replaces an armed
    /// guard's ioctl.
    public static func arm(descriptor: Int32, request: UInt, value: Int32) {
        guardDescriptor = descriptor
        guardRequest = request
        guardValue = value
        if previous != nil { return }
        // Plain memory, not a Swift array: the handler must not touch reference counts.
        let saved = UnsafeMutablePointer<sigaction>.allocate(capacity: signals.count)
        saved.initialize(repeating: sigaction(), count: signals.count)
        previous = saved
        for (i, s) in signals.enumerated() {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = fatalSignalHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            _ = setAction(s, &action, saved.advanced(by: i))
        }
    }

    /// Disarms it (the console is back in text mode by the normal path); the handlers stay but do
    /// nothing before passing the signal on.
    public static func disarm() {
        guardDescriptor = -1
    }

    nonisolated(unsafe) static var guardDescriptor: Int32 = -1
    nonisolated(unsafe) static var guardRequest: UInt = 0
    nonisolated(unsafe) static var guardValue: Int32 = 0
    nonisolated(unsafe) static var previous: UnsafeMutablePointer<sigaction>?

    static func handle(_ signal: Int32) {
        let fd = guardDescriptor
        if fd >= 0 { _ = ioctl(fd, guardRequest, guardValue) }
        guardDescriptor = -1
        if let saved = previous, let i = index(of: signal) {
            _ = setAction(signal, saved.advanced(by: i), nil)
        }
        // Blocked while this handler runs: delivered on return, under the previous action. A
        // fault re-raised this way dies at once instead of re-executing the faulting instruction.
        _ = raise(signal)
    }

    /// `signals.firstIndex(of:)` without touching the array from the handler.
    static func index(of signal: Int32) -> Int? {
        switch signal {
        case SIGSEGV: return 0
        case SIGBUS: return 1
        case SIGILL: return 2
        case SIGTRAP: return 3
        case SIGFPE: return 4
        case SIGABRT: return 5
        case SIGQUIT: return 6
        default: return nil
        }
    }
}

/// sigaction(2); named apart because Swift also sees the structure of the same name.
private func setAction(_ signal: Int32, _ action: UnsafePointer<sigaction>?, _ old: UnsafeMutablePointer<sigaction>?) -> Int32 {
    let call: (Int32, UnsafePointer<sigaction>?, UnsafeMutablePointer<sigaction>?) -> Int32 = sigaction
    return call(signal, action, old)
}

private func fatalSignalHandler(_ signal: Int32) {
    FatalSignalGuard.handle(signal)
}
