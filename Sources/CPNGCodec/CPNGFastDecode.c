#include "CPNGFastDecode.h"
#include "CPNGFilters.h"
#include "CPNGReader.h"

#include <stdlib.h>
#include <string.h>

#define ZLIB_CONST
#include <zlib.h>

/* Package.swift defines CPNG_HAVE_LIBDEFLATE when libdeflate's header is installed (Debian:
 * libdeflate-dev; Homebrew: libdeflate): screenshots are then inflated by it, in one call. */
#if defined(CPNG_HAVE_LIBDEFLATE)
#include <libdeflate.h>
#endif

#include "CCPUFeatures.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#include <smmintrin.h>
#endif

/* ---------------------------------------------------------------------------------------------
 * CRC-32 and Adler-32
 *
 * With libdeflate, both are libdeflate's (carry-less multiplication for the CRC, AVX2 or AVX-512
 * for Adler-32). Without it, the CRC is zlib's and Adler-32 our own: zlib 1.2's adler32 is byte
 * at a time, ~7 % of a decode. The SSE2 version sums 32-byte blocks:
 * s1 with PSADBW, s2 as 32 x (the s1 before each block) plus the column sums weighted 32..1.
 * At most 128 blocks go between reductions, so the 16-bit column sums (128 x 255) and the 32-bit
 * lanes (32 x 128 x 127 / 2 x 4080 < 2^31) cannot overflow.
 * ------------------------------------------------------------------------------------------- */

uint32_t cpng_crc32(uint32_t crc, const uint8_t *bytes, size_t length) {
#if defined(CPNG_HAVE_LIBDEFLATE)
  return libdeflate_crc32(crc, bytes, length);
#else
  return (uint32_t)crc32_z(crc, bytes, length);
#endif
}

#if !defined(CPNG_HAVE_LIBDEFLATE)
#define ADLER_MOD 65521u

static uint32_t adler32_own(uint32_t adler, const uint8_t *p, size_t length) {
  uint32_t s1 = adler & 0xffff;
  uint32_t s2 = adler >> 16;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  const __m128i weights_a = _mm_setr_epi16(32, 31, 30, 29, 28, 27, 26, 25);
  const __m128i weights_b = _mm_setr_epi16(24, 23, 22, 21, 20, 19, 18, 17);
  const __m128i weights_c = _mm_setr_epi16(16, 15, 14, 13, 12, 11, 10, 9);
  const __m128i weights_d = _mm_setr_epi16(8, 7, 6, 5, 4, 3, 2, 1);
  while (length >= 32) {
    size_t blocks = length / 32;
    if (blocks > 128) blocks = 128;
    size_t n = blocks * 32;
    length -= n;
    __m128i v_s1 = zero, v_s2 = zero;
    __m128i col_a = zero, col_b = zero, col_c = zero, col_d = zero;
    do {
      __m128i x = _mm_loadu_si128((const __m128i *)p);
      __m128i y = _mm_loadu_si128((const __m128i *)(p + 16));
      v_s2 = _mm_add_epi32(v_s2, v_s1);
      v_s1 = _mm_add_epi32(v_s1, _mm_add_epi32(_mm_sad_epu8(x, zero), _mm_sad_epu8(y, zero)));
      col_a = _mm_add_epi16(col_a, _mm_unpacklo_epi8(x, zero));
      col_b = _mm_add_epi16(col_b, _mm_unpackhi_epi8(x, zero));
      col_c = _mm_add_epi16(col_c, _mm_unpacklo_epi8(y, zero));
      col_d = _mm_add_epi16(col_d, _mm_unpackhi_epi8(y, zero));
      p += 32;
    } while (--blocks);
    v_s2 = _mm_slli_epi32(v_s2, 5);
    v_s2 = _mm_add_epi32(v_s2, _mm_madd_epi16(col_a, weights_a));
    v_s2 = _mm_add_epi32(v_s2, _mm_madd_epi16(col_b, weights_b));
    v_s2 = _mm_add_epi32(v_s2, _mm_madd_epi16(col_c, weights_c));
    v_s2 = _mm_add_epi32(v_s2, _mm_madd_epi16(col_d, weights_d));
    uint32_t lanes1[4], lanes2[4];
    _mm_storeu_si128((__m128i *)lanes1, v_s1);
    _mm_storeu_si128((__m128i *)lanes2, v_s2);
    uint64_t sum1 = (uint64_t)lanes1[0] + lanes1[1] + lanes1[2] + lanes1[3];
    uint64_t sum2 = (uint64_t)lanes2[0] + lanes2[1] + lanes2[2] + lanes2[3];
    s2 = (uint32_t)((s2 + (uint64_t)s1 * n + sum2) % ADLER_MOD);
    s1 = (uint32_t)((s1 + sum1) % ADLER_MOD);
  }
#endif
  while (length > 0) {
    size_t n = length < 5552 ? length : 5552; /* zlib's NMAX: no 32-bit overflow before % */
    length -= n;
    while (n--) {
      s1 += *p++;
      s2 += s1;
    }
    s1 %= ADLER_MOD;
    s2 %= ADLER_MOD;
  }
  return s2 << 16 | s1;
}
#endif

