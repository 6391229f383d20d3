/*
 * CVips: thumbnails of images through vips_thumbnail, from a path or a buffer.
 * See include/CVips.h for the contract of each function, and CVipsInternal.h for the
 * ownership rule every file follows.
 */
#include "CVipsInternal.h"

/* ------------------------------------------------------------------------------------------
 * Thumbnails
 */

/* Loader option strings for PM_FAIL_* (indices checked by pm_check_options). */
static const char *const pm_fail_on_option[] = {
    "fail_on=none", "fail_on=truncated", "fail_on=error", "fail_on=warning",
};

/* Who converts the thumbnail's colours to sRGB (pm_colour_mode). */
enum { PM_COLOUR_NONE, PM_COLOUR_OURS, PM_COLOUR_LIBVIPS };

/* Colour management only where there is colour to manage: an embedded ICC profile (iPhone
 * photos are Display P3, most cameras' JPEGs carry sRGB) or CMYK. Asking libvips to export
 * sRGB from an image without a profile builds a LittleCMS transform from its default profile
 * for every file: 40 % of the CPU of a run over small JPEGs (perf), for an image that is sRGB
 * already. 8-bit RGB (and RGBA) with a profile, nearly every photo, is converted after the
 * shrink by pm_colour_to_srgb, which keeps one transform per distinct profile and leaves sRGB
 * pixels alone (CVipsColour.c); CMYK, greyscale and 16-bit images go through libvips'
 * export_profile (a transform per file, as before: rare in photo libraries). */
static int
pm_colour_mode(VipsImage *header)
{
    VipsInterpretation kind = vips_image_get_interpretation(header);
    int bands = vips_image_get_bands(header);

    if (kind == VIPS_INTERPRETATION_CMYK)
        return PM_COLOUR_LIBVIPS;
    if (!vips_image_get_typeof(header, VIPS_META_ICC_NAME))
        return PM_COLOUR_NONE;
    if ((kind == VIPS_INTERPRETATION_sRGB || kind == VIPS_INTERPRETATION_RGB)
        && vips_image_get_format(header) == VIPS_FORMAT_UCHAR && header->Coding == VIPS_CODING_NONE
        && (bands == 3 || bands == 4))
        return PM_COLOUR_OURS;
    /* A profile libvips could not import these pixels through: the pixels as they are
     * (pm_colour_profile_fits says why). */
    if (!pm_colour_profile_fits(header))
        return PM_COLOUR_NONE;
    return PM_COLOUR_LIBVIPS;
}

/* Steps 0 and 1: the arguments, then the header only (sets *colour, a PM_COLOUR_*). */
static int
pm_thumbnail_admit(const char *path, const void *data, size_t len, const pm_thumb_options *o,
                   int *colour, VipsBlob **icc, char *err, size_t err_len)
{
    VipsImage *image = NULL;
    uint64_t pixels, cap;
    int status;

    if ((status = pm_ready(err, err_len)) != PM_OK)
        return status;
    if ((status = pm_check_options(o, err, err_len)) != PM_OK)
        return status;
    if (path) {
        if ((status = pm_check_regular_file(path, err, err_len)) != PM_OK)
            return status;
    }
    else if (!data || len == 0) {
        pm_set_error(err, err_len, "empty buffer");
        return PM_ERR_ARGUMENT;
    }

    /* 1. Header only, to refuse absurd sizes before anything is decoded. width and height
     * are positive ints in libvips, so the uint64_t product cannot overflow. */
    if (!(image = pm_open_header(path, data, len, NULL, &status, err, err_len)))
        return status;
    pixels = (uint64_t) vips_image_get_width(image) * (uint64_t) vips_image_get_height(image);
    *colour = pm_colour_mode(image);
    /* The profile copied while the header still holds the file (pm_colour_to_srgb says why). */
    if (*colour == PM_COLOUR_OURS) {
        const void *profile = NULL;
        size_t profile_len = 0;

        if (vips_image_get_blob(image, VIPS_META_ICC_NAME, &profile, &profile_len) == 0 && profile && profile_len)
            *icc = vips_blob_copy(profile, profile_len);
        else
            vips_error_clear();
    }
    VIPS_UNREF(image);
    cap = o->max_pixels ? o->max_pixels : PM_DEFAULT_MAX_PIXELS;
    if (pixels > cap) {
        pm_set_error(err, err_len, "image has %llu pixels, more than the limit of %llu",
                     (unsigned long long) pixels, (unsigned long long) cap);
        return PM_ERR_TOO_LARGE;
    }
    return PM_OK;
}

