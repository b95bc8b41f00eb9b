#include "CCPUFeatures.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <stddef.h>
#endif

int32_t ccpu_known_features = -1;

int32_t ccpu_detect(void) {
  int32_t features = 0;
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax, ebx, ecx, edx;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
    if (ecx & bit_SSSE3) features |= CCPU_SSSE3;
    if (ecx & bit_SSE4_1) features |= CCPU_SSE4_1;
    if (__get_cpuid_max(0, NULL) >= 7) {
      __cpuid_count(7, 0, eax, ebx, ecx, edx);
      if (ebx & bit_SHA) features |= CCPU_SHA;
    }
  }
#endif
  __atomic_store_n(&ccpu_known_features, features, __ATOMIC_RELAXED);
  return features;
}
