/*
 * CVips: input checks (regular files, text chunk lists, options) and opening headers with the untrusted-loader block.
 * See include/CVips.h for the contract of each function, and CVipsInternal.h for the
 * ownership rule every file follows.
 */
#include "CVipsInternal.h"

/* ------------------------------------------------------------------------------------------
 * Input checks
 */

/* Only regular files: opening a FIFO or a device would block or never end. */
int
pm_check_regular_file(const char *path, char *err, size_t err_len)
{
    struct stat st;

    if (!path || !path[0]) {
        pm_set_error(err, err_len, "empty path");
        return PM_ERR_ARGUMENT;
    }
    if (stat(path, &st) != 0) {
        pm_set_error(err, err_len, "%s: %s", path, strerror(errno));
        return PM_ERR_NOT_FILE;
    }
    if (!S_ISREG(st.st_mode)) {
        pm_set_error(err, err_len, "%s: not a regular file", path);
        return PM_ERR_NOT_FILE;
    }
    return PM_OK;
}

/* PNG tEXt keywords are 1..79 bytes of Latin-1 (PNG spec 11.3.4.3); values Latin-1.
 * We accept a strict subset: keys of printable ASCII without spaces (so no leading,
 * trailing or double spaces to get wrong), values of printable ASCII plus tab/newline.
 * ASCII only, because tEXt is Latin-1 and a UTF-8 string would be silently misread;
 * freedesktop values (percent-encoded URIs, decimal numbers) are ASCII anyway. */
static int
pm_check_text(const pm_thumb_options *o, char *err, size_t err_len)
{
    if (o->text_count == 0)
        return PM_OK;
    if (o->text_count > PM_MAX_TEXT_CHUNKS || !o->text_keys || !o->text_values) {
        pm_set_error(err, err_len, "bad text chunk list (count %zu)", o->text_count);
        return PM_ERR_ARGUMENT;
    }
    for (size_t i = 0; i < o->text_count; i++) {
        const unsigned char *k = (const unsigned char *) o->text_keys[i];
        const unsigned char *v = (const unsigned char *) o->text_values[i];
        size_t kl, vl;

        if (!k || !v) {
            pm_set_error(err, err_len, "text chunk %zu: NULL key or value", i);
            return PM_ERR_ARGUMENT;
        }
        kl = strnlen((const char *) k, PM_MAX_TEXT_KEY + 1);
        if (kl == 0 || kl > PM_MAX_TEXT_KEY) {
            pm_set_error(err, err_len, "text chunk %zu: key must be 1..%d bytes", i,
                         PM_MAX_TEXT_KEY);
            return PM_ERR_ARGUMENT;
        }
        for (size_t j = 0; j < kl; j++)
            if (k[j] <= 0x20 || k[j] >= 0x7f) {
                pm_set_error(err, err_len, "text chunk %zu: bad byte 0x%02x in key", i, k[j]);
                return PM_ERR_ARGUMENT;
            }
        vl = strnlen((const char *) v, PM_MAX_TEXT_VALUE + 1);
        if (vl > PM_MAX_TEXT_VALUE) {
            pm_set_error(err, err_len, "text chunk %zu: value longer than %d bytes", i,
                         PM_MAX_TEXT_VALUE);
            return PM_ERR_ARGUMENT;
        }
        for (size_t j = 0; j < vl; j++)
            if ((v[j] < 0x20 && v[j] != '\t' && v[j] != '\n') || v[j] >= 0x7f) {
                pm_set_error(err, err_len, "text chunk %zu: bad byte 0x%02x in value", i, v[j]);
                return PM_ERR_ARGUMENT;
            }
    }
    return PM_OK;
}

int
pm_check_options(const pm_thumb_options *o, char *err, size_t err_len)
{
    if (!o) {
        pm_set_error(err, err_len, "NULL options");
        return PM_ERR_ARGUMENT;
    }
    if (o->width < 1 || o->width > PM_MAX_THUMB_SIDE || o->height < 1 ||
        o->height > PM_MAX_THUMB_SIDE) {
        pm_set_error(err, err_len, "thumbnail box %dx%d out of range 1..%d", o->width,
                     o->height, PM_MAX_THUMB_SIDE);
        return PM_ERR_ARGUMENT;
    }
    if (o->crop != PM_CROP_NONE && o->crop != PM_CROP_CENTRE) {
        pm_set_error(err, err_len, "bad crop mode %d", o->crop);
        return PM_ERR_ARGUMENT;
    }
    if (o->orientation < 0 || o->orientation > 8) {
        pm_set_error(err, err_len, "bad orientation %d", o->orientation);
        return PM_ERR_ARGUMENT;
    }
    if (o->fail_on < PM_FAIL_NONE || o->fail_on > PM_FAIL_WARNING) {
        pm_set_error(err, err_len, "bad fail_on %d", o->fail_on);
        return PM_ERR_ARGUMENT;
    }
    if (o->format != PM_FORMAT_PNG && o->format != PM_FORMAT_JPEG &&
        o->format != PM_FORMAT_WEBP) {
        pm_set_error(err, err_len, "bad format %d", o->format);
        return PM_ERR_ARGUMENT;
    }
    if (o->quality < 0 || o->quality > 100) {
        pm_set_error(err, err_len, "bad quality %d", o->quality);
        return PM_ERR_ARGUMENT;
    }
    return pm_check_text(o, err, err_len);
}

