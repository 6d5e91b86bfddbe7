// libdrm, plus the function-like macros Swift cannot import, exposed as constants.
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
