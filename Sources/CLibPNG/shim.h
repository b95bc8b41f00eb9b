#ifndef CLIBPNG_SHIM_H
#define CLIBPNG_SHIM_H

#include <png.h>

/* Macros Swift cannot import (function-like, or `|` of two macros), re-exposed as values. */
static const png_uint_32 CLIBPNG_FORMAT_RGBA = PNG_FORMAT_RGBA;

static inline png_alloc_size_t clibpng_image_size(const png_image *image) {
  return PNG_IMAGE_SIZE(*image);
}

static inline png_alloc_size_t clibpng_image_png_size_max(const png_image *image) {
  return PNG_IMAGE_PNG_SIZE_MAX(*image);
}

#endif
