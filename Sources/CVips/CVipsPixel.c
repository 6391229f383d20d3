/* See CVips.h: one pixel of an encoded picture, for tests. */
#include "CVips.h"

#include <vips/vips.h>

int pm_vips_pixel(const void *data, size_t len, int x, int y, double *out, int out_len, int *bands) {
    if (data == NULL || out == NULL || bands == NULL || out_len <= 0) return -1;
    VipsImage *image = vips_image_new_from_buffer(data, len, "", NULL);
    if (image == NULL) {
        vips_error_clear();
        return -1;
    }
    int rc = -1;
    if (x >= 0 && y >= 0 && x < vips_image_get_width(image) && y < vips_image_get_height(image)) {
        double *vector = NULL;
        int n = 0;
        if (vips_getpoint(image, &vector, &n, x, y, NULL) == 0) {
            *bands = n < out_len ? n : out_len;
            for (int i = 0; i < *bands; i++) out[i] = vector[i];
            g_free(vector);
            rc = 0;
        }
    }
    vips_error_clear();
    g_object_unref(image);
    return rc;
}
