/*
 * CVips: video frames through libffmpegthumbnailer.
 * See include/CVips.h for the contract of each function, and CVipsInternal.h for the
 * ownership rule every file follows.
 */
#include "CVipsInternal.h"

#include <pthread.h>

/* ------------------------------------------------------------------------------------------
 * libffmpegthumbnailer, opened on the first video
 */

/* Not linked: libffmpegthumbnailer brings FFmpeg and its codecs, about 95 shared libraries, and
 * every symbol the dynamic loader looks up (at start, lazily, and for libvips' loader modules)
 * walks every library loaded: the helper started on 200 instead of 104 and spent 170-206 ms of
 * CPU starting libvips instead of 78-85 (perf: ld.so's do_lookup_x; docs/performance.md), in
 * every run, videos or not. Opened RTLD_LOCAL, so that even after a video FFmpeg's libraries
 * stay out of the global lookup scope. The confined helper may still open it: Landlock lets it
 * read /usr and the folders of its loaded libraries (docs/sandbox.md). */
static struct {
    void *handle;
    video_thumbnailer *(*create)(void);
    void (*destroy)(video_thumbnailer *);
    image_data *(*create_image_data)(void);
    void (*destroy_image_data)(image_data *);
    int (*generate_to_buffer)(video_thumbnailer *, const char *, image_data *);
    void (*set_log_callback)(video_thumbnailer *, thumbnailer_log_callback);
    void (*av_log_set_level)(int);
    char error[256];
} pm_ff;

static pthread_once_t pm_ff_once = PTHREAD_ONCE_INIT;
static GMutex pm_ff_quiet_lock; /* guards pm_ff_quiet and pm_ff.av_log_set_level */
static int pm_ff_quiet;         /* what pm_video_set_quiet asked for last */

/* FFmpeg's own av_log() messages ("moov atom not found", ...) go to stderr and
 * libffmpegthumbnailer does not redirect them. libavutil comes with libffmpegthumbnailer, so
 * av_log_set_level is looked up there rather than requiring libavutil-dev for one call. The
 * level values are FFmpeg's stable AV_LOG_QUIET (-8) and AV_LOG_INFO (32, FFmpeg's default).
 * Called with pm_ff_quiet_lock held. */
static void
pm_ff_apply_quiet(void)
{
    if (pm_ff.av_log_set_level)
        pm_ff.av_log_set_level(pm_ff_quiet ? -8 : 32);
}

static void
pm_ff_open(void)
{
    void *h = dlopen("libffmpegthumbnailer.so.4", RTLD_LAZY | RTLD_LOCAL);
    void (*set_level)(int);

    if (!h) {
        const char *why = dlerror();
        g_strlcpy(pm_ff.error, why ? why : "libffmpegthumbnailer.so.4 not found", sizeof(pm_ff.error));
        return;
    }
    /* ISO C leaves object-to-function pointer casts undefined; POSIX's dlsym requires them. */
    *(void **) &pm_ff.create = dlsym(h, "video_thumbnailer_create");
    *(void **) &pm_ff.destroy = dlsym(h, "video_thumbnailer_destroy");
    *(void **) &pm_ff.create_image_data = dlsym(h, "video_thumbnailer_create_image_data");
    *(void **) &pm_ff.destroy_image_data = dlsym(h, "video_thumbnailer_destroy_image_data");
    *(void **) &pm_ff.generate_to_buffer = dlsym(h, "video_thumbnailer_generate_thumbnail_to_buffer");
    *(void **) &pm_ff.set_log_callback = dlsym(h, "video_thumbnailer_set_log_callback");
    /* A handle's lookups include the libraries it brought (libavutil). */
    *(void **) &set_level = dlsym(h, "av_log_set_level");
    if (!pm_ff.create || !pm_ff.destroy || !pm_ff.create_image_data || !pm_ff.destroy_image_data
        || !pm_ff.generate_to_buffer || !pm_ff.set_log_callback) {
        g_strlcpy(pm_ff.error, "libffmpegthumbnailer.so.4 lacks its C API", sizeof(pm_ff.error));
        return;
    }
    pm_ff.handle = h; /* never closed: FFmpeg registers its codecs once per process */
    g_mutex_lock(&pm_ff_quiet_lock);
    pm_ff.av_log_set_level = set_level;
    pm_ff_apply_quiet();
    g_mutex_unlock(&pm_ff_quiet_lock);
}