/* Steps 2 and 3: the decoded, shrunk thumbnail in memory, or NULL with *status set. */
static VipsImage *
pm_thumbnail_decode(const char *path, const void *data, size_t len, const pm_thumb_options *o,
                    int colour, VipsBlob *icc, int *status, char *err, size_t err_len)
{
    VipsImage *image = NULL;
    gboolean manage_colour = colour == PM_COLOUR_LIBVIPS;
    int rc;
    int box_w, box_h;
    gboolean no_rotate;
    VipsInteresting interesting;

    /* 2. vips_thumbnail: picks the loader's shrink-on-load (JPEG DCT scaling, HEIF/WebP/PDF
     * thumbnails...), rotates by EXIF orientation unless no_rotate, with PM_COLOUR_LIBVIPS
     * imports the embedded ICC profile and exports sRGB, and with VIPS_SIZE_DOWN never
     * enlarges.
     * With an orientation override libvips must not rotate; we rotate afterwards, so a
     * 90/270-degree override swaps the box to fit the unrotated image. */
    no_rotate = (o->orientation != 0 || o->no_rotate) ? TRUE : FALSE;
    box_w = o->orientation >= 5 ? o->height : o->width;
    box_h = o->orientation >= 5 ? o->width : o->height;
    interesting = o->crop == PM_CROP_CENTRE ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE;
    /* The same call with and without export_profile (a NULL value would end the varargs list).
     * vips_thumbnail_buffer's prototype takes void*, but it does not write to buf. libvips
     * 8.14.1 does not pass its "fail_on" argument on to the buffer loader (a truncated JPEG
     * decodes grey even with fail_on=warning); the loader option string does reach it, so
     * fail_on goes that way too. */
    if (path && manage_colour)
        rc = vips_thumbnail(path, &image, box_w, "height", box_h, "size", VIPS_SIZE_DOWN, "crop", interesting,
                            "no_rotate", no_rotate, "export_profile", "srgb", "fail_on", (VipsFailOn) o->fail_on,
                            NULL);
    else if (path)
        rc = vips_thumbnail(path, &image, box_w, "height", box_h, "size", VIPS_SIZE_DOWN, "crop", interesting,
                            "no_rotate", no_rotate, "fail_on", (VipsFailOn) o->fail_on, NULL);
    else if (manage_colour)
        rc = vips_thumbnail_buffer((void *) data, len, &image, box_w, "option_string", pm_fail_on_option[o->fail_on],
                                   "height", box_h, "size", VIPS_SIZE_DOWN, "crop", interesting,
                                   "no_rotate", no_rotate, "export_profile", "srgb",
                                   "fail_on", (VipsFailOn) o->fail_on, NULL);
    else
        rc = vips_thumbnail_buffer((void *) data, len, &image, box_w, "option_string", pm_fail_on_option[o->fail_on],
                                   "height", box_h, "size", VIPS_SIZE_DOWN, "crop", interesting,
                                   "no_rotate", no_rotate, "fail_on", (VipsFailOn) o->fail_on, NULL);
    if (rc != 0 || !image) {
        VIPS_UNREF(image);
        pm_take_vips_error(err, err_len, "thumbnail failed");
        *status = PM_ERR_DECODE;
        return NULL;
    }

    /* 3. Run the lazy pipeline now (decode + shrink) into a thumbnail-sized memory image,
     * so decoder failures (e.g. truncated data with fail_on) are told apart from encoder
     * failures. The copy costs width*height*bands bytes of the thumbnail, not the source. */
    {
        VipsImage *memory = vips_image_copy_memory(image);

        VIPS_UNREF(image);
        if (!memory) {
            pm_take_vips_error(err, err_len, "decoding failed");
            *status = PM_ERR_DECODE;
            return NULL;
        }
        image = memory;
    }
    /* 3a. The embedded profile to sRGB, on the thumbnail's pixels. */
    if (colour == PM_COLOUR_OURS && icc) {
        size_t icc_len = 0;
        const void *profile = vips_blob_get(icc, &icc_len);

        if ((*status = pm_colour_to_srgb(&image, profile, icc_len, err, err_len)) != PM_OK)
            return NULL;
    }
    return image;
}