/* ------------------------------------------------------------------------------------------
 * Header
 */

/* TRUE if the loader type named `name` carries VIPS_OPERATION_BLOCKED (set on every
 * untrusted loader by vips_block_untrusted_set). */
static gboolean
pm_loader_blocked(const char *name)
{
    GType type = g_type_from_name(name);
    VipsOperationClass *klass;
    gboolean blocked;

    if (!type || !g_type_is_a(type, VIPS_TYPE_OPERATION))
        return FALSE;
    klass = VIPS_OPERATION_CLASS(g_type_class_ref(type));
    blocked = (klass->flags & VIPS_OPERATION_BLOCKED) != 0;
    g_type_class_unref(klass);
    return blocked;
}

/* Opens path or buffer header-only. libvips loaders read only the header in
 * new_from_file/new_from_buffer; pixels are decoded on first access, which never happens
 * here. Returns NULL with err set on failure; *status gets the PM_ERR_* code. */
VipsImage *
pm_open_header(const char *path, const void *data, size_t len, const char **loader,
               int *status, char *err, size_t err_len)
{
    VipsImage *image;
    const char *name;

    /* Find the loader first, so "no loader" (unknown format, or a blocked untrusted
     * loader) is told apart from "loader failed on this data". */
    name = path ? vips_foreign_find_load(path) : vips_foreign_find_load_buffer(data, len);
    if (!name) {
        pm_take_vips_error(err, err_len, "no loader for this data");
        *status = PM_ERR_UNSUPPORTED;
        return NULL;
    }
    /* libvips 8.14's vips_foreign_find_load still returns blocked loaders (the open then
     * fails with "operation is blocked"), so check the class flag ourselves. */
    if (pm_loader_blocked(name)) {
        pm_set_error(err, err_len, "loader %s is blocked (untrusted format)", name);
        *status = PM_ERR_UNSUPPORTED;
        return NULL;
    }
    if (path)
        image = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    else
        image = vips_image_new_from_buffer(data, len, "", "access", VIPS_ACCESS_SEQUENTIAL,
                                           NULL);
    if (!image) {
        pm_take_vips_error(err, err_len, "cannot read header");
        *status = PM_ERR_HEADER;
        return NULL;
    }
    if (loader)
        *loader = name;
    *status = PM_OK;
    return image;
}

static int
pm_header_common(const char *path, const void *data, size_t len, pm_header *out, char *err,
                 size_t err_len)
{
    VipsImage *image;
    const char *loader_type = NULL;
    const char *nick;
    int status;

    if (!out) {
        pm_set_error(err, err_len, "NULL output");
        return PM_ERR_ARGUMENT;
    }
    memset(out, 0, sizeof(*out));
    if ((status = pm_ready(err, err_len)) != PM_OK)
        return status;
    if (path) {
        if ((status = pm_check_regular_file(path, err, err_len)) != PM_OK)
            return status;
    }
    else if (!data || len == 0) {
        pm_set_error(err, err_len, "empty buffer");
        return PM_ERR_ARGUMENT;
    }

    if (!(image = pm_open_header(path, data, len, &loader_type, &status, err, err_len)))
        return status;

    out->width = vips_image_get_width(image);
    out->height = vips_image_get_height(image);
    out->pages = vips_image_get_n_pages(image);
    if (out->pages < 1)
        out->pages = 1;
    out->orientation = vips_image_get_orientation(image);
    if (out->orientation < 1 || out->orientation > 8)
        out->orientation = 1;
    out->has_alpha = vips_image_hasalpha(image) ? 1 : 0;
    out->sample_bytes = (int) vips_format_sizeof(vips_image_get_format(image));
    /* vips_foreign_find_load returns the GType name ("VipsForeignLoadJpegFile"); report
     * the operation nickname ("jpegload"), the name libvips' docs and CLI use. */
    nick = vips_nickname_find(g_type_from_name(loader_type));
    g_strlcpy(out->loader, nick ? nick : loader_type, sizeof(out->loader));

    VIPS_UNREF(image);
    return pm_finish_ok(err, err_len);
}

int
pm_vips_header(const char *path, pm_header *out, char *err, size_t err_len)
{
    if (!path) {
        if (out)
            memset(out, 0, sizeof(*out));
        pm_set_error(err, err_len, "NULL path");
        return PM_ERR_ARGUMENT;
    }
    return pm_header_common(path, NULL, 0, out, err, err_len);
}

int
pm_vips_header_buffer(const void *data, size_t len, pm_header *out, char *err, size_t err_len)
{
    return pm_header_common(NULL, data, len, out, err, err_len);
}
