/* See CGLibNames.h: the freedesktop cache's names through GLib, as file managers build them. */
#include "CGLibNames.h"

#include <glib.h>
#include <string.h>

int pm_file_uri(const char *absolute_path, char *out, size_t out_len) {
    if (absolute_path == NULL || out == NULL || out_len == 0 || absolute_path[0] != '/') return -1;
    GError *error = NULL;
    gchar *uri = g_filename_to_uri(absolute_path, NULL, &error);
    if (uri == NULL) {
        if (error) g_error_free(error);
        return -1;
    }
    size_t n = strlen(uri);
    int rc = -1;
    if (n < out_len) {
        memcpy(out, uri, n + 1);
        rc = 0;
    }
    g_free(uri);
    return rc;
}

int pm_path_as_given(const char *path, char *out, size_t out_len) {
    if (path == NULL || path[0] == '\0' || out == NULL || out_len == 0) return -1;
    gchar *absolute = g_canonicalize_filename(path, NULL);
    if (absolute == NULL) return -1;
    size_t n = strlen(absolute);
    int rc = -1;
    if (n < out_len) {
        memcpy(out, absolute, n + 1);
        rc = 0;
    }
    g_free(absolute);
    return rc;
}

int pm_md5_hex(const void *data, size_t len, char *out, size_t out_len) {
    if (data == NULL || out == NULL || out_len < 33) return -1;
    gchar *hex = g_compute_checksum_for_data(G_CHECKSUM_MD5, (const guchar *)data, len);
    if (hex == NULL) return -1;
    memcpy(out, hex, 32);
    out[32] = '\0';
    g_free(hex);
    return 0;
}
