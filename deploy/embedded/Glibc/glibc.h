// What the C library's headers cannot give Swift, for the Embedded build's stand-in Glibc module
// (`headers` lists the headers themselves; Glibc.swift re-exports them all as Glibc).
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

// Variadic C functions do not import into Swift; the hosted Glibc overlay wraps the same ones.
static inline int _pulsedot_open(const char *path, int flags, mode_t mode) { return open(path, flags, mode); }
static inline int _pulsedot_openat(int dir, const char *path, int flags, mode_t mode) { return openat(dir, path, flags, mode); }
static inline int _pulsedot_fcntl(int fd, int command) { return fcntl(fd, command); }
static inline int _pulsedot_fcntl_int(int fd, int command, int value) { return fcntl(fd, command, value); }
static inline int _pulsedot_ioctl_int(int fd, unsigned long request, int value) { return ioctl(fd, request, value); }
static inline int _pulsedot_ioctl_pointer(int fd, unsigned long request, void *value) { return ioctl(fd, request, value); }
static inline int _pulsedot_ioctl(int fd, unsigned long request) { return ioctl(fd, request); }
static inline int *_pulsedot_errno(void) { return &errno; }
static inline char **_pulsedot_environ(void) { extern char **environ; return environ; }

// Sequentially consistent atomics on a long, for Synchronization's Atomic<Int> stand-in.
static inline long _pulsedot_atomic_load(long *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
static inline void _pulsedot_atomic_add(long *p, long v) { __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }

// The program's arguments, kept by shims.c (Embedded Swift has no CommandLine of its own).
extern int _pulsedot_argc;
extern char **_pulsedot_argv;
static inline int _pulsedot_argument_count(void) { return _pulsedot_argc; }
static inline char *_pulsedot_argument(int i) { return _pulsedot_argv[i]; }
