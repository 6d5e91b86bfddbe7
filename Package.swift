// swift-tools-version:6.0
// PulseDot: an iOS-style pulsing "you are here" dot painted straight to DRM/KMS or fbdev.
// Targets by concern, dependencies pointing one way (README, "Architecture"). No outside Swift
// packages; Debian C libraries via .systemLibrary. Every module a file imports is listed here
// directly, and a target under Tests/ lists nothing else: ArchitectureTests fails otherwise.
import PackageDescription

let package = Package(
    name: "PulseDot",
    products: [
        .executable(name: "pulsedot", targets: ["pulsedot"]),
    ],
    targets: [
        // Pixels: buffers, fixed point, shapes, blending, sprites, damage. Pure Swift, no Foundation.
        .target(name: "Raster", swiftSettings: [.enableExperimentalFeature("AddressableParameters")]),
        // The SVPulsingAnnotationView look: style, animation clock, painter. Reads no files.
        .target(name: "LocationDot", dependencies: ["Raster"]),
        // Web Mercator: geographic points, the projection, the viewport. Pure Swift.
        .target(name: "Geo"),
        .testTarget(name: "GeoTests", dependencies: ["Geo"]),
        // One frame: the background restored under the dot, the dot painted, damage reported.
        // Pure Swift (no I/O), so it compiles as Embedded Swift with Raster and LocationDot.
        .target(name: "Compositor", dependencies: ["Raster", "LocationDot", "Geo"]),

        // The one thin wrapper every system call goes through; CLinux: the Linux headers it needs.
        .systemLibrary(name: "CLinux"),
        .target(name: "Syscall", dependencies: ["CLinux"]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .target(name: "PNG", dependencies: ["CPNG", "Raster"]),
        // Map tiles: one PNG or JPEG tile's bytes decoded into a slot, a missing zoom from its parent.
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .target(name: "TileDecode", dependencies: ["CTurboJPEG", "PNG", "Raster", "Tiles"]),
        .testTarget(name: "TileDecodeTests", dependencies: ["TileDecode", "PNG", "Raster", "TestSupport", "Tiles"]),
        // Text on the map: the attribution label, its glyphs drawn by FreeType.
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .target(name: "Text", dependencies: ["CFreeType", "Raster"]),
        .testTarget(name: "TextTests", dependencies: ["Raster", "Text"]),
        // Shaped text in every script (the transit banner): fontconfig finds the font files and
        // their charsets, FriBiDi orders the runs, HarfBuzz shapes them, FreeType draws the glyphs.
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFriBiDi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .target(name: "Shaping", dependencies: ["CFontconfig", "CFreeType", "CFriBiDi", "CHarfBuzz", "Raster", "Syscall", "Text"]),
        .testTarget(name: "ShapingTests", dependencies: ["Raster", "Shaping", "TestSupport"]),
        // Writing JSON text (probe reports, watch lines, frames.jsonl): escaping in one place. Pure Swift.
        .target(name: "JSON"),
        // A position from any source (the fix, its mode, status and time): plain values, so that
        // what draws and moves the dot needs no gpsd client.
        .target(name: "Location", dependencies: ["JSON", "Syscall"]),
        .testTarget(name: "LocationTests", dependencies: ["Location", "Syscall"]),
        .target(name: "GPSD", dependencies: ["JSON", "Location", "Syscall"]),
        // The display seam every output conforms to, and what outputs share.
        .target(name: "DisplayCore", dependencies: ["Raster", "Syscall"]),
        // The one frame loop `run`, `show` and `bench` turn, how it waits, and its virtual time.
        .target(name: "Loop", dependencies: ["DisplayCore", "Raster", "Syscall"]),
        .testTarget(name: "LoopTests", dependencies: ["DisplayCore", "DisplayDoubles", "Loop", "Raster", "Syscall"]),
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .target(name: "KMS", dependencies: ["CDRM", "DisplayCore", "JSON", "Raster", "Syscall"]),
        .target(name: "FBDev", dependencies: ["CLinux", "DisplayCore", "JSON", "Raster", "Syscall"]),
        // systemd's notification protocol and the journal's log lines.
        .target(name: "Systemd", dependencies: ["Syscall"]),
        .testTarget(name: "SystemdTests", dependencies: ["Syscall", "Systemd", "TestSupport"]),
        // Raster map tiles from MBTiles files through SQLite, opened immutable (MBTiles.swift says why).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "Tiles", dependencies: ["CSQLite", "Geo", "Syscall"]),
        // Transit feeds: GTFS's CSV files read in chunks from a folder or a zip (inflated by zlib),
        // and the compact SQLite index the daemon queries, built off the frame loop.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "GTFS", dependencies: ["CZlib", "Syscall"]),
        .testTarget(name: "GTFSTests", dependencies: ["GTFS", "TestSupport"]),
        .target(name: "Transit", dependencies: ["CSQLite", "GTFS", "Syscall"]),
        // GTFS-realtime: the protobuf wire format read by our own code into the fields a stop's
        // board and map use. Pure Swift, no Foundation, so it can run as Embedded Swift.
        .target(name: "GTFSRealtime"),
        .testTarget(name: "GTFSRealtimeTests", dependencies: ["GTFSRealtime", "TestSupport"], exclude: ["make_feeds.py"]),
        // Fetching the feeds: HTTP/1.1's wire format read by our own code (no I/O, fuzzed), and the
        // client over OpenSSL's static libraries (docs/realtime.md says why not libcurl).
        .target(name: "HTTPWire"),
        .testTarget(name: "HTTPWireTests", dependencies: ["HTTPWire"]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .target(name: "FeedFetch", dependencies: ["COpenSSL", "CZlib", "HTTPWire", "Syscall"]),
        .testTarget(name: "FeedFetchTests", dependencies: ["FeedFetch", "GTFSRealtime", "HTTPWire", "Syscall", "TestSupport"], exclude: ["feed_server.py"]),
        .testTarget(name: "TransitTests", dependencies: ["CSQLite", "Demo", "GTFS", "TestSupport", "Transit"]),
        // A stop's departures board: the timetable's departures with GTFS-realtime's TripUpdates
        // applied by the spec's rules. Pure logic over the index, no Foundation.
        .target(name: "Departures", dependencies: ["GTFS", "GTFSRealtime", "Transit"]),
        .target(name: "Kiosk", dependencies: ["Departures", "GTFSRealtime", "Geo", "Raster", "Shaping", "Transit"]),
        .testTarget(name: "KioskTests", dependencies: ["Demo", "GTFSRealtime", "Kiosk", "TestSupport", "Transit"]),
        .testTarget(name: "DeparturesTests", dependencies: ["Departures", "GTFS", "GTFSRealtime", "TestSupport", "Transit"], exclude: ["make_updates.py"]),
        // A tiled map on one canvas: the pool of decoded tiles, the worker decoding them, the view's mosaic.
        .target(name: "TileMap", dependencies: ["Compositor", "Geo", "Raster", "Syscall", "TileDecode", "Tiles"]),
        .testTarget(name: "TileMapTests", dependencies: ["Compositor", "Geo", "LocationDot", "PNG", "Raster", "TestSupport", "TileDecode", "TileMap", "Tiles"]),
        .testTarget(name: "TilesTests", dependencies: ["CSQLite", "Geo", "Syscall", "TestSupport", "Tiles"]),

        // The settings table: configuration file, `--set`, values, errors, docs.
        .target(name: "Config", dependencies: ["DisplayCore", "GPSD", "Geo", "HTTPWire", "LocationDot", "Raster", "Syscall", "Systemd", "Transit"]),
        .testTarget(name: "ConfigTests", dependencies: ["Config", "GPSD", "Geo", "LocationDot", "PNG", "Raster", "Systemd", "TestSupport"]),
        // The backlight through /sys/class/backlight, an IIO light sensor, the level for the moment.
        .target(name: "Backlight", dependencies: ["Config", "Syscall"]),
        .testTarget(name: "BacklightTests", dependencies: ["Backlight", "Config", "Syscall", "TestSupport"]),
        // Counting what the daemon does: frame times and their percentiles, Prometheus text. Pure Swift.
        .target(name: "Metrics"),
        .testTarget(name: "MetricsTests", dependencies: ["Metrics", "Syscall", "TestSupport"]),
        // Where positions come from (gpsd, fixed, replay), motion between fixes, the fix's state.
        .target(name: "Positioning", dependencies: ["Config", "GPSD", "Geo", "Location", "LocationDot", "Syscall", "Systemd"]),
        .testTarget(name: "PositioningTests", dependencies: ["Config", "Geo", "Location", "LocationDot", "Positioning", "Syscall", "TestSupport"]),
        // What is drawn when: the dot scene over the map, for one canvas.
        .target(name: "Scene", dependencies: ["Compositor", "Config", "DisplayCore", "Geo", "Location", "LocationDot", "PNG", "Positioning", "Raster", "Syscall", "Text", "TileDecode", "TileMap", "Tiles"]),
        .testTarget(name: "SceneTests", dependencies: ["Compositor", "Config", "DisplayCore", "DisplayDoubles", "Geo", "Location", "LocationDot", "Outputs", "PNG", "Raster", "Scene", "Syscall", "TestSupport", "TileDecode", "Tiles"]),
        // KMS, fbdev, PNG frames and none behind the display seam, opened as `[display]` says.
        .target(name: "Outputs", dependencies: ["Compositor", "Config", "DisplayCore", "FBDev", "JSON", "KMS", "PNG", "Raster", "Scene", "Syscall", "Systemd"]),
        .testTarget(name: "OutputsTests", dependencies: ["Config", "DisplayCore", "DisplayDoubles", "Geo", "Location", "Outputs", "PNG", "Raster", "Scene", "Syscall", "TestSupport"]),
        // The run loop: one poll over clock, signals, display and source; show's loop waits the same way.
        .target(name: "Daemon", dependencies: ["Backlight", "Compositor", "Config", "DisplayCore", "FeedFetch", "GPSD", "GTFS", "GTFSRealtime", "Geo", "HTTPWire", "Kiosk", "Location", "LocationDot", "Loop", "Metrics", "Outputs", "PNG", "Positioning", "Raster", "Scene", "Shaping", "Syscall", "Systemd", "TileMap", "Transit"]),
        .target(name: "Demo", dependencies: ["Compositor", "Config", "Daemon", "DisplayCore", "GPSD", "GTFS", "GTFSRealtime", "Geo", "Kiosk", "Location", "LocationDot", "Outputs", "PNG", "Positioning", "Raster", "Scene", "Shaping", "Syscall", "Systemd", "Tiles", "Transit"]),
        .testTarget(name: "DemoTests", dependencies: ["Compositor", "Config", "Demo", "GPSD", "Geo", "Location", "LocationDot", "PNG", "Positioning", "Raster", "Scene", "TestSupport", "TileDecode", "Tiles", "Transit"]),
        // The benchmark's frames: options, scene, map, one frame step. Pure Swift, so the same
        // code runs on the host and, as Embedded Swift, on ARM (deploy/embedded/arm-check).
        .target(name: "FrameBench", dependencies: ["Compositor", "Geo", "LocationDot", "Raster"]),
        .testTarget(name: "FrameBenchTests", dependencies: ["Compositor", "FrameBench", "Raster"]),
        .target(name: "Bench", dependencies: ["CTurboJPEG", "Compositor", "DisplayCore", "FrameBench", "Geo", "LocationDot", "Loop", "Metrics", "PNG", "Raster", "Scene", "Syscall", "TileDecode", "TileMap", "Tiles"]),
        .testTarget(name: "BenchTests", dependencies: ["Bench", "Compositor", "FrameBench", "Raster", "TestSupport"]),
        // Argument parsing and subcommands only.
        .executableTarget(name: "pulsedot", dependencies: ["Backlight", "Bench", "Compositor", "Config", "Daemon", "Demo", "DisplayCore", "FBDev", "FeedFetch", "FrameBench", "GPSD", "GTFSRealtime", "HTTPWire", "JSON", "KMS", "Location", "LocationDot", "Outputs", "PNG", "Positioning", "Raster", "Scene", "Shaping", "Syscall", "Systemd", "Transit"]),

        // Shared by the test targets: locating the built binary, temporary folders, child processes.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // The base of the in-memory displays the tests of Scene, Outputs and Daemon drive.
        .target(name: "DisplayDoubles", dependencies: ["DisplayCore", "Raster"], path: "Tests/DisplayDoubles"),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "TestSupport"]),
        .testTarget(name: "LocationDotTests", dependencies: ["LocationDot", "Raster"]),
        .testTarget(name: "CompositorTests", dependencies: ["Compositor", "LocationDot", "Raster"]),
        .testTarget(name: "PNGTests", dependencies: ["PNG", "Raster"]),
        .testTarget(name: "SyscallTests", dependencies: ["CLinux", "Syscall"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "TestSupport"]),
        .testTarget(name: "GPSDTests", dependencies: ["GPSD", "Location", "Syscall", "TestSupport"]),
        .testTarget(name: "KMSTests", dependencies: ["KMS", "DisplayCore", "DisplayDoubles", "JSON", "Raster", "Syscall"]),
        .testTarget(name: "FBDevTests", dependencies: ["FBDev", "DisplayCore", "DisplayDoubles", "JSON", "Raster", "Syscall"]),
        .testTarget(name: "DaemonTests", dependencies: ["Backlight", "Compositor", "Config", "Daemon", "DisplayCore", "DisplayDoubles", "GPSD", "Geo", "Location", "LocationDot", "Loop", "Metrics", "Outputs", "PNG", "Positioning", "Raster", "Scene", "Shaping", "Syscall", "Systemd", "TestSupport", "GTFSRealtime", "Kiosk", "Transit"]),
        // The package's shape: imports declared, dependencies one way, sizes.
        .testTarget(name: "ArchitectureTests", dependencies: ["TestSupport"]),
        // Tests that run the built `pulsedot` binary against real parts (gpsd, a kernel in QEMU).
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "Bench", "PNG", "Raster", "LocationDot", "Geo", "Compositor", "Config", "Metrics", "Text", "TileDecode", "Tiles"], exclude: ["kiosk_feeds.py"]),
    ]
)