uint32_t cpng_adler32(uint32_t adler, const uint8_t *bytes, size_t length) {
#if defined(CPNG_HAVE_LIBDEFLATE)
  /* 2.6× the SSE2 loop on 64 KiB in cache. */
  return libdeflate_adler32(adler, bytes, length);
#else
  return adler32_own(adler, bytes, length);
#endif
}

/* ---------------------------------------------------------------------------------------------
 * Unfiltering: one filtered row (`channels` bytes a pixel) into one RGBA row, predicting from
 * the RGBA row above (`prior`, zeros for the first row) and the RGBA pixel to the left.
 * ------------------------------------------------------------------------------------------- */

#if defined(__SSE2__)

/* 4 bytes; for RGB the 4th is the next pixel's (the block buffer is padded for the last one). */
static inline __m128i load4(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return _mm_cvtsi32_si128((int)v);
}

/* Stores one RGBA pixel; `alpha` is 0xff000000 for RGB input (little-endian), 0 for RGBA. */
static inline void store4(uint8_t *p, __m128i v, uint32_t alpha) {
  uint32_t x = (uint32_t)_mm_cvtsi128_si32(v) | alpha;
  memcpy(p, &x, 4);
}

/* Whether the processor has SSE4.1 (asked of CCPUFeatures, which asks cpuid once). */
static int has_sse41(void) { return ccpu_has(CCPU_SSE4_1); }

/* A Paeth row with SSE4.1, chosen at run time (the build targets plain x86-64): the same
 * predictor as the SSE2 loop in unfilter_row, with its two selects as PBLENDVB, one operation
 * each, so five operations wait on the pixel to the left instead of eight; measured 1.7x faster
 * a row than the SSE2 loop here. */
__attribute__((target("sse4.1"))) static void paeth_row_sse41(const uint8_t *in, const uint8_t *prior,
                                                              uint8_t *out, uint32_t width, int channels) {
  const uint32_t alpha = channels == 3 ? 0xff000000u : 0;
  const size_t step = (size_t)channels;
  __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128();
  for (uint32_t x = 0; x < width; x++, in += step, prior += 4, out += 4) {
    __m128i b = _mm_cvtepu8_epi16(load4(prior));
    __m128i filtered = _mm_cvtepu8_epi16(load4(in));
    __m128i k = _mm_sub_epi16(_mm_add_epi16(c, _mm_add_epi16(c, c)), b); /* 3c - b */
    /* Keeps k whole: the compiler would otherwise compute t as 3c - (a + b), a second
     * operation after a. */
    __asm__("" : "+x"(k));
    __m128i t = _mm_sub_epi16(k, a);
    __m128i lo = _mm_min_epi16(a, b), hi = _mm_max_epi16(a, b);
    __m128i t0 = _mm_blendv_epi8(lo, c, _mm_cmpgt_epi16(hi, t));         /* hi > t: c, else lo */
    __m128i nearest = _mm_blendv_epi8(hi, t0, _mm_cmpgt_epi16(t, lo));   /* t > lo: t0, else hi */
    a = _mm_add_epi8(filtered, nearest); /* bytewise: the sum mod 256, high bytes stay 0 */
    store4(out, _mm_packus_epi16(a, a), alpha);
    c = b;
  }
}

