#ifndef PHOTOMETA_CLIBVIPS_SHIM_H
#define PHOTOMETA_CLIBVIPS_SHIM_H
/* Only the CVips C target includes libvips; Swift code uses CVips.h, which is plain C. */
#include <vips/vips.h>
#endif
