/* The frame markers the instruction-counting plugin watches (insn-count.c): empty functions the
   benchmark calls around each frame step. Kept out of line and in C so that neither compiler can
   fold them away. */
__attribute__((noinline)) void pulsedot_frame_begin(long frame) { __asm__ volatile("" : : "r"(frame) : "memory"); }
__attribute__((noinline)) void pulsedot_frame_end(long frame) { __asm__ volatile("" : : "r"(frame) : "memory"); }
