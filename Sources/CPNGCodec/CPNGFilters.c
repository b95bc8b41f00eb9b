#include "CPNGFilters.h"

#include <stdlib.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Byte i of row filtered with `filter` (a: the byte a pixel to the left, b: above, c: above
 * left; zeros past the row's start, which the zero bytes before the rows give). */
static inline uint8_t filtered_byte(int filter, const uint8_t *row, const uint8_t *prior, size_t i, int bpp) {
  uint8_t x = row[i], a = row[(ptrdiff_t)i - bpp], b = prior[i], c = prior[(ptrdiff_t)i - bpp];
  switch (filter) {
  case FILTER_SUB: return (uint8_t)(x - a);
  case FILTER_UP: return (uint8_t)(x - b);
  case FILTER_AVERAGE: return (uint8_t)(x - ((a + b) >> 1));
  case FILTER_PAETH: return (uint8_t)(x - cpng_paeth(a, b, c));
  default: return x;
  }
}

#if defined(__SSE2__)

/* floor((a + b) / 2), 16 bytes: PAVGB rounds up, so take off the bit it added. */
static inline __m128i average_16(__m128i a, __m128i b) {
  return _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), _mm_set1_epi8(1)));
}

/* Paeth's predictor, 16 bytes, in 16-bit lanes: pa = |b - c|, pb = |a - c|, pc = |a + b - 2c|;
 * a if pa <= pb and pa <= pc, else b if pb <= pc, else c. */
static inline __m128i paeth_16(__m128i a, __m128i b, __m128i c) {
  const __m128i zero = _mm_setzero_si128();
  __m128i predicted[2];
  for (int half = 0; half < 2; half++) {
    __m128i a16 = half ? _mm_unpackhi_epi8(a, zero) : _mm_unpacklo_epi8(a, zero);
    __m128i b16 = half ? _mm_unpackhi_epi8(b, zero) : _mm_unpacklo_epi8(b, zero);
    __m128i c16 = half ? _mm_unpackhi_epi8(c, zero) : _mm_unpacklo_epi8(c, zero);
    __m128i pa = _mm_sub_epi16(b16, c16), pb = _mm_sub_epi16(a16, c16);
    __m128i pc = _mm_add_epi16(pa, pb);
    pa = _mm_max_epi16(pa, _mm_sub_epi16(zero, pa));
    pb = _mm_max_epi16(pb, _mm_sub_epi16(zero, pb));
    pc = _mm_max_epi16(pc, _mm_sub_epi16(zero, pc));
    __m128i take_a = _mm_and_si128(_mm_cmpgt_epi16(_mm_add_epi16(pb, _mm_set1_epi16(1)), pa),
                                   _mm_cmpgt_epi16(_mm_add_epi16(pc, _mm_set1_epi16(1)), pa));
    __m128i take_b = _mm_cmpgt_epi16(_mm_add_epi16(pc, _mm_set1_epi16(1)), pb);
    __m128i b_or_c = _mm_or_si128(_mm_and_si128(take_b, b16), _mm_andnot_si128(take_b, c16));
    predicted[half] = _mm_or_si128(_mm_and_si128(take_a, a16), _mm_andnot_si128(take_a, b_or_c));
  }
  return _mm_packus_epi16(predicted[0], predicted[1]);
}

/* The 16 bytes at i: x the row's, a a pixel to the left, b above, c above left. */
typedef struct {
  __m128i x, a, b, c;
} neighbours_16;

static inline neighbours_16 load_16(const uint8_t *row, const uint8_t *prior, size_t i, int bpp) {
  return (neighbours_16){_mm_loadu_si128((const __m128i *)(row + i)), _mm_loadu_si128((const __m128i *)(row + i - bpp)),
                         _mm_loadu_si128((const __m128i *)(prior + i)),
                         _mm_loadu_si128((const __m128i *)(prior + i - bpp))};
}

