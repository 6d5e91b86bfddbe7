// HarfBuzz's shaping API and its OpenType font functions: faces come from blobs over mapped
// font files, so neither hb-ft nor glib is needed (and the static build of HarfBuzz has neither).
#include <hb.h>
#include <hb-ot.h>
