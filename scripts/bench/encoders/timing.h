/* Timing helpers shared by the encoder benchmarks in this folder. */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* qsort's order for doubles, to take medians. */
static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

#endif
