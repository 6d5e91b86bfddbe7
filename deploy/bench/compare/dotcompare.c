/*
 * The same frame as `pulsedot bench --scene moving|static` (1920x1080 textured map, the stock
 * look: a halo growing over 180 frames, the ring with its shadow, the inner dot; the damage is
 * last frame's dot and this frame's, copied out into one of two scan-out buffers), drawn the ways
 * a C developer would with the two usual libraries, so that BENCHMARKS.md compares measured
 * figures (deploy/bench/bench-compare counts this program's frame functions with callgrind, like
 * pulsedot's own frame step):
 *
 *   pixman  masks rendered once at start (every halo size of the cycle, the blurred shadow, the
 *           ring and the dot), composited at whole-pixel positions into the damage: the
 *           background restored with one SRC composite, each layer one OVER through its mask,
 *           then the damage copied out (SRC, converting to r5g6b5 when asked);
 *   cairo   the damage clipped, the map painted, the halo, ring and dot filled as arcs at the
 *           sub-pixel position (the shadow, which cairo cannot blur, is a mask made at start),
 *           then the damage copied out through a second context.
 *
 * Neither is bit-identical to pulsedot (pixman's dot moves in whole pixels; cairo's coverage is
 * its own): the point is the instruction count of an ordinary implementation of the same scene.
 *
 *   dotcompare pixman|cairo FRAMES [moving|static] [xrgb8888|rgb565]
 */
#include <cairo.h>
#include <math.h>
#include <pixman.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W = 1920, H = 1080, CYCLE = 180 };
/* Stock look at scale 1: halo diameter 22 pt x 5.3, ring 22 pt, dot 16 pt, shadow sigma 3 pt
 * 2 pt down at opacity 0.3. */
static const double HALO_R = 58.3, RING_R = 11, DOT_R = 8, SIGMA = 3, SHADOW_DY = 2, SHADOW_A = 0.3;
static const int SHADOW_M = 9; /* 3 sigma */

typedef struct { int x, y, w, h; } rect;

static rect rect_union(rect a, rect b) {
    if (a.w <= 0 || a.h <= 0) return b;
    if (b.w <= 0 || b.h <= 0) return a;
    int x0 = a.x < b.x ? a.x : b.x, y0 = a.y < b.y ? a.y : b.y;
    int x1 = a.x + a.w > b.x + b.w ? a.x + a.w : b.x + b.w, y1 = a.y + a.h > b.y + b.h ? a.y + a.h : b.y + b.h;
    return (rect){x0, y0, x1 - x0, y1 - y0};
}

/* --- the scene, as Sources/FrameBench/BenchScene.swift and DotClock compute it ------------- */

static uint32_t mix(uint32_t a, uint32_t b) {
    uint32_t h = a * 0x9E3779B1u ^ b * 0x85EBCA77u;
    h ^= h >> 15; h *= 0x2C1B3C6Du; h ^= h >> 13;
    return h;
}

/* BenchBackground: blocks between white streets, with grain (the same integers). */
static void make_map(uint32_t *p) {
    static const uint32_t fills[6] = {0xE5E3DF, 0xE5E3DF, 0xD4E8C8, 0xAAD3DF, 0xD9D0C9, 0xECE8E2};
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int ix = x % 97, iy = y % 83;
            uint32_t c;
            if (ix < 7 || iy < 7) c = (ix == 0 || ix == 6 || iy == 0 || iy == 6) ? 0xCFCAC2 : 0xFFFFFF;
            else c = fills[mix((uint32_t)(x / 97), (uint32_t)(y / 83)) % 6];
            uint32_t g = mix((uint32_t)x, (uint32_t)y) & 7, r = (c >> 16) & 255, gg = (c >> 8) & 255, b = c & 255;
            r -= r < g ? r : g; gg -= gg < g ? gg : g; b -= b < g ? b : g;
            p[y * W + x] = 0xFF000000u | r << 16 | gg << 8 | b;
        }
}

/* Core Animation's default curve, cubic Bezier (0.25, 0.1), (0.25, 1). */
static double ease(double x) {
    const double cx = 0.75, bx = 3 * (0.25 - 0.25) - cx, ax = 1 - cx - bx;
    const double cy = 0.3, by = 3 * (1.0 - 0.1) - cy, ay = 1 - cy - by;
    if (!(x > 0)) return 0;
    if (x >= 1) return 1;
    double lo = 0, hi = 1, s = x;
    for (int i = 0; i < 64; i++) {
        double v = ((ax * s + bx) * s + cx) * s;
        if (fabs(v - x) < 1e-12) break;
        if (v < x) lo = s; else hi = s;
        s = (lo + hi) / 2;
    }
    return ((ay * s + by) * s + cy) * s;
}