/* Step 3b on *image; on failure *image is released. */
static int
pm_thumbnail_orient(VipsImage **image, const pm_thumb_options *o, char *err, size_t err_len)
{
    VipsImage *next = NULL;
    int rc;

    /* 3b. Orientation override: tag the thumbnail and let vips_autorot apply it, so the
     * eight cases follow exactly libvips' own EXIF mapping. */
    if (o->orientation <= 1)
        return PM_OK;
    rc = vips_copy(*image, &next, NULL);
    if (pm_step(image, &next, rc)) {
        VIPS_UNREF(*image);
        pm_take_vips_error(err, err_len, "copy failed");
        return PM_ERR_DECODE;
    }
    vips_image_set_int(*image, VIPS_META_ORIENTATION, o->orientation);
    rc = vips_autorot(*image, &next, NULL);
    if (pm_step(image, &next, rc)) {
        VIPS_UNREF(*image);
        pm_take_vips_error(err, err_len, "rotation failed");
        return PM_ERR_DECODE;
    }
    return PM_OK;
}

/* One thumbnail from a file (path) or a buffer (data, len): steps 0 to 4 above, in order. */
static int
pm_thumbnail_common(const char *path, const void *data, size_t len, const pm_thumb_options *o,
                    pm_image *out, char *err, size_t err_len)
{
    VipsImage *image = NULL;
    VipsBlob *icc = NULL;
    int colour = PM_COLOUR_NONE;
    int status;

    if (!out) {
        pm_set_error(err, err_len, "NULL output");
        return PM_ERR_ARGUMENT;
    }
    memset(out, 0, sizeof(*out));
    status = pm_thumbnail_admit(path, data, len, o, &colour, &icc, err, err_len);
    if (status == PM_OK)
        image = pm_thumbnail_decode(path, data, len, o, colour, icc, &status, err, err_len);
    if (icc)
        vips_area_unref(VIPS_AREA(icc));
    if (!image)
        return status;
    if ((status = pm_thumbnail_orient(&image, o, err, err_len)) != PM_OK)
        return status;

    /* 4. Encode (consumes image). */
    status = pm_encode(image, o, out, err, err_len);
    return status == PM_OK ? pm_finish_ok(err, err_len) : status;
}

int
pm_vips_thumbnail(const char *path, const pm_thumb_options *opts, pm_image *out, char *err,
                  size_t err_len)
{
    if (!path) {
        if (out)
            memset(out, 0, sizeof(*out));
        pm_set_error(err, err_len, "NULL path");
        return PM_ERR_ARGUMENT;
    }
    return pm_thumbnail_common(path, NULL, 0, opts, out, err, err_len);
}

int
pm_vips_thumbnail_buffer(const void *data, size_t len, const pm_thumb_options *opts,
                         pm_image *out, char *err, size_t err_len)
{
    return pm_thumbnail_common(NULL, data, len, opts, out, err, err_len);
}
