#include <fribidi.h>

// FRIBIDI_PAR_ON is a cast of an expression over other macros, which Swift does not import.
static const FriBidiParType pulsedot_fribidi_par_on = FRIBIDI_PAR_ON;
static const FriBidiParType pulsedot_fribidi_par_rtl = FRIBIDI_PAR_RTL;
