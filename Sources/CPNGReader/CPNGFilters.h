#ifndef CPNGFILTERS_H
#define CPNGFILTERS_H

#include <stddef.h>
#include <stdint.h>

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