/* Two Paeth rows at once with SSE4.1: row 0 in the low four 16-bit lanes, row 1 in the high
 * four, two pixels behind. A Paeth row is one chain from pixel to pixel (each waits on the one
 * to its left: t, two compares, two selects and an add), so a core runs one row at a fraction
 * of its width; the second row's chain is independent of the first's within an iteration
 * (its `above` is row 0's pixel from two iterations before, kept in a register), so the same
 * instructions carry two pixels. Row 0 goes to `out0` as it is made; row 1 to `scratch`, which
 * the caller copies to its place: written in place it would reach row 0's input not yet read
 * (the in-place arithmetic of decode_whole_stream holds for rows made in order). `width` >= 2. */
__attribute__((target("sse4.1"))) static void paeth_two_rows_sse41(const uint8_t *in0, const uint8_t *in1,
                                                                   const uint8_t *prior, uint8_t *out0,
                                                                   uint8_t *scratch, uint32_t width,
                                                                   int channels) {
  const uint32_t alpha = channels == 3 ? 0xff000000u : 0;
  const size_t step = (size_t)channels;
  const __m128i zero = _mm_setzero_si128();
  /* a: both rows' pixels to the left; c_low: row 0's above-left; h1..h3: row 0's last three
   * pixels (16-bit lanes, low half), which are row 1's above and above-left. Iteration i makes
   * row 0's pixel i (i < width) and row 1's pixel i - 2 (i >= 2): a first and a last loop of
   * two iterations each, for one row alone, around a main loop without a test. */
  __m128i a = zero, c_low = zero, h1 = zero, h2 = zero, h3 = zero;
#define PAETH_PAIR_STEP(ROW0, ROW1)                                                          \
  do {                                                                                       \
    __m128i b_low = zero, in_low = zero, in_high = zero;                                     \
    if (ROW0) {                                                                              \
      b_low = _mm_cvtepu8_epi16(load4(prior + (size_t)i * 4));                               \
      in_low = _mm_cvtepu8_epi16(load4(in0 + (size_t)i * step));                             \
    }                                                                                        \
    if (ROW1) in_high = _mm_cvtepu8_epi16(load4(in1 + (size_t)(i - 2) * step));              \
    __m128i b = _mm_unpacklo_epi64(b_low, h2);                                               \
    __m128i c = _mm_unpacklo_epi64(c_low, h3);                                               \
    __m128i filtered = _mm_unpacklo_epi64(in_low, in_high);                                  \
    __m128i k = _mm_sub_epi16(_mm_add_epi16(c, _mm_add_epi16(c, c)), b); /* 3c - b */        \
    __asm__("" : "+x"(k)); /* as in paeth_row_sse41: one operation after a */                \
    __m128i t = _mm_sub_epi16(k, a);                                                         \
    __m128i lo = _mm_min_epi16(a, b), hi = _mm_max_epi16(a, b);                              \
    __m128i t0 = _mm_blendv_epi8(lo, c, _mm_cmpgt_epi16(hi, t));                             \
    __m128i nearest = _mm_blendv_epi8(hi, t0, _mm_cmpgt_epi16(t, lo));                       \
    a = _mm_add_epi8(filtered, nearest);                                                     \
    __m128i packed = _mm_packus_epi16(a, a);                                                 \
    if (ROW0) store4(out0 + (size_t)i * 4, packed, alpha);                                   \
    if (ROW1) store4(scratch + (size_t)(i - 2) * 4, _mm_srli_si128(packed, 4), alpha);       \
    c_low = b_low;                                                                           \
    h3 = h2;                                                                                 \
    h2 = h1;                                                                                 \
    h1 = a;                                                                                  \
  } while (0)
  uint32_t i = 0;
  for (; i < 2; i++) PAETH_PAIR_STEP(1, 0);
  for (; i < width; i++) PAETH_PAIR_STEP(1, 1);
  for (; i < width + 2; i++) PAETH_PAIR_STEP(0, 1);
#undef PAETH_PAIR_STEP
}

/* Whether the processor has SSSE3 (ECX bit 9). */
static int has_ssse3(void) { return ccpu_has(CCPU_SSSE3); }

