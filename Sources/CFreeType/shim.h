#include <ft2build.h>
#include FT_FREETYPE_H

// FreeType's error strings are compiled out of Debian's library (FT_Error_String returns NULL),
// so its header is read a second time to build them here, the way fterrors.h itself describes.
static inline const char *pulsedot_ft_error_message(FT_Error error_code) {
#undef FTERRORS_H_
#define FT_ERROR_START_LIST switch (FT_ERROR_BASE(error_code)) {
#define FT_ERRORDEF(e, v, s) case v: return s;
#define FT_ERROR_END_LIST default: return "unknown error"; }
#include FT_ERRORS_H
}
