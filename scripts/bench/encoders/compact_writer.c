/*
 * compact_writer: times the two writers `PNGEncoder(speed: .compact)` can use on one PNG's
 * pixels (read with libpng as RGBA): libpng's simplified writer (the default settings, always
 * RGBA; what snapdiff used before, and uses when built without libdeflate) and snapdiff's own
 * (`cpng_encode_compact`: palette, RGB or RGBA, libpng's filter heuristic, libdeflate level 6).
 * Each file written is read back with libpng and compared with the pixels.
 *
 * Build (scripts/bench/compact_writer.sh does it): cc -O2 -DCPNG_HAVE_LIBDEFLATE
 *   -I Sources/CPNGCodec -I Sources/CPNGCodec/include -I Sources/CDeflate/include
 *   -I Sources/CCPUFeatures/include compact_writer.c
 *   Sources/CPNGCodec/{CPNGWriter,CPNGFilters,CPNGFastDecode,CPNGReader}.c
 *   Sources/CDeflate/CRunDeflate.c Sources/CCPUFeatures/CCPUFeatures.c
 *   -lpng -lz -ldeflate -lpthread
 * Usage: compact_writer PNG [ROUNDS]
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CPNGWriter.h"
#include "timing.h"

/* The file's pixels as RGBA, or NULL. */
static unsigned char *read_rgba(const void *bytes, size_t size, const char *path, png_uint_32 *w, png_uint_32 *h) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  int ok = path ? png_image_begin_read_from_file(&image, path) : png_image_begin_read_from_memory(&image, bytes, size);
  if (!ok) return NULL;
  image.format = PNG_FORMAT_RGBA;
  unsigned char *pixels = malloc(PNG_IMAGE_SIZE(image));
  if (!pixels || !png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
    free(pixels);
    return NULL;
  }
  *w = image.width;
  *h = image.height;
  return pixels;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: compact_writer PNG [ROUNDS]\n");
    return 2;
  }
  int rounds = argc > 2 ? atoi(argv[2]) : 11;
  png_uint_32 width, height;
  unsigned char *pixels = read_rgba(NULL, 0, argv[1], &width, &height);
  if (!pixels || rounds < 1) {
    fprintf(stderr, "compact_writer: cannot read %s\n", argv[1]);
    return 2;
  }
  size_t raw = (size_t)width * height * 4;
  double *times = malloc(sizeof(double) * (size_t)rounds);
  for (int writer = 0; writer < 2; writer++) {
    void *file = NULL;
    size_t size = 0;
    const char *kind = "";
    for (int r = 0; r < rounds; r++) {
      free(file);
      double start = now_ms();
      if (writer == 0) {
        png_image image;
        memset(&image, 0, sizeof image);
        image.version = PNG_IMAGE_VERSION;
        image.width = width;
        image.height = height;
        image.format = PNG_FORMAT_RGBA;
        png_alloc_size_t capacity = PNG_IMAGE_PNG_SIZE_MAX(image);
        file = malloc(capacity);
        if (!png_image_write_to_memory(&image, file, &capacity, 0, pixels, 0, NULL)) return 1;
        size = capacity;
        kind = "RGBA";
      } else {
        cpng_encoded encoded;
        if (!cpng_encode_compact(pixels, width, height, &encoded)) {
          fprintf(stderr, "compact_writer: %s\n", encoded.message);
          return 1;
        }
        file = encoded.bytes;
        size = encoded.size;
        kind = encoded.color_type == 3 ? "palette" : encoded.color_type == 2 ? "RGB" : "RGBA";
      }
      times[r] = now_ms() - start;
    }
    png_uint_32 w, h;
    unsigned char *back = read_rgba(file, size, NULL, &w, &h);
    int exact = back && w == width && h == height && memcmp(back, pixels, raw) == 0;
    free(back);
    free(file);
    qsort(times, (size_t)rounds, sizeof *times, by_value);
    printf("%-28s %8.2f ms median %8.2f ms min %9zu bytes (%s)%s\n",
           writer == 0 ? "libpng simplified (before)" : "snapdiff compact (libdeflate)", times[rounds / 2], times[0],
           size, kind, exact ? "" : "  READS BACK WRONG");
    if (!exact) return 1;
  }
  return 0;
}
