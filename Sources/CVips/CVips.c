/*
 * CVips: fixed-signature wrappers over libvips (varargs API) and libffmpegthumbnailer.
 * See include/CVips.h for the contract of each function.
 *
 * Ownership rule used throughout: every VipsImage pointer starts NULL and is released with
 * VIPS_UNREF (g_object_unref + NULL) on every path through a single exit label, so error
 * paths cannot leak. Sizes that come from input files (width, height, byte counts) are only
 * multiplied as uint64_t after range checks.
 */
/* RTLD_DEFAULT (dlfcn.h) is a GNU extension. */
#define _GNU_SOURCE

#include "CVips.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <vips/vips.h>
#include <libffmpegthumbnailer/videothumbnailerc.h>

/* ------------------------------------------------------------------------------------------
 * Errors
 */

/* Writes a printf-style message into err (if any), always NUL-terminated. */
static void
pm_set_error(char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;

    if (!err || err_len == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
}

/* Takes (copies and clears, under libvips' lock, in one step) libvips' error buffer and
 * makes it one line: libvips ends every message with '\n'. Returns a g_malloc'd string,
 * possibly empty. The buffer is process-global, so with concurrent callers the text may
 * contain another thread's messages (see CVips.h). */
static char *
pm_take_vips_text(void)
{
    char *msg = vips_error_buffer_copy();
    size_t n;

    if (!msg)
        return g_strdup("");
    n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (msg[i] == '\n')
            msg[i] = ';';
    return msg;
}

/* Ends a failed libvips step: err = "context: <libvips text>". */
static void
pm_take_vips_error(char *err, size_t err_len, const char *context)
{
    char *msg = pm_take_vips_text();

    if (msg[0])
        pm_set_error(err, err_len, "%s: %s", context, msg);
    else
        pm_set_error(err, err_len, "%s", context);
    g_free(msg);
}

/* Ends a successful call. libvips also records recoverable problems in its error buffer
 * while an operation succeeds (with fail_on NONE a truncated JPEG leaves "VipsJpeg:
 * Premature end of JPEG file"). Taking the buffer here keeps stale text out of a later
 * call's error message (and keeps the fixed-size buffer from filling up), and hands those
 * warnings to the caller: err is "warning: ..." or empty. */
static int
pm_finish_ok(char *err, size_t err_len)
{
    char *msg = pm_take_vips_text();

    if (err && err_len)
        err[0] = '\0';
    if (msg[0])
        pm_set_error(err, err_len, "warning: %s", msg);
    g_free(msg);
    return PM_OK;
}

/* ------------------------------------------------------------------------------------------
 * Start-up
 */

static GMutex pm_init_lock;
static int pm_init_state; /* 0 = not yet, 1 = ok, -1 = failed */

int
pm_vips_init(const char *argv0)
{
    int result;

    g_mutex_lock(&pm_init_lock);
    if (pm_init_state == 0) {
        /* VIPS_INIT also checks that the headers we compiled against match the library. */
        if (VIPS_INIT(argv0 ? argv0 : "photometa")) {
            pm_init_state = -1;
        }
        else {
            /* Refuse loaders libvips itself marks as unsafe for untrusted input
             * (in 8.14.1: ImageMagick, PDF, SVG, JPEG 2000, JPEG XL, OpenEXR, OpenSlide, FITS,
             * Matlab, Analyze, Radiance, PPM, CSV, raw, .vips). */
            vips_block_untrusted_set(TRUE);
            /* Not marked untrusted, but a plain-text matrix is never a photo. */
            vips_operation_block_set("VipsForeignLoadMatrix", TRUE);
            /* No operation cache: every file is opened once, and a cache keyed by file
             * name would return the old image for a file rewritten in place. */
            vips_cache_set_max(0);
            vips_cache_set_max_mem(0);
            vips_cache_set_max_files(0);
            /* One worker per call; the caller parallelises across files. */
            vips_concurrency_set(1);
            pm_init_state = 1;
        }
    }
    result = pm_init_state == 1 ? PM_OK : PM_ERR_INIT;
    g_mutex_unlock(&pm_init_lock);
    return result;
}

static int
pm_ready(char *err, size_t err_len)
{
    int ok;

    g_mutex_lock(&pm_init_lock);
    ok = pm_init_state == 1;
    g_mutex_unlock(&pm_init_lock);
    if (!ok) {
        pm_set_error(err, err_len, "libvips is not initialised (call pm_vips_init)");
        return PM_ERR_INIT;
    }
    return PM_OK;
}

const char *
pm_vips_version(void)
{
    return vips_version_string();
}

static void
pm_drop_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data)
{
    (void) domain;
    (void) level;
    (void) message;
    (void) data;
}

