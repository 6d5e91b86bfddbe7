// What the hosted Swift runtime gives a program and Embedded Swift's standard library expects
// from its platform, for the Embedded build of pulsedot (linked statically against glibc).
#define _GNU_SOURCE
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <strings.h>
#include <sys/auxv.h>

int _pulsedot_argc;
char **_pulsedot_argv;

#if defined(__x86_64__)
// Swift's bare-metal x86-64 code checks its stack canary against this global, where Linux
// programs read it from the thread block; glibc defines it only on the architectures that use
// it (aarch64, armhf). Set from the kernel's random bytes before any Swift code runs.
uintptr_t __stack_chk_guard;
#endif

// glibc calls .init_array functions with (argc, argv, envp), in static programs too.
__attribute__((constructor)) static void keep_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    _pulsedot_argc = argc;
    _pulsedot_argv = argv;
#if defined(__x86_64__)
    const uintptr_t *random = (const uintptr_t *)getauxval(AT_RANDOM);
    if (random) __stack_chk_guard = *random;
#endif
}

// Double(String): the text in the C locale whatever LC_NUMERIC says, as the hosted runtime
// parses it ("snan" is the one spelling strtod does not know). Swift checks that the whole text
// was taken and rejects leading spaces itself.
const char *_swift_stdlib_strtod_clocale(const char *text, double *result) {
    static locale_t c_locale;
    if (!c_locale) c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    const char *unsigned_text = (text[0] == '+' || text[0] == '-') ? text + 1 : text;
    if (strcasecmp(unsigned_text, "snan") == 0) {
        *result = text[0] == '-' ? -__builtin_nans("") : __builtin_nans("");
        return unsigned_text + 4;
    }
    char *end;
    *result = strtod_l(text, &end, c_locale);
    return end;
}
