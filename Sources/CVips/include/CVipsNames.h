/*
 * The freedesktop thumbnail cache names a thumbnail by the MD5 of the file's URI, and file
 * managers build that URI with GLib's g_filename_to_uri. photometa calls the same two GLib
 * functions (GLib is already linked through libvips), so its cache entries are the ones
 * Nautilus, Thunar or Nemo look for, byte for byte.
 */
#ifndef PHOTOMETA_CVIPS_NAMES_H
#define PHOTOMETA_CVIPS_NAMES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The "file://" URI of an absolute path, as g_filename_to_uri escapes it, into out (NUL
 * terminated). Returns 0, or -1 when the path is not absolute or out is too small. */
int pm_file_uri(const char *absolute_path, char *out, size_t out_len);

/* The lowercase hex MD5 of `len` bytes into out (33 bytes with the NUL). Returns 0 or -1. */
int pm_md5_hex(const void *data, size_t len, char *out, size_t out_len);

#ifdef __cplusplus
}
#endif

#endif

#ifndef PHOTOMETA_CVIPS_PIXEL_H
#define PHOTOMETA_CVIPS_PIXEL_H
#ifdef __cplusplus
extern "C" {
#endif
/* The values of the pixel (x, y) of an encoded picture (PNG, JPEG, WebP in memory), for
 * tests that check where a corner went: up to out_len bands into out, their number in
 * *bands. Returns 0, or -1 when the picture cannot be decoded or (x, y) is outside it. */
int pm_vips_pixel(const void *data, size_t len, int x, int y, double *out, int out_len, int *bands);
#ifdef __cplusplus
}
#endif
#endif
