/*
 * CVips: a small fixed-signature C API over libvips (images) and libffmpegthumbnailer
 * (video frames), for thumbnail generation from Swift.
 *
 * Why a shim: libvips' C API takes NULL-terminated varargs option lists
 * (vips_thumbnail(path, &out, width, "height", h, "crop", ..., NULL)), which Swift cannot
 * call. Every function here has a fixed signature and uses only plain C types, so Swift
 * never has to import the glib/libvips headers.
 *
 * Conventions:
 *  - Every function returns PM_OK (0) on success or a negative PM_ERR_* code.
 *  - `err`/`err_len` (may be NULL/0) receive a NUL-terminated, one-line, human-readable
 *    message, truncated to fit: on failure the error; on success "" or "warning: ..." with
 *    what the decoder recovered from (e.g. "VipsJpeg: Premature end of JPEG file" when
 *    fail_on is PM_FAIL_NONE). libvips' error buffer is process-global and shared by all
 *    threads, so under concurrent use a message may include text from another thread's
 *    call, or miss its own: the return code is authoritative. (VipsErrorGate.swift runs a call
 *    that failed beside another again, alone, so that its message is its own.)
 *  - Encoded output (pm_image.data) is owned by the caller and must be released with
 *    pm_free(). On failure pm_image is zeroed and nothing needs to be freed.
 *  - All functions are safe to call from several threads at once after pm_vips_init().
 *    libvips runs each call with one worker thread (we parallelise by files instead).
 */
#ifndef PHOTOMETA_CVIPS_H
#define PHOTOMETA_CVIPS_H

#include <stddef.h>
#include <stdint.h>