static GMutex pm_quiet_lock;
static guint pm_quiet_handler;

/* FFmpeg's own av_log() messages ("moov atom not found", ...) go to stderr and
 * libffmpegthumbnailer does not redirect them. libavutil is already loaded as a dependency
 * of libffmpegthumbnailer, so look av_log_set_level up at run time instead of requiring
 * libavutil-dev for one call. The level values are FFmpeg's stable AV_LOG_QUIET (-8) and
 * AV_LOG_INFO (32, FFmpeg's default). */
static void
pm_ffmpeg_set_quiet(int quiet)
{
    void (*set_level)(int) = (void (*)(int)) dlsym(RTLD_DEFAULT, "av_log_set_level");

    if (set_level)
        set_level(quiet ? -8 : 32);
}

void
pm_vips_set_quiet(int quiet)
{
    pm_ffmpeg_set_quiet(quiet);
    g_mutex_lock(&pm_quiet_lock);
    if (quiet && pm_quiet_handler == 0)
        pm_quiet_handler = g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, pm_drop_log, NULL);
    else if (!quiet && pm_quiet_handler != 0) {
        g_log_remove_handler("VIPS", pm_quiet_handler);
        pm_quiet_handler = 0;
    }
    g_mutex_unlock(&pm_quiet_lock);
}

void
pm_free(void *data)
{
    g_free(data);
}

/* ------------------------------------------------------------------------------------------
 * Input checks
 */

/* Only regular files: opening a FIFO or a device would block or never end. */
static int
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

static int
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
static VipsImage *
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

/* ------------------------------------------------------------------------------------------
 * Encoding (shared by images and video frames)
 */

/* After an operation `rc = vips_xxx(*image, next, ...)`: on success replaces *image with
 * *next (dropping the old reference); on failure releases *next. *next is NULL afterwards
 * either way. Returns 0 on success. */
static int
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

/* CRC-32 as PNG uses it (ISO 3309, reflected polynomial 0xEDB88320). Bitwise: it only
 * runs over our few short text chunks, so a table is not worth it. */
static uint32_t
pm_crc32(uint32_t crc, const unsigned char *p, size_t n)
{
    crc = ~crc;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static void
pm_put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char) (v >> 24);
    p[1] = (unsigned char) (v >> 16);
    p[2] = (unsigned char) (v >> 8);
    p[3] = (unsigned char) v;
}

/* Inserts one tEXt chunk per key/value right after IHDR of the PNG in *buf (a g_malloc'd
 * buffer from vips_pngsave_buffer), replacing *buf and *len. Why not libvips: its
 * "png-comment-N-KEY" metadata is written only with strip=FALSE (which would also keep
 * ICC/XMP/EXIF) and, in 8.14's libpng saver, as compressed zTXt chunks, not the tEXt the
 * freedesktop thumbnail spec describes. Keys/values were validated by pm_check_text, so
 * each chunk is at most 12 + 79 + 1 + PM_MAX_TEXT_VALUE bytes and the sums cannot overflow.
 * Returns 0, or -1 if *buf is not a PNG starting with IHDR or memory runs out. */
