#ifndef CPNGFILTERS_H
#define CPNGFILTERS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* A scanline's filter types (its first byte). */
enum { FILTER_NONE, FILTER_SUB, FILTER_UP, FILTER_AVERAGE, FILTER_PAETH, FILTERS };

/* Paeth's predictor from the byte to the left (a), above (b) and above left (c). */
static inline uint8_t cpng_paeth(uint8_t a, uint8_t b, uint8_t c) {
  int p = (int)a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/*
 * PNG row filters for the compact writer: each row gets the filter among None, Sub, Up,
 * Average and Paeth whose output bytes, read as signed, have the smallest sum of absolute
 * values (libpng's heuristic for its default, every filter allowed).
 *
 * `row` and `prior` (the row above, unfiltered; all zeros for the first row) each have 16
 * readable zero bytes before them and 16 readable bytes after `row_bytes` (SSE2 loads);
 * `bpp` is 1, 3 or 4 bytes a pixel. Writes the filter type and the `row_bytes` filtered bytes
 * to `out` (`row_bytes + 1` bytes).
 */
void cpng_filter_row(const uint8_t *row, const uint8_t *prior, size_t row_bytes, int bpp, uint8_t *out);

#endif