/* An RGB row filtered with None, Sub or Up, four pixels at a time with SSSE3, chosen at run
 * time: PSHUFB spreads 12 bytes of input into four RGBA pixels (alpha 0), then Up adds the row
 * above and Sub adds each pixel's left neighbours as a prefix sum inside the register (two
 * shifted adds) plus the last pixel of the four before; alpha is set to 255 last. The 16-byte
 * load reads 4 bytes past the 4 pixels: still the row's own stride, or the 16 bytes of padding
 * after the last row. The rest of the row (under 4 pixels) goes a pixel at a time. Before this,
 * every RGB row went a pixel at a time (in FHD screenshots six rows in ten are Up). */
__attribute__((target("ssse3"))) static void rgb_row_ssse3(int filter, const uint8_t *in, const uint8_t *prior,
                                                           uint8_t *out, uint32_t width) {
  const __m128i spread = _mm_setr_epi8(0, 1, 2, -128, 3, 4, 5, -128, 6, 7, 8, -128, 9, 10, 11, -128);
  const __m128i opaque = _mm_set1_epi32((int)0xff000000u);
  __m128i left = _mm_setzero_si128(); /* the pixel before, in every lane (alpha 0) */
  uint32_t x = 0;
  for (; x + 4 <= width; x += 4, in += 12, prior += 16, out += 16) {
    __m128i v = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)in), spread);
    if (filter == FILTER_UP) {
      v = _mm_add_epi8(v, _mm_loadu_si128((const __m128i *)prior));
    } else if (filter == FILTER_SUB) {
      v = _mm_add_epi8(v, _mm_slli_si128(v, 4));
      v = _mm_add_epi8(v, _mm_slli_si128(v, 8));
      v = _mm_add_epi8(v, left);
      left = _mm_shuffle_epi32(v, 0xff);
    }
    _mm_storeu_si128((__m128i *)out, _mm_or_si128(v, opaque));
  }
  for (; x < width; x++, in += 3, prior += 4, out += 4) {
    __m128i v = _mm_and_si128(load4(in), _mm_cvtsi32_si128(0x00ffffff));
    if (filter == FILTER_UP) v = _mm_add_epi8(v, load4(prior));
    else if (filter == FILTER_SUB) v = left = _mm_add_epi8(v, left);
    store4(out, v, 0xff000000u);
  }
}

