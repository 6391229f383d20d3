#ifndef PHOTOMETA_CBROTLI_SHIM_H
#define PHOTOMETA_CBROTLI_SHIM_H
#include <brotli/decode.h>
#endif
