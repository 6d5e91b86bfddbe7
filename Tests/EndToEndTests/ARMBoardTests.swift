import Foundation
import TestSupport
import XCTest

/// The Embedded builds on emulated ARM boards with Debian's own kernels (QEMUBoard): one boot per
/// kernel, at 1920x1080, and in it, for each build the board runs: `probe` sees the bochs card and
/// its mode; `show`'s screen is the host's `render` of the same frame, every pixel exactly; `run`
/// replays NMEA onto the display; SIGTERM ends both with 0 and the console back. On the arm64
/// kernel the armhf build maps its dumb buffers past 4 GiB (the kernel's own map of the process
/// says so), the set-up of a 32-bit system on a 64-bit Raspberry Pi kernel.
final class ARMBoardTests: XCTestCase, QEMUShowTesting {
    static let showCommand = "pulsedot show"
    static let mismatchFolder = "arm-mismatch"
    static let (width, height) = (1920, 1080)
    static let display = QEMUMachine.Display(qemuDevice: "bochs-display,xres=\(width),yres=\(height)", modules: ["bochs"])

    override func setUpWithError() throws {
        try XCTSkipIf(TestEnvironment.optedOut("qemu"), "PULSEDOT_SKIP contains qemu")
        try XCTSkipIf(TestEnvironment.optedOut("arm"), "PULSEDOT_SKIP contains arm")
    }

    /// The armhf build (and the arm64 one when PULSEDOT_EMBEDDED_ARCHES names it), each as its
    /// own program in the one boot.
    func testEmbeddedBuildsOnTheArm64Kernel() throws {
        let builds = EmbeddedBinaries.tested.sorted { $0 == .armhf && $1 != .armhf }
        try exercise(.arm64, builds: builds, offsetsPast4GiB: true)
    }

    /// The armhf build on a 32-bit ARMv7 kernel.
    func testArmhfBuildOnTheArmmpKernel() throws {
        try XCTSkipUnless(EmbeddedBinaries.tested.contains(.armhf), "PULSEDOT_EMBEDDED_ARCHES leaves armhf out")
        try exercise(.armmp, builds: [.armhf], offsetsPast4GiB: false)
    }

