// swift-tools-version:6.0
// PulseDot: an iOS-style pulsing "you are here" dot painted straight to DRM/KMS or fbdev.
// Dependencies point one way only: Raster <- LocationDot <- Daemon <- pulsedot, with PNG, Syscall,
// JSON, GPSD, KMS and FBDev beside them. No outside Swift packages; Debian C libraries via .systemLibrary.
import PackageDescription

let package = Package(
    name: "PulseDot",
    products: [
        .executable(name: "pulsedot", targets: ["pulsedot"]),
    ],
    targets: [
        // Pixels: buffers, fixed point, shapes, blending, sprites, damage. Pure Swift, no Foundation.
        .target(name: "Raster"),
        // The SVPulsingAnnotationView look: style, animation clock, painter. Reads no files.
        .target(name: "LocationDot", dependencies: ["Raster"]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .target(name: "PNG", dependencies: ["CPNG", "Raster"]),
        // The one thin wrapper every system call goes through; CLinux: timerfd/signalfd headers.
        .systemLibrary(name: "CLinux"),
        .target(name: "Syscall", dependencies: ["CLinux"]),
        // Writing JSON text (probe reports, watch lines): escaping in one place. Pure Swift, no Foundation.
        .target(name: "JSON"),
        .target(name: "GPSD", dependencies: ["Syscall", "JSON"]),
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .target(name: "KMS", dependencies: ["CDRM", "Raster", "Syscall", "JSON"]),
        .target(name: "FBDev", dependencies: ["Raster", "Syscall", "JSON"]),
        .target(name: "Daemon", dependencies: ["Raster", "LocationDot", "PNG", "Syscall", "JSON", "GPSD", "KMS", "FBDev"]),
        .executableTarget(name: "pulsedot", dependencies: ["Daemon", "JSON"]),

        // Shared by the test targets: locating the built binary, temporary folders, child processes.
        .target(name: "TestSupport", dependencies: ["Syscall"], path: "Tests/TestSupport"),
        .testTarget(name: "RasterTests", dependencies: ["Raster"]),
        .testTarget(name: "LocationDotTests", dependencies: ["LocationDot", "Raster"]),
        .testTarget(name: "PNGTests", dependencies: ["PNG", "Raster"]),
        .testTarget(name: "SyscallTests", dependencies: ["Syscall"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "TestSupport"]),
        .testTarget(name: "GPSDTests", dependencies: ["GPSD", "TestSupport"]),
        .testTarget(name: "KMSTests", dependencies: ["KMS", "Raster", "JSON"]),
        .testTarget(name: "FBDevTests", dependencies: ["FBDev", "Raster", "Syscall", "JSON"]),
        .testTarget(name: "DaemonTests", dependencies: ["Daemon", "TestSupport"]),
        // Tests that run the built `pulsedot` binary against real parts (gpsd, a kernel in QEMU).
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "PNG", "Raster", "LocationDot", "Daemon"]),
    ]
)