#ifdef __cplusplus
extern "C" {
#endif

/* Return codes (macros so that Swift imports them as Int32, the type of the results). */
#define PM_OK 0
#define PM_ERR_ARGUMENT (-1)    /* NULL pointer, size out of range, bad text key/value */
#define PM_ERR_INIT (-2)        /* pm_vips_init() not called or libvips failed to start */
#define PM_ERR_NOT_FILE (-3)    /* path missing, unreadable, or not a regular file */
#define PM_ERR_UNSUPPORTED (-4) /* no allowed (trusted) loader recognises the data */
#define PM_ERR_HEADER (-5)      /* a loader claimed the data but could not read its header */
#define PM_ERR_TOO_LARGE (-6)   /* declared width*height exceeds max_pixels; nothing decoded */
#define PM_ERR_DECODE (-7)      /* decoding, resizing or colour conversion failed */
#define PM_ERR_ENCODE (-8)      /* PNG/JPEG/WebP encoding failed */
#define PM_ERR_VIDEO (-9)       /* libffmpegthumbnailer could not produce a frame */

/* Output formats. */
#define PM_FORMAT_PNG 0  /* keeps alpha; can carry tEXt chunks (freedesktop thumbnails) */
#define PM_FORMAT_JPEG 1 /* alpha is flattened onto white */
#define PM_FORMAT_WEBP 2 /* keeps alpha */

/* Crop modes. */
#define PM_CROP_NONE 0   /* fit inside width x height, keep aspect ratio */
#define PM_CROP_CENTRE 1 /* fill width x height, cut the overflow from the centre */

/* How strict decoding is (same values as libvips' VipsFailOn). */
#define PM_FAIL_NONE 0      /* decode whatever is there (a truncated JPEG gives grey rows) */
#define PM_FAIL_TRUNCATED 1 /* truncated data is an error */
#define PM_FAIL_ERROR 2     /* truncated data and decoder errors are errors */
#define PM_FAIL_WARNING 3   /* even decoder warnings are errors */

/* Used when pm_thumb_options.max_pixels is 0: 100 megapixels. */
#define PM_DEFAULT_MAX_PIXELS 100000000ULL
/* Largest accepted thumbnail box side. */
#define PM_MAX_THUMB_SIDE 16384
/* Limits on PNG text chunks: PNG keywords are 1..79 bytes; values are capped here. */
#define PM_MAX_TEXT_CHUNKS 32
#define PM_MAX_TEXT_KEY 79
#define PM_MAX_TEXT_VALUE 65536

typedef struct pm_header {
    int width;        /* pixels as stored (before EXIF orientation is applied); page 0 */
    int height;       /* height of one page (page 0) */
    int pages;        /* number of pages/frames, >= 1 (animated GIF/WebP, multi-page TIFF) */
    int orientation;  /* EXIF orientation 1..8 as libvips reports it; 1 when absent */
    int has_alpha;    /* 1 when the image has an alpha channel */
    int sample_bytes; /* bytes of one decoded sample: 1 (8 bits), 2 (up to 16: 10- and 12-bit
                         HEIF, 16-bit PNG and TIFF), 4 or 8 (float TIFF) */
    char loader[64];  /* libvips loader nickname, e.g. "jpegload", "heifload_buffer" */
} pm_header;

typedef struct pm_thumb_options {
    int width;           /* box width, 1..PM_MAX_THUMB_SIDE */
    int height;          /* box height, 1..PM_MAX_THUMB_SIDE */
    int crop;            /* PM_CROP_* */
    int no_rotate;       /* non-zero: ignore EXIF orientation (default 0: rotate upright) */
    int orientation;     /* 0: use the image's own EXIF orientation (subject to no_rotate);
                            1..8: apply this EXIF orientation instead, e.g. the parent's IFD0
                            orientation for an IFD1 preview (which has no tag of its own).
                            Images only; ignored by pm_video_frame. */
    int fail_on;         /* PM_FAIL_* */
    uint64_t max_pixels; /* refuse when declared width*height is larger; 0 = default */
    int format;          /* PM_FORMAT_* */
    int quality;         /* 1..100 for JPEG/WebP, 0 = default (80); ignored for PNG */
    /* PNG only: uncompressed tEXt chunks to write right after IHDR, in this order, e.g.
     * "Thumb::URI" = "file:///home/u/a%20b.jpg". Keys: 1..79 printable ASCII bytes without
     * spaces; values: at most PM_MAX_TEXT_VALUE bytes of printable ASCII, tab or newline
     * (tEXt is Latin-1, so UTF-8 must be percent-encoded first, as freedesktop URIs are).
     * At most PM_MAX_TEXT_CHUNKS. Ignored (but still validated) for JPEG/WebP. */
    const char *const *text_keys;
    const char *const *text_values;
    size_t text_count;
} pm_thumb_options;

typedef struct pm_image {
    void *data;  /* encoded PNG/JPEG/WebP bytes; release with pm_free() */
    size_t len;
    int width;   /* size of the encoded image */
    int height;
} pm_image;

/* Starts libvips once per process (later calls return the first result). Also:
 * loads only the HEIF loader module of libvips' module folder (the others hold loaders blocked
 * below; VIPSHOME is set to /dev/null while vips_init runs, then put back: CVipsRuntime.c),
 * blocks every loader libvips marks untrusted (vips_block_untrusted_set), disables the
 * operation cache (each file is thumbnailed once; a cache would also hand back stale results
 * for a file rewritten in place), and sets libvips concurrency to 1. All of it is process-wide:
 * a program that uses libvips itself should start it first. */
int pm_vips_init(const char *argv0);

/* libvips' version string, e.g. "8.14.1". */
const char *pm_vips_version(void);

/* Silences (quiet != 0) or restores the libraries' own stderr output: libvips' g_warning
 * messages (e.g. "VIPS-WARNING **: VipsJpeg: Premature end of JPEG file", one line per
 * damaged PNG row) and FFmpeg's av_log messages (e.g. "moov atom not found").
 * Process-global. Errors are still returned through err. */
void pm_vips_set_quiet(int quiet);

/* Empties libvips' error buffer (process-global). A caller that has made sure no other call
 * is running (VipsErrorGate.swift) clears it, then calls again: the message it gets back is
 * that call's own. */
void pm_vips_error_clear(void);

/* Reads the header only: no pixels are decoded (a 100000x100000 PNG returns at once).
 * Fills *out. Errors: PM_ERR_NOT_FILE, PM_ERR_UNSUPPORTED, PM_ERR_HEADER. */
int pm_vips_header(const char *path, pm_header *out, char *err, size_t err_len);
/* Same for bytes in memory (e.g. an EXIF IFD1 JPEG preview). `data` must stay valid for
 * the duration of the call only. */
int pm_vips_header_buffer(const void *data, size_t len, pm_header *out,
                          char *err, size_t err_len);

/* Makes a thumbnail: header check against max_pixels, then libvips' vips_thumbnail
 * (shrink-on-load, EXIF auto-rotation unless no_rotate, never enlarges), the embedded ICC
 * profile converted to sRGB (8-bit RGB: on the thumbnail, with a LittleCMS transform kept per
 * distinct profile, CVipsColour.c; CMYK, grey, 16-bit: libvips' export_profile), 8-bit sRGB,
 * then encodes per opts->format with all metadata stripped except the requested PNG tEXt
 * chunks. Multi-page inputs give page 0 (the first GIF frame). */
int pm_vips_thumbnail(const char *path, const pm_thumb_options *opts, pm_image *out,
                      char *err, size_t err_len);
/* Same for bytes in memory. */
int pm_vips_thumbnail_buffer(const void *data, size_t len, const pm_thumb_options *opts,
                             pm_image *out, char *err, size_t err_len);

/* Grabs one video frame with libffmpegthumbnailer at seek_percent (clamped to 0..99) of the
 * duration, at the video's display size (rotation matrix and pixel aspect ratio applied),
 * then scales/crops it into opts->width x opts->height (never enlarging) and encodes it
 * exactly like pm_vips_thumbnail (same formats, PNG text chunks, no metadata).
 * opts->orientation/no_rotate/fail_on are not used. The frame is decoded at full size
 * (a 4K frame is 24 MB of RGB); opts->max_pixels is checked on it afterwards.
 * ffmpegthumbnailer's error message (e.g. "Could not find video stream") is returned in
 * err. Errors: PM_ERR_NOT_FILE, PM_ERR_VIDEO, PM_ERR_TOO_LARGE, PM_ERR_DECODE,
 * PM_ERR_ENCODE. */
int pm_video_frame(const char *path, int seek_percent, const pm_thumb_options *opts,
                   pm_image *out, char *err, size_t err_len);

/* Releases pm_image.data (g_free). NULL is fine. */
void pm_free(void *data);

#ifdef __cplusplus
}
#endif

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
