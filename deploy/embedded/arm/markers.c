/* The frame markers the instruction-counting plugin watches (insn-count.c): empty functions the
   benchmark calls around each frame step, kept out of line and in C so that neither compiler can
   fold them away. And the heap allocations made inside frames: the program is linked with
   --wrap=posix_memalign, the one allocator Embedded Swift's runtime calls. */
#include <stddef.h>

static long frame_allocations;
static volatile int in_frame;

int __real_posix_memalign(void **memory, size_t alignment, size_t size);

int __wrap_posix_memalign(void **memory, size_t alignment, size_t size) {
    if (in_frame) frame_allocations++;
    return __real_posix_memalign(memory, alignment, size);
}

__attribute__((noinline)) void pulsedot_frame_begin(long frame) { (void)frame; in_frame = 1; }
__attribute__((noinline)) void pulsedot_frame_end(long frame) { (void)frame; in_frame = 0; }

/* Allocations made inside frames so far. */
long pulsedot_frame_allocations(void) { return frame_allocations; }
