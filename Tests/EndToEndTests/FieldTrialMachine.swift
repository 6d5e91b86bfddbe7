import Foundation
import Glibc
import PNG
import TestSupport

/// The virtual kiosk of the field trial: the Debian 12 image from deploy/vm/build-vm-image (systemd,
/// gpsd, PulseDot from its own .deb) booted under QEMU (TCG) with the bochs display. Three UARTs:
/// ttyS0 the console (a log file), ttyS1 the GPS receiver (the test writes NMEA into its socket),
/// ttyS2 the image's test agent, which runs shell commands and answers in base64 lines. QMP gives
/// the screendumps. The kernel and its cache are the QEMU harness's (deploy/vm/fetch-test-kernel).
final class FieldTrialMachine {
    struct Image {
        let directory: String
        var rootImage: String { directory + "/root.ext4" }
        var initrd: String { directory + "/initrd.img" }
        let kernel: String
        let commandLine: String
    }

    let directory: URL
    let process: ChildProcess
    let gps: LineSocket
    private let qmp: LineSocket
    private let agent: LineSocket
    private var counter = 0
    private var stopped = false

    // MARK: The image

    /// Packages the binary under test (`deploy/package/build-deb`, reproducible, so an unchanged binary
    /// reuses the cached image) and builds or reuses the image with `overlay` on top.
    static func prepareImage(overlay: URL) throws -> Image {
        let root = TestEnvironment.packageRoot.path
        let binary = try TestEnvironment.pulsedotBinary()
        let work = try TestEnvironment.temporaryDirectory("field-deb")
        defer { try? FileManager.default.removeItem(at: work) }
        let reproducible = ["SOURCE_DATE_EPOCH": "1700000000"]
        let deb = try runProgram(root + "/deploy/package/build-deb", ["--binary", binary, "--out", work.path],
                                 environment: reproducible, timeout: 300)
        guard deb.status == 0, let debPath = deb.stdout.split(separator: "\n").last.map(String.init) else {
            throw TestFailure("deploy/package/build-deb --binary \(binary) failed (the field trial needs the release binary that deploy/test builds, static Swift runtime): \(deb.stderr)")
        }
        // The first build runs mmdebstrap (one to three minutes); later ones take seconds.
        let image = try runProgram(root + "/deploy/vm/build-vm-image", ["--deb", debPath, "--overlay", overlay.path], timeout: 1200)
        guard image.status == 0, let dir = image.stdout.split(separator: "\n").last.map(String.init) else {
            throw TestFailure("deploy/vm/build-vm-image failed (status \(image.status)):\n\(image.stderr.suffix(4000))")
        }
        func read(_ name: String) throws -> String {
            try String(contentsOfFile: dir + "/" + name, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return Image(directory: dir, kernel: try read("kernel"), commandLine: try read("cmdline"))
    }

    // MARK: Booting

    /// Starts QEMU and waits until the guest agent answers. The image stays untouched (the disk is
    /// a snapshot: the guest's writes go to a temporary file).
    static func boot(_ image: Image, timeout: Double = 180) throws -> FieldTrialMachine {
        let qemu = try QEMUMachine.qemuBinary()
        let dir = try TestEnvironment.temporaryDirectory("field")
        let sock = { (name: String) in dir.appendingPathComponent(name).path }
        let args = [
            "-accel", "tcg", "-smp", "1", "-m", "1024", "-nodefaults", "-no-reboot",
            "-kernel", image.kernel, "-initrd", image.initrd, "-append", image.commandLine,
            "-drive", "file=\(image.rootImage),format=raw,if=virtio,snapshot=on",
            "-serial", "file:" + sock("console.log"),
            "-chardev", "socket,id=gps,path=\(sock("gps.sock")),server=on,wait=off", "-serial", "chardev:gps",
            "-chardev", "socket,id=agent,path=\(sock("agent.sock")),server=on,wait=off", "-serial", "chardev:agent",
            "-display", "none", "-vga", "none", "-device", "bochs-display",
            "-qmp", "unix:\(sock("qmp.sock")),server=on,wait=off",
        ]
        let process = try ChildProcess(qemu, args, label: "qemu(field trial)")
        let sockets = ["qmp.sock", "gps.sock", "agent.sock"].map(sock)
        guard ChildProcess.waitUntil(timeout: 20, {
            sockets.allSatisfy { FileManager.default.fileExists(atPath: $0) } || !process.isRunning
        }), process.isRunning else {
            let why = process.stderr
            process.terminate()
            throw TestFailure("qemu did not start: \(why)")
        }
        let machine = FieldTrialMachine(directory: dir, process: process, qmp: try LineSocket(path: sockets[0]),
                                        gps: try LineSocket(path: sockets[1]), agent: try LineSocket(path: sockets[2]))
        do {
            try machine.qmp.qmpHandshake()
            try machine.waitForAgent(timeout: timeout)
        } catch {
            machine.shutdown()
            throw error
        }
        return machine
    }

    private init(directory: URL, process: ChildProcess, qmp: LineSocket, gps: LineSocket, agent: LineSocket) {
        self.directory = directory
        self.process = process
        self.qmp = qmp
        self.gps = gps
        self.agent = agent
    }

    deinit { shutdown() }

    private func waitForAgent(timeout: Double) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            guard process.isRunning else { throw TestFailure("the guest stopped while booting; console:\n\(consoleTail())") }
            if Date() > deadline { throw TestFailure("no agent on ttyS2 within \(timeout) s; console:\n\(consoleTail())") }
            if let line = try? agent.readLine(timeout: 1), line.contains("AGENT-READY") { return }
        }
    }

