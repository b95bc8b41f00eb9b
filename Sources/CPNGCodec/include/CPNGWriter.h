#ifndef CPNGWRITER_H
#define CPNGWRITER_H

#include <stddef.h>
#include <stdint.h>

/*
 * A fast PNG writer for diff images. It writes the file itself, chunk by chunk (not with
 * libpng's writer, which adds a row copy and a per-row palette check and cannot compress on two
 * threads): the rows are cut in two halves deflated on two threads into one ordinary zlib
 * stream (CPNGWriter.c says how).
 *
 * It keeps every pixel exact and picks the smallest format that can: an 8-bit palette (with a
 * tRNS chunk when some colour is not opaque) when the image has at most 256 colours, as diff
 * images do (a faded gray baseline plus a few marker colours); else RGB when every pixel is
 * opaque; else RGBA. Decoded to RGBA, the file gives back exactly the input. No row filters; a
 * palette is deflated by a run-and-row matcher (CRunDeflate.h), RGB and RGBA by zlib at level 1:
 * a diff image is written to be looked at once, not archived.
 */

typedef struct {
  uint8_t *bytes;    /* malloc'd PNG file; free with cpng_encoded_free */
  size_t size;
  int color_type;    /* what was written: 3 palette, 2 RGB, 6 RGBA */
  char message[256]; /* libpng's message when encoding failed */
} cpng_encoded;

/* Encodes `rgba` (width * height * 4 bytes, rows packed). Returns 1 on success, 0 with
 * `message` set on failure. */
int cpng_encode_fast(const uint8_t *rgba, uint32_t width, uint32_t height, cpng_encoded *out);

/* Encodes an image already drawn as palette indexes (what a diff image is drawn as: see
 * `DiffOutcome` in SnapdiffCore), without mapping RGBA to a palette: `lines` holds `height`
 * scanlines of `width + 1` bytes, each a 0 filter byte and then one index a pixel; `colors` the
 * `count` (1 to 256) palette colours as RGBA words in memory order. Refused (0, `message` set)
 * when a scanline's filter byte is not 0 or an index is not below `count`. */
int cpng_encode_palette(const uint8_t *lines, const uint32_t *colors, int count, uint32_t width,
                        uint32_t height, cpng_encoded *out);

/* The compact writer (what baselines are written with): the same choice of format as
 * `cpng_encode_fast`, each RGB or RGBA row with libpng's adaptive choice of filter, deflated by
 * libdeflate at level 6 in one call. Only when snapdiff is built with libdeflate
 * (`cpng_has_compact_writer`); else it fails and libpng writes the file. */
int cpng_encode_compact(const uint8_t *rgba, uint32_t width, uint32_t height, cpng_encoded *out);
int cpng_has_compact_writer(void);
/* What writes baselines, with its version: "libdeflate 1.23 (level 6, libpng's choice of row
 * filters)", or without libdeflate "libpng 1.6.43 (zlib 1.3.1)". */
const char *cpng_compact_writer(void);

void cpng_encoded_free(cpng_encoded *encoded);

#endif