static void unfilter_row(int filter, const uint8_t *in, const uint8_t *prior, uint8_t *out,
                         uint32_t width, int channels) {
  const uint32_t alpha = channels == 3 ? 0xff000000u : 0;
  const size_t step = (size_t)channels;
  const __m128i zero = _mm_setzero_si128();
  if (filter == FILTER_PAETH && has_sse41()) {
    paeth_row_sse41(in, prior, out, width, channels);
    return;
  }
  if (channels == 3 && filter <= FILTER_UP && has_ssse3()) {
    rgb_row_ssse3(filter, in, prior, out, width);
    return;
  }
  switch (filter) {
    case FILTER_NONE:
      if (channels == 4) {
        memmove(out, in, (size_t)width * 4); /* in place, the row may overlap its input */
      } else {
        for (uint32_t x = 0; x < width; x++, in += step, out += 4) store4(out, load4(in), alpha);
      }
      break;
    case FILTER_SUB: {
      __m128i a = zero;
      for (uint32_t x = 0; x < width; x++, in += step, out += 4) {
        a = _mm_add_epi8(load4(in), a);
        store4(out, a, alpha);
      }
      break;
    }
    case FILTER_UP: {
      uint32_t x = 0;
      if (channels == 4) {
        for (; x + 4 <= width; x += 4, in += 16, prior += 16, out += 16) {
          __m128i d = _mm_add_epi8(_mm_loadu_si128((const __m128i *)in),
                                   _mm_loadu_si128((const __m128i *)prior));
          _mm_storeu_si128((__m128i *)out, d);
        }
      }
      for (; x < width; x++, in += step, prior += 4, out += 4)
        store4(out, _mm_add_epi8(load4(in), load4(prior)), alpha);
      break;
    }
    case FILTER_AVERAGE: {
      const __m128i one = _mm_set1_epi8(1);
      __m128i a = zero;
      for (uint32_t x = 0; x < width; x++, in += step, prior += 4, out += 4) {
        __m128i b = load4(prior);
        /* PNG truncates; PAVGB rounds up: take 1 back where a + b is odd. */
        __m128i average = _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), one));
        a = _mm_add_epi8(load4(in), average);
        store4(out, a, alpha);
      }
      break;
    }
    case FILTER_PAETH: {
      /* 16-bit lanes; a: left, b: above, c: above left (zero at the left edge). The PNG
       * predictor in Fabian Giesen's branch-free form (stb_image): with t = 3c - (a + b),
       * lo = min(a, b) and hi = max(a, b), it is hi when t <= lo, else lo when hi <= t, else c
       * (equal to the specification's on all 2^24 (a, b, c), checked exhaustively when it was
       * written; PerformancePathTests holds it to libpng on random rows). Only t, two compares,
       * two selects and the add wait on the pixel to the left: the old form, through three
       * absolute values, two minimums, a pack and an unpack, took 2-3x as long a pixel. */
      __m128i a = zero, c = zero;
      for (uint32_t x = 0; x < width; x++, in += step, prior += 4, out += 4) {
        __m128i b = _mm_unpacklo_epi8(load4(prior), zero);
        __m128i filtered = _mm_unpacklo_epi8(load4(in), zero);
        __m128i t = _mm_sub_epi16(_mm_sub_epi16(_mm_add_epi16(c, _mm_add_epi16(c, c)), b), a);
        __m128i lo = _mm_min_epi16(a, b), hi = _mm_max_epi16(a, b);
        /* Selects as y ^ ((y ^ x) & mask): x where the mask is set, else y. */
        __m128i t0 = _mm_xor_si128(lo, _mm_and_si128(_mm_cmpgt_epi16(hi, t), _mm_xor_si128(lo, c)));
        __m128i nearest = _mm_xor_si128(hi, _mm_and_si128(_mm_cmpgt_epi16(t, lo), _mm_xor_si128(hi, t0)));
        a = _mm_add_epi8(filtered, nearest); /* bytewise: the sum mod 256, high bytes stay 0 */
        store4(out, _mm_packus_epi16(a, a), alpha);
        c = b;
      }
      break;
    }
  }
}

#else /* portable */

static void unfilter_row(int filter, const uint8_t *in, const uint8_t *prior, uint8_t *out,
                         uint32_t width, int channels) {
  static const uint8_t zero4[4] = {0, 0, 0, 0};
  for (uint32_t x = 0; x < width; x++) {
    const uint8_t *i = in + (size_t)x * channels;
    const uint8_t *b = prior + (size_t)x * 4;
    const uint8_t *a = x ? out + (size_t)x * 4 - 4 : zero4;
    const uint8_t *c = x ? b - 4 : zero4;
    uint8_t *o = out + (size_t)x * 4;
    for (int k = 0; k < channels; k++) {
      uint8_t predicted = 0;
      switch (filter) {
        case FILTER_SUB: predicted = a[k]; break;
        case FILTER_UP: predicted = b[k]; break;
        case FILTER_AVERAGE: predicted = (uint8_t)((a[k] + b[k]) >> 1); break;
        case FILTER_PAETH: predicted = cpng_paeth(a[k], b[k], c[k]); break;
        default: break;
      }
      o[k] = (uint8_t)(i[k] + predicted);
    }
    if (channels == 3) o[3] = 255;
  }
}

#endif

/* ---------------------------------------------------------------------------------------------
 * IDAT walking and inflating
 * ------------------------------------------------------------------------------------------- */

static inline uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

typedef struct {
  const uint8_t *data;
  size_t size;
  size_t next;       /* offset of the next chunk's header */
  size_t max_length; /* longest IDAT accepted (libpng refuses longer ones) */
} idat_walk;

/* The next chunk, which must be an IDAT with a valid CRC; its data in *bytes, *length. */
static int next_idat(idat_walk *walk, const uint8_t **bytes, uint32_t *length) {
  if (walk->size - walk->next < 12) return 0;
  const uint8_t *header = walk->data + walk->next;
  uint32_t n = be32(header);
  if (n > 0x7fffffffu || n > walk->max_length) return 0;
  if (memcmp(header + 4, "IDAT", 4) != 0) return 0;
  if (walk->size - walk->next - 12 < n) return 0;
  uint32_t crc = cpng_crc32(0, header + 4, 4);
  crc = cpng_crc32(crc, header + 8, n);
  if (crc != be32(header + 8 + n)) return 0;
  *bytes = header + 8;
  *length = n;
  walk->next += 12 + (size_t)n;
  return 1;
}