    /// Plugs a read-only virtio disk holding `image` into the running guest (ACPI PCI hot-plug, as a
    /// technician plugs in a stick), so what it holds can be made while the earlier scenarios run.
    func attachDisk(_ image: String, id: String) throws {
        try qmp.qmpCommand("{\"execute\":\"blockdev-add\",\"arguments\":{\"driver\":\"raw\",\"node-name\":\"\(id)\",\"read-only\":true,"
                           + "\"file\":{\"driver\":\"file\",\"filename\":\"\(image)\",\"read-only\":true}}}")
        try qmp.qmpCommand("{\"execute\":\"device_add\",\"arguments\":{\"driver\":\"virtio-blk-pci\",\"drive\":\"\(id)\",\"id\":\"\(id)-disk\"}}")
    }

    // MARK: Guest commands

    /// Runs `command` with bash in the guest (as root) and returns its status and output (stdout
    /// and stderr together).
    @discardableResult
    func run(_ command: String, timeout: Double = 60) throws -> (status: Int32, output: String) {
        counter += 1
        let id = counter
        try agent.write("\(id) \(Data(command.utf8).base64EncodedString())\n")
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, process.isRunning else {
                throw TestFailure("guest command \"\(command)\" got no answer within \(timeout) s; console:\n\(consoleTail())")
            }
            guard let line = try? agent.readLine(timeout: min(left, 5)) else { continue }
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[0] == "@\(id)" else { continue }  // a late answer to a timed-out command
            let status = Int32(parts[1]) ?? -1
            let output = parts.count > 2 ? Data(base64Encoded: String(parts[2])).map { String(decoding: $0, as: UTF8.self) } : ""
            return (status, output ?? "<undecodable: \(parts[2].prefix(200))>")
        }
    }

    /// `run` that must succeed; returns the output.
    @discardableResult
    func must(_ command: String, timeout: Double = 60) throws -> String {
        let r = try run(command, timeout: timeout)
        guard r.status == 0 else { throw TestFailure("guest: \(command) exited \(r.status):\n\(r.output)") }
        return r.output
    }

    /// `systemctl show -p …` of a unit as a dictionary.
    func unitProperties(_ unit: String, _ names: [String]) throws -> [String: String] {
        let text = try must("systemctl show -p \(names.joined(separator: ",")) \(unit)")
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            out[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return out
    }

    /// Polls `probe` (guest commands, screendumps) until it returns a value (an error it throws
    /// ends the wait); the deadline is generous because TCG on a shared machine is slow and
    /// uneven — no check depends on speed.
    func waitFor<T>(_ what: String, timeout: Double, interval: Double = 0.5, _ probe: () throws -> T?) throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let value = try probe() { return value }
            guard process.isRunning else { throw TestFailure("the guest stopped while waiting for \(what); console:\n\(consoleTail())") }
            if Date() > deadline { throw TestFailure("\(what): not within \(Int(timeout)) s") }
            usleep(UInt32(interval * 1_000_000))
        }
    }

    // MARK: The screen

    /// What the emulated display shows now.
    func screendump() throws -> RGBAImage {
        counter += 1
        let path = directory.appendingPathComponent("screen\(counter).png").path
        try qmp.qmpCommand("{\"execute\":\"screendump\",\"arguments\":{\"filename\":\"\(path)\",\"format\":\"png\"}}")
        defer { if !QEMUFiles.kept { try? FileManager.default.removeItem(atPath: path) } }
        return try PNGRead.rgba(path: path)
    }

    /// Saves a screendump beside the console log (kept with PULSEDOT_KEEP_QEMU) for a failure report.
    func keep(_ image: RGBAImage, as name: String) -> String {
        let path = directory.appendingPathComponent(name + ".png").path
        try? PNGWrite.rgba(image, to: path)
        return path
    }

    // MARK: Logs and the end

    var console: String {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("console.log")) else { return "" }
        return String(decoding: data.filter { $0 != 13 }, as: UTF8.self)
    }

    func consoleTail(_ lines: Int = 40) -> String {
        console.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }

    /// Powers the guest off (QMP quit), kills QEMU if it lingers, removes the folder unless
    /// PULSEDOT_KEEP_QEMU is set.
    func shutdown() {
        if stopped { return }
        stopped = true
        qmp.quit(process, within: 10)
        gps.close(); agent.close()
        if QEMUFiles.kept {
            print("field trial: machine files kept in \(directory.path)")
        } else {
            try? FileManager.default.removeItem(at: directory)
        }
    }
}
