/*
 * CVips: errors as messages (libvips error buffer, FFmpeg quiet), start-up, version, pm_free.
 * See include/CVips.h for the contract of each function, and CVipsInternal.h for the
 * ownership rule every file follows.
 */
#define _GNU_SOURCE /* dladdr */
#include "CVipsInternal.h"

#include <malloc.h>

/* ------------------------------------------------------------------------------------------
 * Errors
 */

/* Writes a printf-style message into err (if any), always NUL-terminated. */
void
pm_set_error(char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;

    if (!err || err_len == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
}

/* The length of the line at `line` (up to '\n' or `limit`) without its trailing blanks, and
 * where the next line starts. */
static size_t
pm_line(const char *line, size_t limit, size_t *next)
{
    const char *end = memchr(line, '\n', limit);
    size_t len = end ? (size_t) (end - line) : limit;

    *next = end ? len + 1 : len;
    while (len > 0 && line[len - 1] == ' ')
        len--;
    return len;
}

/* Whether one of the lines of msg[0, before) is the `len` bytes at `line`. */
static int
pm_said_before(const char *msg, size_t before, const char *line, size_t len)
{
    size_t at = 0, step;

    while (at < before) {
        size_t n = pm_line(msg + at, before - at, &step);

        if (n == len && memcmp(msg + at, line, len) == 0)
            return 1;
        at += step;
    }
    return 0;
}

/* Takes (copies and clears, under libvips' lock, in one step) libvips' error buffer and
 * makes it one line: libvips ends every message with '\n', and the lines are joined with ';'.
 * A line said again is left out: a loader that retries a read ("bad seek to 244", libtiff
 * at each strip of a cut file) says the same line a dozen times, which pushed the useful one
 * past the caller's buffer. Lines are told apart at libvips' '\n', so a ';' in a file's name
 * never splits one. Returns a g_malloc'd string, possibly empty. The buffer is
 * process-global, so with concurrent callers the text may contain another thread's messages
 * (see CVips.h). */
static char *
pm_take_vips_text(void)
{
    char *msg = vips_error_buffer_copy();
    char *out;
    size_t used = 0, at = 0, n, step;

    if (!msg)
        return g_strdup("");
    n = strlen(msg);
    out = g_malloc(n + 1);
    while (at < n) {
        size_t len = pm_line(msg + at, n - at, &step);

        if (len > 0 && !pm_said_before(msg, at, msg + at, len)) {
            if (used > 0)
                out[used++] = ';';
            memcpy(out + used, msg + at, len);
            used += len;
        }
        at += step;
    }
    out[used] = '\0';
    g_free(msg);
    return out;
}

/* Ends a failed libvips step: err = "context: <libvips text>". */
void
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
int
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

/* glibc's malloc as full-size decodes need it (measured on 20 12 MP HEICs, docs/performance.md:
 * peak RSS 370 -> 200-240 MiB with two 8-bit ones at once, 494 -> 242-252 MiB for 12-bit ones
 * one at a time). A fixed mmap threshold turns off glibc's dynamic one, which after the first
 * decoded picture is freed rises to 32 MiB, so that every later plane of a decode comes from
 * the heaps, whose freed memory stays in the process; above 1 MiB, blocks are mapped and given
 * back when freed. Two arenas instead of eight a core: each arena keeps its own free memory.
 * Giving the planes back means every decode faults them in again (a 12-bit 12 MP HEIC: about
 * 70,000 page faults, a third of its CPU in the kernel); the helper is therefore started with
 * glibc.malloc.hugetlb=1 (pm_helper_environment, CSpawn), which makes those faults 2 MiB
 * each. A tunable, not a mallopt: glibc reads it only when the process starts. */
static void
pm_malloc_for_decoders(void)
{
    (void) mallopt(M_MMAP_THRESHOLD, 1024 * 1024);
    (void) mallopt(M_ARENA_MAX, 2);
}

/* The loader modules photometa admits. A libvips built with modules (Debian's 8.14) loads
 * every one in its module folder at start-up: vips-heif, vips-jxl, vips-magick, vips-openslide
 * and vips-poppler, which bring ImageMagick, poppler, cairo and OpenSlide with them (about
 * a hundred shared libraries). All but the HEIF one hold loaders that pm_vips_init blocks as
 * untrusted right after, so loading them bought nothing but time (35-90 ms a helper start,
 * docs/performance.md) and code in the process that reads hostile files. */
static const char *const pm_admitted_modules[] = { "vips-heif" };

/* libvips' module folder, beside the libvips that is loaded (dladdr): what vips_init would
 * read when VIPSHOME is unset. g_free'd by the caller; NULL when it cannot be found. */
static char *
pm_module_dir(void)
{
    Dl_info info;
    char *lib_dir, *dir;

    if (!dladdr((void *) vips_init, &info) || !info.dli_fname || !strchr(info.dli_fname, '/'))
        return NULL;
    lib_dir = g_path_get_dirname(info.dli_fname);
    dir = g_strdup_printf("%s/vips-modules-%d.%d", lib_dir, vips_version(0), vips_version(1));
    g_free(lib_dir);
    return dir;
}

/* The admitted modules' paths, when every one of them is in the module folder; else NULL, and
 * libvips loads its modules as it always does. A g_strfreev'd vector. */
static char **
pm_admitted_module_paths(void)
{
    size_t n = sizeof pm_admitted_modules / sizeof pm_admitted_modules[0];
    char *dir = pm_module_dir();
    char **paths;

    if (!dir)
        return NULL;
    paths = g_new0(char *, n + 1);
    for (size_t i = 0; i < n; i++) {
        paths[i] = g_strdup_printf("%s/%s.%s", dir, pm_admitted_modules[i], G_MODULE_SUFFIX);
        if (!g_file_test(paths[i], G_FILE_TEST_IS_REGULAR)) {
            g_strfreev(paths);
            paths = NULL;
            break;
        }
    }
    g_free(dir);
    return paths;
}

/* vips_init with only the admitted modules. vips_init reads its module folder under the prefix
 * that VIPSHOME names, and finds none under "/dev/null"; the admitted ones are then opened as
 * vips_init would open them (g_module_open, kept resident: their types cannot be unloaded).
 * VIPSHOME is put back at once. Only libvips' own message translations, looked up under the
 * same prefix, are lost: its messages stay English. */
static int
pm_vips_init_admitted(const char *argv0)
{
    char **paths = pm_admitted_module_paths();
    char *saved = NULL;
    int rc;

    if (!paths)
        return VIPS_INIT(argv0);
    saved = g_strdup(g_getenv("VIPSHOME"));
    g_setenv("VIPSHOME", "/dev/null", TRUE);
    rc = VIPS_INIT(argv0);
    if (saved)
        g_setenv("VIPSHOME", saved, TRUE);
    else
        g_unsetenv("VIPSHOME");
    g_free(saved);
    for (size_t i = 0; rc == 0 && paths[i]; i++) {
        GModule *module = g_module_open(paths[i], G_MODULE_BIND_LAZY);

        /* A module that does not open leaves its formats unsupported, as a missing one would. */
        if (module)
            g_module_make_resident(module);
    }
    g_strfreev(paths);
    return rc;
}

static GMutex pm_init_lock;
static int pm_init_state; /* 0 = not yet, 1 = ok, -1 = failed */

int
pm_vips_init(const char *argv0)
{
    int result;

    g_mutex_lock(&pm_init_lock);
    if (pm_init_state == 0) {
        pm_malloc_for_decoders();
        /* VIPS_INIT also checks that the headers we compiled against match the library. */
        if (pm_vips_init_admitted(argv0 ? argv0 : "photometa")) {
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

int
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

void
pm_vips_set_quiet(int quiet)
{
    pm_video_set_quiet(quiet);
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
pm_vips_error_clear(void)
{
    vips_error_clear();
}

void
pm_free(void *data)
{
    g_free(data);
}