static int
pm_png_insert_text(void **buf, size_t *len, const pm_thumb_options *o)
{
    static const unsigned char signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    static const unsigned char ihdr_head[8] = { 0, 0, 0, 13, 'I', 'H', 'D', 'R' };
    /* signature, then IHDR: length(4) type(4) data(13) crc(4) */
    const size_t ihdr_end = 8 + 4 + 4 + 13 + 4;
    const unsigned char *in = *buf;
    unsigned char *out, *p;
    size_t extra = 0;

    if (*len < ihdr_end || memcmp(in, signature, 8) != 0 ||
        memcmp(in + 8, ihdr_head, 8) != 0)
        return -1;
    for (size_t i = 0; i < o->text_count; i++)
        extra += 12 + strlen(o->text_keys[i]) + 1 + strlen(o->text_values[i]);
    if (*len > SIZE_MAX - extra || !(out = g_try_malloc(*len + extra)))
        return -1;

    memcpy(out, in, ihdr_end);
    p = out + ihdr_end;
    for (size_t i = 0; i < o->text_count; i++) {
        size_t kl = strlen(o->text_keys[i]);
        size_t vl = strlen(o->text_values[i]);
        unsigned char *type = p + 4;

        pm_put_be32(p, (uint32_t) (kl + 1 + vl));
        memcpy(type, "tEXt", 4);
        memcpy(type + 4, o->text_keys[i], kl);
        type[4 + kl] = 0; /* keyword separator */
        memcpy(type + 4 + kl + 1, o->text_values[i], vl);
        pm_put_be32(type + 4 + kl + 1 + vl, pm_crc32(0, type, 4 + kl + 1 + vl));
        p = type + 4 + kl + 1 + vl + 4;
    }
    memcpy(p, in + ihdr_end, *len - ihdr_end);

    g_free(*buf);
    *buf = out;
    *len += extra;
    return 0;
}

/* Encodes *image (consumed: the caller's reference is released here) per o. */
static int
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

/* ------------------------------------------------------------------------------------------
 * Thumbnails
 */

/* Loader option strings for PM_FAIL_* (indices checked by pm_check_options). */
static const char *const pm_fail_on_option[] = {
    "fail_on=none", "fail_on=truncated", "fail_on=error", "fail_on=warning",
};

