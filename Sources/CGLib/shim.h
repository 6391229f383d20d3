#ifndef PHOTOMETA_CGLIB_SHIM_H
#define PHOTOMETA_CGLIB_SHIM_H
/* Only CGLibNames includes GLib; Swift code uses CGLibNames.h, which is plain C. */
#include <glib.h>
#endif
