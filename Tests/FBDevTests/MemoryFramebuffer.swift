import FBDev
import Glibc
import Raster
import Synchronization
import Syscall

/// An in-memory framebuffer: its memory is heap memory filled with a sentinel byte (so a write
/// outside the screens or into a row's padding shows), it pans like a driver (checking the
/// offsets against the virtual screen) and it shows what a panel would: the visible screen at the
/// current pan offset. Calls are logged and failures can be injected. FBIO_WAITFORVSYNC runs on
/// the output's wait thread, so what it touches is kept under a lock.
final class MemoryFramebuffer: FramebufferDevice {
    static let sentinel: UInt8 = 0xA5

    let path: String
    var variable: VariableScreenInfo
    var fixed: FixedScreenInfo
    /// 0 or the errno FBIO_WAITFORVSYNC gives.
    var vsyncErrno: Int32 = ENOTTY
    /// Nanoseconds a vsync wait takes on the device's clock (0: it returns at once, as DRM's
    /// fbdev emulation does without a vblank interrupt).
    var vsyncPeriod: Int64 = 16_666_667
    /// Errors for the next calls of that name ("pan", "waitForVSync", "variableInfo", "map").
    var failures: [String: [Int32]] { get { shared.withLock { $0.failures } } set { shared.withLock { $0.failures = newValue } } }
    /// While set, a vsync wait blocks until it is cleared: a driver that never signals a vblank.
    var vsyncHangs: Bool { get { shared.withLock { $0.hangs } } set { shared.withLock { $0.hangs = newValue } } }

    private struct Shared {
        var time: Int64 = 0
        var log: [String] = []
        var vsyncWaits = 0
        var failures: [String: [Int32]] = [:]
        var hangs = false
    }

    private let shared = Mutex(Shared())
    /// The device's own monotonic clock, advanced only by vsync waits and `advance`: the output's
    /// clock in tests.
    var time: Int64 { shared.withLock { $0.time } }
    var log: [String] { shared.withLock { $0.log } }
    var vsyncWaits: Int { shared.withLock { $0.vsyncWaits } }

    func advance(_ nanoseconds: Int64) { shared.withLock { $0.time += nanoseconds } }

    private func record(_ line: String) { shared.withLock { $0.log.append(line) } }
    private(set) var closed = false
    private(set) var mappedLength = 0
    let memory: UnsafeMutableRawPointer

    init(path: String = "/dev/fb0", variable: VariableScreenInfo, fixed: FixedScreenInfo) {
        self.path = path
        self.variable = variable
        self.fixed = fixed
        memory = .allocate(byteCount: max(1, fixed.memoryLength), alignment: 64)
        memory.initializeMemory(as: UInt8.self, repeating: Self.sentinel, count: max(1, fixed.memoryLength))
    }

    deinit { memory.deallocate() }

    /// A truecolor XRGB8888 (or another layout's) framebuffer of `width`x`height`, `virtualHeight`
    /// lines tall, with `padding` bytes after each row.
    static func make(width: Int = 40, height: Int = 30, virtualHeight: Int? = nil, layout: FramebufferLayout = .xrgb8888,
                     padding: Int = 0, ypanstep: Int = 1, yoffset: Int = 0) -> MemoryFramebuffer {
        let vh = virtualHeight ?? height
        let bpp = layout.bytesPerPixel
        let line = width * bpp + padding
        let v = VariableScreenInfo(xres: width, yres: height, xresVirtual: width, yresVirtual: vh, yoffset: yoffset,
                                   bitsPerPixel: bpp * 8, red: bitfields(layout).0, green: bitfields(layout).1,
                                   blue: bitfields(layout).2, transp: bitfields(layout).3)
        let f = FixedScreenInfo(id: "memfb", memoryLength: line * vh, ypanstep: ypanstep, lineLength: line)
        return MemoryFramebuffer(variable: v, fixed: f)
    }

