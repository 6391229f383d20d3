/*
 * CVips: encoding a result image (sRGB 8-bit, metadata removed) as JPEG, PNG or WebP.
 * See include/CVips.h for the contract of each function, and CVipsInternal.h for the
 * ownership rule every file follows.
 */
#include "CVipsInternal.h"

/* ------------------------------------------------------------------------------------------
 * Encoding (shared by images and video frames)
 */

/* After an operation `rc = vips_xxx(*image, next, ...)`: on success replaces *image with
 * *next (dropping the old reference); on failure releases *next. *next is NULL afterwards
 * either way. Returns 0 on success. */
int
pm_step(VipsImage **image, VipsImage **next, int rc)
{
    if (rc != 0 || !*next) {
        VIPS_UNREF(*next);
        return -1;
    }
    VIPS_UNREF(*image);
    *image = *next;
    *next = NULL;
    return 0;
}

/* Brings any thumbnail to 8-bit sRGB with 3 bands, plus alpha when present. vips_thumbnail
 * already exports to sRGB, but 16-bit sources stay 16-bit (RGB16/GREY16) and greyscale stays
 * one band; PNG/WebP/JPEG savers would otherwise write 16-bit or grey output. */
static int
pm_to_srgb8(VipsImage **image)
{
    VipsImage *next = NULL;
    int alpha;
    int want;
    int rc;

    if (vips_colourspace_issupported(*image)) {
        if (vips_image_get_interpretation(*image) != VIPS_INTERPRETATION_sRGB ||
            vips_image_get_format(*image) != VIPS_FORMAT_UCHAR) {
            rc = vips_colourspace(*image, &next, VIPS_INTERPRETATION_sRGB, NULL);
            if (pm_step(image, &next, rc))
                return -1;
        }
    }
    if (vips_image_get_format(*image) != VIPS_FORMAT_UCHAR) {
        rc = vips_cast(*image, &next, VIPS_FORMAT_UCHAR, NULL);
        if (pm_step(image, &next, rc))
            return -1;
    }
    /* Extra bands (e.g. TIFF with several extra channels): keep colour + alpha only. */
    alpha = vips_image_hasalpha(*image);
    want = alpha ? 4 : 3;
    if (vips_image_get_bands(*image) > want) {
        rc = vips_extract_band(*image, &next, 0, "n", want, NULL);
        if (pm_step(image, &next, rc))
            return -1;
    }
    return 0;
}

/* Drops every metadata field, so no saver can embed any. "strip" alone is not enough in
 * libvips 8.14.1: webpsave_buffer ignores strip=TRUE and wrote the ICC profile (the 6.9 KB
 * sRGB profile vips_thumbnail attaches) and an EXIF block rebuilt from the source's EXIF,
 * including "jpeg-thumbnail-data" (the IFD1 preview jpegload attaches). vips_image_remove
 * only touches the metadata table; the core header fields (width, height, bands, format,
 * interpretation, resolution, ...) are not in it and stay. Works on the caller's private
 * copy. */
static void
pm_remove_metadata(VipsImage *image)
{
    gchar **fields = vips_image_get_fields(image);

    for (int i = 0; fields && fields[i]; i++)
        (void) vips_image_remove(image, fields[i]);
    g_strfreev(fields);
}

/* Encodes *image (consumed: the caller's reference is released here) per o. */
int
pm_encode(VipsImage *in, const pm_thumb_options *o, pm_image *out, char *err, size_t err_len)
{
    VipsImage *image = in; /* owned from here on */
    VipsImage *next = NULL;
    void *buf = NULL;
    size_t len = 0;
    int quality = o->quality > 0 ? o->quality : 80;
    int status = PM_OK;
    int rc;

    if (pm_to_srgb8(&image)) {
        pm_take_vips_error(err, err_len, "colour conversion failed");
        status = PM_ERR_DECODE;
        goto done;
    }
    /* A private header (vips_copy shares the pixels) so metadata can be removed without
     * touching an image someone else holds. */
    rc = vips_copy(image, &next, NULL);
    if (pm_step(&image, &next, rc)) {
        pm_take_vips_error(err, err_len, "copy failed");
        status = PM_ERR_ENCODE;
        goto done;
    }
    pm_remove_metadata(image);

    switch (o->format) {
    case PM_FORMAT_JPEG:
        if (vips_image_hasalpha(image)) {
            /* JPEG has no alpha: composite onto white, not black (libvips' default). */
            VipsArrayDouble *white = vips_array_double_newv(1, 255.0);

            rc = vips_flatten(image, &next, "background", white, NULL);
            vips_area_unref(VIPS_AREA(white));
            if (pm_step(&image, &next, rc)) {
                pm_take_vips_error(err, err_len, "flatten failed");
                status = PM_ERR_DECODE;
                goto done;
            }
        }
        rc = vips_jpegsave_buffer(image, &buf, &len, "Q", quality, "strip", TRUE, NULL);
        break;

    case PM_FORMAT_WEBP:
        rc = vips_webpsave_buffer(image, &buf, &len, "Q", quality, "strip", TRUE, NULL);
        break;

    default: /* PM_FORMAT_PNG */
        rc = vips_pngsave_buffer(image, &buf, &len, "strip", TRUE, NULL);
        if (rc == 0 && buf && o->text_count > 0 && pm_png_insert_text(&buf, &len, o) != 0) {
            g_free(buf);
            pm_set_error(err, err_len, "cannot add PNG text chunks");
            status = PM_ERR_ENCODE;
            goto done;
        }
        break;
    }
    if (rc != 0 || !buf) {
        g_free(buf);
        pm_take_vips_error(err, err_len, "encoding failed");
        status = PM_ERR_ENCODE;
        goto done;
    }
    out->data = buf;
    out->len = len;
    out->width = vips_image_get_width(image);
    out->height = vips_image_get_height(image);

done:
    VIPS_UNREF(image);
    return status;
}