    private func exercise(_ board: QEMUBoard, builds: [EmbeddedBinaries.Arch], offsetsPast4GiB: Bool) throws {
        let dir = try TestEnvironment.temporaryDirectory("arm-board")
        defer { try? FileManager.default.removeItem(at: dir) }
        // The first build is the guest's /bin/pulsedot, any other is /bin/pulsedot-ARCH.
        let programs = builds.enumerated().map { $0.offset == 0 ? "pulsedot" : "pulsedot-\($0.element.rawValue)" }
        let binaries = try builds.map { try EmbeddedBinaries.binary($0) }
        var files = zip(binaries, programs).dropFirst().map { ($0.0, "/bin/" + $0.1) }
        let drive = Self.drive
        try drive.write(to: dir.appendingPathComponent("drive.nmea"))
        try Self.runConfig(center: drive.fixes[drive.fixes.count - 1]).write(to: dir.appendingPathComponent("run.conf"), atomically: true, encoding: .utf8)
        files += [(dir.appendingPathComponent("drive.nmea").path, "/etc/drive.nmea"), (dir.appendingPathComponent("run.conf").path, "/etc/run.conf")]

        let started = Date()
        let vm = try QEMUMachine.boot(display: Self.display, board: board, files: files, program: binaries[0])
        defer { vm.shutdown() }
        print("ARM board \(board.label.dropFirst()): shell after \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        let console = ScreenImage(try vm.stableScreendump())
        XCTAssertEqual(console.width, Self.width)
        let render = try HeadlessRender.frame(at: 1.2, width: Self.width, height: Self.height, scale: 2)
        for (arch, program) in zip(builds, programs) {
            try probe(vm, program)
            try show(vm, program, render: render, console: console, offsetsPast4GiB: offsetsPast4GiB, arch)
            try run(vm, program, console: console, "\(arch) on \(board.label.dropFirst())")
        }
    }

    private func probe(_ vm: QEMUMachine, _ program: String) throws {
        let probe = try vm.run("\(program) probe")
        XCTAssertEqual(probe.status, 0, probe.output)
        XCTAssertTrue(probe.output.contains("/dev/dri/card0: driver bochs-drm"), probe.output)
        XCTAssertTrue(probe.output.contains("\(Self.width)x\(Self.height)"), probe.output)
    }

    private func show(_ vm: QEMUMachine, _ program: String, render: ScreenImage, console: ScreenImage,
                      offsetsPast4GiB: Bool, _ arch: EmbeddedBinaries.Arch) throws {
        let pid = try vm.spawn("\(program) show --at 1.2 --scale 2")
        let log = try vm.waitForOutput(pid, containing: "still frame at clock")
        let screen = ScreenImage(try vm.stableScreendump { ScreenImage($0) != console })
        XCTAssertTrue(log.contains("using software composition"), log)
        let (w, h) = (Self.width, Self.height)
        let whole = screen.maxDifference(around: w / 2, h / 2, side: max(w, h), against: render, around: w / 2, h / 2)
        if whole.difference != 0 {
            let folder = (try? TestEnvironment.temporaryDirectory(Self.mismatchFolder))?.path ?? "/tmp"
            try? screen.write(to: folder + "/screen.png")
            try? render.write(to: folder + "/render.png")
            XCTFail("\(arch): the screen differs from the host's render by \(whole.difference) at (\(whole.x), \(whole.y)); images in \(folder)")
        }
        assertDotMatches(screen, at: (w / 2, h / 2), render, at: (w / 2, h / 2), scale: 2, tolerance: 0, "\(arch) show")
        // The kernel's map of the process: where the dumb buffers are mapped in the card's file.
        let maps = try vm.run("grep /dev/dri/card0 /proc/\(pid)/maps").output
        let offsets = maps.split(separator: "\n").compactMap { line -> UInt64? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count > 2 ? UInt64(fields[2], radix: 16) : nil
        }
        XCTAssertFalse(offsets.isEmpty, "\(arch): no mapping of the card:\n\(maps)")
        if offsetsPast4GiB {
            XCTAssertTrue(offsets.allSatisfy { $0 >= 1 << 32 }, "\(arch): dumb buffers mapped below 4 GiB on the arm64 kernel:\n\(maps)")
        }
        print("ARM \(arch) show: card mapped at offsets \(offsets.map { "0x" + String($0, radix: 16) }.joined(separator: ", "))")
        try assertStopsAndConsoleReturns(vm, pid, console: console)
    }

    /// A stop kiosk's replay: the fixes at rest (no heading), the halo off so the screen settles,
    /// the map centred on the last fix, so that is where the dot ends.
    private func run(_ vm: QEMUMachine, _ program: String, console: ScreenImage, _ what: String) throws {
        let pid = try vm.spawn("STATE_DIRECTORY=/tmp \(program) run --config /etc/run.conf --set delayBetweenPulseCycles=inf")
        let log = try vm.waitForOutput(pid, containing: "<5>replay /etc/drive.nmea ended")
        XCTAssertTrue(log.contains("<6>replay /etc/drive.nmea: NMEA, \(Self.drive.fixes.count) fixes over "), log)
        XCTAssertTrue(log.contains("<6>output /dev/dri/card0 (bochs-drm) Virtual-1 \(Self.width)x\(Self.height)"), log)
        let screen = ScreenImage(try vm.stableScreendump { ScreenImage($0).centroid(of: KMSShowTests.dotColor) != nil })
        let dot = try XCTUnwrap(screen.centroid(of: KMSShowTests.dotColor), "\(what): no dot on the screen")
        XCTAssertEqual(dot.x, Double(Self.width / 2), accuracy: 1, "\(what): the dot is not at the last fix")
        XCTAssertEqual(dot.y, Double(Self.height / 2), accuracy: 1, "\(what): the dot is not at the last fix")
        let status = try vm.run("grep -E 'VmHWM|VmRSS' /proc/\(pid)/status").output
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
            .flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ")[0]) }
        let kB = try XCTUnwrap(peak, "\(what): no VmHWM in /proc/\(pid)/status: \(status)")
        print("ARM \(what): run at \(Self.width)x\(Self.height) peak RSS \(kB) kB")
        // Two 8 MB scanout buffers, the canvas and the program: far from this unless something grows.
        XCTAssertLessThan(kB, 96 * 1024, "\(what): peak RSS")
        try assertStopsAndConsoleReturns(vm, pid, console: console)
        XCTAssertTrue(try vm.backgroundOutput(pid).contains("<6>display released; the console is back"))
    }

    static let drive: DriveNMEA = {
        var drive = DriveNMEA()
        for i in 0..<8 { drive.fix(lat: 45.5 + Double(i) * 0.00006, lon: -73.6 + Double(i) * 0.0001, knots: 0) }
        return drive
    }()

    static func runConfig(center: (lat: Double, lon: Double)) -> String {
        """
        [source]
        replay = /etc/drive.nmea
        replaySpeed = 10
        staleAfter = 600
        [display]
        output = auto
        fps = 10
        [map]
        center = \(center.lat),\(center.lon)
        zoom = 17
        [log]
        level = debug

        """
    }
}
