#ifndef PHOTOMETA_CZLIB_SHIM_H
#define PHOTOMETA_CZLIB_SHIM_H
#include <zlib.h>
#endif
