import CLinux
import Glibc
import Syscall

/// A real /dev/fb* device: the `FramebufferDevice` calls as ioctls on it, and its memory mapped
/// shared.
public final class LinuxFramebuffer: FramebufferDevice {
    public let path: String
    private let fd: FileDescriptor
    private var mapping: MappedMemory?
    /// The last variable information read: FBIOPAN_DISPLAY takes a whole structure, of which
    /// only the offsets (and the wrap flag) change.
    private var lastVariable = fb_var_screeninfo()
    private var closed = false

    // <linux/fb.h>; FBIO_WAITFORVSYNC is _IOW('F', 0x20, __u32), a function-like macro that does
    // not import.
    static let getVariable = UInt(FBIOGET_VSCREENINFO)
    static let getFixed = UInt(FBIOGET_FSCREENINFO)
    static let panDisplay = UInt(FBIOPAN_DISPLAY)
    static let waitForVSync: UInt = (1 << 30) | (UInt(MemoryLayout<UInt32>.size) << 16) | (0x46 << 8) | 0x20
    static let blank = UInt(FBIOBLANK)
    static let blankPowerdown = Int32(FB_BLANK_POWERDOWN)
    static let blankUnblank = Int32(FB_BLANK_UNBLANK)

    /// Opens `path` read-write (mapping it shared for writing needs both).
    public init(path: String) throws(SyscallError) {
        self.path = path
        fd = try FileDescriptor.open(path, O_RDWR)
    }

    deinit { close() }

    public func variableInfo() throws(SyscallError) -> VariableScreenInfo {
        var v = fb_var_screeninfo()
        try fd.ioctl(Self.getVariable, "FBIOGET_VSCREENINFO", &v)
        lastVariable = v
        func field(_ b: fb_bitfield) -> Bitfield {
            Bitfield(offset: Int(b.offset), length: Int(b.length), msbRight: b.msb_right != 0)
        }
        return VariableScreenInfo(xres: Int(v.xres), yres: Int(v.yres), xresVirtual: Int(v.xres_virtual),
                                  yresVirtual: Int(v.yres_virtual), xoffset: Int(v.xoffset), yoffset: Int(v.yoffset),
                                  bitsPerPixel: Int(v.bits_per_pixel), grayscale: Int(v.grayscale),
                                  red: field(v.red), green: field(v.green), blue: field(v.blue), transp: field(v.transp),
                                  nonstd: Int(v.nonstd))
    }

    public func fixedInfo() throws(SyscallError) -> FixedScreenInfo {
        var f = fb_fix_screeninfo()
        try fd.ioctl(Self.getFixed, "FBIOGET_FSCREENINFO", &f)
        let id = withUnsafeBytes(of: f.id) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return FixedScreenInfo(id: id, memoryLength: Int(f.smem_len), type: Int(f.type), visual: Int(f.visual),
                               xpanstep: Int(f.xpanstep), ypanstep: Int(f.ypanstep), ywrapstep: Int(f.ywrapstep),
                               lineLength: Int(f.line_length))
    }

    public func map(length: Int) throws(SyscallError) -> UnsafeMutableRawPointer {
        if let mapping { return mapping.base }
        let m = try MappedMemory.map(fd, length: length, offset: 0, what: "framebuffer memory (\(length) bytes)")
        mapping = m
        return m.base
    }

    public func pan(xoffset: Int, yoffset: Int) throws(SyscallError) {
        var v = lastVariable
        v.xoffset = UInt32(xoffset)
        v.yoffset = UInt32(yoffset)
        // A plain pan, never a wrap: PulseDot's buffers lie one under the other.
        v.vmode &= ~UInt32(FB_VMODE_YWRAP)
        try fd.ioctl(Self.panDisplay, "FBIOPAN_DISPLAY", &v)
        lastVariable.xoffset = v.xoffset
        lastVariable.yoffset = v.yoffset
    }

    public func waitForVSync() throws(SyscallError) {
        var crtc: UInt32 = 0
        try fd.ioctl(Self.waitForVSync, "FBIO_WAITFORVSYNC", &crtc)
    }

    public func setBlanked(_ blanked: Bool) throws(SyscallError) {
        // The level is the ioctl's argument itself, not a pointer to it.
        _ = try fd.ioctl(Self.blank, "FBIOBLANK", value: blanked ? Self.blankPowerdown : Self.blankUnblank)
    }

    public func close() {
        if closed { return }
        closed = true
        mapping?.unmap()
        mapping = nil
        fd.close()
    }
}
