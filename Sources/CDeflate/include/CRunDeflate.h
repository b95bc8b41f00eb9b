#ifndef CRUNDEFLATE_H
#define CRUNDEFLATE_H

#include <stddef.h>
#include <stdint.h>

/*
 * A deflate encoder for images of few colours drawn in long runs: diff images, written as
 * palette scanlines. It looks for two matches only, the byte before (a run of one colour) and
 * the byte one row up (a row like the one above it), and codes each block with its own Huffman
 * codes. On the diff images of scripts/bench it is 2.5–3× faster than zlib at level 1 (whose
 * hash chains find little more in such images), for files 2–7 % larger
 * (scripts/bench/diff_encoders.sh).
 */

/* The most bytes `run_deflate` writes for `size` bytes of input (stored blocks at worst). */
size_t run_deflate_bound(size_t size);

/*
 * Deflates `size` bytes at `data` as raw deflate blocks into `out` (`capacity` at least
 * `run_deflate_bound(size)`), and returns how many bytes it wrote (0 only when `capacity` is too
 * small). `stride` is the length of a row (a scanline with its filter byte): a row is matched
 * against the one above it when `stride` is at most 32768. `history` bytes before `data` are
 * the stream's earlier output (the first half of an image, cut in two): matches may reach back
 * into them. With `final`, the last block ends the stream; without, the output ends with an
 * empty stored block (zlib's sync flush), on a byte boundary, so that another part can follow.
 */
size_t run_deflate(const uint8_t *data, size_t size, size_t history, size_t stride, int final,
                   uint8_t *out, size_t capacity);

#endif