/* Opens libffmpegthumbnailer once; PM_OK, or PM_ERR_VIDEO with the loader's reason. */
static int
pm_ff_ready(char *err, size_t err_len)
{
    (void) pthread_once(&pm_ff_once, pm_ff_open);
    if (pm_ff.handle)
        return PM_OK;
    pm_set_error(err, err_len, "video thumbnails need libffmpegthumbnailer: %s", pm_ff.error);
    return PM_ERR_VIDEO;
}

void
pm_video_set_quiet(int quiet)
{
    g_mutex_lock(&pm_ff_quiet_lock);
    pm_ff_quiet = quiet;
    pm_ff_apply_quiet();
    g_mutex_unlock(&pm_ff_quiet_lock);
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
    /* Said already in this call: once is enough (see pm_take_vips_text). The messages are
     * kept joined by "; ", so each is compared whole, never as a part of a longer one. */
    for (const char *at = pm_video_log; *at;) {
        const char *end = strstr(at, "; ");
        size_t n = end ? (size_t) (end - at) : strlen(at);

        if (n == strlen(msg) && memcmp(at, msg, n) == 0)
            return;
        if (!end)
            break;
        at = end + 2;
    }
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

/* The thumbnailer's settings: the frame at display size, at seek_percent, as raw RGB. */
static void
pm_video_configure(video_thumbnailer *vt, int seek_percent)
{
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
}

/* The decoded frame's size against the limits and its buffer; sets *need (bytes of RGB). */
static int
pm_video_check_frame(const image_data *frame, const pm_thumb_options *o, uint64_t *need, char *err,
                     size_t err_len)
{
    int w = frame->image_data_width;
    int h = frame->image_data_height;
    uint64_t cap;

    if (w <= 0 || h <= 0 || w > VIPS_MAX_COORD || h > VIPS_MAX_COORD || !frame->image_data_ptr) {
        pm_set_error(err, err_len, "video frame has bad size %dx%d", w, h);
        return PM_ERR_VIDEO;
    }
    /* The frame is already decoded here (ffmpeg itself caps frames at ~268 MP); the limit
     * still spares the resize and keeps the contract the same as for images. */
    cap = o->max_pixels ? o->max_pixels : PM_DEFAULT_MAX_PIXELS;
    if ((uint64_t) w * (uint64_t) h > cap) {
        pm_set_error(err, err_len, "video frame %dx%d is larger than the limit of %llu pixels",
                     w, h, (unsigned long long) cap);
        return PM_ERR_TOO_LARGE;
    }
    *need = (uint64_t) w * (uint64_t) h * 3u;
    if (frame->image_data_size < 0 || (uint64_t) frame->image_data_size < *need) {
        pm_set_error(err, err_len, "video frame buffer too small (%d bytes for %dx%d)",
                     frame->image_data_size, w, h);
        return PM_ERR_VIDEO;
    }
    return PM_OK;
}

/* The whole-number factor a w x h frame is first shrunk by (a box filter: each output pixel
 * the mean of shrink x shrink frame pixels) before vips_thumbnail_image resizes it to the box,
 * 1 for none. vips_thumbnail_image of a decoded frame must resize it in one go (it has no
 * shrink-on-load, which a JPEG's DCT scaling gives the image path), and libvips 8.14's resize
 * of a 1920x1080 frame to 256 px took 110 ms on one thread, most of it in its fractional
 * horizontal shrink; shrunk by 3 first, 30 ms (docs/performance.md, "Video frames"). The
 * factor leaves at least twice the box, as libvips' own shrink-on-load does for a JPEG, so
 * the final resize (Lanczos) still has the detail to work with. */
static int
pm_video_box_shrink(int w, int h, const pm_thumb_options *o)
{
    /* The scale vips_thumbnail_image will apply: the box inside the frame (fit), or the frame
     * covering the box (centre crop). */
    double sx = (double) w / o->width, sy = (double) h / o->height;
    double factor = o->crop == PM_CROP_CENTRE ? (sx < sy ? sx : sy) : (sx > sy ? sx : sy);
    int shrink = (int) (factor / 2.0);
    /* Only a factor that divides both sides: the shrunk frame then has exactly the frame's
     * proportions, so vips_thumbnail_image arrives at the sizes it gives the whole frame (a
     * rounded-up side would move the short one by a pixel in about one case in fifteen), and
     * no side is padded. Video sizes have many small divisors (1920x1080: 3; 3840x2160: 6). */
    while (shrink > 1 && (w % shrink != 0 || h % shrink != 0))
        shrink--;
    return shrink > 1 ? shrink : 1;
}

/* The frame as an sRGB image, shrunk and cropped to the box. *image is set as soon as there
 * is one, also on failure (the caller releases it before the frame's buffer). */
static int
pm_video_thumbnail(const image_data *frame, uint64_t need, const pm_thumb_options *o, VipsImage **image,
                   char *err, size_t err_len)
{
    VipsImage *next = NULL;
    int w = frame->image_data_width;
    int h = frame->image_data_height;
    int shrink;
    int rc;

    /* Wraps ffmpegthumbnailer's buffer without copying; every image derived from it is
     * released below before the buffer is destroyed. */
    *image = vips_image_new_from_memory(frame->image_data_ptr, (size_t) need, w, h, 3,
                                        VIPS_FORMAT_UCHAR);
    if (!*image) {
        pm_take_vips_error(err, err_len, "cannot wrap video frame");
        return PM_ERR_DECODE;
    }
    rc = vips_copy(*image, &next, "interpretation", VIPS_INTERPRETATION_sRGB, NULL);
    if (pm_step(image, &next, rc)) {
        pm_take_vips_error(err, err_len, "cannot tag video frame");
        return PM_ERR_DECODE;
    }
    if ((shrink = pm_video_box_shrink(w, h, o)) > 1) {
        rc = vips_shrink(*image, &next, (double) shrink, (double) shrink, NULL);
        if (pm_step(image, &next, rc)) {
            pm_take_vips_error(err, err_len, "cannot shrink video frame");
            return PM_ERR_DECODE;
        }
    }
    rc = vips_thumbnail_image(*image, &next, o->width,
                              "height", o->height,
                              "size", VIPS_SIZE_DOWN,
                              "crop", o->crop == PM_CROP_CENTRE ? VIPS_INTERESTING_CENTRE
                                                                : VIPS_INTERESTING_NONE,
                              NULL);
    if (pm_step(image, &next, rc)) {
        pm_take_vips_error(err, err_len, "cannot resize video frame");
        return PM_ERR_DECODE;
    }
    return PM_OK;
}

int
pm_video_frame(const char *path, int seek_percent, const pm_thumb_options *o, pm_image *out,
               char *err, size_t err_len)
{
    video_thumbnailer *vt = NULL;
    image_data *frame = NULL;
    VipsImage *image = NULL;
    int status;
    uint64_t need;

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
    if ((status = pm_ff_ready(err, err_len)) != PM_OK)
        return status;

    vt = pm_ff.create();
    frame = pm_ff.create_image_data();
    if (!vt || !frame) {
        pm_set_error(err, err_len, "cannot create video thumbnailer");
        status = PM_ERR_VIDEO;
        goto done;
    }
    pm_video_configure(vt, seek_percent);
    pm_ff.set_log_callback(vt, pm_video_log_cb);

    pm_video_log[0] = '\0';
    if (pm_ff.generate_to_buffer(vt, path, frame) != 0) {
        pm_set_error(err, err_len, "%s", pm_video_log[0] ? pm_video_log : "no video frame");
        status = PM_ERR_VIDEO;
        goto done;
    }

    if ((status = pm_video_check_frame(frame, o, &need, err, err_len)) != PM_OK)
        goto done;
    if ((status = pm_video_thumbnail(frame, need, o, &image, err, err_len)) != PM_OK)
        goto done;
    /* pm_encode consumes the reference; the pixels are fully written out before it
     * returns, so frame's buffer may then be destroyed. */
    status = pm_encode(image, o, out, err, err_len);
    image = NULL;
    if (status == PM_OK)
        pm_finish_ok(err, err_len);

done:
    VIPS_UNREF(image);
    if (frame)
        pm_ff.destroy_image_data(frame);
    if (vt)
        pm_ff.destroy(vt);
    return status;
}
