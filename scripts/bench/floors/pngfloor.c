/*
 * pngfloor: the physical floor of a PNG pixel diff on this machine.
 * (The team's benchmark anchor, kept here so that scripts/bench.sh runs from a clone alone.)
 *
 * Reads two PNG files into memory, decodes each with libpng (low-level API)
 * to RGBA8, then does a trivial exact compare (memcmp + per-pixel uint32
 * mismatch count). File read, decode and compare are timed separately,
 * each repeated --runs times; medians (and minimums) are printed.
 * The two decodes are timed one after the other (single core) and again
 * concurrently on two threads (what a 2-core engine can reach: odiff does this).
 *
 * Build:  cc -O2 -o pngfloor pngfloor.c -lpng -lz   (add -pthread on glibc < 2.34)
 * Usage:  pngfloor [--runs N] [--no-crc] [--kv] a.png b.png
 *   --runs N   repetitions of each phase (default 5); medians reported
 *   --no-crc   skip chunk CRC and zlib Adler-32 verification
 *              (png_set_crc_action QUIET_USE + PNG_IGNORE_ADLER32),
 *              i.e. what a decoder may legitimately skip for trusted input
 *   --kv       print one machine-readable key=value line only
 *   --once     no timing: read, decode both on 2 threads, exact compare, print
 *              "mismatched=N" (the whole-process floor of a CLI diff tool)
 *
 * Exit code: 0 if the decoded pixels are identical, 1 if they differ,
 * 2 on error (size mismatch counts as "differ" with every pixel counted).
 */
#define _POSIX_C_SOURCE 199309L
#include <png.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t pos;
} mem_reader;

typedef struct {
    uint32_t w, h;
    unsigned char *rgba; /* w*h*4 bytes */
} image;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double minimum(const double *v, int n) {
    double m = v[0];
    for (int i = 1; i < n; i++)
        if (v[i] < m) m = v[i];
    return m;
}

static unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return NULL; }
    if (fseek(f, 0, SEEK_END) != 0) { fclose(f); return NULL; }
    long n = ftell(f);
    rewind(f);
    unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "%s: read failed\n", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static void mem_read_fn(png_structp png, png_bytep out, png_size_t len) {
    mem_reader *r = png_get_io_ptr(png);
    if (r->pos + len > r->size) png_error(png, "read past end of PNG data");
    memcpy(out, r->data + r->pos, len);
    r->pos += len;
}

