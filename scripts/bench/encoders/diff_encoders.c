/*
 * diff_encoders: times the deflate encoders a diff image could be written with, on the palette
 * scanlines of one diff image (a file of `height` rows of `width + 1` bytes: a 0 filter byte,
 * then one palette index a pixel), each as the writer runs it: the rows cut in two halves,
 * the halves deflated one after the other on one thread here (so the time is the CPU the
 * writer spends on both of its threads), and each output inflated again with zlib and checked.
 *
 *   run-and-row    snapdiff's own (Sources/CDeflate/CRunDeflate.c)
 *   zlib level 1   what the writer used before (raw deflate, a sync flush after the first half)
 *   libdeflate 1/2 libdeflate's compressor, the whole image at once (it cannot end a part with a
 *                  sync flush, so it cannot be split across threads)
 *
 * Build (scripts/bench/diff_encoders.sh does it):
 *   cc -O2 -I Sources/CDeflate/include diff_encoders.c Sources/CDeflate/CRunDeflate.c -lz -ldeflate
 * Usage: diff_encoders LINES_FILE WIDTH [ROUNDS]
 * Prints one line an encoder: median and minimum milliseconds, and the deflated size in bytes.
 */
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "CRunDeflate.h"
#include "timing.h"

static size_t zlib_part(const unsigned char *in, size_t size, int final, unsigned char *out, size_t capacity) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
  z.next_in = (unsigned char *)in;
  z.avail_in = (uInt)size;
  z.next_out = out;
  z.avail_out = (uInt)capacity;
  int status = deflate(&z, final ? Z_FINISH : Z_SYNC_FLUSH);
  size_t written = capacity - z.avail_out;
  deflateEnd(&z);
  return (final ? status == Z_STREAM_END : status == Z_OK) ? written : 0;
}

enum { RUN_AND_ROW, ZLIB_1, LIBDEFLATE_1, LIBDEFLATE_2, ENCODERS };
static const char *names[ENCODERS] = {"run-and-row (snapdiff)", "zlib level 1", "libdeflate level 1",
                                      "libdeflate level 2"};

/* Deflates `in` with encoder `e` into `out`; the size, 0 on failure. */
static size_t encode(int e, const unsigned char *in, size_t size, size_t stride, unsigned char *out,
                     size_t capacity) {
  size_t cut = (size / stride / 2) * stride, first;
  switch (e) {
  case RUN_AND_ROW:
    first = run_deflate(in, cut, 0, stride, 0, out, capacity);
    return first ? first + run_deflate(in + cut, size - cut, cut, stride, 1, out + first, capacity - first) : 0;
  case ZLIB_1:
    first = zlib_part(in, cut, 0, out, capacity);
    return first ? first + zlib_part(in + cut, size - cut, 1, out + first, capacity - first) : 0;
  default: {
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(e == LIBDEFLATE_1 ? 1 : 2);
    size_t written = c ? libdeflate_deflate_compress(c, in, size, out, capacity) : 0;
    libdeflate_free_compressor(c);
    return written;
  }
  }
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: diff_encoders LINES_FILE WIDTH [ROUNDS]\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  fseek(f, 0, SEEK_END);
  size_t size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *in = malloc(size);
  if (!in || fread(in, 1, size, f) != size) return 2;
  fclose(f);
  size_t stride = (size_t)atol(argv[2]) + 1;
  int rounds = argc > 3 ? atoi(argv[3]) : 21;
  if (stride < 2 || size % stride != 0 || rounds < 1) {
    fprintf(stderr, "diff_encoders: %s is not rows of %zu bytes\n", argv[1], stride);
    return 2;
  }
  size_t capacity = size + size / 8 + 4096;
  unsigned char *out = malloc(capacity), *back = malloc(size + 1);
  double *times = malloc(sizeof(double) * (size_t)rounds);
  if (!out || !back || !times) return 2;
  for (int e = 0; e < ENCODERS; e++) {
    size_t written = 0;
    for (int r = 0; r < rounds; r++) {
      double start = now_ms();
      written = encode(e, in, size, stride, out, capacity);
      times[r] = now_ms() - start;
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    inflateInit2(&z, -15);
    z.next_in = out;
    z.avail_in = (uInt)written;
    z.next_out = back;
    z.avail_out = (uInt)size + 1;
    int status = inflate(&z, Z_FINISH);
    int exact = status == Z_STREAM_END && z.total_out == size && memcmp(back, in, size) == 0;
    inflateEnd(&z);
    qsort(times, (size_t)rounds, sizeof *times, by_value);
    printf("%-24s %7.2f ms median %7.2f ms min %9zu bytes%s\n", names[e], times[rounds / 2], times[0], written,
           exact ? "" : "  INFLATES WRONG");
    if (!exact) return 1;
  }
  return 0;
}
