#ifndef CPNGREADER_H
#define CPNGREADER_H

#include <stddef.h>
#include <stdint.h>

/*
 * A PNG reader on libpng's classic API. Swift cannot call setjmp, and without it libpng aborts
 * the process on bad input; every function here sets its own jump point, so a libpng error
 * becomes a return code, an error kind and a message instead.
 *
 * Use: create over a memory buffer (kept alive by the caller until destroy), read the header,
 * check the dimensions, allocate width * height * 4 bytes, read the pixels, destroy.
 */

typedef enum {
  CPNG_OK = 0,
  CPNG_ERROR_NOT_PNG = 1,    /* the 8-byte signature is missing or wrong */
  CPNG_ERROR_TRUNCATED = 2,  /* the data ends before the image does */
  CPNG_ERROR_CORRUPT = 3,    /* a bad chunk, CRC, header field or compressed stream */
  CPNG_ERROR_NO_MEMORY = 4,
  CPNG_ERROR_MISUSE = 5      /* calls out of order */
} cpng_error_kind;

typedef struct {
  uint32_t width;
  uint32_t height;
  int bit_depth;   /* 1, 2, 4, 8 or 16 */
  int color_type;  /* PNG_COLOR_TYPE_*: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA */
  int interlaced;  /* 1 for Adam7 */
  int has_trns;    /* a tRNS chunk gives transparency to a colour type without alpha */
  int has_gama;    /* a gAMA chunk is present (its value is not applied: raw samples) */
} cpng_header;

typedef struct cpng_reader cpng_reader;

/* A reader over `size` bytes at `data`; NULL when out of memory. */
cpng_reader *cpng_reader_create(const uint8_t *data, size_t size);

/* Reads the signature, IHDR and every chunk before the first IDAT. */
cpng_error_kind cpng_reader_read_header(cpng_reader *reader, cpng_header *header);

/*
 * Checks, from the chunk headers alone, that the file holds enough image data for the rows its
 * header declares (deflate makes at most 1032 bytes from one): call it before allocating the
 * image. A file that cannot hold its image fails here, as truncated when it ends inside the IDAT
 * chunks, else as corrupt ("Not enough image data: ..."). cpng_reader_read_rgba calls it too.
 */
cpng_error_kind cpng_reader_check_image_data(cpng_reader *reader);

/*
 * Decodes every row as 8-bit RGBA into `rgba` (width * height * 4 bytes, rows packed):
 * palettes and tRNS expanded, gray copied to R, G and B, opaque images given alpha 255,
 * 16-bit samples scaled to 8 bits with rounding (v * 255 / 65535), interlacing resolved,
 * gamma not applied (the values Pillow, browsers' canvas and pixelmatch's pngjs read).
 *
 * `capacity` is the size of the buffer at `rgba`, at least width * height * 4. When it is at
 * least cpng_rgba_capacity(width, height), the fast path inflates the image data into the end of
 * that buffer and unfilters it forward in place (the rows written always stay behind the rows
 * still to read), so no second buffer of the image's size is allocated and touched; with less,
 * it inflates into a buffer of its own. The bytes past width * height * 4 are scratch.
 */
cpng_error_kind cpng_reader_read_rgba(cpng_reader *reader, uint8_t *rgba, size_t capacity);

/* The buffer size that lets cpng_reader_read_rgba decode in place: the image's RGBA bytes, one
 * byte a row (the filter bytes) and 64 bytes of margin. */
size_t cpng_rgba_capacity(uint32_t width, uint32_t height);

/*
 * Whether 8-bit RGB/RGBA images may take the fast path (on by default; the environment variable
 * SNAPDIFF_PNG_FAST_PATH=0 turns it off for every reader). Off, libpng decodes everything: the
 * two give the same pixels and the same errors, which is what tests check.
 */
void cpng_reader_set_fast_path(cpng_reader *reader, int enabled);

/* The message of the last error ("" when none). Valid until destroy. */
const char *cpng_reader_message(const cpng_reader *reader);

void cpng_reader_destroy(cpng_reader *reader);

/*
 * Asks the kernel to back the 2 MiB-aligned interior of a large, not yet touched buffer with
 * huge pages (Linux transparent huge pages, "madvise" mode): first touching a 12 MB raster then
 * takes a handful of page faults instead of ~3000, measured 6 ms -> 2 ms here. A no-op
 * elsewhere, for small buffers, or when the kernel says no.
 */
void cpng_advise_huge_pages(void *buffer, size_t size);

/*
 * glibc: allocations up to 32 MB (its largest mmap threshold) come from the heap, and up to
 * 128 MB of freed heap stays in the process (mallopt M_MMAP_THRESHOLD, M_TRIM_THRESHOLD), so
 * that rasters freed after one image are reused for the next instead of being unmapped and
 * faulted in, zeroed, again. Returns 1 when both were set; 0 elsewhere (nothing done).
 */
int cpng_keep_freed_buffers(void);

/*
 * What inflates the fast path's image data: "libdeflate 1.23 (zlib 1.3.1 for images over
 * 64 MB)" when snapdiff was built with libdeflate, else "zlib 1.3.1".
 */
const char *cpng_inflater(void);

#endif
