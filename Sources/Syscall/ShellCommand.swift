import Glibc

/// A command line an operator configured, run by /bin/sh without waiting for it: the loop goes on
/// drawing (or sleeping) while a TV answers over CEC. The child starts with no signal blocked and
/// default actions (the daemon blocks the signals it reads from a signalfd, and a child inheriting
/// that could not be stopped); every descriptor of ours is close-on-exec.
public struct ShellCommand: Sendable {
    public let commandLine: String
    public let pid: pid_t

    /// Starts `/bin/sh -c commandLine` with the daemon's environment, `variables` set in it
    /// (replacing any of the same name); throws naming the command when it cannot be started.
    public static func start(_ commandLine: String, variables: [(name: String, value: String)] = []) throws(SyscallError) -> ShellCommand {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", commandLine]
        var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in pointers { free(p) } }
        var status: Int32
        if variables.isEmpty {
            status = posix_spawn(&pid, "/bin/sh", nil, &attributes, &pointers, environ)
        } else {
            var entries: [UnsafeMutablePointer<CChar>?] = []
            var e = environ
            while let entry = e.pointee {
                let text = String(cString: entry)
                let name = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
                if !variables.contains(where: { $0.name == name }) { entries.append(strdup(entry)) }
                e += 1
            }
            for v in variables { entries.append(strdup(v.name + "=" + v.value)) }
            entries.append(nil)
            defer { for p in entries { free(p) } }
            status = posix_spawn(&pid, "/bin/sh", nil, &attributes, &pointers, &entries)
        }
        guard status == 0 else { throw SyscallError(call: "posix_spawn /bin/sh -c", object: commandLine, errno: status) }
        return ShellCommand(commandLine: commandLine, pid: pid)
    }

    /// How the child ended, once it has (reaping it); nil while it runs. Never blocks.
    public func finished() -> String? {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        if r == 0 { return nil }
        if r < 0 { return "could not be waited for (\(SyscallError.message(errno: errno)))" }
        // WIFEXITED/WEXITSTATUS are macros Swift does not import: the status word's layout.
        let signal = status & 0x7f
        if signal == 0 { return "exited with status \((status >> 8) & 0xff)" }
        return "was killed by signal \(signal)"
    }
}