/* Stock look (no pause): size and opacity of the halo at frame n of a 60 Hz clock. */
static void halo_at(int n, double *size, double *opacity) {
    double t = fmod(n / 60.0, 3.0), f = ease(t / 3.0);
    *size = f;
    *opacity = f <= 0.2 ? 0.45 : 0.45 * (1 - f) / 0.8;
}

static double fold(double v, int size) {
    double lo = size / 4.0, span = size / 2.0, r = fmod(v - lo, 2 * span);
    if (r < 0) r += 2 * span;
    return lo + (r <= span ? r : 2 * span - r);
}

/* 12 m/s at zoom 17 at 52.52 N, heading 60 degrees, bouncing inside the middle of the canvas. */
static void position(int n, int moving, double *x, double *y) {
    double perFrame = 12.0 * (256.0 * 131072.0) / (2 * M_PI * 6378137.0 * cos(52.52 * M_PI / 180)) / 60;
    *x = moving ? fold(W / 2.0 + perFrame * 0.8660254037844386 * n, W) : W / 2.0;
    *y = moving ? fold(H / 2.0 - perFrame * 0.5 * n, H) : H / 2.0;
}

/* The rectangle every layer of the dot reaches. */
static rect dot_box(double x, double y, double haloR) {
    double side = haloR > RING_R + SHADOW_M ? haloR : RING_R + SHADOW_M;
    double below = haloR > RING_R + SHADOW_M + SHADOW_DY ? haloR : RING_R + SHADOW_M + SHADOW_DY;
    int x0 = (int)floor(x - side), x1 = (int)ceil(x + side), y0 = (int)floor(y - side), y1 = (int)ceil(y + below);
    return (rect){x0, y0, x1 - x0, y1 - y0};
}

/* --- masks made once --------------------------------------------------------------------------- */

/* An anti-aliased disc of radius r centred in a size x size A8 surface (cairo's coverage). */
static cairo_surface_t *disc_mask(double r, int size) {
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, size, size);
    cairo_t *c = cairo_create(s);
    cairo_arc(c, size / 2.0, size / 2.0, r, 0, 2 * M_PI);
    cairo_fill(c);
    cairo_destroy(c);
    cairo_surface_flush(s);
    return s;
}

/* The ring's silhouette blurred by a Gaussian of sigma 3 px, cut at 3 sigma. */
static cairo_surface_t *shadow_mask(void) {
    int size = 2 * (int)(RING_R + SHADOW_M) + 2;
    cairo_surface_t *s = disc_mask(RING_R, size);
    unsigned char *p = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    double k[2 * SHADOW_M + 1], sum = 0, *tmp = calloc((size_t)size * size, sizeof(double));
    for (int i = -SHADOW_M; i <= SHADOW_M; i++) sum += k[i + SHADOW_M] = exp(-i * i / (2 * SIGMA * SIGMA));
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            double v = 0;
            for (int i = -SHADOW_M; i <= SHADOW_M; i++)
                if (x + i >= 0 && x + i < size) v += k[i + SHADOW_M] * p[y * stride + x + i];
            tmp[y * size + x] = v / sum;
        }
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            double v = 0;
            for (int i = -SHADOW_M; i <= SHADOW_M; i++)
                if (y + i >= 0 && y + i < size) v += k[i + SHADOW_M] * tmp[(y + i) * size + x];
            p[y * stride + x] = (unsigned char)(v / sum + 0.5);
        }
    free(tmp);
    cairo_surface_mark_dirty(s);
    return s;
}

static pixman_image_t *as_pixman(cairo_surface_t *s) {
    return pixman_image_create_bits(PIXMAN_a8, cairo_image_surface_get_width(s), cairo_image_surface_get_height(s),
                                    (uint32_t *)cairo_image_surface_get_data(s), cairo_image_surface_get_stride(s));
}

static pixman_image_t *solid(double r, double g, double b, double a) {
    pixman_color_t c = {(uint16_t)(r * a * 65535), (uint16_t)(g * a * 65535), (uint16_t)(b * a * 65535), (uint16_t)(a * 65535)};
    return pixman_image_create_solid_fill(&c);
}