/* Takes `count` bytes of the zlib stream (the 2-byte header or the 4-byte trailer), which may
 * straddle chunks. */
static int take_stream_bytes(idat_walk *walk, const uint8_t **bytes, uint32_t *left,
                             uint8_t *out, int count) {
  for (int i = 0; i < count; i++) {
    while (*left == 0) {
      if (!next_idat(walk, bytes, left)) return 0;
    }
    out[i] = **bytes;
    (*bytes)++;
    (*left)--;
  }
  return 1;
}

/* Checks the Adler-32 of the inflated rows and unfilters them into `rgba`, a block of rows at a
 * time, so that a block is read from memory once for both. */
static int check_and_unfilter(const uint8_t *inflated, uint32_t width, uint32_t height, int channels,
                              uint32_t expected_adler, uint8_t *rgba) {
  const size_t stride = (size_t)width * channels + 1;
  const size_t row_out = (size_t)width * 4;
  uint8_t *zeros = calloc(1, row_out + 16);
  if (!zeros) return 0;
#if defined(__SSE2__)
  /* Two Paeth rows in a row (three Paeth rows in four, on the screenshots of scripts/bench) are
   * unfiltered together; the second goes through `scratch`. */
  const int paeth_pairs = has_sse41() && width >= 2;
  uint8_t *scratch = paeth_pairs ? malloc(row_out + 16) : NULL;
  if (paeth_pairs && !scratch) {
    free(zeros);
    return 0;
  }
#endif
  size_t rows_per_block = (64 * 1024) / stride;
  if (rows_per_block == 0) rows_per_block = 1;
  uint32_t adler = 1;
  int ok = 1;
  for (uint32_t y = 0; y < height && ok;) {
    size_t rows = height - y < rows_per_block ? height - y : rows_per_block;
    const uint8_t *block = inflated + (size_t)y * stride;
    adler = cpng_adler32(adler, block, rows * stride);
    for (size_t r = 0; r < rows; r++, y++) {
      const uint8_t *row = block + r * stride;
      if (row[0] > FILTER_PAETH) {
        ok = 0;
        break;
      }
      uint8_t *out = rgba + (size_t)y * row_out;
      const uint8_t *prior = y == 0 ? zeros : out - row_out;
#if defined(__SSE2__)
      /* The pair stays inside the block, whose Adler-32 is already summed. */
      if (paeth_pairs && row[0] == FILTER_PAETH && r + 1 < rows && row[stride] == FILTER_PAETH) {
        paeth_two_rows_sse41(row + 1, row + stride + 1, prior, out, scratch, width, channels);
        memcpy(out + row_out, scratch, row_out);
        r++;
        y++;
        continue;
      }
#endif
      unfilter_row(row[0], row + 1, prior, out, width, channels);
    }
  }
#if defined(__SSE2__)
  free(scratch);
#endif
  free(zeros);
  return ok && adler == expected_adler;
}

#if defined(CPNG_HAVE_LIBDEFLATE)

/* The whole-stream path: the IDAT chunks joined (used in place when there is one), inflated by
 * libdeflate in one call into exactly the size the header implies, then checked and unfiltered.
 * The same rules as the zlib path: the stream must fill the image exactly and end with it, its
 * Adler-32 must match, and nothing may follow it in the last chunk.
 *
 * When the output has room (capacity >= cpng_rgba_capacity), the rows are inflated into its end
 * and unfiltered forward in place: output row y starts at y * 4w, its filtered input at
 * offset + y * (cw + 1) + 1 with offset = capacity - inflated size - 16 (16 bytes for SIMD
 * loads past the last row). Writing pixel x of row y (at most 16 bytes from y * 4w + 4x, after
 * loading its input) never reaches input not yet read (from offset + y * (cw + 1) + 1 + cx + c,
 * or + 16 for 16-byte loads): for RGBA the offset is at least 48 and the input row is longer
 * than the output row; for RGB the gap closes by one byte a pixel, to offset - h * (w - 1)
 * = h + 48 at the very end. The Adler-32 of each block of rows is taken before the block is
 * unfiltered, and the rows above (the prediction) are output, which nothing writes again. */
