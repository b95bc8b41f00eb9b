#include "CRunDeflate.h"

#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/*
 * How it works. The input is read once, left to right. At each byte it tries two matches: the
 * row above (distance `stride`) and the byte before (distance 1, a run), each measured sixteen
 * bytes at a time, and takes the longer when it is at least 3 bytes; else the byte is a literal
 * (with SSE2, sixteen positions at a time are checked for any match start first, so a stretch of
 * literals costs no branch a byte). Tokens go to a buffer of `BLOCK_TOKENS` while their symbols are counted; a full buffer (or the
 * end) becomes one block with Huffman codes built for it (length-limited to 15 bits) or, when
 * that would be larger, stored blocks. zlib at level 1 also hashes every position to find
 * matches anywhere in its 32 KiB window; in a diff image (26 grays and a few marker colours)
 * nearly every match it finds is one of these two, so that work buys little.
 */

#define BLOCK_TOKENS 32768
#define MAX_MATCH 258
#define MIN_MATCH 3
#define MAX_DISTANCE 32768
#define END_OF_BLOCK 256
#define LITLEN_SYMBOLS 286
#define DISTANCE_SYMBOLS 30
#define CODE_LENGTH_SYMBOLS 19
#define MAX_CODE_BITS 15
#define MAX_CODE_LENGTH_BITS 7
#define STORED_MAX 65535

/* ---------------------------------------------------------------------------------------------
 * Bits, least significant first (RFC 1951 3.1.1)
 * ------------------------------------------------------------------------------------------- */

typedef struct {
  uint8_t *out;
  uint64_t bits;
  unsigned count; /* bits waiting in `bits`, always < 32 between calls */
} bit_writer;

/* Appends the low `n` (at most 32) bits of `value`; the caller made room for them. */
static inline void put_bits(bit_writer *w, uint32_t value, unsigned n) {
  w->bits |= (uint64_t)value << w->count;
  w->count += n;
  if (w->count >= 32) {
    uint32_t word = (uint32_t)w->bits;
    w->out[0] = (uint8_t)word;
    w->out[1] = (uint8_t)(word >> 8);
    w->out[2] = (uint8_t)(word >> 16);
    w->out[3] = (uint8_t)(word >> 24);
    w->out += 4;
    w->bits >>= 32;
    w->count -= 32;
  }
}

/* Pads to a byte boundary with zero bits and writes out what is waiting. */
static void align_to_byte(bit_writer *w) {
  unsigned bytes = (w->count + 7) / 8;
  for (unsigned i = 0; i < bytes; i++) *w->out++ = (uint8_t)(w->bits >> (8 * i));
  w->bits = 0;
  w->count = 0;
}

/* ---------------------------------------------------------------------------------------------
 * Symbols of lengths and distances (RFC 1951 3.2.5)
 * ------------------------------------------------------------------------------------------- */

typedef struct {
  uint16_t symbol;
  uint8_t extra_bits;
  uint16_t extra;
} coded;

static inline unsigned highest_bit(uint32_t n) { return 31u - (unsigned)__builtin_clz(n); }

/* Length 3...258 as symbol 257...285 and its extra bits. */
static inline coded length_code(unsigned length) {
  if (length == MAX_MATCH) return (coded){285, 0, 0};
  if (length <= 10) return (coded){(uint16_t)(254 + length), 0, 0};
  unsigned n = length - 3, top = highest_bit(n);
  return (coded){(uint16_t)(257 + 4 * (top - 1) + ((n >> (top - 2)) & 3)), (uint8_t)(top - 2),
                 (uint16_t)(n & ((1u << (top - 2)) - 1))};
}

/* Distance 1...32768 as symbol 0...29 and its extra bits. */
static inline coded distance_code(unsigned distance) {
  if (distance <= 4) return (coded){(uint16_t)(distance - 1), 0, 0};
  unsigned n = distance - 1, top = highest_bit(n);
  return (coded){(uint16_t)(2 * top + ((n >> (top - 1)) & 1)), (uint8_t)(top - 1),
                 (uint16_t)(n & ((1u << (top - 1)) - 1))};
}

/* ---------------------------------------------------------------------------------------------
 * Huffman codes
 * ------------------------------------------------------------------------------------------- */

typedef struct {
  uint32_t frequency;
  uint16_t symbol;
} leaf;

static int by_frequency(const void *a, const void *b) {
  const leaf *x = a, *y = b;
  if (x->frequency != y->frequency) return x->frequency < y->frequency ? -1 : 1;
  return (int)x->symbol - (int)y->symbol;
}

