#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>

/*
 * SHA-256 (FIPS 180-4) with the x86-64 SHA extensions (SHA-NI: sha256rnds2, sha256msg1,
 * sha256msg2), for SnapdiffCore's SHA256, which names blobs. The build targets plain x86-64, so
 * the instructions are chosen at run time: csha256_hardware says whether this processor has
 * them (cpuid leaf 7 EBX bit 29, with SSSE3 and SSE4.1), and only then may csha256_digest be
 * called. Elsewhere (other processors, other architectures) SHA256's plain-Swift rounds run.
 */

/* 1 when csha256_digest can run here, else 0. Asked of cpuid once. */
int csha256_hardware(void);

/* The digest of `size` bytes at `data` (NULL when size is 0) as eight words, in host order, as
 * the standard's H0..H7. Reads only data[0..<size]: the last partial block is padded in a
 * local buffer. Only when csha256_hardware() is 1. */
void csha256_digest(const uint8_t *data, size_t size, uint32_t digest[8]);

#endif