    /// The bitfields a driver reports for `layout` (written out from <linux/fb.h>'s meaning, not
    /// from the decoder under test).
    static func bitfields(_ layout: FramebufferLayout) -> (Bitfield, Bitfield, Bitfield, Bitfield) {
        let none = Bitfield(offset: 0, length: 0)
        switch layout.description {
        case "XRGB8888": return (.init(offset: 16, length: 8), .init(offset: 8, length: 8), .init(offset: 0, length: 8), none)
        case "ARGB8888": return (.init(offset: 16, length: 8), .init(offset: 8, length: 8), .init(offset: 0, length: 8), .init(offset: 24, length: 8))
        case "XBGR8888": return (.init(offset: 0, length: 8), .init(offset: 8, length: 8), .init(offset: 16, length: 8), none)
        case "ABGR8888": return (.init(offset: 0, length: 8), .init(offset: 8, length: 8), .init(offset: 16, length: 8), .init(offset: 24, length: 8))
        case "RGB565": return (.init(offset: 11, length: 5), .init(offset: 5, length: 6), .init(offset: 0, length: 5), none)
        default: return (.init(offset: 0, length: 5), .init(offset: 5, length: 6), .init(offset: 11, length: 5), none)
        }
    }

    private func fail(_ call: String) -> SyscallError? {
        let code = shared.withLock { (s: inout Shared) -> Int32? in
            guard var list = s.failures[call], !list.isEmpty else { return nil }
            let code = list.removeFirst()
            s.failures[call] = list
            return code
        }
        return code.map { SyscallError(call: call, object: path, errno: $0) }
    }

    func variableInfo() throws(SyscallError) -> VariableScreenInfo {
        if let e = fail("variableInfo") { throw e }
        return variable
    }

    func fixedInfo() throws(SyscallError) -> FixedScreenInfo {
        if let e = fail("fixedInfo") { throw e }
        return fixed
    }

    func map(length: Int) throws(SyscallError) -> UnsafeMutableRawPointer {
        if let e = fail("map") { throw e }
        precondition(length <= fixed.memoryLength, "mapped \(length) bytes of \(fixed.memoryLength)")
        mappedLength = length
        record("map \(length)")
        return memory
    }

    func pan(xoffset: Int, yoffset: Int) throws(SyscallError) {
        record("pan \(xoffset),\(yoffset)")
        if let e = fail("pan") { throw e }
        // What fb_pan_display checks.
        guard fixed.ypanstep > 0 || yoffset == variable.yoffset,
              xoffset + variable.xres <= variable.xresVirtual, yoffset + variable.yres <= variable.yresVirtual else {
            throw SyscallError(call: "ioctl FBIOPAN_DISPLAY", object: path, errno: EINVAL)
        }
        variable.xoffset = xoffset
        variable.yoffset = yoffset
    }

    func waitForVSync() throws(SyscallError) {
        while vsyncHangs { usleep(1000) }
        if let e = fail("waitForVSync") { throw e }
        if vsyncErrno != 0 { throw SyscallError(call: "ioctl FBIO_WAITFORVSYNC", object: path, errno: vsyncErrno) }
        shared.withLock {
            $0.vsyncWaits += 1
            $0.time += vsyncPeriod
            $0.log.append("vsync")
        }
    }

    /// 0, or the errno FBIOBLANK gives (EINVAL: efifb, simplefb).
    var blankErrno: Int32 = 0
    private(set) var blanked = false

    func setBlanked(_ blanked: Bool) throws(SyscallError) {
        record("blank \(blanked ? "powerdown" : "unblank")")
        if let e = fail("blank") { throw e }
        if blankErrno != 0 { throw SyscallError(call: "ioctl FBIOBLANK", object: path, errno: blankErrno) }
        self.blanked = blanked
    }

    func close() {
        closed = true
        record("close")
    }

    var bytesPerPixel: Int { variable.bitsPerPixel / 8 }

    /// The raw pixel value at (x, y) of the whole virtual screen.
    func raw(_ x: Int, _ y: Int) -> UInt32 {
        let p = memory + y * fixed.lineLength + x * bytesPerPixel
        return bytesPerPixel == 4 ? p.load(as: UInt32.self) : UInt32(p.load(as: UInt16.self))
    }

    /// What the panel shows at (x, y): the visible screen at the pan offset.
    func panel(_ x: Int, _ y: Int) -> UInt32 { raw(variable.xoffset + x, variable.yoffset + y) }

    /// Whether every padding byte after each row's pixels is still the sentinel.
    var paddingUntouched: Bool {
        let used = variable.xresVirtual * bytesPerPixel
        for y in 0..<variable.yresVirtual {
            for b in used..<fixed.lineLength where memory.load(fromByteOffset: y * fixed.lineLength + b, as: UInt8.self) != Self.sentinel {
                return false
            }
        }
        return true
    }
}
