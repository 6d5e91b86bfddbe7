import Glibc
import Syscall

/// The seam for the console: KDSETMODE on a virtual terminal. `LinuxConsole` opens a real tty;
/// the unit tests use an in-memory one.
public protocol ConsoleTerminal: AnyObject {
    var path: String { get }
    /// KDSETMODE KD_GRAPHICS (true) or KD_TEXT (false).
    func setGraphics(_ graphics: Bool) throws(SyscallError)
    /// Arms (or disarms, with false) the text-mode ioctl for a fatal signal.
    func guardAgainstCrash(_ armed: Bool)
    func close()
}

/// A virtual terminal device. Opened write-only (the tty group may write a console, mode 0620)
/// and without O_NOCTTY: a session leader without a terminal (the daemon under systemd) makes it
/// its controlling terminal, which the kernel requires for KDSETMODE without CAP_SYS_TTY_CONFIG.
public final class LinuxConsole: ConsoleTerminal {
    public static let KDSETMODE: UInt = 0x4B3A
    public static let KD_TEXT: Int32 = 0x00
    public static let KD_GRAPHICS: Int32 = 0x01

    public let path: String
    private let fd: FileDescriptor
    private var closed = false

    public init(path: String) throws(SyscallError) {
        self.path = path
        fd = try FileDescriptor.open(path, O_WRONLY)
    }

    public func setGraphics(_ graphics: Bool) throws(SyscallError) {
        try fd.ioctl(Self.KDSETMODE, "KDSETMODE", value: graphics ? Self.KD_GRAPHICS : Self.KD_TEXT)
    }

    public func guardAgainstCrash(_ armed: Bool) {
        if armed {
            FatalSignalGuard.arm(descriptor: fd.rawValue, request: Self.KDSETMODE, value: Self.KD_TEXT)
        } else {
            FatalSignalGuard.disarm()
        }
    }

    public func close() {
        if closed { return }
        closed = true
        fd.close()
    }
}

/// Keeps the kernel's console from drawing over the dot: the virtual terminal goes into graphics
/// mode while a framebuffer is driven and back into text mode on every exit path the process
/// controls (`leaveGraphics`/`close` on the normal and error paths, a fatal-signal guard for
/// crashes; the unit's ExecStopPost= covers SIGKILL). Without a usable VT (none built in, no
/// permission) it carries on and says so once.
public final class VirtualConsole {
    public static let defaultPath = "/dev/tty1"

    public let path: String
    public private(set) var isGraphics = false
    private var terminal: ConsoleTerminal?
    private var saidUnusable = false
    private let log: (String) -> Void
    private let opener: (String) throws(SyscallError) -> ConsoleTerminal

    public init(path: String = VirtualConsole.defaultPath, log: @escaping (String) -> Void,
                opener: @escaping (String) throws(SyscallError) -> ConsoleTerminal = { (p) throws(SyscallError) in try LinuxConsole(path: p) }) {
        self.path = path
        self.log = log
        self.opener = opener
    }

    deinit { close() }

    /// KD_GRAPHICS. Returns whether the console is now in graphics mode; when it cannot be, says
    /// why the first time only, and the caller carries on.
    @discardableResult
    public func enterGraphics() -> Bool {
        if isGraphics { return true }
        do {
            if terminal == nil { terminal = try opener(path) }
        } catch {
            unusable(Self.openProblem(path, error))
            return false
        }
        guard let terminal else { return false }
        do {
            // Armed first: a crash between the two leaves nothing behind either way.
            terminal.guardAgainstCrash(true)
            try terminal.setGraphics(true)
            isGraphics = true
            return true
        } catch {
            terminal.guardAgainstCrash(false)
            unusable(Self.modeProblem(path, error))
            return false
        }
    }

    /// KD_TEXT, when this process put the console into graphics mode. The console redraws itself.
    public func leaveGraphics() {
        guard isGraphics, let terminal else { return }
        isGraphics = false
        do { try terminal.setGraphics(false) } catch {
            log("could not put \(path) back into text mode: \(error); `pulsedot console-restore --tty \(path)` does it")
        }
        terminal.guardAgainstCrash(false)
    }

    /// Text mode (if needed) and the terminal closed. Safe to call twice.
    public func close() {
        leaveGraphics()
        terminal?.close()
        terminal = nil
    }

    private func unusable(_ message: String) {
        if saidUnusable { return }
        saidUnusable = true
        log("\(message); carrying on, but the console may draw over the dot")
    }

    static func openProblem(_ path: String, _ e: SyscallError) -> String {
        switch e.errno {
        case ENOENT, ENXIO, ENODEV: return "no virtual console at \(path) (\(e.message))"
        case EACCES, EPERM: return "may not open the console \(path) (\(e.message)): the user needs the tty group"
        default: return "cannot open the console \(path): \(e)"
        }
    }

    static func modeProblem(_ path: String, _ e: SyscallError) -> String {
        switch e.errno {
        case ENOTTY, EINVAL: return "\(path) is not a virtual console (\(e))"
        case EPERM: return "cannot put \(path) into graphics mode (\(e)): it must be this process's controlling terminal (the unit's TTYPath=) or the process needs CAP_SYS_TTY_CONFIG"
        default: return "cannot put \(path) into graphics mode: \(e)"
        }
    }
}
