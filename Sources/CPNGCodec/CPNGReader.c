#include "CPNGReader.h"

#include "CPNGFastDecode.h"

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

struct cpng_reader {
  png_structp png;
  png_infop info;
  const uint8_t *data;
  size_t size;
  size_t position;
  int header_read;
  int data_checked;
  int fast_path;
  int failed;
  cpng_error_kind kind;
  char message[256];
};

static void set_message(cpng_reader *reader, cpng_error_kind kind, const char *message) {
  reader->failed = 1;
  reader->kind = kind;
  strncpy(reader->message, message ? message : "unknown libpng error", sizeof reader->message - 1);
  reader->message[sizeof reader->message - 1] = 0;
}

/* Two of libpng's messages do not say what is wrong; this says it, in the one place every
 * decode's errors pass (the fast path hands anything unusual to libpng). */
static void explain(cpng_reader *reader, png_const_charp message) {
  if (!message) return;
  /* png_handle_IEND: an IEND before any IDAT (libpng stops earlier when IHDR is not first). */
  if (strcmp(message, "IEND: out of place") == 0) {
    set_message(reader, CPNG_ERROR_CORRUPT, "the file has no image data: IEND comes before any IDAT chunk");
  } else if (strcmp(message, "Not enough image data") == 0) {
    /* png_read_IDAT_data: the IDAT chunks, or the zlib stream, end before it has given every
     * row; or, when libpng is finishing after the last row (past the last row of a plain
     * image, or past pass 7 of an interlaced one), before the stream's end and its Adler-32. */
    png_structp png = reader->png;
    png_uint_32 height = png_get_image_height(png, reader->info);
    png_uint_32 row = png_get_current_row_number(png);
    int pass = png_get_current_pass_number(png);
    int interlaced = png_get_interlace_type(png, reader->info) != PNG_INTERLACE_NONE;
    char text[sizeof reader->message];
    if (pass >= 7 || (!interlaced && row >= height)) {
      snprintf(text, sizeof text,
               "Not enough image data: every row is there, but the zlib stream stops before its end "
               "(the Adler-32 checksum that closes it is missing)");
    } else if (interlaced) {
      snprintf(text, sizeof text, "Not enough image data: it stops in pass %d of 7 (Adam7), at row %u of %u",
               pass + 1, (unsigned)row, (unsigned)height);
    } else {
      snprintf(text, sizeof text, "Not enough image data: it stops after %u of %u rows", (unsigned)row,
               (unsigned)height);
    }
    set_message(reader, CPNG_ERROR_CORRUPT, text);
  } else {
    set_message(reader, CPNG_ERROR_CORRUPT, message);
  }
}

/* libpng's error callback: remember the message and jump back to the calling function. */
static void on_error(png_structp png, png_const_charp message) {
  cpng_reader *reader = png_get_error_ptr(png);
  /* The read callback has already classified a short read as truncation. */
  if (!reader->failed) explain(reader, message);
  png_longjmp(png, 1);
}

/* Warnings (a bad CRC on an ancillary chunk, an unknown sRGB profile...) do not stop decoding. */
static void on_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

static void read_from_memory(png_structp png, png_bytep out, png_size_t length) {
  cpng_reader *reader = png_get_io_ptr(png);
  if (length > reader->size - reader->position) {
    set_message(reader, CPNG_ERROR_TRUNCATED, "the file ends before the image data does");
    png_error(png, reader->message);
  }
  memcpy(out, reader->data + reader->position, length);
  reader->position += length;
}

/* SNAPDIFF_PNG_FAST_PATH=0 decodes everything with libpng (to compare the two paths). */
static int fast_path_enabled(void) {
  const char *setting = getenv("SNAPDIFF_PNG_FAST_PATH");
  return !(setting && strcmp(setting, "0") == 0);
}