/*
 * Code lengths for `count` symbols of `frequencies`, none longer than `max_bits`: Huffman's
 * (two queues over the leaves sorted by frequency), and when some code comes out longer, the
 * frequencies halved (each kept at least 1) and the codes built again, which flattens the tree.
 * A code of one used symbol gets a second, unused symbol, so that every code is complete.
 */
static void build_lengths(const uint32_t *frequencies, int count, int max_bits, uint8_t *lengths) {
  leaf leaves[LITLEN_SYMBOLS];
  uint32_t scaled[LITLEN_SYMBOLS];
  memset(lengths, 0, (size_t)count);
  int used = 0;
  for (int s = 0; s < count; s++) {
    scaled[s] = frequencies[s];
    if (frequencies[s]) used++;
  }
  if (used == 0) return;
  if (used == 1) {
    for (int s = 0; s < count; s++)
      if (frequencies[s]) lengths[s] = 1;
    lengths[frequencies[0] ? 1 : 0] = 1;
    return;
  }
  for (;;) {
    int n = 0;
    for (int s = 0; s < count; s++)
      if (scaled[s]) leaves[n++] = (leaf){scaled[s], (uint16_t)s};
    qsort(leaves, (size_t)n, sizeof *leaves, by_frequency);
    /* Nodes 0..n-1 are the leaves in order, n.. the merged ones, made in order of weight. */
    uint64_t weight[2 * LITLEN_SYMBOLS];
    int parent[2 * LITLEN_SYMBOLS];
    for (int i = 0; i < n; i++) weight[i] = leaves[i].frequency;
    int next_leaf = 0, next_node = n, made = n;
    for (int k = 0; k < n - 1; k++) {
      int pick[2];
      for (int j = 0; j < 2; j++) {
        if (next_leaf < n && (next_node >= made || weight[next_leaf] <= weight[next_node]))
          pick[j] = next_leaf++;
        else
          pick[j] = next_node++;
      }
      weight[made] = weight[pick[0]] + weight[pick[1]];
      parent[pick[0]] = parent[pick[1]] = made;
      made++;
    }
    /* Depths from the root (the last node) down: a parent is always made after its children. */
    uint8_t depth[2 * LITLEN_SYMBOLS];
    if (made < 1) return; /* cannot happen: two symbols or more make three nodes */
    depth[made - 1] = 0;
    int longest = 0;
    for (int i = made - 2; i >= 0; i--) {
      depth[i] = (uint8_t)(depth[parent[i]] + 1);
      if (i < n && depth[i] > longest) longest = depth[i];
    }
    if (longest <= max_bits) {
      for (int i = 0; i < n; i++) lengths[leaves[i].symbol] = depth[i];
      return;
    }
    for (int s = 0; s < count; s++)
      if (scaled[s]) scaled[s] = (scaled[s] >> 1) | 1;
  }
}

/* Canonical codes for `lengths` (RFC 1951 3.2.2), bit-reversed to be written least significant
 * bit first. */
static void build_codes(const uint8_t *lengths, int count, uint16_t *codes) {
  uint16_t per_length[MAX_CODE_BITS + 1] = {0};
  for (int s = 0; s < count; s++) per_length[lengths[s]]++;
  per_length[0] = 0;
  uint16_t next[MAX_CODE_BITS + 1];
  uint16_t code = 0;
  for (int bits = 1; bits <= MAX_CODE_BITS; bits++) {
    code = (uint16_t)((code + per_length[bits - 1]) << 1);
    next[bits] = code;
  }
  for (int s = 0; s < count; s++) {
    int bits = lengths[s];
    if (!bits) continue;
    uint16_t c = next[bits]++, reversed = 0;
    for (int b = 0; b < bits; b++) reversed = (uint16_t)(reversed | (((c >> b) & 1) << (bits - 1 - b)));
    codes[s] = reversed;
  }
}

/* ---------------------------------------------------------------------------------------------
 * Blocks
 * ------------------------------------------------------------------------------------------- */

/* A token: a literal byte (bit 31 clear) or a match (bit 31, length << 16, distance). */
#define MATCH_BIT 0x80000000u

typedef struct {
  uint32_t tokens[BLOCK_TOKENS];
  int count;
  uint32_t litlen[LITLEN_SYMBOLS];
  uint32_t distance[DISTANCE_SYMBOLS];
} block;

