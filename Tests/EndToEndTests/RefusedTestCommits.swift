import Foundation
import TestSupport

/// A card that refuses every atomic TEST_ONLY commit, for the planes fallback on a real kernel
/// whose driver (vkms) would take them all: a preload library, built here with the host's C
/// compiler, that answers DRM_IOCTL_MODE_ATOMIC with TEST_ONLY by EINVAL before the kernel sees
/// it, as a driver refusing the state does, and passes every other ioctl through. The guest runs
/// the host's glibc (QEMUInitramfs copies the program's libraries), so the library loads there.
/// The program under test is the released one, unchanged: nothing in it knows about the test.
enum RefusedTestCommits {
    /// Where the guest finds it: `LD_PRELOAD=\(guestPath) pulsedot …`.
    static let guestPath = "/lib/pulsedot-refuse-test-commits.so"

    static let source = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <errno.h>
        #include <stdarg.h>
        #include <stddef.h>
        #include <drm.h>
        #include <drm_mode.h>

        int ioctl(int fd, unsigned long request, ...) {
            static int (*next)(int, unsigned long, ...);
            va_list list;
            va_start(list, request);
            void *argument = va_arg(list, void *);
            va_end(list);
            if (!next) next = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
            if (request == DRM_IOCTL_MODE_ATOMIC && argument != NULL
                && (((struct drm_mode_atomic *)argument)->flags & DRM_MODE_ATOMIC_TEST_ONLY)) {
                errno = EINVAL;
                return -1;
            }
            return next(fd, request, argument);
        }
        """

    /// The library built in `directory`, as a (host path, guest path) pair for the VM's files.
    static func file(in directory: URL) throws -> (String, String) {
        let c = directory.appendingPathComponent("refuse-test-commits.c")
        let library = directory.appendingPathComponent("refuse-test-commits.so")
        try source.write(to: c, atomically: true, encoding: .utf8)
        let cc = try runProgram("/usr/bin/cc", ["-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-I/usr/include/libdrm",
                                                "-o", library.path, c.path, "-ldl"], timeout: 120)
        guard cc.status == 0 else { throw TestFailure("cc refuse-test-commits.c: \(cc.stderr)") }
        return (library.path, guestPath)
    }
}