cpng_reader *cpng_reader_create(const uint8_t *data, size_t size) {
  cpng_reader *reader = calloc(1, sizeof *reader);
  if (!reader) return NULL;
  reader->data = data;
  reader->size = size;
  reader->fast_path = fast_path_enabled();
  reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, on_error, on_warning);
  if (!reader->png) {
    free(reader);
    return NULL;
  }
  reader->info = png_create_info_struct(reader->png);
  if (!reader->info) {
    png_destroy_read_struct(&reader->png, NULL, NULL);
    free(reader);
    return NULL;
  }
  png_set_read_fn(reader->png, reader, read_from_memory);
  /* Our own megapixel limit is checked by the caller; lift libpng's 1M x 1M default guard. */
  png_set_user_limits(reader->png, 0x7fffffff, 0x7fffffff);
  /* Skip, unread, the ancillary chunks libpng would buffer whole: it allocates (and zeroes) a
   * chunk's declared length before reading it, so a 163-byte file claiming a 2 GB iTXt chunk
   * took 2 GB and 3 s to fail. None of them changes a pixel; skipped, they cost a CRC. */
  static const png_byte ignored[] = "tEXt\0zTXt\0iTXt\0iCCP\0eXIf\0sPLT\0pCAL\0sCAL";
  png_set_keep_unknown_chunks(reader->png, PNG_HANDLE_CHUNK_NEVER, ignored, 8);
  return reader;
}

