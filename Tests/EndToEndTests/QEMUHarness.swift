import Foundation
import Glibc
import PNG
import TestSupport

/// Boots Debian's stock kernel in QEMU (TCG) with a real DRM driver and the `pulsedot` binary in
/// an initramfs, so end-to-end tests see what a real kernel driver puts on the screen. Shared by
/// the KMS, fbdev and field-trial tests.
///
///     let vm = try QEMUMachine.boot(display: .bochs)
///     defer { vm.shutdown() }
///     let pid = try vm.spawn("pulsedot show --at 1.2")
///     let screen = try vm.stableScreendump()
///     let result = try vm.run("kill -TERM \(pid); wait \(pid)")
///
/// The guest runs a busybox shell that executes the lines the host sends over a second serial
/// port (a virtio console on the ARM boards, QEMUBoard); its output comes back on the first serial
/// port (the console), which is also a log for failure messages. Missing QEMU or kernel is a test failure unless `PULSEDOT_SKIP=qemu`.
/// Timeouts are generous (a boot takes about 3 s alone, but TCG on a loaded 2-core machine can be
/// ten times slower); they bound a hang, they do not measure speed.
final class QEMUMachine {
    /// A QEMU display adapter and the kernel module that drives it.
    struct Display: Sendable {
        /// nil: no emulated adapter (a driver of its own, such as vkms).
        var qemuDevice: String?
        /// Loaded in this order, each with its dependencies.
        var modules: [String]
        /// Parameters given to insmod, by module name ("drm_kms_helper": "fbdev_emulation=0").
        var moduleParameters: [String: String] = [:]

        static let bochs = Display(qemuDevice: "bochs-display", modules: ["bochs"])
        /// virtio_pci is the transport the driver sits on; modprobe does not count it a dependency.
        static let virtioGPU = Display(qemuDevice: "virtio-gpu-pci", modules: ["virtio_pci", "virtio-gpu"])
        static let cirrus = Display(qemuDevice: "cirrus-vga", modules: ["cirrus"])
        /// The kernel's virtual KMS driver, built by deploy/vm/fetch-vkms: overlay planes and a
        /// writeback connector. Without fbdev emulation, so nothing of the kernel's own turns the
        /// planes off when the last client closes (the exit checks could not fail otherwise).
        static let vkms = Display(qemuDevice: nil, modules: ["vkms"],
                                  moduleParameters: ["vkms": "enable_overlay=1", "drm_kms_helper": "fbdev_emulation=0"])
        /// vkms with its cursor plane but no overlays: the dot's plane is the cursor.
        static let vkmsWithoutOverlays = Display(qemuDevice: nil, modules: ["vkms"],
                                                 moduleParameters: ["vkms": "enable_overlay=0", "drm_kms_helper": "fbdev_emulation=0"])
    }

    let directory: URL
    let process: ChildProcess
    private let qmp: LineSocket
    private let control: LineSocket
    private var serialOffset = 0
    private var commandCounter = 0
    private var spawned: [Int: Int] = [:]
    private var stopped = false

