#ifndef CCPUFEATURES_H
#define CCPUFEATURES_H

#include <stdint.h>

/*
 * What this processor can run beyond the build's target (plain x86-64: SSE2), asked of cpuid
 * once for the whole process (in a VM each cpuid is a trip to the hypervisor) and then read from
 * a cached word. The one home of run-time CPU detection: the PNG decoder's SSSE3 and SSE4.1 rows
 * and SHA-256's SHA-NI rounds ask here. On other architectures every feature reads as absent.
 */

/* The features, as bits of ccpu_has's argument. */
enum {
  CCPU_SSSE3 = 1 << 0,  /* cpuid leaf 1, ECX bit 9 */
  CCPU_SSE4_1 = 1 << 1, /* cpuid leaf 1, ECX bit 19 */
  CCPU_SHA = 1 << 2,    /* cpuid leaf 7, EBX bit 29 (SHA-NI: sha256rnds2, sha256msg1/2) */
};

/* The detected features, or -1 until ccpu_detect has run. */
extern int32_t ccpu_known_features;

/* Asks cpuid, caches the answer in ccpu_known_features and returns it. */
int32_t ccpu_detect(void);

/* 1 when the processor has every feature in `features` (CCPU_ bits or-ed together), else 0. */
static inline int ccpu_has(int32_t features) {
  int32_t known = __atomic_load_n(&ccpu_known_features, __ATOMIC_RELAXED);
  if (known < 0) known = ccpu_detect();
  return (known & features) == features;
}

#endif