static int decode_whole_stream(idat_walk *walk, uint32_t width, uint32_t height, int channels, uint8_t *rgba,
                               size_t capacity) {
  const size_t stride = (size_t)width * channels + 1;
  const size_t inflated_size = (size_t)height * stride;
  const uint8_t *first;
  uint32_t first_length;
  if (!next_idat(walk, &first, &first_length)) return 0;
  const uint8_t *stream = first;
  size_t stream_size = first_length;
  uint8_t *joined = NULL;
  const uint8_t *chunk;
  uint32_t chunk_length;
  while (next_idat(walk, &chunk, &chunk_length)) {
    if (!joined) {
      joined = malloc(walk->size); /* every IDAT's data together is less than the file */
      if (!joined) return 0;
      memcpy(joined, first, first_length);
      stream = joined;
    }
    memcpy(joined + stream_size, chunk, chunk_length);
    stream_size += chunk_length;
  }

  int ok = 0;
  uint8_t *inflated = NULL;
  struct libdeflate_decompressor *decompressor = NULL;
  /* The zlib header, as the zlib path takes it; then at least the 4-byte trailer. */
  if (stream_size < 2 + 4 || stream[0] != 0x78 || (stream[1] & 0x20) != 0 ||
      ((stream[0] << 8) | stream[1]) % 31 != 0)
    goto done;
  uint8_t *target;
  if (capacity >= cpng_rgba_capacity(width, height)) {
    target = rgba + (capacity - inflated_size - 16);
  } else {
    target = inflated = malloc(inflated_size + 16);
    if (!inflated) goto done;
    cpng_advise_huge_pages(inflated, inflated_size);
  }
  decompressor = libdeflate_alloc_decompressor();
  if (!decompressor) goto done;
  size_t consumed = 0, produced = 0;
  /* More data than the image: LIBDEFLATE_INSUFFICIENT_SPACE; less: `produced` falls short. */
  if (libdeflate_deflate_decompress_ex(decompressor, stream + 2, stream_size - 2, target, inflated_size,
                                       &consumed, &produced) != LIBDEFLATE_SUCCESS ||
      produced != inflated_size)
    goto done;
  /* The trailer right after the deflate stream, and nothing after it. */
  if (stream_size - 2 - consumed != 4) goto done;
  ok = check_and_unfilter(target, width, height, channels, be32(stream + 2 + consumed), rgba);

done:
  if (decompressor) libdeflate_free_decompressor(decompressor);
  free(inflated);
  free(joined);
  return ok;
}

/* Images whose inflated rows fit in this many bytes take the whole-stream path (a 4K RGBA
 * screenshot is 33 MB); larger ones stream through zlib a block at a time, so that the
 * decoder's peak memory stays the image itself. */
#define WHOLE_STREAM_LIMIT ((size_t)64 << 20)

#endif

const char *cpng_inflater(void) {
#if defined(CPNG_HAVE_LIBDEFLATE)
  return "libdeflate " LIBDEFLATE_VERSION_STRING " (zlib " ZLIB_VERSION " for images over 64 MB)";
#else
  return "zlib " ZLIB_VERSION;
#endif
}