/* The code lengths of both codes, run-length coded with symbols 16, 17 and 18 (RFC 1951 3.2.7):
 * each entry a symbol in its low 5 bits and its repeat count above them. */
static int code_length_runs(const uint8_t *lengths, int count, uint16_t *runs, uint32_t *frequencies) {
  int n = 0;
  for (int i = 0; i < count;) {
    uint8_t value = lengths[i];
    int repeat = 1;
    while (i + repeat < count && lengths[i + repeat] == value) repeat++;
    i += repeat;
    if (value == 0) {
      while (repeat >= 11) {
        int take = repeat > 138 ? 138 : repeat;
        runs[n++] = (uint16_t)(18 | (take << 5));
        frequencies[18]++;
        repeat -= take;
      }
      if (repeat >= 3) {
        runs[n++] = (uint16_t)(17 | (repeat << 5));
        frequencies[17]++;
        repeat = 0;
      }
    } else {
      runs[n++] = value;
      frequencies[value]++;
      repeat--;
      while (repeat >= 3) {
        int take = repeat > 6 ? 6 : repeat;
        runs[n++] = (uint16_t)(16 | (take << 5));
        frequencies[16]++;
        repeat -= take;
      }
    }
    while (repeat-- > 0) {
      runs[n++] = value;
      frequencies[value]++;
    }
  }
  return n;
}

static const uint8_t code_length_order[CODE_LENGTH_SYMBOLS] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                                              11, 4,  12, 3, 13, 2, 14, 1, 15};

static void put_stored(bit_writer *w, const uint8_t *bytes, size_t size, int final) {
  do {
    size_t take = size > STORED_MAX ? STORED_MAX : size;
    put_bits(w, (final && take == size) ? 1 : 0, 3);
    align_to_byte(w);
    w->out[0] = (uint8_t)take;
    w->out[1] = (uint8_t)(take >> 8);
    w->out[2] = (uint8_t)~take;
    w->out[3] = (uint8_t)(~take >> 8);
    memcpy(w->out + 4, bytes, take);
    w->out += 4 + take;
    bytes += take;
    size -= take;
  } while (size > 0);
}

/* Writes the block's tokens (the bytes `raw`, `raw_size` long) with its own Huffman codes, or
 * as stored blocks when those are smaller. */
