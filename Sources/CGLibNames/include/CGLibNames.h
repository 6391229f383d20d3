/*
 * The freedesktop thumbnail cache names a thumbnail by the MD5 of the file's URI, and file
 * managers build that URI with GLib's g_filename_to_uri. photometa calls the same two GLib
 * functions (only GLib, so that photometa itself can answer cache hits without libvips), so
 * its cache entries are the ones
 * Nautilus, Thunar or Nemo look for, byte for byte.
 */
#ifndef PHOTOMETA_CGLIBNAMES_H
#define PHOTOMETA_CGLIBNAMES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The "file://" URI of an absolute path, as g_filename_to_uri escapes it, into out (NUL
 * terminated). Returns 0, or -1 when the path is not absolute or out is too small. */
int pm_file_uri(const char *absolute_path, char *out, size_t out_len);

/* `path` as a file manager names the file it was given: made absolute against the current
 * folder and freed of "." and ".." lexically (g_canonicalize_filename, as g_file_new_for_path
 * does), symbolic links kept: a photo under ~/Pictures, a link to /data/Pictures, is
 * /home/u/Pictures/..., where GNOME looks. Into out (NUL terminated); 0, or -1 when out is too
 * small. */
int pm_path_as_given(const char *path, char *out, size_t out_len);
/* The lowercase hex MD5 of `len` bytes into out (33 bytes with the NUL). Returns 0 or -1. */
int pm_md5_hex(const void *data, size_t len, char *out, size_t out_len);

#ifdef __cplusplus
}
#endif

#endif