/* --- the frames -------------------------------------------------------------------------------- */

static int moving = 1, rgb565 = 0;
static uint32_t *map_bits, *canvas_bits;
static void *target_bits[2];
static rect last_dot, last_damage;

static pixman_image_t *p_map, *p_canvas, *p_target[2], *p_halo[CYCLE], *p_halo_paint[CYCLE], *p_shadow, *p_ring, *p_dot;
static pixman_image_t *p_black, *p_white, *p_blue;
static int halo_size[CYCLE];

static cairo_surface_t *c_map, *c_canvas, *c_target[2], *c_shadow;
static cairo_t *c_draw, *c_copy[2];

static void composite_mask(pixman_image_t *paint, pixman_image_t *mask, int size, double cx, double cy, rect clip) {
    int x = (int)lround(cx - size / 2.0), y = (int)lround(cy - size / 2.0);
    int x0 = x > clip.x ? x : clip.x, y0 = y > clip.y ? y : clip.y;
    int x1 = x + size < clip.x + clip.w ? x + size : clip.x + clip.w, y1 = y + size < clip.y + clip.h ? y + size : clip.y + clip.h;
    if (x1 > x0 && y1 > y0)
        pixman_image_composite32(PIXMAN_OP_OVER, paint, mask, p_canvas, 0, 0, x0 - x, y0 - y, x0, y0, x1 - x0, y1 - y0);
}

__attribute__((noinline)) void compare_frame_pixman(int n) {
    double x, y, size, opacity;
    position(n, moving, &x, &y);
    halo_at(n, &size, &opacity);
    int k = n % CYCLE;
    rect dot = dot_box(x, y, HALO_R * size), damage = rect_union(last_dot, dot);
    pixman_image_composite32(PIXMAN_OP_SRC, p_map, NULL, p_canvas, damage.x, damage.y, 0, 0, damage.x, damage.y, damage.w, damage.h);
    if (opacity > 0 && halo_size[k] > 0) composite_mask(p_halo_paint[k], p_halo[k], halo_size[k], x, y, damage);
    int ss = pixman_image_get_width(p_shadow), rs = pixman_image_get_width(p_ring), ds = pixman_image_get_width(p_dot);
    composite_mask(p_black, p_shadow, ss, x, y + SHADOW_DY, damage);
    composite_mask(p_white, p_ring, rs, x, y, damage);
    composite_mask(p_blue, p_dot, ds, x, y, damage);
    rect out = rect_union(damage, last_damage);
    pixman_image_composite32(PIXMAN_OP_SRC, p_canvas, NULL, p_target[n & 1], out.x, out.y, 0, 0, out.x, out.y, out.w, out.h);
    last_dot = dot;
    last_damage = damage;
}

