#include "CPNGReader.h"

#include "CPNGFastDecode.h"

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

struct cpng_reader {
  png_structp png;
  png_infop info;
  const uint8_t *data;
  size_t size;
  size_t position;
  int header_read;
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

/* libpng's error callback: remember the message and jump back to the calling function. */
static void on_error(png_structp png, png_const_charp message) {
  cpng_reader *reader = png_get_error_ptr(png);
  /* The read callback has already classified a short read as truncation. */
  if (!reader->failed) set_message(reader, CPNG_ERROR_CORRUPT, message);
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

cpng_error_kind cpng_reader_read_rgba(cpng_reader *reader, uint8_t *rgba) {
  if (reader->failed) return reader->kind;
  if (!reader->header_read) {
    set_message(reader, CPNG_ERROR_MISUSE, "read the header before the pixels");
    return reader->kind;
  }
  png_structp png = reader->png;
  png_infop info = reader->info;
  /* volatile: modified between setjmp and a possible longjmp */
  png_bytep *volatile rows = NULL;
  if (setjmp(png_jmpbuf(png))) {
    free(rows);
    return reader->kind;
  }

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
                       color_type == PNG_COLOR_TYPE_RGB ? 3 : 4, rgba)) {
    return CPNG_OK;
  }

  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (has_trns) png_set_tRNS_to_alpha(png);
  if (bit_depth == 16) png_set_scale_16(png);
  if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
  if (!(color_type & PNG_COLOR_MASK_ALPHA) && !has_trns) png_set_filler(png, 0xff, PNG_FILLER_AFTER);
  (void)png_set_interlace_handling(png);
  png_read_update_info(png, info);

  size_t row_bytes = (size_t)width * 4;
  if (png_get_rowbytes(png, info) != row_bytes) {
    set_message(reader, CPNG_ERROR_CORRUPT, "unexpected row size after conversion to RGBA");
    return reader->kind;
  }
  rows = malloc(sizeof(png_bytep) * (height ? height : 1));
  if (!rows) {
    set_message(reader, CPNG_ERROR_NO_MEMORY, "out of memory for row pointers");
    return reader->kind;
  }
  for (png_uint_32 y = 0; y < height; y++) rows[y] = rgba + (size_t)y * row_bytes;
  png_read_image(png, rows);
  /* The IEND chunk is not required: libpng, browsers and Pillow accept files without it. */
  free(rows);
  rows = NULL;
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