cpng_error_kind cpng_reader_read_header(cpng_reader *reader, cpng_header *header) {
  if (reader->failed) return reader->kind;
  if (reader->header_read) {
    set_message(reader, CPNG_ERROR_MISUSE, "the header was already read");
    return reader->kind;
  }
  if (reader->size < 8 || png_sig_cmp(reader->data, 0, 8) != 0) {
    int prefix = reader->size < 8 && png_sig_cmp(reader->data, 0, reader->size) == 0 && reader->size > 0;
    set_message(reader, prefix ? CPNG_ERROR_TRUNCATED : CPNG_ERROR_NOT_PNG,
                prefix ? "the file ends inside the PNG signature" : "not a PNG file (no PNG signature)");
    return reader->kind;
  }
  png_structp png = reader->png;
  png_infop info = reader->info;
  if (setjmp(png_jmpbuf(png))) return reader->kind;

  png_read_info(png, info);
  png_uint_32 width, height;
  int bit_depth, color_type, interlace;
  png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
  header->width = width;
  header->height = height;
  header->bit_depth = bit_depth;
  header->color_type = color_type;
  header->interlaced = interlace != PNG_INTERLACE_NONE;
  header->has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  header->has_gama = png_get_valid(png, info, PNG_INFO_gAMA) != 0;
  reader->header_read = 1;
  return CPNG_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Is the image data there at all?
 *
 * Deflate makes at most 1032 bytes from one byte: the densest code is a 258-byte match (length
 * code 285, no extra bits) at distance 1 (no extra bits) in a dynamic block whose two trees give
 * both codes 1 bit, 2 bits for 258 bytes. So the rows a header declares (filter bytes included,
 * Adam7 passes counted exactly) need at least rows / 1032 bytes of IDAT data, and IDAT data is
 * all libpng ever inflates: the IDAT chunks in a row from the first one, no further than the
 * file goes. A header that declares more than that is proved short before a byte of the image is
 * allocated or a row is read: a 68-byte file claiming 1 x 200,000,000 took 1.5 GB (libpng's row
 * pointers) and 3-9 s to fail. Exact, not a heuristic: no valid file fails it (the 6 bytes of
 * zlib header and trailer are a margin on top).
 * ------------------------------------------------------------------------------------------- */

#define DEFLATE_MAX_RATIO 1032u

static uint64_t packed_row_bytes(uint64_t pixels, int bits_per_pixel) {
  return (pixels * (uint64_t)bits_per_pixel + 7) / 8;
}

/* The bytes of filtered rows the header declares (< 2^31 * (2^31 * 8 + 1): fits in 64 bits). */
static uint64_t declared_rows(uint32_t width, uint32_t height, int bits_per_pixel, int interlaced) {
  if (!interlaced) return (uint64_t)height * (packed_row_bytes(width, bits_per_pixel) + 1);
  /* Adam7: pass p takes columns x0 + k * dx and rows y0 + k * dy; an empty pass has no rows. */
  static const int x0[7] = {0, 4, 0, 2, 0, 1, 0}, dx[7] = {8, 8, 4, 4, 2, 2, 1};
  static const int y0[7] = {0, 0, 4, 0, 2, 0, 1}, dy[7] = {8, 8, 8, 4, 4, 2, 2};
  uint64_t total = 0;
  for (int p = 0; p < 7; p++) {
    uint64_t columns = width > (uint32_t)x0[p] ? ((uint64_t)width - x0[p] + dx[p] - 1) / dx[p] : 0;
    uint64_t rows = height > (uint32_t)y0[p] ? ((uint64_t)height - y0[p] + dy[p] - 1) / dy[p] : 0;
    if (columns && rows) total += rows * (packed_row_bytes(columns, bits_per_pixel) + 1);
  }
  return total;
}

static uint32_t be32_at(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

cpng_error_kind cpng_reader_check_image_data(cpng_reader *reader) {
  if (reader->failed) return reader->kind;
  if (!reader->header_read) {
    set_message(reader, CPNG_ERROR_MISUSE, "read the header before the pixels");
    return reader->kind;
  }
  if (reader->data_checked) return CPNG_OK;
  png_structp png = reader->png;
  png_infop info = reader->info;
  uint32_t width = png_get_image_width(png, info);
  uint32_t height = png_get_image_height(png, info);
  int bits = png_get_bit_depth(png, info) * png_get_channels(png, info);
  int interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
  uint64_t needed = declared_rows(width, height, bits, interlaced);

  /* png_read_info stopped after the first IDAT's 8-byte header (anything else: nothing proved). */
  if (reader->position < 16 || memcmp(reader->data + reader->position - 4, "IDAT", 4) != 0) {
    reader->data_checked = 1;
    return CPNG_OK;
  }
  size_t next = reader->position - 8;
  uint64_t available = 0;
  int first_cut = 0; /* the first IDAT chunk's data or CRC runs past the end of the file */
  int file_ends = 0; /* nothing complete follows the IDAT chunks: not even an IEND */
  for (int index = 0;; index++) {
    if (reader->size - next < 8) {
      file_ends = 1;
      break;
    }
    const uint8_t *chunk = reader->data + next;
    if (memcmp(chunk + 4, "IDAT", 4) != 0) break;
    uint64_t length = be32_at(chunk);
    uint64_t present = reader->size - next - 8;
    if (length + 4 > present) {
      available += length < present ? length : present;
      file_ends = 1;
      first_cut = index == 0;
      break;
    }
    available += length;
    next += 12 + (size_t)length;
  }
  /* libpng reads the first IDAT chunk to its CRC whatever the stream does (png_read_finish_IDAT
   * skips what the stream leaves), so a cut first chunk always ends in this error: say it before
   * decoding a row. (A later chunk is read only if the stream has not ended before it.) */
  if (first_cut) {
    set_message(reader, CPNG_ERROR_TRUNCATED, "the file ends before the image data does");
    return reader->kind;
  }
  /* available <= the file size, so available * 1032 cannot overflow 64 bits. */
  if (needed > available * DEFLATE_MAX_RATIO) {
    char text[sizeof reader->message];
    snprintf(text, sizeof text,
             "%s: the header's %u\xc3\x97%u image is %llu bytes of rows, which needs at least %llu bytes of "
             "compressed data (deflate makes at most %u bytes from one); the IDAT chunks hold %llu",
             file_ends ? "the file ends before the image data does" : "Not enough image data",
             (unsigned)width, (unsigned)height, (unsigned long long)needed,
             (unsigned long long)((needed + DEFLATE_MAX_RATIO - 1) / DEFLATE_MAX_RATIO), DEFLATE_MAX_RATIO,
             (unsigned long long)available);
    set_message(reader, file_ends ? CPNG_ERROR_TRUNCATED : CPNG_ERROR_CORRUPT, text);
    return reader->kind;
  }
  reader->data_checked = 1;
  return CPNG_OK;
}

size_t cpng_rgba_capacity(uint32_t width, uint32_t height) {
  return (size_t)width * height * 4 + height + 64;
}

cpng_error_kind cpng_reader_read_rgba(cpng_reader *reader, uint8_t *rgba, size_t capacity) {
  if (cpng_reader_check_image_data(reader) != CPNG_OK) return reader->kind;
  png_structp png = reader->png;
  png_infop info = reader->info;
  if (setjmp(png_jmpbuf(png))) return reader->kind;

  png_uint_32 width = png_get_image_width(png, info);
  png_uint_32 height = png_get_image_height(png, info);
  int bit_depth = png_get_bit_depth(png, info);
  int color_type = png_get_color_type(png, info);
  int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;

  /* Screenshots (8-bit RGB or RGBA, not interlaced) take the fast path, which checks as much as
   * libpng does and, on anything unusual, leaves the decode to libpng from this same point. */
  if (bit_depth == 8 && !has_trns &&
      png_get_interlace_type(png, info) == PNG_INTERLACE_NONE &&
      (color_type == PNG_COLOR_TYPE_RGB || color_type == PNG_COLOR_TYPE_RGB_ALPHA) &&
      reader->position >= 16 && memcmp(reader->data + reader->position - 4, "IDAT", 4) == 0 &&
      reader->fast_path &&
      cpng_fast_decode(reader->data, reader->size, reader->position - 8, width, height,
                       color_type == PNG_COLOR_TYPE_RGB ? 3 : 4, rgba, capacity)) {
    return CPNG_OK;
  }

  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (has_trns) png_set_tRNS_to_alpha(png);
  if (bit_depth == 16) png_set_scale_16(png);
  if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
  if (!(color_type & PNG_COLOR_MASK_ALPHA) && !has_trns) png_set_filler(png, 0xff, PNG_FILLER_AFTER);
  int passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);

  size_t row_bytes = (size_t)width * 4;
  if (png_get_rowbytes(png, info) != row_bytes) {
    set_message(reader, CPNG_ERROR_CORRUPT, "unexpected row size after conversion to RGBA");
    return reader->kind;
  }
  /* png_read_image's loop, without its array of row pointers: each row is written as it arrives,
   * so nothing is allocated, or touched, for rows the data never reaches. */
  for (int pass = 0; pass < passes; pass++) {
    for (png_uint_32 y = 0; y < height; y++) png_read_row(png, rgba + (size_t)y * row_bytes, NULL);
  }
  /* The IEND chunk is not required: libpng, browsers and Pillow accept files without it. */
  return CPNG_OK;
}

void cpng_reader_set_fast_path(cpng_reader *reader, int enabled) {
  reader->fast_path = enabled && fast_path_enabled();
}

const char *cpng_reader_message(const cpng_reader *reader) {
  return reader->message;
}

void cpng_reader_destroy(cpng_reader *reader) {
  if (!reader) return;
  png_destroy_read_struct(&reader->png, &reader->info, NULL);
  free(reader);
}

void cpng_advise_huge_pages(void *buffer, size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const uintptr_t huge = (uintptr_t)1 << 21;
  if (!buffer || size < 2 * huge) return;
  uintptr_t start = ((uintptr_t)buffer + huge - 1) & ~(huge - 1);
  uintptr_t end = ((uintptr_t)buffer + size) & ~(huge - 1);
  if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
  (void)buffer;
  (void)size;
#endif
}

int cpng_keep_freed_buffers(void) {
#if defined(__GLIBC__)
  return mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1 && mallopt(M_TRIM_THRESHOLD, 128 << 20) == 1;
#else
  return 0;
#endif
}
