#include <lcms2.h>

/* Pixel formats are `|`s of shift macros, which Swift does not import: named here once. */
static const cmsUInt32Number CLCMS2_TYPE_RGBA_8 = TYPE_RGBA_8;