static int
pm_thumbnail_common(const char *path, const void *data, size_t len, const pm_thumb_options *o,
                    pm_image *out, char *err, size_t err_len)
{
    VipsImage *image = NULL;
    VipsImage *next = NULL;
    uint64_t pixels, cap;
    int status;
    int rc;
    int box_w, box_h;
    gboolean no_rotate;
    gboolean manage_colour;
    VipsInteresting interesting;

    if (!out) {
        pm_set_error(err, err_len, "NULL output");
        return PM_ERR_ARGUMENT;
    }
    memset(out, 0, sizeof(*out));
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
    /* Colour management only where there is colour to manage: an embedded ICC profile
     * (iPhone photos are Display P3) or CMYK. Asking libvips to export sRGB from an image
     * without a profile builds a LittleCMS transform from its default profile for every file:
     * 40 % of the CPU of a run over small JPEGs (perf), for an image that is sRGB already. */
    manage_colour = vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0
                    || vips_image_get_interpretation(image) == VIPS_INTERPRETATION_CMYK;
    VIPS_UNREF(image);
    cap = o->max_pixels ? o->max_pixels : PM_DEFAULT_MAX_PIXELS;
    if (pixels > cap) {
        pm_set_error(err, err_len, "image has %llu pixels, more than the limit of %llu",
                     (unsigned long long) pixels, (unsigned long long) cap);
        return PM_ERR_TOO_LARGE;
    }

    /* 2. vips_thumbnail: picks the loader's shrink-on-load (JPEG DCT scaling, HEIF/WebP/PDF
     * thumbnails...), rotates by EXIF orientation unless no_rotate, imports the embedded
     * ICC profile and exports sRGB, and with VIPS_SIZE_DOWN never enlarges.
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
        return PM_ERR_DECODE;
    }

    /* 3. Run the lazy pipeline now (decode + shrink) into a thumbnail-sized memory image,
     * so decoder failures (e.g. truncated data with fail_on) are told apart from encoder
     * failures. The copy costs width*height*bands bytes of the thumbnail, not the source. */
    {
        VipsImage *memory = vips_image_copy_memory(image);

        VIPS_UNREF(image);
        if (!memory) {
            pm_take_vips_error(err, err_len, "decoding failed");
            return PM_ERR_DECODE;
        }
        image = memory;
    }

    /* 3b. Orientation override: tag the thumbnail and let vips_autorot apply it, so the
     * eight cases follow exactly libvips' own EXIF mapping. */
    if (o->orientation > 1) {
        rc = vips_copy(image, &next, NULL);
        if (pm_step(&image, &next, rc)) {
            VIPS_UNREF(image);
            pm_take_vips_error(err, err_len, "copy failed");
            return PM_ERR_DECODE;
        }
        vips_image_set_int(image, VIPS_META_ORIENTATION, o->orientation);
        rc = vips_autorot(image, &next, NULL);
        if (pm_step(&image, &next, rc)) {
            VIPS_UNREF(image);
            pm_take_vips_error(err, err_len, "rotation failed");
            return PM_ERR_DECODE;
        }
    }

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

/* ------------------------------------------------------------------------------------------
 * Video
 */

/* libffmpegthumbnailer's log callback has no user-data pointer, and it is called on the
 * thread that runs generate_thumbnail_to_buffer. A thread-local buffer therefore collects
 * the messages of exactly the current call. (FFmpeg's own av_log output, e.g. "moov atom
 * not found", still goes to stderr; ffmpegthumbnailer does not redirect it.) */
static _Thread_local char pm_video_log[512];

static void
pm_video_log_cb(ThumbnailerLogLevel level, const char *msg)
{
    size_t used;

    if (level != ThumbnailerLogLevelError || !msg)
        return;
    used = strlen(pm_video_log);
    if (used + 3 >= sizeof(pm_video_log))
        return;
    if (used > 0) {
        pm_video_log[used++] = ';';
        pm_video_log[used++] = ' ';
        pm_video_log[used] = '\0';
    }
    g_strlcpy(pm_video_log + used, msg, sizeof(pm_video_log) - used);
}

int
pm_video_frame(const char *path, int seek_percent, const pm_thumb_options *o, pm_image *out,
               char *err, size_t err_len)
{
    video_thumbnailer *vt = NULL;
    image_data *frame = NULL;
    VipsImage *image = NULL;
    VipsImage *next = NULL;
    int status;
    int w, h;
    int rc;
    uint64_t need, cap;

    if (!out) {
        pm_set_error(err, err_len, "NULL output");
        return PM_ERR_ARGUMENT;
    }
    memset(out, 0, sizeof(*out));
    if ((status = pm_ready(err, err_len)) != PM_OK)
        return status;
    if ((status = pm_check_options(o, err, err_len)) != PM_OK)
        return status;
    if ((status = pm_check_regular_file(path, err, err_len)) != PM_OK)
        return status;

    vt = video_thumbnailer_create();
    frame = video_thumbnailer_create_image_data();
    if (!vt || !frame) {
        pm_set_error(err, err_len, "cannot create video thumbnailer");
        status = PM_ERR_VIDEO;
        goto done;
    }
    /* Size 0 = the frame at its display size: ffmpegthumbnailer applies the rotation
     * matrix and the sample aspect ratio. A non-zero size would ENLARGE small videos;
     * libvips shrinks (never enlarges) and crops below, exactly as for images.
     * It must be the deprecated thumbnail_size field: video_thumbnailer_set_size(vt, 0, 0)
     * also gives full size but skips the sample-aspect-ratio correction (a 320x240 video
     * with SAR 2:1 comes out 320x240 instead of 640x240; checked with 2.2.2). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    /* Not a smaller size either: with a rotation matrix (every portrait phone video) a
     * non-zero size gave a frame of the wrong size (81x144 instead of 144x256 for a 640x360
     * video rotated 90 degrees, 2.2.2). */
    vt->thumbnail_size = 0;
#pragma GCC diagnostic pop
    vt->seek_percentage = seek_percent < 0 ? 0 : seek_percent > 99 ? 99 : seek_percent;
    vt->overlay_film_strip = 0;
    vt->maintain_aspect_ratio = 1;
    vt->prefer_embedded_metadata = 0;
    /* Raw RGB (w*h*3 bytes) instead of PNG: no PNG encode/decode round trip. */
    vt->thumbnail_image_type = Rgb;
    video_thumbnailer_set_log_callback(vt, pm_video_log_cb);

    pm_video_log[0] = '\0';
    if (video_thumbnailer_generate_thumbnail_to_buffer(vt, path, frame) != 0) {
        pm_set_error(err, err_len, "%s", pm_video_log[0] ? pm_video_log : "no video frame");
        status = PM_ERR_VIDEO;
        goto done;
    }

    w = frame->image_data_width;
    h = frame->image_data_height;
    if (w <= 0 || h <= 0 || w > VIPS_MAX_COORD || h > VIPS_MAX_COORD || !frame->image_data_ptr) {
        pm_set_error(err, err_len, "video frame has bad size %dx%d", w, h);
        status = PM_ERR_VIDEO;
        goto done;
    }
    /* The frame is already decoded here (ffmpeg itself caps frames at ~268 MP); the limit
     * still spares the resize and keeps the contract the same as for images. */
    cap = o->max_pixels ? o->max_pixels : PM_DEFAULT_MAX_PIXELS;
    if ((uint64_t) w * (uint64_t) h > cap) {
        pm_set_error(err, err_len, "video frame %dx%d is larger than the limit of %llu pixels",
                     w, h, (unsigned long long) cap);
        status = PM_ERR_TOO_LARGE;
        goto done;
    }
    need = (uint64_t) w * (uint64_t) h * 3u;
    if (frame->image_data_size < 0 || (uint64_t) frame->image_data_size < need) {
        pm_set_error(err, err_len, "video frame buffer too small (%d bytes for %dx%d)",
                     frame->image_data_size, w, h);
        status = PM_ERR_VIDEO;
        goto done;
    }

    /* Wraps ffmpegthumbnailer's buffer without copying; every image derived from it is
     * released below before the buffer is destroyed. */
    image = vips_image_new_from_memory(frame->image_data_ptr, (size_t) need, w, h, 3,
                                       VIPS_FORMAT_UCHAR);
    if (!image) {
        pm_take_vips_error(err, err_len, "cannot wrap video frame");
        status = PM_ERR_DECODE;
        goto done;
    }
    rc = vips_copy(image, &next, "interpretation", VIPS_INTERPRETATION_sRGB, NULL);
    if (pm_step(&image, &next, rc)) {
        pm_take_vips_error(err, err_len, "cannot tag video frame");
        status = PM_ERR_DECODE;
        goto done;
    }
    rc = vips_thumbnail_image(image, &next, o->width,
                              "height", o->height,
                              "size", VIPS_SIZE_DOWN,
                              "crop", o->crop == PM_CROP_CENTRE ? VIPS_INTERESTING_CENTRE
                                                                : VIPS_INTERESTING_NONE,
                              NULL);
    if (pm_step(&image, &next, rc)) {
        pm_take_vips_error(err, err_len, "cannot resize video frame");
        status = PM_ERR_DECODE;
        goto done;
    }
    /* pm_encode consumes the reference; the pixels are fully written out before it
     * returns, so frame's buffer may then be destroyed. */
    status = pm_encode(image, o, out, err, err_len);
    image = NULL;
    if (status == PM_OK)
        pm_finish_ok(err, err_len);

done:
    VIPS_UNREF(image);
    if (frame)
        video_thumbnailer_destroy_image_data(frame);
    if (vt)
        video_thumbnailer_destroy(vt);
    return status;
}
