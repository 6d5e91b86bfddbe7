/*
 * Guest instructions per benchmark frame, for qemu-user's -plugin option. Written against the
 * plugin API of QEMU 7.2 (Debian 12's qemu-user), QEMU_PLUGIN_VERSION 1; Debian ships no plugin
 * header, so the few declarations used are spelled out here exactly as that version defines them.
 *
 *   qemu-aarch64 -cpu cortex-a53 -plugin ./insn-count.so,begin=0xADDR,end=0xADDR,out=FILE prog
 *
 * Every translated block adds its instruction count to one counter when it runs (an inline add:
 * exact, and cheap enough to count millions of frames). Blocks that start at the `begin` and
 * `end` marker functions also call back, and the count between them is one frame; FILE gets one
 * number per line, per frame, in order. With profile=PROFILE, every block's start address and the
 * instructions it ran inside frames go to PROFILE too (one callback per block run: slower, for
 * seeing where a frame's instructions go; map the addresses to functions with nm).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op, void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t executed;
static uint64_t begin_address, end_address, frame_start;
static uint64_t *frames;
static size_t frame_count, frame_capacity;
static const char *out_path;
static int in_frame;
static const char *profile_path;

struct block { uint64_t address, insns, inside; struct block *next; };
static struct block *blocks;

static void ran(unsigned int vcpu, void *userdata) {
    (void)vcpu;
    struct block *b = userdata;
    if (in_frame) b->inside += b->insns;
}

static void at_begin(unsigned int vcpu, void *userdata) {
    (void)vcpu; (void)userdata;
    frame_start = executed;
    in_frame = 1;
}

static void at_end(unsigned int vcpu, void *userdata) {
    (void)vcpu; (void)userdata;
    if (!in_frame) return;
    in_frame = 0;
    if (frame_count == frame_capacity) {
        frame_capacity = frame_capacity ? 2 * frame_capacity : 4096;
        frames = realloc(frames, frame_capacity * sizeof *frames);
        if (!frames) abort();
    }
    frames[frame_count++] = executed - frame_start;
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    uint64_t start = qemu_plugin_tb_vaddr(tb);
    /* The marker's callback runs before the block's own add, so a frame counts from the first
       instruction of the marker function on: the same constant in every frame. */
    if (start == begin_address) qemu_plugin_register_vcpu_tb_exec_cb(tb, at_begin, QEMU_PLUGIN_CB_NO_REGS, NULL);
    if (start == end_address) qemu_plugin_register_vcpu_tb_exec_cb(tb, at_end, QEMU_PLUGIN_CB_NO_REGS, NULL);
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &executed, qemu_plugin_tb_n_insns(tb));
    if (profile_path) {
        struct block *b = calloc(1, sizeof *b);
        if (!b) abort();
        b->address = start;
        b->insns = qemu_plugin_tb_n_insns(tb);
        b->next = blocks;
        blocks = b;
        qemu_plugin_register_vcpu_tb_exec_cb(tb, ran, QEMU_PLUGIN_CB_NO_REGS, b);
    }
}

static void finished(qemu_plugin_id_t id, void *userdata) {
    (void)id; (void)userdata;
    FILE *f = fopen(out_path, "w");
    if (!f) { perror(out_path); return; }
    for (size_t i = 0; i < frame_count; i++) fprintf(f, "%llu\n", (unsigned long long)frames[i]);
    fprintf(f, "total %llu\n", (unsigned long long)executed);
    fclose(f);
    if (!profile_path) return;
    FILE *p = fopen(profile_path, "w");
    if (!p) { perror(profile_path); return; }
    for (struct block *b = blocks; b; b = b->next)
        if (b->inside) fprintf(p, "%llx %llu\n", (unsigned long long)b->address, (unsigned long long)b->inside);
    fclose(p);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv) {
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (!strncmp(argv[i], "begin=", 6)) begin_address = strtoull(argv[i] + 6, NULL, 0);
        else if (!strncmp(argv[i], "end=", 4)) end_address = strtoull(argv[i] + 4, NULL, 0);
        else if (!strncmp(argv[i], "out=", 4)) out_path = argv[i] + 4;
        else if (!strncmp(argv[i], "profile=", 8)) profile_path = argv[i] + 8;
        else { fprintf(stderr, "insn-count: unknown argument %s (begin=, end=, out=, profile=)\n", argv[i]); return -1; }
    }
    if (!begin_address || !end_address || !out_path) {
        fprintf(stderr, "insn-count: begin=ADDR end=ADDR out=FILE are all needed\n");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
    qemu_plugin_register_atexit_cb(id, finished, NULL);
    return 0;
}
