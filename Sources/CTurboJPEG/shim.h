// The TurboJPEG API rather than libjpeg's: it reports errors as return values, where libjpeg's
// default error handler calls exit() and its alternative is longjmp, neither of which Swift survives.
#include <turbojpeg.h>