    /// The serial console so far: kernel warnings, the init script, command output. Without the
    /// tty's carriage returns (Swift takes "\r\n" for one character, so lines would not split).
    var serialLog: String {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("serial.log")) else { return "" }
        return String(decoding: data.filter { $0 != 13 }, as: UTF8.self)
    }

    // MARK: Booting

    /// Boots a machine with `display`, loads its driver (and what it depends on) and waits until
    /// the guest shell takes commands. `kernelArguments` are added to the command line
    /// (e.g. `video=1024x768`); `files` are extra (host path, guest path) pairs for the initramfs.
    /// `board` is the PC unless an ARM board is named; `program` is the /bin/pulsedot it runs
    /// (the binary under test unless given).
    static func boot(display: Display, board: QEMUBoard = .pc, kernelArguments: String = "", memoryMB: Int = 512,
                     files: [(String, String)] = [], program: String? = nil, timeout: Double = 180) throws -> QEMUMachine {
        let kernel = try board.kernel()
        let qemu = try board.qemuBinary()
        let dir = try TestEnvironment.temporaryDirectory("qemu")
        var all = files
        all.append((try program ?? TestEnvironment.pulsedotBinary(), "/bin/pulsedot"))
        let initrd = dir.appendingPathComponent("initrd.cpio")
        try Initramfs.build(at: initrd, kernel: kernel, modules: board.controlModules + display.modules,
                            parameters: display.moduleParameters, files: all, busybox: try board.busybox(),
                            controlPort: board.controlPort, displayWait: board.displayWait)
        let qmpPath = dir.appendingPathComponent("qmp.sock").path
        let controlPath = dir.appendingPathComponent("control.sock").path
        let args = ["-accel", "tcg"] + board.machine + [
            "-smp", "1", "-m", "\(memoryMB)", "-nodefaults", "-no-reboot",
            "-kernel", kernel.bootImage, "-initrd", initrd.path,
            "-append", "console=\(board.console) quiet panic=-1 \(kernelArguments)",
            "-serial", "file:" + dir.appendingPathComponent("serial.log").path,
            "-chardev", "socket,id=control,path=\(controlPath),server=on,wait=off",
        ] + board.controlDevices + ["-display", "none"] + board.noDefaultVGA + [
            "-qmp", "unix:\(qmpPath),server=on,wait=off",
        ] + (display.qemuDevice.map { ["-device", $0 + board.pciDeviceProperties] } ?? [])
        let process = try ChildProcess(qemu, args, label: "qemu\(board.label)(\(display.qemuDevice ?? display.modules.joined(separator: ",")))")
        guard ChildProcess.waitUntil(timeout: 30, {
            FileManager.default.fileExists(atPath: qmpPath) && FileManager.default.fileExists(atPath: controlPath)
                || !process.isRunning
        }), process.isRunning else {
            let why = process.stderr
            process.terminate()
            throw TestFailure("qemu did not start: \(why)")
        }
        let machine = QEMUMachine(directory: dir, process: process,
                                  qmp: try LineSocket(path: qmpPath), control: try LineSocket(path: controlPath))
        do {
            try machine.qmpHandshake()
            _ = try machine.waitForSerial("PULSEDOT-READY", timeout: timeout)
        } catch {
            machine.shutdown()
            throw error
        }
        return machine
    }

    private init(directory: URL, process: ChildProcess, qmp: LineSocket, control: LineSocket) {
        self.directory = directory
        self.process = process
        self.qmp = qmp
        self.control = control
    }

    deinit { shutdown() }

    static func qemuBinary() throws -> String {
        for dir in ["/usr/bin", "/usr/local/bin"] {
            let path = dir + "/qemu-system-x86_64"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw TestFailure("qemu-system-x86_64 is not installed: run `sudo deploy/install-deps --test`, or set PULSEDOT_SKIP=qemu to leave the QEMU tests out")
    }

    // MARK: Guest commands

    /// Runs `command` in the guest shell and waits for it: its exit status and output (stdout and
    /// stderr together).
    @discardableResult
    func run(_ command: String, timeout: Double = 60) throws -> (status: Int32, output: String) {
        commandCounter += 1
        let n = commandCounter
        // Each output line is marked `@n| ` at its start: a bare "@n " also occurs inside output
        // ("1024x768@60 …" when n is 60).
        try send("{ \(command) ; } > /tmp/out.\(n) 2>&1; s=$?; sed 's/^/@\(n)| /' /tmp/out.\(n); echo \"@\(n)-EXIT $s\"")
        let line = try waitForSerial("@\(n)-EXIT ", timeout: timeout)
        let status = Int32(line.split(separator: " ").last.map(String.init) ?? "") ?? -1
        let output = linesSince(prefix: "@\(n)| ").joined(separator: "\n")
        return (status, output)
    }

    /// Starts `command` in the background of the guest shell; returns its pid.
    func spawn(_ command: String) throws -> Int {
        commandCounter += 1
        let n = commandCounter
        try send("\(command) > /tmp/bg.\(n) 2>&1 & echo \"@\(n)-PID $!\"")
        let line = try waitForSerial("@\(n)-PID ", timeout: 10)
        guard let pid = Int(line.split(separator: " ").last.map(String.init) ?? "") else {
            throw TestFailure("no pid from guest for \(command): \(line)")
        }
        spawned[pid] = n
        return pid
    }

    /// The output so far (stdout and stderr) of a command started with `spawn`.
    func backgroundOutput(_ pid: Int) throws -> String {
        guard let n = spawned[pid] else { throw TestFailure("pid \(pid) was not spawned here") }
        return try run("cat /tmp/bg.\(n)").output
    }

    /// Waits until a spawned command's output contains `text`; returns the output.
    @discardableResult
    func waitForOutput(_ pid: Int, containing text: String, timeout: Double = 120) throws -> String {
        try waitForOutput(pid, "\"\(text)\"", timeout: timeout) { $0.contains(text) }
    }

    /// Waits until a spawned command's output satisfies `condition` (`what` names it in the
    /// failure); returns the output.
    @discardableResult
    func waitForOutput(_ pid: Int, _ what: String, timeout: Double = 120, until condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let output = try backgroundOutput(pid)
            if condition(output) { return output }
            if Date() > deadline {
                throw TestFailure("pid \(pid) did not say \(what) within \(timeout) s; it said:\n\(output)\nserial log:\n\(tail(serialLog))")
            }
            usleep(300_000)
        }
    }

    /// Sends SIGTERM (or `signal`) to a spawned process and waits for it: its exit status.
    func stop(_ pid: Int, signal: String = "TERM", timeout: Double = 60) throws -> Int32 {
        let r = try run("kill -\(signal) \(pid); wait \(pid); echo \"STATUS $?\"", timeout: timeout)
        guard let line = r.output.split(separator: "\n").last(where: { $0.hasPrefix("STATUS ") }),
              let status = Int32(line.dropFirst(7)) else {
            throw TestFailure("no exit status for pid \(pid): \(r.output)")
        }
        return status
    }

    private func send(_ line: String) throws {
        try control.write(line + "\n")
    }

    /// Waits until a serial line after the last one consumed contains `marker`; returns that line.
    @discardableResult
    func waitForSerial(_ marker: String, timeout: Double) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let log = serialLog
            let bytes = Array(log.utf8)
            if bytes.count > serialOffset {
                let fresh = String(decoding: bytes[serialOffset...], as: UTF8.self)
                var consumed = serialOffset
                for line in fresh.split(separator: "\n", omittingEmptySubsequences: false) {
                    let length = line.utf8.count + 1
                    // Only a whole line: QEMU may have written "@12-PID " and not yet the number
                    // and its newline when the log is read.
                    if line.contains(marker), consumed + length <= bytes.count {
                        serialOffset = min(bytes.count, consumed + length)
                        return String(line).trimmingCharacters(in: .whitespacesAndNewlines)
                    }
                    consumed += length
                }
            }
            if !process.isRunning {
                throw TestFailure("the guest stopped before printing \(marker); serial log:\n\(tail(log))")
            }
            if Date() > deadline {
                throw TestFailure("no \(marker) from the guest within \(timeout) s; serial log:\n\(tail(log))")
            }
            usleep(20_000)
        }
    }

    /// The lines of the serial log that start with `prefix` (a carriage return before it
    /// aside), without it.
    private func linesSince(prefix: String) -> [String] {
        serialLog.split(separator: "\n").compactMap { line in
            let text = line.drop { $0 == "\r" }
            guard text.hasPrefix(prefix) else { return nil }
            return String(text.dropFirst(prefix.count))
        }
    }

    func tail(_ log: String, lines: Int = 60) -> String {
        log.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }

    // MARK: The screen

    /// What the emulated display shows now (QMP screendump, PNG).
    func screendump() throws -> RGBAImage {
        commandCounter += 1
        let path = directory.appendingPathComponent("screen\(commandCounter).png").path
        _ = try qmpCommand("{\"execute\":\"screendump\",\"arguments\":{\"filename\":\"\(path)\",\"format\":\"png\"}}")
        defer { if !QEMUFiles.kept { try? FileManager.default.removeItem(atPath: path) } }
        return try PNGRead.rgba(path: path)
    }

    /// Screendumps until two consecutive ones agree: emulated displays (and fbdev emulation) flush
    /// on a timer, so one dump can catch a frame half pushed. `satisfying` adds a condition (e.g.
    /// the dot is there) so a dump of the console before the program drew is not taken for stable.
    func stableScreendump(timeout: Double = 60, interval: Double = 0.25,
                          satisfying condition: (RGBAImage) -> Bool = { _ in true }) throws -> RGBAImage {
        let deadline = Date().addingTimeInterval(timeout)
        var previous = try screendump()
        while true {
            usleep(UInt32(interval * 1_000_000))
            let current = try screendump()
            if current == previous && condition(current) { return current }
            previous = current
            if Date() > deadline {
                throw TestFailure("the screen did not settle within \(timeout) s; serial log:\n\(tail(serialLog))")
            }
        }
    }

    // MARK: QMP

    private func qmpHandshake() throws { try qmp.qmpHandshake() }

    @discardableResult
    private func qmpCommand(_ json: String) throws -> String { try qmp.qmpCommand(json) }

    /// Ends the machine (QMP quit, then SIGKILL if it lingers) and removes its files unless
    /// PULSEDOT_KEEP_QEMU is set (for looking at a failure).
    func shutdown() {
        if stopped { return }
        stopped = true
        qmp.quit(process, within: 5)
        control.close()
        if !QEMUFiles.kept { try? FileManager.default.removeItem(at: directory) }
    }
}

