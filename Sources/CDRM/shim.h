// libdrm, plus the function-like macros Swift cannot import, exposed as constants and helpers.
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
#include <errno.h>
#include <string.h>

// fourcc_code() is a function-like macro: Swift sees none of the DRM_FORMAT_* names.
static const uint32_t PD_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;
static const uint32_t PD_FORMAT_ARGB8888 = DRM_FORMAT_ARGB8888;
static const uint32_t PD_FORMAT_RGB565 = DRM_FORMAT_RGB565;

static const uint64_t PD_CAP_DUMB_BUFFER = DRM_CAP_DUMB_BUFFER;
static const uint64_t PD_CAP_DUMB_PREFER_SHADOW = DRM_CAP_DUMB_PREFER_SHADOW;
static const uint64_t PD_CLIENT_CAP_UNIVERSAL_PLANES = DRM_CLIENT_CAP_UNIVERSAL_PLANES;
static const uint32_t PD_PAGE_FLIP_EVENT = DRM_MODE_PAGE_FLIP_EVENT;
static const uint32_t PD_MODE_TYPE_PREFERRED = DRM_MODE_TYPE_PREFERRED;
static const uint32_t PD_MODE_TYPE_USERDEF = DRM_MODE_TYPE_USERDEF;
static const uint32_t PD_OBJECT_CONNECTOR = DRM_MODE_OBJECT_CONNECTOR;
static const uint32_t PD_OBJECT_PLANE = DRM_MODE_OBJECT_PLANE;
static const uint64_t PD_PLANE_TYPE_PRIMARY = DRM_PLANE_TYPE_PRIMARY;
static const uint64_t PD_DPMS_ON = DRM_MODE_DPMS_ON;
static const uint64_t PD_DPMS_OFF = DRM_MODE_DPMS_OFF;
static const uint64_t PD_LINK_STATUS_BAD = DRM_MODE_LINK_STATUS_BAD;

/// Asks whether vblank works on the CRTC at `crtc_index` (its position in the resources' list),
/// without waiting when `wait_frames` is 0; waits that many vblanks otherwise. 0 on success, else
/// -errno. The CRTC index goes into the request in two ways: bit 0 for the second CRTC, the
/// high-CRTC field for any later one (the kernel's legacy encoding).
static inline int pd_wait_vblank(int fd, unsigned crtc_index, unsigned wait_frames) {
    drmVBlank vbl;
    memset(&vbl, 0, sizeof vbl);
    unsigned type = DRM_VBLANK_RELATIVE;
    if (crtc_index == 1) {
        type |= DRM_VBLANK_SECONDARY;
    } else if (crtc_index > 1) {
        type |= (crtc_index << DRM_VBLANK_HIGH_CRTC_SHIFT) & DRM_VBLANK_HIGH_CRTC_MASK;
    }
    vbl.request.type = (drmVBlankSeqType)type;
    vbl.request.sequence = wait_frames;
    int r = drmWaitVBlank(fd, &vbl);
    return r == 0 ? 0 : -errno;
}

static void pd_count_flip(int fd, unsigned int sequence, unsigned int tv_sec, unsigned int tv_usec,
                          void *user_data) {
    (void)fd; (void)sequence; (void)tv_sec; (void)tv_usec;
    if (user_data) *(uint32_t *)user_data += 1;
}

/// Reads the pending DRM events and dispatches completed page flips: each adds 1 to the counter
/// whose address was the flip's user data. 0 on success, else -errno (-EAGAIN: nothing pending on
/// a non-blocking fd). The event context and its C callback live here because the callback only
/// counts: nothing in Swift needs to run per event.
static inline int pd_handle_events(int fd) {
    drmEventContext ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.version = 2;
    ctx.page_flip_handler = pd_count_flip;
    int r = drmHandleEvent(fd, &ctx);
    return r == 0 ? 0 : -errno;
}

// For probe's plane report.
static const uint64_t PD_CLIENT_CAP_ATOMIC = DRM_CLIENT_CAP_ATOMIC;
static const uint64_t PD_CAP_CURSOR_WIDTH = DRM_CAP_CURSOR_WIDTH;
static const uint64_t PD_CAP_CURSOR_HEIGHT = DRM_CAP_CURSOR_HEIGHT;
// Property flags; the typed ones (object, signed range) are DRM_MODE_PROP_TYPE(), a macro.
static const uint32_t PD_PROP_RANGE = DRM_MODE_PROP_RANGE;
static const uint32_t PD_PROP_IMMUTABLE = DRM_MODE_PROP_IMMUTABLE;
static const uint32_t PD_PROP_ENUM = DRM_MODE_PROP_ENUM;
static const uint32_t PD_PROP_BLOB = DRM_MODE_PROP_BLOB;
static const uint32_t PD_PROP_BITMASK = DRM_MODE_PROP_BITMASK;
static const uint32_t PD_PROP_EXTENDED_TYPE = DRM_MODE_PROP_EXTENDED_TYPE;
static const uint32_t PD_PROP_OBJECT = DRM_MODE_PROP_OBJECT;
static const uint32_t PD_PROP_SIGNED_RANGE = DRM_MODE_PROP_SIGNED_RANGE;
static const uint32_t PD_PROP_ATOMIC = DRM_MODE_PROP_ATOMIC;

// Atomic mode setting: the commit flags, the object types whose properties a commit sets, and
// one commit from arrays the caller keeps (libdrm's drmModeAtomicReq allocates on every add).
static const uint32_t PD_ATOMIC_TEST_ONLY = DRM_MODE_ATOMIC_TEST_ONLY;
static const uint32_t PD_ATOMIC_NONBLOCK = DRM_MODE_ATOMIC_NONBLOCK;
static const uint32_t PD_ATOMIC_ALLOW_MODESET = DRM_MODE_ATOMIC_ALLOW_MODESET;
static const uint32_t PD_OBJECT_CRTC = DRM_MODE_OBJECT_CRTC;

/// Commits `count_objs` objects' properties: object i has counts[i] (property, value) pairs,
/// taken in turn from props/values. 0 on success, else -errno.
static inline int pd_atomic_commit(int fd, uint32_t flags, const uint32_t *objs, const uint32_t *counts,
                                   const uint32_t *props, const uint64_t *values, uint32_t count_objs,
                                   void *user_data) {
    struct drm_mode_atomic req;
    memset(&req, 0, sizeof req);
    req.flags = flags;
    req.count_objs = count_objs;
    req.objs_ptr = (uint64_t)(uintptr_t)objs;
    req.count_props_ptr = (uint64_t)(uintptr_t)counts;
    req.props_ptr = (uint64_t)(uintptr_t)props;
    req.prop_values_ptr = (uint64_t)(uintptr_t)values;
    req.user_data = (uint64_t)(uintptr_t)user_data;
    return drmIoctl(fd, DRM_IOCTL_MODE_ATOMIC, &req) == 0 ? 0 : -errno;
}

// Writeback connectors: listed only to clients that ask; a capture's out-fence is waited on.
static const uint64_t PD_CLIENT_CAP_WRITEBACK_CONNECTORS = DRM_CLIENT_CAP_WRITEBACK_CONNECTORS;
