import FBDev
import Glibc
import Syscall

// `pulsedot console-restore [--tty PATH]`: puts a virtual console back into text mode.
// The unit runs it as ExecStopPost= because a SIGKILL (or a watchdog kill) gives the daemon no
// chance to leave KD_GRAPHICS itself, and a console left in graphics mode stays dark for the next
// getty. It runs as the same unprivileged user as the daemon: the kernel allows KDSETMODE to the
// tty's controlling process, and systemd starts every ExecStopPost= as a session leader without a
// terminal, so opening the tty without O_NOCTTY makes it ours once the daemon's session is gone.

let consoleRestoreUsage = Usage(command: "console-restore", summary: "put a virtual console back into text mode (unit's ExecStopPost)", options: [
    .valued("tty", "PATH", "the virtual console (default \(VirtualConsole.defaultPath))"),
], notes: "Exit 0 as well when there is no console at PATH: nothing can have been left in graphics mode.")

func consoleRestoreCommand(_ parsed: Arguments) -> Int32 {
    guard parsed.positional.isEmpty else {
        return fail("console-restore: unexpected argument '\(parsed.positional[0])' (usage: pulsedot console-restore [--tty PATH])")
    }
    let path = parsed.value("tty") ?? VirtualConsole.defaultPath

    let tty: LinuxConsole
    do {
        // Write-only: the tty group may only write to a console (mode 0620), and the ioctl needs no more.
        tty = try LinuxConsole(path: path)
    } catch {
        if error.errno == ENOENT || error.errno == ENXIO || error.errno == ENODEV {
            // A board without virtual consoles (CONFIG_VT=n): nothing can have been left in graphics mode.
            writeError("pulsedot: console-restore: no console at \(path) (\(error.message)); nothing to restore\n")
            return 0
        }
        return fail("console-restore: \(error)")
    }
    defer { tty.close() }
    do {
        try tty.setGraphics(false)
    } catch {
        if error.errno == ENOTTY || error.errno == EINVAL {
            return fail("console-restore: \(path) is not a virtual console (\(error))")
        }
        if error.errno == EPERM {
            return fail("console-restore: \(error): the tty must be free to become this process's controlling terminal")
        }
        return fail("console-restore: \(error)")
    }
    return 0
}
