#include "CSHA256.h"

#include "CCPUFeatures.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

int csha256_hardware(void) { return ccpu_has(CCPU_SSSE3 | CCPU_SSE4_1 | CCPU_SHA); }

static const uint32_t k[64] __attribute__((aligned(16))) = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* Four rounds: the message words plus their constants, two rounds per sha256rnds2 (the second
 * takes the upper two words). State is kept as ABEF and CDGH, the order the instruction wants. */
#define ROUNDS4(w, i)                                                                            \
  do {                                                                                           \
    __m128i m = _mm_add_epi32((w), _mm_load_si128((const __m128i *)(k + 4 * (i))));             \
    cdgh = _mm_sha256rnds2_epu32(cdgh, abef, m);                                                 \
    m = _mm_shuffle_epi32(m, 0x0E);                                                              \
    abef = _mm_sha256rnds2_epu32(abef, cdgh, m);                                                 \
  } while (0)

/* The next four schedule words into w0, from the four groups before them (w0 the oldest):
 * W[t-16] + sigma0(W[t-15]) (msg1), + W[t-7] (the words straddling w2 and w3), + sigma1(W[t-2])
 * (msg2). */
#define SCHEDULE(w0, w1, w2, w3)                                                                 \
  w0 = _mm_sha256msg2_epu32(                                                                     \
      _mm_add_epi32(_mm_sha256msg1_epu32(w0, w1), _mm_alignr_epi8(w3, w2, 4)), w3)

__attribute__((target("sha,sse4.1"))) static void blocks(uint32_t state[8], const uint8_t *data,
                                                          size_t count) {
  const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
  __m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
  __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
  __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);

  for (; count > 0; count--, data += 64) {
    const __m128i abef_before = abef, cdgh_before = cdgh;
    __m128i w0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 0)), swap);
    __m128i w1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16)), swap);
    __m128i w2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 32)), swap);
    __m128i w3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 48)), swap);
    ROUNDS4(w0, 0);
    ROUNDS4(w1, 1);
    ROUNDS4(w2, 2);
    ROUNDS4(w3, 3);
    for (int i = 4; i < 16; i += 4) {
      SCHEDULE(w0, w1, w2, w3);
      ROUNDS4(w0, i);
      SCHEDULE(w1, w2, w3, w0);
      ROUNDS4(w1, i + 1);
      SCHEDULE(w2, w3, w0, w1);
      ROUNDS4(w2, i + 2);
      SCHEDULE(w3, w0, w1, w2);
      ROUNDS4(w3, i + 3);
    }
    abef = _mm_add_epi32(abef, abef_before);
    cdgh = _mm_add_epi32(cdgh, cdgh_before);
  }

  __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

void csha256_digest(const uint8_t *data, size_t size, uint32_t digest[8]) {
  uint32_t state[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  size_t full = size / 64;
  if (full > 0) blocks(state, data, full);
  /* The rest, 0x80, zeros to 56 mod 64 and the length in bits, big-endian: one or two blocks,
   * copied, so nothing past data[size - 1] is read. */
  uint8_t tail[128];
  size_t rest = size - full * 64;
  memset(tail, 0, sizeof tail);
  if (rest > 0) memcpy(tail, data + full * 64, rest);
  tail[rest] = 0x80;
  size_t tail_blocks = rest < 56 ? 1 : 2;
  uint64_t bits = (uint64_t)size * 8;
  for (int i = 0; i < 8; i++) tail[tail_blocks * 64 - 1 - i] = (uint8_t)(bits >> (8 * i));
  blocks(state, tail, tail_blocks);
  memcpy(digest, state, sizeof state);
}

#else

int csha256_hardware(void) { return 0; }

void csha256_digest(const uint8_t *data, size_t size, uint32_t digest[8]) {
  (void)data;
  (void)size;
  memset(digest, 0, 8 * sizeof(uint32_t));
}

#endif