__attribute__((noinline)) void compare_frame_cairo(int n) {
    double x, y, size, opacity;
    position(n, moving, &x, &y);
    halo_at(n, &size, &opacity);
    rect dot = dot_box(x, y, HALO_R * size), damage = rect_union(last_dot, dot);
    cairo_t *c = c_draw;
    cairo_save(c);
    cairo_rectangle(c, damage.x, damage.y, damage.w, damage.h);
    cairo_clip(c);
    cairo_set_source_surface(c, c_map, 0, 0);
    cairo_set_operator(c, CAIRO_OPERATOR_SOURCE);
    cairo_paint(c);
    cairo_set_operator(c, CAIRO_OPERATOR_OVER);
    if (opacity > 0 && size > 0) {
        cairo_arc(c, x, y, HALO_R * size, 0, 2 * M_PI);
        cairo_set_source_rgba(c, 0, 0.478, 1, opacity);
        cairo_fill(c);
    }
    int ss = cairo_image_surface_get_width(c_shadow);
    cairo_set_source_rgba(c, 0, 0, 0, SHADOW_A);
    cairo_mask_surface(c, c_shadow, x - ss / 2.0, y + SHADOW_DY - ss / 2.0);
    cairo_arc(c, x, y, RING_R, 0, 2 * M_PI);
    cairo_set_source_rgb(c, 1, 1, 1);
    cairo_fill(c);
    cairo_arc(c, x, y, DOT_R, 0, 2 * M_PI);
    cairo_set_source_rgb(c, 0, 0.478, 1);
    cairo_fill(c);
    cairo_restore(c);
    rect out = rect_union(damage, last_damage);
    cairo_t *o = c_copy[n & 1];
    cairo_save(o);
    cairo_rectangle(o, out.x, out.y, out.w, out.h);
    cairo_clip(o);
    cairo_paint(o);
    cairo_restore(o);
    last_dot = dot;
    last_damage = damage;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: dotcompare pixman|cairo FRAMES [moving|static] [xrgb8888|rgb565]\n");
        return 2;
    }
    int use_pixman = strcmp(argv[1], "pixman") == 0, frames = atoi(argv[2]);
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "static") == 0) moving = 0;
        if (strcmp(argv[i], "rgb565") == 0) rgb565 = 1;
    }
    int tbpp = rgb565 ? 2 : 4;
    map_bits = malloc((size_t)W * H * 4);
    canvas_bits = malloc((size_t)W * H * 4);
    make_map(map_bits);
    for (int i = 0; i < 2; i++) target_bits[i] = calloc((size_t)W * H, (size_t)tbpp);
    last_dot = (rect){0, 0, W, H}; /* the first frame is drawn whole */
    last_damage = last_dot;
    if (use_pixman) {
        p_map = pixman_image_create_bits(PIXMAN_x8r8g8b8, W, H, map_bits, W * 4);
        p_canvas = pixman_image_create_bits(PIXMAN_x8r8g8b8, W, H, canvas_bits, W * 4);
        for (int i = 0; i < 2; i++)
            p_target[i] = pixman_image_create_bits(rgb565 ? PIXMAN_r5g6b5 : PIXMAN_x8r8g8b8, W, H, target_bits[i], W * tbpp);
        for (int k = 0; k < CYCLE; k++) {
            double size, opacity;
            halo_at(k, &size, &opacity);
            double r = HALO_R * size;
            halo_size[k] = 2 * (int)ceil(r) + 2;
            p_halo[k] = as_pixman(disc_mask(r, halo_size[k]));
            p_halo_paint[k] = solid(0, 0.478, 1, opacity);
        }
        cairo_surface_t *shadow = shadow_mask();
        p_shadow = as_pixman(shadow);
        p_ring = as_pixman(disc_mask(RING_R, 2 * (int)RING_R + 2));
        p_dot = as_pixman(disc_mask(DOT_R, 2 * (int)DOT_R + 2));
        p_black = solid(0, 0, 0, SHADOW_A);
        p_white = solid(1, 1, 1, 1);
        p_blue = solid(0, 0.478, 1, 1);
        for (int n = 0; n < frames; n++) compare_frame_pixman(n);
    } else {
        c_map = cairo_image_surface_create_for_data((unsigned char *)map_bits, CAIRO_FORMAT_RGB24, W, H, W * 4);
        c_canvas = cairo_image_surface_create_for_data((unsigned char *)canvas_bits, CAIRO_FORMAT_RGB24, W, H, W * 4);
        c_draw = cairo_create(c_canvas);
        c_shadow = shadow_mask();
        for (int i = 0; i < 2; i++) {
            c_target[i] = cairo_image_surface_create_for_data(target_bits[i], rgb565 ? CAIRO_FORMAT_RGB16_565 : CAIRO_FORMAT_RGB24,
                                                              W, H, W * tbpp);
            c_copy[i] = cairo_create(c_target[i]);
            cairo_set_source_surface(c_copy[i], c_canvas, 0, 0);
            cairo_set_operator(c_copy[i], CAIRO_OPERATOR_SOURCE);
        }
        for (int n = 0; n < frames; n++) compare_frame_cairo(n);
        cairo_surface_flush(c_target[(frames - 1) & 1]);
    }
    if (getenv("DOTCOMPARE_PNG")) {
        /* The canvas after the last frame, to look at. */
        cairo_surface_t *s = cairo_image_surface_create_for_data((unsigned char *)canvas_bits, CAIRO_FORMAT_RGB24, W, H, W * 4);
        cairo_surface_write_to_png(s, getenv("DOTCOMPARE_PNG"));
    }
    /* What the last frame left on screen, so that no frame's work can be optimised away. */
    uint64_t h = 0xcbf29ce484222325ull;
    const unsigned char *t = target_bits[(frames - 1) & 1];
    for (size_t i = 0; i < (size_t)W * H * tbpp; i += 61) h = (h ^ t[i]) * 0x100000001b3ull;
    printf("dotcompare %s %d frames (%s, %s): %016llx\n", argv[1], frames, moving ? "moving" : "static",
           rgb565 ? "rgb565" : "xrgb8888", (unsigned long long)h);
    return 0;
}
