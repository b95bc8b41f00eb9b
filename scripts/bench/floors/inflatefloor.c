/*
 * inflatefloor: how fast two PNGs' image data can be inflated, and nothing else.
 *
 * A lower bound for snapdiff `compare` that no PNG decoder can beat: for each of the two files
 * (on two threads, as snapdiff decodes them), read the file, join its IDAT chunks and inflate
 * the zlib stream into a buffer of the size the header implies, in one call; then memcmp the two
 * inflated streams. No CRC or Adler-32 check, no unfiltering, no RGBA expansion, no diff: every
 * real decoder does more. Non-interlaced images only (screenshots).
 *
 * Written for snapdiff's benchmark (scripts/bench.sh), beside pngfloor (the libpng decode floor).
 *
 * Build:  cc -O2 -o inflatefloor inflatefloor.c -ldeflate -lz -pthread   (Debian: libdeflate-dev)
 * Usage:  inflatefloor [--zlib] a.png b.png
 *           prints "same-inflated-bytes=0|1"; exit 0 when equal, 1 when not, 2 on an error
 *           --zlib   inflate with zlib's uncompress() instead of libdeflate (what most decoders use)
 */
#include <libdeflate.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct {
  const char *path;
  int use_zlib;
  uint8_t *inflated;
  size_t inflated_size;
  const char *error;
} inflate_job;

static uint32_t read_be32(const uint8_t *bytes) {
  return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

static uint8_t *read_file(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file) return NULL;
  uint8_t *bytes = NULL;
  if (fseek(file, 0, SEEK_END) == 0) {
    long length = ftell(file);
    if (length > 0 && fseek(file, 0, SEEK_SET) == 0 && (bytes = malloc((size_t)length))) {
      if (fread(bytes, 1, (size_t)length, file) == (size_t)length) {
        *size = (size_t)length;
      } else {
        free(bytes);
        bytes = NULL;
      }
    }
  }
  fclose(file);
  return bytes;
}

/* Bytes per pixel (rounded up) times width, for the colour types and depths of PNG. */
static size_t row_bytes(uint32_t width, int depth, int color_type) {
  int channels = color_type == 0 ? 1 : color_type == 2 ? 3 : color_type == 3 ? 1 : color_type == 4 ? 2 : 4;
  return ((size_t)width * (size_t)channels * (size_t)depth + 7) / 8;
}

static void *inflate_one(void *argument) {
  inflate_job *job = argument;
  size_t size = 0;
  uint8_t *file = read_file(job->path, &size);
  if (!file) { job->error = "cannot read the file"; return NULL; }
  if (size < 33 || memcmp(file, "\x89PNG\r\n\x1a\n", 8) != 0 || memcmp(file + 12, "IHDR", 4) != 0) {
    job->error = "not a PNG";
    free(file);
    return NULL;
  }
  uint32_t width = read_be32(file + 16), height = read_be32(file + 20);
  int depth = file[24], color_type = file[25], interlace = file[28];
  if (interlace != 0) { job->error = "interlaced (not measured)"; free(file); return NULL; }
  job->inflated_size = (size_t)height * (1 + row_bytes(width, depth, color_type));

  /* Join the IDAT chunks' data. */
  uint8_t *stream = malloc(size);
  size_t stream_size = 0;
  if (!stream) { job->error = "out of memory"; free(file); return NULL; }
  for (size_t at = 8; at + 12 <= size;) {
    uint32_t length = read_be32(file + at);
    if (length > size - at - 12) break;
    if (memcmp(file + at + 4, "IDAT", 4) == 0) {
      memcpy(stream + stream_size, file + at + 8, length);
      stream_size += length;
    }
    at += 12 + (size_t)length;
  }
  free(file);
  job->inflated = malloc(job->inflated_size ? job->inflated_size : 1);
  if (!job->inflated) { job->error = "out of memory"; free(stream); return NULL; }

  if (job->use_zlib) {
    uLongf produced = (uLongf)job->inflated_size;
    if (uncompress(job->inflated, &produced, stream, (uLong)stream_size) != Z_OK || produced != job->inflated_size)
      job->error = "zlib could not inflate the image data";
  } else {
    struct libdeflate_decompressor *decompressor = libdeflate_alloc_decompressor();
    size_t produced = 0;
    if (!decompressor ||
        libdeflate_zlib_decompress(decompressor, stream, stream_size, job->inflated, job->inflated_size, &produced) !=
          LIBDEFLATE_SUCCESS ||
        produced != job->inflated_size)
      job->error = "libdeflate could not inflate the image data";
    if (decompressor) libdeflate_free_decompressor(decompressor);
  }
  free(stream);
  return NULL;
}

int main(int argc, char **argv) {
  int use_zlib = argc > 1 && strcmp(argv[1], "--zlib") == 0;
  if (argc != 3 + use_zlib) {
    fprintf(stderr, "usage: inflatefloor [--zlib] a.png b.png\n");
    return 2;
  }
  inflate_job jobs[2] = {{argv[1 + use_zlib], use_zlib, NULL, 0, NULL}, {argv[2 + use_zlib], use_zlib, NULL, 0, NULL}};
  pthread_t second;
  if (pthread_create(&second, NULL, inflate_one, &jobs[1]) != 0) return 2;
  inflate_one(&jobs[0]);
  pthread_join(second, NULL);
  for (int i = 0; i < 2; i++) {
    if (jobs[i].error) {
      fprintf(stderr, "inflatefloor: %s: %s\n", jobs[i].path, jobs[i].error);
      return 2;
    }
  }
  int same = jobs[0].inflated_size == jobs[1].inflated_size &&
             memcmp(jobs[0].inflated, jobs[1].inflated, jobs[0].inflated_size) == 0;
  printf("same-inflated-bytes=%d\n", same);
  free(jobs[0].inflated);
  free(jobs[1].inflated);
  return same ? 0 : 1;
}
