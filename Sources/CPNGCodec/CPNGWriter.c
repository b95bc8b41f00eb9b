#include "CPNGWriter.h"

#include "CPNGFastDecode.h"
#include "CPNGReader.h"
#include "CPNGFilters.h"
#include "CRunDeflate.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define ZLIB_CONST
#include <zlib.h>

#if defined(CPNG_HAVE_LIBDEFLATE)
#include <libdeflate.h>
#else
#include <png.h> /* its version, for cpng_compact_writer */
#endif

/*
 * The file is written here, chunk by chunk (libpng's writer adds a row copy and a per-row
 * palette check, and cannot compress on two threads). The image's rows are cut in two halves,
 * each palette-mapped and deflated on its own thread (pigz's way: the first half's raw deflate
 * stream ends with a sync flush, at a byte boundary, and the second half's stream follows it),
 * so the result is one ordinary zlib stream with one Adler-32 (combined from the halves').
 * Palette scanlines are deflated by CRunDeflate.c (whose matches may reach back across the cut:
 * the bytes are there when the stream is read), RGB and RGBA rows by zlib, neither of which
 * would refer back across it. That is the fast writer (diff images). The compact writer
 * (baselines, rendered screens; with libdeflate only) picks the format the same way, filters
 * each RGB or RGBA row with libpng's heuristic (CPNGFilters.c) and deflates the whole image with
 * libdeflate at level 6, in one call on one thread.
 */

/* ---------------------------------------------------------------------------------------------
 * Palette
 * ------------------------------------------------------------------------------------------- */

typedef struct {
  uint32_t colors[256]; /* RGBA pixels as 32-bit words, in order of first appearance */
  int count;
} palette;

#define TABLE_SIZE 1024 /* a power of two, at least 2 x 256 */

static inline uint32_t table_slot(uint32_t color) {
  return (color * 0x9E3779B1u) >> 22; /* 10 bits */
}

/*
 * Maps rows [first, last) to palette indexes, written as PNG scanlines (a 0 filter byte, then
 * one index a pixel) at `lines` + y * (width + 1). 0 when they hold more than 256 colours.
 * A run of one colour (most of a diff image) costs one compare a pixel.
 */
