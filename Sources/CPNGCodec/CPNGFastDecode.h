#ifndef CPNGFASTDECODE_H
#define CPNGFASTDECODE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The fast path for the PNGs screenshots are: 8-bit RGB (without tRNS) or RGBA, not interlaced.
 * It walks the IDAT chunks itself (every chunk's CRC checked before its data is used), inflates
 * the whole stream with libdeflate in one call (when built with it, for images up to 64 MB of
 * rows; else with zlib, a block of rows at a time), checks Adler-32 with SIMD, and unfilters each
 * row straight into the RGBA output (RGB gets alpha 255): no per-row calls into libpng.
 *
 * It is only ever as permissive as libpng, never more: any irregularity (a bad CRC, a zlib error
 * or Adler-32 mismatch, a bad filter byte, too little or too much data, an odd zlib header, a
 * chunk libpng would find too long) makes it return 0 without a message, and the caller then
 * decodes with libpng from the same point, so errors keep libpng's exact messages.
 *
 *   data, size          the whole PNG file
 *   idat_header         offset of the first IDAT chunk's length field (where png_read_info
 *                       stopped, minus the 8 header bytes it read)
 *   channels            3 (RGB) or 4 (RGBA)
 *   rgba, capacity      the output: width * height * 4 bytes, and room to inflate in place
 *                       when capacity >= cpng_rgba_capacity(width, height)
 *
 * Returns 1 when every row was decoded and the zlib stream ended, checked, with the image.
 */
int cpng_fast_decode(const uint8_t *data, size_t size, size_t idat_header, uint32_t width,
                     uint32_t height, int channels, uint8_t *rgba, size_t capacity);

/* Adler-32 (zlib's): libdeflate's when snapdiff is built with it, else ours, with SSE2 where
 * there is SSE2. */
uint32_t cpng_adler32(uint32_t adler, const uint8_t *bytes, size_t length);

/* CRC-32 (a PNG chunk's, zlib's): libdeflate's when snapdiff is built with it (carry-less
 * multiplication, 4× zlib 1.2's speed on a 1.6 MB IDAT here), else zlib's. */
uint32_t cpng_crc32(uint32_t crc, const uint8_t *bytes, size_t length);

#endif
