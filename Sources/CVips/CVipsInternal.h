/*
 * CVips internals shared by its files (not part of the module's public header, so Swift
 * never sees them): fixed-signature wrappers over libvips (varargs API) and
 * libffmpegthumbnailer, split by concern: CVipsRuntime.c (errors, start-up), CVipsLoad.c
 * (input checks, headers), CVipsSave.c (encoding), CVipsPNG.c (tEXt chunks),
 * CVipsThumbnail.c (images), CVipsColour.c (embedded profiles to sRGB, with LittleCMS),
 * CVipsVideo.c (video frames).
 *
 * Ownership rule used throughout: every VipsImage pointer starts NULL and is released with
 * VIPS_UNREF (g_object_unref + NULL) on every path through a single exit label, so error
 * paths cannot leak. Sizes that come from input files (width, height, byte counts) are only
 * multiplied as uint64_t after range checks.
 */
#ifndef CVIPS_INTERNAL_H
#define CVIPS_INTERNAL_H

#include "CVips.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <vips/vips.h>
#include <libffmpegthumbnailer/videothumbnailerc.h>

/* Shared between the files of this target only. */
#define PM_INTERNAL __attribute__((visibility("hidden")))

PM_INTERNAL void pm_set_error(char *err, size_t err_len, const char *fmt, ...);
PM_INTERNAL void pm_take_vips_error(char *err, size_t err_len, const char *context);
PM_INTERNAL int pm_finish_ok(char *err, size_t err_len);
PM_INTERNAL int pm_ready(char *err, size_t err_len);
PM_INTERNAL int pm_check_regular_file(const char *path, char *err, size_t err_len);
PM_INTERNAL int pm_check_options(const pm_thumb_options *o, char *err, size_t err_len);
PM_INTERNAL VipsImage *pm_open_header(const char *path, const void *data, size_t len, const char **loader, int *status, char *err, size_t err_len);
PM_INTERNAL int pm_step(VipsImage **image, VipsImage **next, int rc);
PM_INTERNAL int pm_png_insert_text(void **buf, size_t *len, const pm_thumb_options *o);
PM_INTERNAL int pm_colour_to_srgb(VipsImage **image, const void *icc, size_t len, char *err, size_t err_len);
PM_INTERNAL gboolean pm_colour_profile_fits(VipsImage *header);
PM_INTERNAL void pm_video_set_quiet(int quiet);
PM_INTERNAL int pm_encode(VipsImage *in, const pm_thumb_options *o, pm_image *out, char *err, size_t err_len);

#endif