static void put_block(bit_writer *w, block *b, const uint8_t *raw, size_t raw_size, int final) {
  b->litlen[END_OF_BLOCK]++;
  uint8_t lengths[LITLEN_SYMBOLS + DISTANCE_SYMBOLS];
  uint8_t *litlen_lengths = lengths, *distance_lengths = lengths + LITLEN_SYMBOLS;
  build_lengths(b->litlen, LITLEN_SYMBOLS, MAX_CODE_BITS, litlen_lengths);
  build_lengths(b->distance, DISTANCE_SYMBOLS, MAX_CODE_BITS, distance_lengths);
  if (!distance_lengths[0] && !distance_lengths[1]) distance_lengths[0] = distance_lengths[1] = 1;
  int hlit = LITLEN_SYMBOLS, hdist = DISTANCE_SYMBOLS;
  while (hlit > 257 && !litlen_lengths[hlit - 1]) hlit--;
  while (hdist > 1 && !distance_lengths[hdist - 1]) hdist--;

  /* Both codes' lengths, one after the other, run-length coded. */
  uint8_t sequence[LITLEN_SYMBOLS + DISTANCE_SYMBOLS];
  memcpy(sequence, litlen_lengths, (size_t)hlit);
  memcpy(sequence + hlit, distance_lengths, (size_t)hdist);
  uint16_t runs[LITLEN_SYMBOLS + DISTANCE_SYMBOLS];
  uint32_t run_frequencies[CODE_LENGTH_SYMBOLS] = {0};
  int run_count = code_length_runs(sequence, hlit + hdist, runs, run_frequencies);
  uint8_t run_lengths[CODE_LENGTH_SYMBOLS];
  build_lengths(run_frequencies, CODE_LENGTH_SYMBOLS, MAX_CODE_LENGTH_BITS, run_lengths);
  int hclen = CODE_LENGTH_SYMBOLS;
  while (hclen > 4 && !run_lengths[code_length_order[hclen - 1]]) hclen--;

  /* Its size in bits, against stored blocks'. */
  static const uint8_t run_extra_bits[3] = {2, 3, 7};
  uint64_t bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)hclen;
  for (int s = 0; s < CODE_LENGTH_SYMBOLS; s++)
    bits += (uint64_t)run_frequencies[s] * (run_lengths[s] + (s >= 16 ? run_extra_bits[s - 16] : 0));
  for (int s = 0; s < LITLEN_SYMBOLS; s++) {
    unsigned extra = s >= 265 && s < 285 ? (unsigned)(s - 261) / 4 : 0;
    bits += (uint64_t)b->litlen[s] * (litlen_lengths[s] + extra);
  }
  for (int s = 0; s < DISTANCE_SYMBOLS; s++) {
    unsigned extra = s >= 4 ? (unsigned)s / 2 - 1 : 0;
    bits += (uint64_t)b->distance[s] * (distance_lengths[s] + extra);
  }
  uint64_t stored_bits = 8 * ((uint64_t)raw_size + 5 * (raw_size / STORED_MAX + 1)) + 7;
  if (bits >= stored_bits) {
    put_stored(w, raw, raw_size, final);
    return;
  }

  uint16_t litlen_codes[LITLEN_SYMBOLS], distance_codes[DISTANCE_SYMBOLS], run_codes[CODE_LENGTH_SYMBOLS];
  build_codes(litlen_lengths, LITLEN_SYMBOLS, litlen_codes);
  build_codes(distance_lengths, DISTANCE_SYMBOLS, distance_codes);
  build_codes(run_lengths, CODE_LENGTH_SYMBOLS, run_codes);

  put_bits(w, final ? 1 : 0, 1);
  put_bits(w, 2, 2); /* dynamic Huffman codes */
  put_bits(w, (uint32_t)(hlit - 257), 5);
  put_bits(w, (uint32_t)(hdist - 1), 5);
  put_bits(w, (uint32_t)(hclen - 4), 4);
  for (int i = 0; i < hclen; i++) put_bits(w, run_lengths[code_length_order[i]], 3);
  for (int i = 0; i < run_count; i++) {
    unsigned symbol = runs[i] & 31, repeat = runs[i] >> 5;
    put_bits(w, run_codes[symbol], run_lengths[symbol]);
    if (symbol == 16) put_bits(w, repeat - 3, 2);
    if (symbol == 17) put_bits(w, repeat - 3, 3);
    if (symbol == 18) put_bits(w, repeat - 11, 7);
  }
  for (int i = 0; i < b->count; i++) {
    uint32_t token = b->tokens[i];
    if (!(token & MATCH_BIT)) {
      put_bits(w, litlen_codes[token], litlen_lengths[token]);
      continue;
    }
    coded length = length_code((token >> 16) & 0x1ff);
    coded distance = distance_code(token & 0xffff);
    put_bits(w, litlen_codes[length.symbol] | ((uint32_t)length.extra << litlen_lengths[length.symbol]),
             litlen_lengths[length.symbol] + length.extra_bits);
    put_bits(w, distance_codes[distance.symbol] | ((uint32_t)distance.extra << distance_lengths[distance.symbol]),
             distance_lengths[distance.symbol] + distance.extra_bits);
  }
  put_bits(w, litlen_codes[END_OF_BLOCK], litlen_lengths[END_OF_BLOCK]);
}

/* ---------------------------------------------------------------------------------------------
 * Matching
 * ------------------------------------------------------------------------------------------- */

/* How many bytes from the start `a` and `b` agree, at most `limit`; sixteen or eight at a
 * time. */
static inline size_t common_length(const uint8_t *a, const uint8_t *b, size_t limit) {
  size_t n = 0;
#if defined(__SSE2__)
  while (n + 16 <= limit) {
    unsigned same = (unsigned)_mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(a + n)), _mm_loadu_si128((const __m128i *)(b + n))));
    if (same != 0xffff) return n + (size_t)__builtin_ctz(~same);
    n += 16;
  }
#endif
  while (n + 8 <= limit) {
    uint64_t x, y;
    memcpy(&x, a + n, 8);
    memcpy(&y, b + n, 8);
    uint64_t differ = x ^ y;
    if (differ) return n + ((size_t)__builtin_ctzll(differ) >> 3);
    n += 8;
  }
  while (n < limit && a[n] == b[n]) n++;
  return n;
}

