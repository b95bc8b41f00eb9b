#include <lz4.h>

/* LZ4_compressBound and LZ4_MAX_INPUT_SIZE are macros (the function form is kept beside them). */
static const int CLZ4_MAX_INPUT_SIZE = LZ4_MAX_INPUT_SIZE;