static int map_rows(const uint8_t *rgba, uint32_t width, uint32_t first, uint32_t last,
                    uint8_t *lines, palette *pal) {
  uint32_t keys[TABLE_SIZE];
  int16_t values[TABLE_SIZE];
  memset(values, -1, sizeof values);
  pal->count = 0;
  uint32_t previous = 0;
  int previous_index = -1;
  for (uint32_t y = first; y < last; y++) {
    const uint8_t *source = rgba + (size_t)y * width * 4;
    uint8_t *line = lines + (size_t)y * (width + 1);
    *line++ = 0;
    for (uint32_t x = 0; x < width; x++) {
      uint32_t color;
      memcpy(&color, source + (size_t)x * 4, 4);
      if (color == previous && previous_index >= 0) {
        line[x] = (uint8_t)previous_index;
        continue;
      }
      uint32_t slot = table_slot(color);
      while (values[slot] >= 0 && keys[slot] != color) slot = (slot + 1) & (TABLE_SIZE - 1);
      if (values[slot] < 0) {
        if (pal->count == 256) return 0;
        keys[slot] = color;
        values[slot] = (int16_t)pal->count;
        pal->colors[pal->count++] = color;
      }
      previous = color;
      previous_index = values[slot];
      line[x] = (uint8_t)previous_index;
    }
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------------
 * One half: palette mapping (when asked), then raw deflate of its scanlines
 * ------------------------------------------------------------------------------------------- */

enum { FORMAT_PALETTE, FORMAT_RGB, FORMAT_RGBA };

typedef struct {
  /* input */
  const uint8_t *rgba;
  uint32_t width, first, last;
  int format;
  uint8_t *lines; /* palette scanlines for the whole image (FORMAT_PALETTE; only read
                   * when deflating) */
  int final;      /* the last half: the stream ends with it, else a sync flush */
  /* output */
  palette pal;
  int mapped;     /* FORMAT_PALETTE: the half fits in 256 colours */
  uint8_t *deflated;
  size_t deflated_size;
  uint32_t adler;
  size_t raw_size;
  int failed;     /* out of memory or a zlib error */
} half_job;

static int deflate_all(z_stream *zs, const uint8_t *data, size_t size, int flush) {
  zs->next_in = data;
  zs->avail_in = (uInt)size;
  while (1) {
    int status = deflate(zs, flush);
    if (status == Z_STREAM_END) return 1;
    if (status != Z_OK && status != Z_BUF_ERROR) return 0;
    if (zs->avail_in == 0 && zs->avail_out > 0) return 1;
    if (zs->avail_out == 0) return 0; /* the bound was wrong: cannot happen */
  }
}

static void run_half_deflate(half_job *job) {
  const uint32_t width = job->width;
  const size_t channels = job->format == FORMAT_RGB ? 3 : job->format == FORMAT_RGBA ? 4 : 1;
  const size_t line_size = (size_t)width * channels + 1;
  const uint32_t rows = job->last - job->first;
  job->raw_size = line_size * rows;

  if (job->format == FORMAT_PALETTE) {
    /* Palette scanlines (diff images): runs and rows like the one above, CRunDeflate.c. */
    const size_t history = (size_t)job->first * line_size;
    const uint8_t *data = job->lines + history;
    size_t bound = run_deflate_bound(job->raw_size);
    job->deflated = malloc(bound);
    if (!job->deflated) {
      job->failed = 1;
      return;
    }
    job->adler = cpng_adler32(1, data, job->raw_size);
    job->deflated_size = run_deflate(data, job->raw_size, history, line_size, job->final, job->deflated, bound);
    if (job->deflated_size == 0) job->failed = 1;
    return;
  }

  z_stream zs;
  memset(&zs, 0, sizeof zs);
  /* RGB and RGBA: zlib at level 1, no filters (a diff image that needs more than 256 colours
   * is written to be looked at once, not archived). */
  if (deflateInit2(&zs, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    job->failed = 1;
    return;
  }
  size_t bound = deflateBound(&zs, (uLong)job->raw_size) + 64;
  job->deflated = malloc(bound);
  uint8_t *line = malloc(line_size);
  if (!job->deflated || !line) {
    free(line);
    deflateEnd(&zs);
    job->failed = 1;
    return;
  }
  zs.next_out = job->deflated;
  zs.avail_out = (uInt)bound;
  int flush_at_end = job->final ? Z_FINISH : Z_SYNC_FLUSH;
  uint32_t adler = 1;
  int ok = 1;
  line[0] = 0;
  for (uint32_t y = job->first; ok && y < job->last; y++) {
    const uint8_t *source = job->rgba + (size_t)y * width * 4;
    if (job->format == FORMAT_RGBA) {
      memcpy(line + 1, source, (size_t)width * 4);
    } else {
      uint8_t *out = line + 1;
      for (uint32_t x = 0; x < width; x++, source += 4, out += 3) {
        out[0] = source[0];
        out[1] = source[1];
        out[2] = source[2];
      }
    }
    adler = cpng_adler32(adler, line, line_size);
    ok = deflate_all(&zs, line, line_size, y + 1 == job->last ? flush_at_end : Z_NO_FLUSH);
  }
  job->deflated_size = bound - zs.avail_out;
  job->adler = adler;
  if (!ok) job->failed = 1;
  free(line);
  deflateEnd(&zs);
}

static void *run_half_mapping(void *argument) {
  half_job *job = argument;
  job->mapped = map_rows(job->rgba, job->width, job->first, job->last, job->lines, &job->pal);
  return NULL;
}

static void *run_half_deflating(void *argument) {
  run_half_deflate(argument);
  return NULL;
}

/* Runs `body(second)` on a new thread and `body(first)` here; without a thread, both here. */
static void run_both(void *(*body)(void *), half_job *first, half_job *second) {
  if (!second) {
    body(first);
    return;
  }
  pthread_t thread;
  if (pthread_create(&thread, NULL, body, second) != 0) {
    body(first);
    body(second);
    return;
  }
  body(first);
  pthread_join(thread, NULL);
}

/* ---------------------------------------------------------------------------------------------
 * The file
 * ------------------------------------------------------------------------------------------- */

typedef struct {
  uint8_t *bytes;
  size_t size, capacity;
} buffer;

static void put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

/* Appends a chunk whose data is the concatenation of up to three parts. */
static void put_chunk(buffer *out, const char *type, const uint8_t *a, size_t a_size,
                      const uint8_t *b, size_t b_size, const uint8_t *c, size_t c_size) {
  uint8_t *p = out->bytes + out->size;
  put32(p, (uint32_t)(a_size + b_size + c_size));
  memcpy(p + 4, type, 4);
  uint32_t crc = cpng_crc32(0, p + 4, 4);
  p += 8;
  const uint8_t *parts[3] = {a, b, c};
  const size_t sizes[3] = {a_size, b_size, c_size};
  for (int i = 0; i < 3; i++) {
    if (sizes[i] == 0) continue;
    memcpy(p, parts[i], sizes[i]);
    crc = cpng_crc32(crc, p, sizes[i]);
    p += sizes[i];
  }
  put32(p, crc);
  out->size += 12 + a_size + b_size + c_size;
}

static void fail(cpng_encoded *out, const char *message) {
  strncpy(out->message, message, sizeof out->message - 1);
  out->message[sizeof out->message - 1] = 0;
}

static int all_opaque(const uint8_t *rgba, size_t pixels) {
  for (size_t i = 0; i < pixels; i++)
    if (rgba[i * 4 + 3] != 0xff) return 0;
  return 1;
}

/* Checks the size a PNG can hold; 0 with `message` set when it cannot. */
static int check_size(uint32_t width, uint32_t height, cpng_encoded *out) {
  if (width == 0 || height == 0) {
    fail(out, "a PNG needs at least one pixel");
    return 0;
  }
  if (width > 0x7fffffffu || height > 0x7fffffffu ||
      (size_t)width * 4 + 1 > (size_t)UINT32_MAX / 2) {
    fail(out, "the image is too large for a PNG");
    return 0;
  }
  return 1;
}

/* Two halves when there is enough work for a second thread to pay for itself. */
#ifndef CPNG_PARALLEL_MIN_PIXELS
#define CPNG_PARALLEL_MIN_PIXELS (1u << 18)
#endif
static int halves_for(uint32_t width, uint32_t height) {
  return (size_t)width * height >= CPNG_PARALLEL_MIN_PIXELS && height >= 2 ? 2 : 1;
}

/* Cuts the image's rows into the jobs of `halves_for` halves (the rest of each job zeroed):
 * the first half's rows [0, height / 2), the second's the rest. Returns the number of halves. */
static int split_rows(half_job jobs[2], const uint8_t *rgba, uint8_t *lines, uint32_t width,
                      uint32_t height) {
  memset(jobs, 0, 2 * sizeof *jobs);
  int halves = halves_for(width, height);
  uint32_t cut = halves == 2 ? height / 2 : height;
  for (int i = 0; i < halves; i++) {
    jobs[i].rgba = rgba;
    jobs[i].lines = lines;
    jobs[i].width = width;
    jobs[i].first = i == 0 ? 0 : cut;
    jobs[i].last = i == 0 ? cut : height;
  }
  return halves;
}

/*
 * Writes the file: signature, IHDR, PLTE and tRNS for a palette, one IDAT whose data is the
 * `count` parts in order (a whole zlib stream), IEND. 0 when out of memory or too large.
 */
static int write_file(const uint8_t *const parts[], const size_t sizes[], int count, int format,
                      const palette *pal, uint32_t width, uint32_t height, cpng_encoded *out) {
  size_t idat = 0;
  for (int i = 0; i < count; i++) idat += sizes[i];
  if (idat > 0x7fffffffu) return 0;
  buffer file = {NULL, 0, 8 + 25 + (12 + 768) + (12 + 256) + 12 + idat + 12};
  file.bytes = malloc(file.capacity);
  if (!file.bytes) return 0;
  static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  memcpy(file.bytes, signature, 8);
  file.size = 8;
  uint8_t header[13];
  put32(header, width);
  put32(header + 4, height);
  header[8] = 8;
  header[9] = format == FORMAT_PALETTE ? 3 : format == FORMAT_RGB ? 2 : 6;
  header[10] = header[11] = header[12] = 0;
  put_chunk(&file, "IHDR", header, 13, NULL, 0, NULL, 0);
  if (format == FORMAT_PALETTE) {
    uint8_t colors[768], alphas[256];
    int has_alpha = 0;
    for (int i = 0; i < pal->count; i++) {
      uint8_t rgba_bytes[4]; /* the colour as it was in memory: R, G, B, A on any host */
      memcpy(rgba_bytes, &pal->colors[i], 4);
      memcpy(colors + i * 3, rgba_bytes, 3);
      alphas[i] = rgba_bytes[3];
      if (alphas[i] != 0xff) has_alpha = 1;
    }
    put_chunk(&file, "PLTE", colors, (size_t)pal->count * 3, NULL, 0, NULL, 0);
    if (has_alpha) put_chunk(&file, "tRNS", alphas, (size_t)pal->count, NULL, 0, NULL, 0);
  }
  /* One IDAT: the parts in order (the CRC runs over them in order). */
  uint8_t *p = file.bytes + file.size;
  put32(p, (uint32_t)idat);
  memcpy(p + 4, "IDAT", 4);
  uint32_t crc = cpng_crc32(0, p + 4, 4);
  uint8_t *d = p + 8;
  for (int i = 0; i < count; i++) {
    if (sizes[i] == 0) continue;
    memcpy(d, parts[i], sizes[i]);
    d += sizes[i];
  }
  crc = cpng_crc32(crc, p + 8, idat);
  put32(p + 8 + idat, crc);
  file.size += 12 + idat;
  put_chunk(&file, "IEND", NULL, 0, NULL, 0, NULL, 0);
  out->bytes = file.bytes;
  out->size = file.size;
  out->color_type = header[9];
  return 1;
}

/*
 * Deflates the image in one or two halves, on two threads when it is large enough, and writes
 * the file. `lines` holds the palette scanlines (FORMAT_PALETTE), `rgba` the pixels
 * (FORMAT_RGB, FORMAT_RGBA).
 */
static int deflate_and_write(const uint8_t *rgba, const uint8_t *lines, int format,
                             const palette *pal, uint32_t width, uint32_t height,
                             cpng_encoded *out) {
  half_job jobs[2];
  int halves = split_rows(jobs, rgba, (uint8_t *)lines, width, height);
  for (int i = 0; i < halves; i++) jobs[i].final = i == halves - 1;
  half_job *second = halves == 2 ? &jobs[1] : NULL;
  for (int i = 0; i < halves; i++) jobs[i].format = format;
  run_both(run_half_deflating, &jobs[0], second);
  int written = !jobs[0].failed && !(halves == 2 && jobs[1].failed);
  if (written) {
    uint32_t adler = jobs[0].adler;
    if (halves == 2)
      adler = (uint32_t)adler32_combine(adler, jobs[1].adler, (z_off_t)jobs[1].raw_size);
    /* zlib header: deflate, 32 KiB window, "fastest" level; both halves; the trailer. */
    static const uint8_t zlib_header[2] = {0x78, 0x01};
    uint8_t trailer[4];
    put32(trailer, adler);
    const uint8_t *parts[4] = {zlib_header, jobs[0].deflated, halves == 2 ? jobs[1].deflated : NULL, trailer};
    const size_t sizes[4] = {2, jobs[0].deflated_size, halves == 2 ? jobs[1].deflated_size : 0, 4};
    written = write_file(parts, sizes, 4, format, pal, width, height, out);
  }
  for (int i = 0; i < halves; i++) free(jobs[i].deflated);
  if (!written) fail(out, "out of memory, or zlib failed, while encoding the PNG");
  return written;
}

/*
 * The image as palette scanlines (a 0 filter byte, then one index a pixel; malloc'd) with its
 * palette in `pal`, when it has at most 256 colours; else NULL (or out of memory). Each half
 * maps its rows on its own thread, then the second half's indexes are renumbered into the
 * first half's palette.
 */
static uint8_t *palette_lines(const uint8_t *rgba, uint32_t width, uint32_t height, palette *pal) {
  const size_t pixels = (size_t)width * height;
  half_job jobs[2];
  int halves = split_rows(jobs, rgba, NULL, width, height);
  half_job *second = halves == 2 ? &jobs[1] : NULL;
  uint8_t *lines = malloc(pixels + height);
  if (!lines) return NULL;
  cpng_advise_huge_pages(lines, pixels + height);
  for (int i = 0; i < halves; i++) jobs[i].lines = lines;
  run_both(run_half_mapping, &jobs[0], second);
  int fits = jobs[0].mapped && (halves == 1 || jobs[1].mapped);
  if (fits) {
    *pal = jobs[0].pal;
    if (halves == 2) {
      uint8_t renumber[256];
      int identity = 1;
      for (int k = 0; fits && k < jobs[1].pal.count; k++) {
        uint32_t color = jobs[1].pal.colors[k];
        int found = -1;
        for (int j = 0; j < pal->count; j++)
          if (pal->colors[j] == color) {
            found = j;
            break;
          }
        if (found < 0) {
          if (pal->count == 256) {
            fits = 0;
            break;
          }
          found = pal->count;
          pal->colors[pal->count++] = color;
        }
        renumber[k] = (uint8_t)found;
        if (found != k) identity = 0;
      }
      if (fits && !identity) {
        for (uint32_t y = jobs[1].first; y < height; y++) {
          uint8_t *line = lines + (size_t)y * (width + 1) + 1;
          for (uint32_t x = 0; x < width; x++) line[x] = renumber[line[x]];
        }
      }
    }
  }
  if (!fits) {
    free(lines);
    return NULL;
  }
  return lines;
}

/* The smallest format that holds `rgba` exactly: FORMAT_PALETTE, with its scanlines in *lines
 * (malloc'd) and its colours in `pal`, when it has at most 256 colours; else FORMAT_RGB when
 * every pixel is opaque, else FORMAT_RGBA (*lines NULL). */
static int smallest_format(const uint8_t *rgba, uint32_t width, uint32_t height, palette *pal, uint8_t **lines) {
  *lines = palette_lines(rgba, width, height, pal);
  if (*lines) return FORMAT_PALETTE;
  return all_opaque(rgba, (size_t)width * height) ? FORMAT_RGB : FORMAT_RGBA;
}

int cpng_encode_fast(const uint8_t *rgba, uint32_t width, uint32_t height, cpng_encoded *out) {
  memset(out, 0, sizeof *out);
  if (!check_size(width, height, out)) return 0;
  palette pal = {{0}, 0};
  uint8_t *lines;
  int format = smallest_format(rgba, width, height, &pal, &lines);
  int written = deflate_and_write(rgba, lines, format, &pal, width, height, out);
  free(lines);
  return written;
}

int cpng_encode_palette(const uint8_t *lines, const uint32_t *colors, int count, uint32_t width,
                        uint32_t height, cpng_encoded *out) {
  memset(out, 0, sizeof *out);
  if (!check_size(width, height, out)) return 0;
  if (!lines || !colors || count < 1 || count > 256) {
    fail(out, "a palette needs 1 to 256 colours");
    return 0;
  }
  palette pal;
  memcpy(pal.colors, colors, (size_t)count * sizeof *colors);
  pal.count = count;
  /* Every scanline must be what the file says: filter 0, then indexes inside the palette (a
   * decoder refuses an index past the palette's end, so the check is here, not there). */
  const size_t line_size = (size_t)width + 1;
  uint8_t highest = 0;
  for (uint32_t y = 0; y < height; y++) {
    const uint8_t *line = lines + (size_t)y * line_size;
    if (line[0] != 0) {
      fail(out, "a palette scanline must start with filter 0");
      return 0;
    }
    for (uint32_t x = 1; x <= width; x++) highest = line[x] > highest ? line[x] : highest;
  }
  if (highest >= count) {
    fail(out, "a palette index is past the palette's end");
    return 0;
  }
  return deflate_and_write(NULL, lines, FORMAT_PALETTE, &pal, width, height, out);
}

#if defined(CPNG_HAVE_LIBDEFLATE)

/* The compact writer's level: libdeflate's 6, as libpng's default is zlib's 6 (smaller files
 * than libpng's in about a quarter of its time: docs/performance.md). */
#define COMPACT_LEVEL 6

/* RGB or RGBA scanlines, each row with libpng's adaptive choice of filter (CPNGFilters.c). */
static uint8_t *filtered_lines(const uint8_t *rgba, uint32_t width, uint32_t height, int channels) {
  const size_t row_bytes = (size_t)width * channels, stride = row_bytes + 1;
  uint8_t *lines = malloc(stride * height);
  /* Two unfiltered rows with 16 zero bytes before and after each (CPNGFilters.h). */
  uint8_t *rows = calloc(2, row_bytes + 32);
  if (!lines || !rows) {
    free(lines);
    free(rows);
    return NULL;
  }
  cpng_advise_huge_pages(lines, stride * height);
  uint8_t *row = rows + 16, *prior = rows + row_bytes + 48;
  for (uint32_t y = 0; y < height; y++) {
    const uint8_t *source = rgba + (size_t)y * width * 4;
    if (channels == 4) {
      memcpy(row, source, row_bytes);
    } else {
      for (uint32_t x = 0; x < width; x++) memcpy(row + 3 * (size_t)x, source + 4 * (size_t)x, 3);
    }
    cpng_filter_row(row, prior, row_bytes, channels, lines + (size_t)y * stride);
    uint8_t *swap = prior;
    prior = row;
    row = swap;
  }
  free(rows);
  return lines;
}

int cpng_encode_compact(const uint8_t *rgba, uint32_t width, uint32_t height, cpng_encoded *out) {
  memset(out, 0, sizeof *out);
  if (!check_size(width, height, out)) return 0;
  palette pal = {{0}, 0};
  uint8_t *lines;
  int format = smallest_format(rgba, width, height, &pal, &lines);
  size_t size = ((size_t)width + 1) * height;
  if (format != FORMAT_PALETTE) {
    int channels = format == FORMAT_RGB ? 3 : 4;
    lines = filtered_lines(rgba, width, height, channels);
    size = ((size_t)width * channels + 1) * height;
  }
  struct libdeflate_compressor *compressor = lines ? libdeflate_alloc_compressor(COMPACT_LEVEL) : NULL;
  size_t bound = compressor ? libdeflate_zlib_compress_bound(compressor, size) : 0;
  uint8_t *deflated = compressor ? malloc(bound) : NULL;
  size_t deflated_size = deflated ? libdeflate_zlib_compress(compressor, lines, size, deflated, bound) : 0;
  int written = 0;
  if (deflated_size > 0) {
    const uint8_t *parts[1] = {deflated};
    const size_t sizes[1] = {deflated_size};
    written = write_file(parts, sizes, 1, format, &pal, width, height, out);
  }
  if (compressor) libdeflate_free_compressor(compressor);
  free(deflated);
  free(lines);
  if (!written) fail(out, "out of memory while encoding the PNG");
  return written;
}

int cpng_has_compact_writer(void) { return 1; }

const char *cpng_compact_writer(void) {
  return "libdeflate " LIBDEFLATE_VERSION_STRING " (level 6, libpng's choice of row filters)";
}

#else

int cpng_encode_compact(const uint8_t *rgba, uint32_t width, uint32_t height, cpng_encoded *out) {
  (void)rgba;
  (void)width;
  (void)height;
  memset(out, 0, sizeof *out);
  fail(out, "snapdiff was built without libdeflate: the compact writer is libpng's");
  return 0;
}

int cpng_has_compact_writer(void) { return 0; }

const char *cpng_compact_writer(void) {
  return "libpng " PNG_LIBPNG_VER_STRING " (zlib " ZLIB_VERSION ")";
}

#endif

void cpng_encoded_free(cpng_encoded *encoded) {
  if (!encoded) return;
  free(encoded->bytes);
  encoded->bytes = NULL;
  encoded->size = 0;
}