/* Decode PNG bytes to RGBA8. Returns 0 on success. */
static int decode_png(const unsigned char *data, size_t size, int no_crc, image *out) {
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        fprintf(stderr, "not a PNG file\n");
        return -1;
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    if (!info) { png_destroy_read_struct(&png, NULL, NULL); return -1; }
    png_bytep *rows = NULL;
    out->rgba = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        free(out->rgba);
        out->rgba = NULL;
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    mem_reader reader = {data, size, 0};
    png_set_read_fn(png, &reader, mem_read_fn);
    if (no_crc) {
        png_set_crc_action(png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
#ifdef PNG_IGNORE_ADLER32
        png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    }
    /* screenshots can be large: lift libpng's default 1M x 1M guard only as needed */
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    png_read_info(png, info);

    png_uint_32 w, h;
    int bit_depth, color_type;
    png_get_IHDR(png, info, &w, &h, &bit_depth, &color_type, NULL, NULL, NULL);

    /* normalise every PNG flavour to 8-bit RGBA (non-premultiplied, no gamma) */
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_strip_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(png);
    (void)passes;
    png_read_update_info(png, info);

    size_t rowbytes = png_get_rowbytes(png, info);
    if (rowbytes != (size_t)w * 4) png_error(png, "unexpected row size after transforms");
    out->w = w;
    out->h = h;
    out->rgba = malloc((size_t)w * h * 4);
    rows = malloc(sizeof(png_bytep) * h);
    if (!out->rgba || !rows) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < h; y++) rows[y] = out->rgba + (size_t)y * rowbytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

typedef struct {
    const unsigned char *data;
    size_t size;
    int no_crc;
    image img;
    int rc;
} decode_job;

static void *decode_thread(void *arg) {
    decode_job *j = arg;
    j->rc = decode_png(j->data, j->size, j->no_crc, &j->img);
    return NULL;
}

/* decode both buffers concurrently (b on a second thread); returns wall ms.
 * If keep_a/keep_b are given the decoded images are handed back, else freed. */
static double decode_parallel(const unsigned char *fa, size_t sa, const unsigned char *fb, size_t sb, int no_crc,
                              image *keep_a, image *keep_b) {
    decode_job ja = {fa, sa, no_crc, {0}, -1}, jb = {fb, sb, no_crc, {0}, -1};
    pthread_t t;
    double t0 = now_ms();
    if (pthread_create(&t, NULL, decode_thread, &jb) != 0) return -1;
    decode_thread(&ja);
    pthread_join(t, NULL);
    double t1 = now_ms();
    if (keep_a && keep_b) {
        *keep_a = ja.img;
        *keep_b = jb.img;
    } else {
        free(ja.img.rgba);
        free(jb.img.rgba);
    }
    return (ja.rc || jb.rc) ? -1 : t1 - t0;
}

/* exact per-pixel mismatch count (any of R,G,B,A differs) */
static uint64_t count_mismatch(const image *a, const image *b) {
    size_t n = (size_t)a->w * a->h;
    const uint32_t *pa = (const uint32_t *)a->rgba;
    const uint32_t *pb = (const uint32_t *)b->rgba;
    uint64_t diff = 0;
    for (size_t i = 0; i < n; i++) diff += pa[i] != pb[i];
    return diff;
}

int main(int argc, char **argv) {
    int runs = 5, no_crc = 0, kv = 0, once = 0;
    const char *pa = NULL, *pb = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-crc")) no_crc = 1;
        else if (!strcmp(argv[i], "--kv")) kv = 1;
        else if (!strcmp(argv[i], "--once")) once = 1;
        else if (!pa) pa = argv[i];
        else if (!pb) pb = argv[i];
        else { fprintf(stderr, "too many arguments\n"); return 2; }
    }
    if (!pa || !pb || runs < 1) {
        fprintf(stderr, "usage: %s [--runs N] [--no-crc] [--kv] [--once] a.png b.png\n", argv[0]);
        return 2;
    }

    if (once) {
        /* the minimal engine: read, decode a and b on two threads, exact compare, exit */
        size_t sa = 0, sb = 0;
        unsigned char *fa = read_file(pa, &sa), *fb = read_file(pb, &sb);
        if (!fa || !fb) return 2;
        image A = {0}, B = {0};
        if (decode_parallel(fa, sa, fb, sb, no_crc, &A, &B) < 0) { fprintf(stderr, "decode failed\n"); return 2; }
        uint64_t n = (A.w == B.w && A.h == B.h)
                         ? (memcmp(A.rgba, B.rgba, (size_t)A.w * A.h * 4) ? count_mismatch(&A, &B) : 0)
                         : (uint64_t)(A.w > B.w ? A.w : B.w) * (A.h > B.h ? A.h : B.h);
        printf("mismatched=%llu\n", (unsigned long long)n);
        return n ? 1 : 0;
    }

    double *t_read = calloc(runs, sizeof(double));
    double *t_dec_a = calloc(runs, sizeof(double));
    double *t_dec_b = calloc(runs, sizeof(double));
    double *t_memcmp = calloc(runs, sizeof(double));
    double *t_count = calloc(runs, sizeof(double));
    double *t_par = calloc(runs, sizeof(double));
    size_t size_a = 0, size_b = 0;
    image A = {0}, B = {0};
    int same_size = 0, identical = 0;
    uint64_t mismatched = 0;

    for (int r = 0; r < runs; r++) {
        double t0 = now_ms();
        unsigned char *fa = read_file(pa, &size_a);
        unsigned char *fb = read_file(pb, &size_b);
        double t1 = now_ms();
        if (!fa || !fb) return 2;
        free(A.rgba);
        free(B.rgba);
        A.rgba = B.rgba = NULL;
        if (decode_png(fa, size_a, no_crc, &A) != 0) { fprintf(stderr, "%s: decode failed\n", pa); return 2; }
        double t2 = now_ms();
        if (decode_png(fb, size_b, no_crc, &B) != 0) { fprintf(stderr, "%s: decode failed\n", pb); return 2; }
        double t3 = now_ms();
        t_par[r] = decode_parallel(fa, size_a, fb, size_b, no_crc, NULL, NULL);
        free(fa);
        free(fb);

        same_size = A.w == B.w && A.h == B.h;
        double t4 = now_ms();
        identical = same_size && memcmp(A.rgba, B.rgba, (size_t)A.w * A.h * 4) == 0;
        double t5 = now_ms();
        if (same_size) mismatched = identical ? 0 : count_mismatch(&A, &B);
        else mismatched = (uint64_t)(A.w > B.w ? A.w : B.w) * (A.h > B.h ? A.h : B.h);
        double t6 = now_ms();

        t_read[r] = t1 - t0;
        t_dec_a[r] = t2 - t1;
        t_dec_b[r] = t3 - t2;
        t_memcmp[r] = t5 - t4;
        t_count[r] = t6 - t5;
    }

    double dec_both[runs];
    for (int r = 0; r < runs; r++) dec_both[r] = t_dec_a[r] + t_dec_b[r];
    double dec_min = minimum(dec_both, runs);
    double m_read = median(t_read, runs), m_a = median(t_dec_a, runs), m_b = median(t_dec_b, runs);
    double m_dec = median(dec_both, runs), m_memcmp = median(t_memcmp, runs), m_count = median(t_count, runs);
    double m_par = median(t_par, runs);
    double rgba_mb = ((double)A.w * A.h * 4 + (double)B.w * B.h * 4) / 1e6;
    double mbps = rgba_mb / (m_dec / 1e3);
    double mpix_s = ((double)A.w * A.h + (double)B.w * B.h) / 1e6 / (m_dec / 1e3);

    if (kv) {
        printf("w=%u h=%u png_bytes_a=%zu png_bytes_b=%zu runs=%d crc=%s read_ms=%.3f "
               "decode_a_ms=%.3f decode_b_ms=%.3f decode_ms=%.3f decode_min_ms=%.3f decode_2threads_ms=%.3f "
               "memcmp_ms=%.3f count_ms=%.3f decoded_MBps=%.1f Mpix_per_s=%.1f "
               "identical=%d mismatched=%llu\n",
               A.w, A.h, size_a, size_b, runs, no_crc ? "off" : "on", m_read, m_a, m_b, m_dec,
               dec_min, m_par, m_memcmp, m_count, mbps, mpix_s, identical, (unsigned long long)mismatched);
    } else {
        printf("a: %s (%ux%u, %zu bytes PNG)\n", pa, A.w, A.h, size_a);
        printf("b: %s (%ux%u, %zu bytes PNG)\n", pb, B.w, B.h, size_b);
        printf("runs=%d (medians), CRC/Adler checks %s\n", runs, no_crc ? "off" : "on");
        printf("  file read (both)   %9.3f ms\n", m_read);
        printf("  decode a           %9.3f ms\n", m_a);
        printf("  decode b           %9.3f ms\n", m_b);
        printf("  decode both        %9.3f ms (min %.3f)  -> %.1f MB/s decoded RGBA, %.1f Mpixel/s\n",
               m_dec, dec_min, mbps, mpix_s);
        printf("  decode both, 2 thr %9.3f ms (wall, a and b concurrently)\n", m_par);
        printf("  memcmp             %9.3f ms\n", m_memcmp);
        printf("  mismatch count     %9.3f ms\n", m_count);
        printf("identical=%d mismatched=%llu\n", identical, (unsigned long long)mismatched);
    }
    free(A.rgba);
    free(B.rgba);
    return identical ? 0 : 1;
}