/* Whether the first three bytes at `a` and `b` agree (what a match needs). */
static inline int starts_alike(const uint8_t *a, const uint8_t *b) {
  return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

#if defined(__SSE2__)
/* Bit j set when a match of at least 3 bytes at distance `distance` starts at p + j, j < 16
 * (reads p - distance up to p + 18). Where text is drawn, most bytes start no match: sixteen
 * are ruled out at once, without a branch each that the processor cannot predict. */
static inline uint32_t match_starts(const uint8_t *p, size_t distance) {
  const uint8_t *q = p - distance;
  __m128i same = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), _mm_loadu_si128((const __m128i *)q));
  same = _mm_and_si128(same, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 1)),
                                            _mm_loadu_si128((const __m128i *)(q + 1))));
  same = _mm_and_si128(same, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + 2)),
                                            _mm_loadu_si128((const __m128i *)(q + 2))));
  return (uint32_t)_mm_movemask_epi8(same);
}
#endif

size_t run_deflate_bound(size_t size) {
  /* A block is never larger than its bytes stored (5 bytes a stored block of at most 65535,
   * and a byte of padding: at most 6 bytes a block, 5 more every 65535 bytes); every block but
   * the last holds more than BLOCK_TOKENS - 16 tokens, so at least as many bytes; then the flush
   * (an empty stored block) and a last byte of bits. */
  return size + 6 * (size / (BLOCK_TOKENS - 16) + 1) + 5 * (size / STORED_MAX + 1) + 5 + 8;
}

size_t run_deflate(const uint8_t *data, size_t size, size_t history, size_t stride, int final,
                   uint8_t *out, size_t capacity) {
  if (capacity < run_deflate_bound(size)) return 0;
  block *b = malloc(sizeof *b);
  if (!b) return 0;
  bit_writer w = {out, 0, 0};
  const int rows = stride > 0 && stride <= MAX_DISTANCE;
  size_t block_start = 0, i = 0;
  memset(b->litlen, 0, sizeof b->litlen);
  memset(b->distance, 0, sizeof b->distance);
  b->count = 0;
  const coded row_distance = distance_code(rows ? (unsigned)stride : 1);
  while (i < size) {
    const uint8_t *p = data + i;
#if defined(__SSE2__)
    /* A stretch of literals, up to 16 at once. */
    if (size - i >= 18 && i + history >= 1) {
      uint32_t starts = match_starts(p, 1);
      if (rows && i + history >= stride) starts |= match_starts(p, stride);
      if (!(starts & 1)) {
        unsigned literals = starts ? (unsigned)__builtin_ctz(starts) : 16;
        for (unsigned k = 0; k < literals; k++) {
          b->tokens[b->count + k] = p[k];
          b->litlen[p[k]]++;
        }
        b->count += (int)literals;
        i += literals;
        goto next;
      }
    }
#endif
    size_t limit = size - i < MAX_MATCH ? size - i : MAX_MATCH;
    size_t best = 0;
    unsigned distance = 0;
    if (limit >= MIN_MATCH) {
      if (rows && i + history >= stride && starts_alike(p, p - stride)) {
        best = common_length(p, p - stride, limit);
        distance = (unsigned)stride;
      }
      if (best < limit && i + history >= 1 && starts_alike(p, p - 1)) {
        size_t run = common_length(p, p - 1, limit);
        if (run > best) {
          best = run;
          distance = 1;
        }
      }
    }
    if (best >= MIN_MATCH) {
      b->tokens[b->count++] = MATCH_BIT | ((uint32_t)best << 16) | (distance & 0xffff);
      b->litlen[length_code((unsigned)best).symbol]++;
      b->distance[distance == 1 ? 0 : row_distance.symbol]++;
      i += best;
    } else {
      b->tokens[b->count++] = *p;
      b->litlen[*p]++;
      i++;
    }
  next:
    if (b->count > BLOCK_TOKENS - 16 || i == size) {
      put_block(&w, b, data + block_start, i - block_start, final && i == size);
      block_start = i;
      memset(b->litlen, 0, sizeof b->litlen);
      memset(b->distance, 0, sizeof b->distance);
      b->count = 0;
    }
  }
  if (size == 0 && final) {
    put_bits(&w, 1 | (1 << 1), 3); /* a final block of fixed codes ... */
    put_bits(&w, 0, 7);            /* ... holding only its end (code 256: seven 0 bits) */
  }
  if (!final) {
    put_bits(&w, 0, 3); /* an empty stored block: zlib's sync flush */
    align_to_byte(&w);
    static const uint8_t empty[4] = {0, 0, 0xff, 0xff};
    memcpy(w.out, empty, 4);
    w.out += 4;
  }
  align_to_byte(&w);
  free(b);
  return (size_t)(w.out - out);
}
