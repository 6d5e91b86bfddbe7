import Foundation
import TestSupport

/// The emulated machine QEMUMachine boots, and what differs between them: the PC with Debian's
/// amd64 kernel (every x86 QEMU test), or QEMU's `virt` ARM board with Debian's own arm64 or
/// armmp kernel (`deploy/vm/fetch-arm-kernels`), whose programs are the Embedded builds.
///
/// `virt` has a single UART (PL011, the console): the command channel is a virtio console
/// (hvc0) on the PCI bus, whose driver both ARM kernels ship as modules.
struct QEMUBoard: Sendable {
    /// Shown in the QEMU process's label ("" for the PC, as before).
    var label: String
    var qemu: String
    /// -M and -cpu.
    var machine: [String]
    /// The kernel's console device, which the serial log records.
    var console: String
    /// The guest device the init script reads commands from, and the QEMU devices behind it
    /// (fed by the chardev "control").
    var controlPort: String
    var controlDevices: [String]
    /// Loaded before the display's modules.
    var controlModules: [String]
    var noDefaultVGA: [String]
    /// Added to the display device: `virt` has no VGA BIOS to load, and its PCI devices must be
    /// told to have no option ROM (bochs-display does not start otherwise).
    var pciDeviceProperties: String
    /// Seconds the init script waits for /dev/dri/card0 (about 2 s on arm64, 4 s on armmp under
    /// TCG; much more on a loaded machine).
    var displayWait: Int
    /// The cache folder deploy/vm/fetch-test-kernel or deploy/vm/fetch-arm-kernels fills.
    var kernelFolder: String
    /// The guest's shell: the host's for the PC, a static armhf one (the cache's) for ARM: the
    /// arm64 kernel runs 32-bit programs as well.
    var hostBusybox: Bool

    static let pc = QEMUBoard(
        label: "", qemu: "qemu-system-x86_64", machine: [], console: "ttyS0",
        controlPort: "ttyS1", controlDevices: ["-device", "isa-serial,chardev=control"], controlModules: [],
        noDefaultVGA: ["-vga", "none"], pciDeviceProperties: "", displayWait: 10, kernelFolder: "kernel", hostBusybox: true)

    private static func arm(_ label: String, qemu: String, machine: [String], kernel: String) -> QEMUBoard {
        QEMUBoard(label: "-" + label, qemu: qemu, machine: machine, console: "ttyAMA0",
                  controlPort: "hvc0", controlDevices: ["-device", "virtio-serial-pci", "-device", "virtconsole,chardev=control"],
                  controlModules: ["virtio_pci", "virtio_console"], noDefaultVGA: [], pciDeviceProperties: ",romfile=",
                  displayWait: 60, kernelFolder: kernel, hostBusybox: false)
    }

    /// Debian's linux-image-arm64 on a Cortex-A53.
    static let arm64 = arm("arm64", qemu: "qemu-system-aarch64", machine: ["-M", "virt", "-cpu", "cortex-a53"], kernel: "kernel-arm64")
    /// Debian's linux-image-armmp on a Cortex-A15. Without highmem=off the PCI host bridge's
    /// configuration space lies above 4 GiB, which this kernel cannot claim: no PCI, no card.
    static let armmp = arm("armmp", qemu: "qemu-system-arm", machine: ["-M", "virt,highmem=off", "-cpu", "cortex-a15"], kernel: "kernel-armhf")

    var isARM: Bool { !hostBusybox }

    private var optOut: String { isARM ? "PULSEDOT_SKIP=arm (or qemu)" : "PULSEDOT_SKIP=qemu" }

    func kernel() throws -> TestKernel {
        try TestKernel.locate(kernelFolder, fetchedBy: isARM ? "deploy/vm/fetch-arm-kernels" : "deploy/vm/fetch-test-kernel", optOut: optOut)
    }

    func busybox() throws -> String {
        if hostBusybox { return "/bin/busybox" }
        let path = TestKernel.cacheDirectory + "/" + kernelFolder + "/busybox"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestFailure("no ARM busybox at \(path): run `sudo deploy/install-deps --test` (it runs deploy/vm/fetch-arm-kernels), or set \(optOut)")
        }
        return path
    }

    func qemuBinary() throws -> String {
        if !isARM { return try QEMUMachine.qemuBinary() }
        for dir in ["/usr/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/" + qemu) {
            return dir + "/" + qemu
        }
        throw TestFailure("\(qemu) is not installed (Debian's qemu-system-arm): run `sudo deploy/install-deps --test`, or set \(optOut) to leave the ARM boards out")
    }
}