/* The five filters' outputs for the 16 bytes at i (to choose one). */
static inline void filter_16(const uint8_t *row, const uint8_t *prior, size_t i, int bpp, __m128i out[FILTERS]) {
  const neighbours_16 n = load_16(row, prior, i, bpp);
  out[FILTER_NONE] = n.x;
  out[FILTER_SUB] = _mm_sub_epi8(n.x, n.a);
  out[FILTER_UP] = _mm_sub_epi8(n.x, n.b);
  out[FILTER_AVERAGE] = _mm_sub_epi8(n.x, average_16(n.a, n.b));
  out[FILTER_PAETH] = _mm_sub_epi8(n.x, paeth_16(n.a, n.b, n.c));
}

/* One filter's output for the 16 bytes at i (the chosen one: the others are not computed). */
static inline __m128i filtered_16(int filter, const uint8_t *row, const uint8_t *prior, size_t i, int bpp) {
  const neighbours_16 n = load_16(row, prior, i, bpp);
  switch (filter) {
  case FILTER_SUB: return _mm_sub_epi8(n.x, n.a);
  case FILTER_UP: return _mm_sub_epi8(n.x, n.b);
  case FILTER_AVERAGE: return _mm_sub_epi8(n.x, average_16(n.a, n.b));
  case FILTER_PAETH: return _mm_sub_epi8(n.x, paeth_16(n.a, n.b, n.c));
  default: return n.x;
  }
}

void cpng_filter_row(const uint8_t *row, const uint8_t *prior, size_t row_bytes, int bpp, uint8_t *out) {
  /* 1. Each filter's sum of |byte| (as signed: min(v, 256 - v)), 16 bytes at a time; the last
   *    16 masked to the row. */
  const __m128i zero = _mm_setzero_si128();
  __m128i sums[FILTERS];
  for (int f = 0; f < FILTERS; f++) sums[f] = zero;
  for (size_t i = 0; i < row_bytes; i += 16) {
    __m128i filtered[FILTERS];
    filter_16(row, prior, i, bpp, filtered);
    __m128i keep = _mm_set1_epi8(-1);
    if (row_bytes - i < 16) {
      /* Bytes past the row: lanes whose index is at least row_bytes - i. */
      const __m128i lanes = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
      keep = _mm_cmpgt_epi8(_mm_set1_epi8((char)(row_bytes - i)), lanes);
    }
    for (int f = 0; f < FILTERS; f++) {
      __m128i magnitude = _mm_min_epu8(filtered[f], _mm_sub_epi8(zero, filtered[f]));
      sums[f] = _mm_add_epi64(sums[f], _mm_sad_epu8(_mm_and_si128(magnitude, keep), zero));
    }
  }
  int best = FILTER_NONE;
  uint64_t best_sum = UINT64_MAX;
  for (int f = 0; f < FILTERS; f++) {
    uint64_t sum = (uint64_t)_mm_cvtsi128_si64(sums[f]) + (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums[f], sums[f]));
    if (sum < best_sum) {
      best_sum = sum;
      best = f;
    }
  }
  /* 2. The chosen filter's bytes. */
  out[0] = (uint8_t)best;
  size_t i = 0;
  for (; i + 16 <= row_bytes; i += 16) _mm_storeu_si128((__m128i *)(out + 1 + i), filtered_16(best, row, prior, i, bpp));
  for (; i < row_bytes; i++) out[1 + i] = filtered_byte(best, row, prior, i, bpp);
}

#else

void cpng_filter_row(const uint8_t *row, const uint8_t *prior, size_t row_bytes, int bpp, uint8_t *out) {
  int best = FILTER_NONE;
  uint64_t best_sum = UINT64_MAX;
  for (int f = 0; f < FILTERS; f++) {
    uint64_t sum = 0;
    for (size_t i = 0; i < row_bytes; i++) {
      uint8_t v = filtered_byte(f, row, prior, i, bpp);
      sum += v < 128 ? v : 256 - v;
    }
    if (sum < best_sum) {
      best_sum = sum;
      best = f;
    }
  }
  out[0] = (uint8_t)best;
  for (size_t i = 0; i < row_bytes; i++) out[1 + i] = filtered_byte(best, row, prior, i, bpp);
}

#endif
