import Foundation
import TestSupport

/// Debian's kernel as `deploy/vm/fetch-test-kernel` leaves it in the cache ($PULSEDOT_CACHE, default
/// /var/cache/pulsedot-test), outside the repository's tracked files.
struct TestKernel {
    let release: String
    /// The ELF vmlinux when it was extracted (boots via PVH, seconds sooner under TCG), else vmlinuz.
    let bootImage: String
    /// Holds lib/modules/<release> with modules.dep.
    let root: String

    static var cacheDirectory: String {
        ProcessInfo.processInfo.environment["PULSEDOT_CACHE"].flatMap { $0.isEmpty ? nil : $0 } ?? "/var/cache/pulsedot-test"
    }

    static func locate() throws -> TestKernel {
        try locate("kernel", fetchedBy: "deploy/vm/fetch-test-kernel", optOut: "PULSEDOT_SKIP=qemu")
    }

    /// The kernel in `$cache/<folder>`, as `script` leaves it.
    static func locate(_ folder: String, fetchedBy script: String, optOut: String) throws -> TestKernel {
        let dir = cacheDirectory + "/" + folder
        let fm = FileManager.default
        guard fm.fileExists(atPath: dir + "/ready"),
              let release = try? String(contentsOfFile: dir + "/release", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        else {
            throw TestFailure("no test kernel in \(dir): run `sudo deploy/install-deps --test` (it runs \(script)), or set \(optOut) to leave these QEMU tests out")
        }
        let image = fm.fileExists(atPath: dir + "/vmlinux") ? dir + "/vmlinux" : dir + "/vmlinuz"
        return TestKernel(release: release, bootImage: image, root: dir + "/root")
    }

    /// The module files that `name` needs, in load order (modprobe's own dependency resolution).
    func moduleFiles(for name: String) throws -> [String] {
        let r = try runProgram("/usr/sbin/modprobe", ["-d", root, "-S", release, "--show-depends", name], timeout: 30)
        guard r.status == 0 else { throw TestFailure("modprobe --show-depends \(name): \(r.stderr)") }
        return r.stdout.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            return parts.count >= 2 && parts[0] == "insmod" ? String(parts[1]) : nil
        }
    }
}

/// The guest's whole file system: busybox, the program under test with its shared libraries, the
/// driver modules, and an init that loads them and then runs what the host sends.
enum Initramfs {
    /// `busybox` is a static one for the guest's CPU; the guest reads commands from
    /// `/dev/<controlPort>` and waits up to `displayWait` seconds for the card.
    static func build(at output: URL, kernel: TestKernel, modules: [String], parameters: [String: String] = [:],
                      files: [(String, String)], busybox: String = "/bin/busybox", controlPort: String = "ttyS1",
                      displayWait: Int = 10) throws {
        let fm = FileManager.default
        let root = output.deletingLastPathComponent().appendingPathComponent("root")
        try? fm.removeItem(at: root)
        for d in ["bin", "dev", "proc", "sys", "tmp", "modules", "lib", "lib64"] {
            try fm.createDirectory(at: root.appendingPathComponent(d), withIntermediateDirectories: true)
        }
        try copy(busybox, to: root.appendingPathComponent("bin/busybox"))
        var libraries: Set<String> = []
        for (host, guest) in files {
            let target = root.appendingPathComponent(String(guest.drop(while: { $0 == "/" })))
            try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try copy(host, to: target)
            libraries.formUnion(try sharedLibraries(of: host))
        }
        for lib in libraries {
            let target = root.appendingPathComponent(String(lib.drop(while: { $0 == "/" })))
            try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            if !fm.fileExists(atPath: target.path) { try copy(lib, to: target) }
        }
        var order: [String] = []
        for name in modules {
            for file in try kernel.moduleFiles(for: name) where !order.contains((file as NSString).lastPathComponent) {
                let base = (file as NSString).lastPathComponent
                try copy(file, to: root.appendingPathComponent("modules/" + base))
                order.append(base)
            }
        }
        // One module a line, its parameters after it (module names say "_" where files say "-").
        let lines = order.map { base -> String in
            let name = String(base.dropLast(3)).replacingOccurrences(of: "-", with: "_")
            return parameters[name].map { base + " " + $0 } ?? base
        }
        try (lines.joined(separator: "\n") + "\n").write(to: root.appendingPathComponent("modules/order"), atomically: true, encoding: .utf8)
        let initPath = root.appendingPathComponent("init")
        try initScript(controlPort: controlPort, displayWait: displayWait).write(to: initPath, atomically: true, encoding: .utf8)
        try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: initPath.path)
        let r = try runProgram("/bin/sh", ["-c", "cd '\(root.path)' && find . | cpio -o -H newc --quiet > '\(output.path)'"], timeout: 60)
        guard r.status == 0 else { throw TestFailure("cpio: \(r.stderr)") }
        try? fm.removeItem(at: root)
    }

    /// The shared libraries and loader a dynamic executable needs (none for a static one).
    static func sharedLibraries(of path: String) throws -> [String] {
        let r = try runProgram("/usr/bin/ldd", [path], timeout: 30)
        guard r.status == 0 else { return [] }  // "not a dynamic executable"
        return r.stdout.split(separator: "\n").compactMap { line in
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if let arrow = parts.firstIndex(of: "=>"), arrow + 1 < parts.count, parts[arrow + 1].hasPrefix("/") {
                return String(parts[arrow + 1])
            }
            if let first = parts.first, first.hasPrefix("/") { return String(first) }
            return nil
        }
    }

    private static func copy(_ from: String, to: URL) throws {
        let fm = FileManager.default
        try? fm.removeItem(at: to)
        // Resolve symlinks (libraries are usually links to versioned files).
        try fm.copyItem(atPath: URL(fileURLWithPath: from).resolvingSymlinksInPath().path, toPath: to.path)
    }

    /// PID 1: mounts, loads the driver, quiets the console cursor (so screendumps of the console
    /// are stable), writes a marker on the console, then executes each line arriving on the
    /// control port (the commands' own stdin stays the console).
    static func initScript(controlPort: String, displayWait: Int) -> String { """
    #!/bin/busybox sh
    /bin/busybox --install -s /bin
    export PATH=/bin
    mount -t proc proc /proc
    mount -t sysfs sys /sys
    mount -t devtmpfs dev /dev
    mount -t tmpfs tmp /tmp
    while read -r m args; do insmod /modules/$m $args || echo "PULSEDOT-INSMOD-FAILED $m"; done < /modules/order
    i=0
    while [ ! -e /dev/dri/card0 ] && [ $i -lt \(displayWait * 10) ]; do sleep 0.1; i=$((i+1)); done
    echo 0 > /sys/class/graphics/fbcon/cursor_blink 2>/dev/null
    printf '\\033[?25l\\033[2J\\033[HPULSEDOT CONSOLE\\n' > /dev/tty1 2>/dev/null
    # Opened once and kept open: a serial port nobody holds open drops what arrives, and the host
    # sends as soon as it reads READY.
    exec 3<>/dev/\(controlPort)
    stty raw -echo <&3
    echo PULSEDOT-READY
    while IFS= read -r line <&3; do eval "$line"; done
    poweroff -f

    """
    }
}