int cpng_fast_decode(const uint8_t *data, size_t size, size_t idat_header, uint32_t width,
                     uint32_t height, int channels, uint8_t *rgba, size_t capacity) {
  if ((channels != 3 && channels != 4) || width == 0 || height == 0) return 0;
  if (idat_header > size) return 0;
  const size_t row_in = (size_t)width * channels;
  const size_t stride = row_in + 1; /* the filter byte, then the row */
  const size_t row_out = (size_t)width * 4;
  if (stride > (size_t)UINT32_MAX / 2) return 0;

  idat_walk walk = {data, size, idat_header, 0};
  /* libpng's own IDAT length limit (png_check_chunk_length: the raw size plus zlib's worst-case
   * overhead; libpng allows the larger of this and its chunk-malloc limit, never less). */
  {
    size_t row_factor = stride;
    size_t limit = height > UINT32_MAX / row_factor ? 0x7fffffffu : (size_t)height * row_factor;
    if (row_factor > 32566) row_factor = 32566;
    limit += 6 + 5 * (limit / row_factor + 1);
    walk.max_length = limit < 0x7fffffffu ? limit : 0x7fffffffu;
  }

#if defined(CPNG_HAVE_LIBDEFLATE)
  if ((size_t)height * stride <= WHOLE_STREAM_LIMIT) return decode_whole_stream(&walk, width, height, channels, rgba, capacity);
#endif

  const uint8_t *in = NULL;
  uint32_t in_left = 0;

  /* The zlib header: deflate, a 32 KiB window (libpng's too, so "too far back" means the same),
   * no preset dictionary, a valid check value. Anything else goes to libpng. */
  uint8_t header[2];
  if (!take_stream_bytes(&walk, &in, &in_left, header, 2)) return 0;
  if (header[0] != 0x78 || (header[1] & 0x20) != 0 || ((header[0] << 8) | header[1]) % 31 != 0)
    return 0;

  /* Rows are inflated a block at a time: zlib's fast loop runs on large buffers, and the block
   * stays in cache while it is checked and unfiltered. */
  size_t rows_per_block = (64 * 1024) / stride;
  if (rows_per_block == 0) rows_per_block = 1;
  if (rows_per_block > height) rows_per_block = height;
  const size_t block_bytes = rows_per_block * stride;
  uint8_t *block = malloc(block_bytes + 16);
  uint8_t *zeros = calloc(1, row_out + 16);
  if (!block || !zeros) {
    free(block);
    free(zeros);
    return 0;
  }

  z_stream zs;
  memset(&zs, 0, sizeof zs);
  if (inflateInit2(&zs, -15) != Z_OK) {
    free(block);
    free(zeros);
    return 0;
  }

  int ok = 0;
  int ended = 0;
  uint32_t adler = 1;
  uint32_t y = 0;
  while (y < height) {
    size_t rows = height - y < rows_per_block ? height - y : rows_per_block;
    size_t want = rows * stride;
    zs.next_out = block;
    zs.avail_out = (uInt)want;
    while (zs.avail_out > 0) {
      if (ended) goto done; /* the stream ended before the image did */
      if (in_left == 0) {
        if (!next_idat(&walk, &in, &in_left)) goto done;
        continue;
      }
      zs.next_in = in;
      zs.avail_in = in_left;
      int status = inflate(&zs, Z_NO_FLUSH);
      in_left = zs.avail_in;
      in = zs.next_in;
      if (status == Z_STREAM_END) ended = 1;
      else if (status != Z_OK) goto done;
    }
    adler = cpng_adler32(adler, block, want);
    for (size_t r = 0; r < rows; r++, y++) {
      const uint8_t *row = block + r * stride;
      if (row[0] > FILTER_PAETH) goto done;
      uint8_t *out = rgba + (size_t)y * row_out;
      unfilter_row(row[0], row + 1, y == 0 ? zeros : out - row_out, out, width, channels);
    }
  }

  /* Every row is there: the stream must end now, with no data left over. */
  while (!ended) {
    uint8_t extra;
    zs.next_out = &extra;
    zs.avail_out = 1;
    if (in_left == 0) {
      if (!next_idat(&walk, &in, &in_left)) goto done;
      continue;
    }
    zs.next_in = in;
    zs.avail_in = in_left;
    int status = inflate(&zs, Z_NO_FLUSH);
    in_left = zs.avail_in;
    in = zs.next_in;
    if (zs.avail_out == 0) goto done; /* more image data than the image */
    if (status == Z_STREAM_END) ended = 1;
    else if (status != Z_OK) goto done;
  }

  uint8_t trailer[4];
  if (!take_stream_bytes(&walk, &in, &in_left, trailer, 4)) goto done;
  if (be32(trailer) != adler) goto done;
  /* Bytes after the stream in the last chunk: libpng calls that a benign error; let it judge. */
  if (in_left != 0) goto done;
  ok = 1;

done:
  inflateEnd(&zs);
  free(block);
  free(zeros);
  return ok;
}