/// PULSEDOT_KEEP_QEMU=1 keeps a machine's folder (serial log, screendumps, initramfs, image).
enum QEMUFiles {
    static var kept: Bool { ProcessInfo.processInfo.environment["PULSEDOT_KEEP_QEMU"] != nil }
}

extension LineSocket {
    /// Asks QEMU on this QMP socket to quit, kills it if it is still there after `seconds`, and
    /// closes the socket.
    func quit(_ process: ChildProcess, within seconds: Double) {
        if process.isRunning {
            _ = try? write("{\"execute\":\"quit\"}\n")
            if process.wait(timeout: seconds) == nil { process.terminate() }
        }
        close()
    }
}

/// A connected Unix stream socket read and written in lines (QMP, the guest's control port).
final class LineSocket {
    private let fd: Int32
    private var pending: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { throw TestFailure("socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        var connected: Int32 = -1
        for _ in 0..<100 {
            connected = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if connected == 0 { break }
            usleep(50_000)
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw TestFailure("connect \(path): errno \(errno)")
        }
    }

    func write(_ text: String) throws { try write(bytes: Array(text.utf8)) }

    func write(bytes: [UInt8]) throws {
        var bytes = bytes
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress! + done, $0.count - done, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw TestFailure("socket write: errno \(errno)")
            }
            done += n
        }
    }

    func readLine(timeout: Double) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let nl = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<nl], as: UTF8.self)
                pending.removeSubrange(...nl)
                return line
            }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            if poll(&p, 1, min(left, 200)) > 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n == 0 { throw TestFailure("socket closed by QEMU") }
                if n > 0 { pending += buffer[..<n] }
            }
            if Date() > deadline { throw TestFailure("no reply from QEMU within \(timeout) s") }
        }
    }

    /// Reads and drops whatever has arrived, without waiting (a peer that must not block on a
    /// full socket, e.g. a guest UART whose echo nobody wants).
    func discardInput() {
        pending.removeAll()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
    }

    func close() { Glibc.close(fd) }
}

/// QMP over a connected socket: shared by QEMUMachine and the field trial's machine.
extension LineSocket {
    func qmpHandshake() throws {
        _ = try readLine(timeout: 60)  // the greeting
        _ = try qmpCommand("{\"execute\":\"qmp_capabilities\"}")
    }

    /// Sends one command and returns its "return" line; asynchronous events in between are skipped.
    @discardableResult
    func qmpCommand(_ json: String) throws -> String {
        try write(json + "\n")
        while true {
            let line = try readLine(timeout: 60)
            if line.contains("\"return\"") { return line }
            if line.contains("\"error\"") { throw TestFailure("QMP \(json) failed: \(line)") }
        }
    }
}
