/*
 * The I/O floors of `make bench`: the least work any tool must do to look at every file of a
 * folder tree, done by the simplest C program.
 *
 *   floor [-j THREADS] stat DIR   walk DIR (readdir, d_type) and statx every regular file
 *   floor [-j THREADS] read DIR   walk DIR and read the first 64 KiB of every regular file
 *                                 (open, one read, close)
 *   floor [-j THREADS] exif DIR   as read, then hand a JPEG's Exif APP1 segment to libexif's
 *                                 exif_data_load_data with the options and the allocator
 *                                 photometa uses (Sources/CExif/exif_arena.h), and release it:
 *                                 the least work of any tool that decodes with libexif (the
 *                                 house rule), whatever it does around it
 *   floor [-j THREADS] facts DIR  as exif, plus what every inspect report needs and jhead
 *                                 does not do: a statx of each file in the walk (its size and
 *                                 times), the tags inspect reports looked up in libexif's
 *                                 data, one small read at the end of the file (the truncation
 *                                 check), and a JSON line per file written to stdout in 64 KiB
 *                                 writes: the least work of any tool that reports inspect's
 *                                 facts under the house rules
 *
 * The walk is the same for both and mirrors photometa's scanners: recursive, names starting
 * with '.' skipped, symbolic links not followed.  With -j N (default 1) the walk stays on one
 * thread and the per-file work is shared by N threads.  Prints files, bytes read and a checksum
 * (so nothing can be optimised away).
 *
 * Build: gcc -O2 -pthread -o floor Benchmarks/floor.c -lexif
 *
 * Why photometa's allocator: with libexif's own (calloc and a free per entry) the load costs
 * about half as much again (0.12 s of CPU against 0.08 s for 5,000 phone JPEGs, 2026-12-06),
 * which made this floor slower than jhead and read as if libexif put jhead out of reach. It
 * does not: photometa's decodes use the arena, so the floor must too.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libexif/exif-data.h>

#include "../Sources/CExif/exif_arena.h"

#define READ_SIZE (64 * 1024)
#define EXIF_READ_SIZE (16 * 1024)

static char **paths;
static long long *sizes;  /* facts: each file's size, from its statx */
static size_t count, capacity;
static atomic_size_t cursor;
static int read_mode, exif_mode, facts_mode;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
#define OUT_SIZE (64 * 1024)

/* The Exif APP1 payload ("Exif\0\0" + TIFF) of the JPEG in buf[0..n), or NULL: the markers
 * before the first scan, as [ITU T.81 B.1.1.4] lays them out (FF xx, a 2-byte length). */
static const unsigned char *exif_segment(const unsigned char *buf, size_t n, unsigned *length) {
    if (n < 4 || buf[0] != 0xFF || buf[1] != 0xD8) return NULL;
    size_t i = 2;
    while (i + 4 <= n && buf[i] == 0xFF && buf[i + 1] != 0xDA) {
        unsigned len = (unsigned)buf[i + 2] << 8 | buf[i + 3];
        if (len < 2) return NULL;
        if (buf[i + 1] == 0xE1 && len >= 8 && i + 10 <= n && memcmp(buf + i + 4, "Exif\0\0", 6) == 0) {
            *length = len - 2;
            return buf + i + 4;
        }
        i += 2 + (size_t)len;
    }
    return NULL;
}

/* JSON without printf (whose format parsing would be most of this floor's own cost): text as
 * it is (no escaping: the floor's samples need none), integers and 7-decimal fixed point by hand. */
static size_t put(char *out, const char *s, size_t len) { memcpy(out, s, len); return len; }
#define PUT(out, lit) put(out, lit, sizeof lit - 1)

static size_t put_int(char *out, long long v) {
    char digits[24];
    size_t n = 0, k = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    if (v < 0) out[k++] = '-';
    do { digits[n++] = (char)('0' + u % 10); u /= 10; } while (u);
    while (n) out[k++] = digits[--n];
    return k;
}

static size_t put_key(char *out, char prefix, unsigned tag) {
    static const char hex[] = "0123456789abcdef";
    size_t k = 0;
    out[k++] = '"';
    out[k++] = prefix;
    for (int shift = 12; shift >= 0; shift -= 4) out[k++] = hex[(tag >> shift) & 15];
    out[k++] = '"';
    out[k++] = ':';
    return k;
}

static size_t put_fixed7(char *out, double v) {
    long long scaled = (long long)(v * 1e7 + (v < 0 ? -0.5 : 0.5));
    size_t k = 0;
    if (scaled < 0) { out[k++] = '-'; scaled = -scaled; }
    k += put_int(out + k, scaled / 10000000);
    out[k++] = '.';
    long long frac = scaled % 10000000;
    for (long long d = 1000000; d; d /= 10) out[k++] = (char)('0' + frac / d % 10);
    return k;
}

/* The tags inspect reports, each looked up as photometa does (one exif_content_get_entry per
 * tag and IFD), their text or numbers appended to `out` as JSON. */
static size_t facts_json(ExifData *data, char *out, size_t room) {
    static const ExifTag text0[] = {EXIF_TAG_MAKE, EXIF_TAG_MODEL, EXIF_TAG_SOFTWARE, EXIF_TAG_IMAGE_DESCRIPTION,
                                    EXIF_TAG_DATE_TIME};
    static const ExifTag textx[] = {EXIF_TAG_DATE_TIME_ORIGINAL, EXIF_TAG_DATE_TIME_DIGITIZED, EXIF_TAG_OFFSET_TIME,
                                    EXIF_TAG_OFFSET_TIME_ORIGINAL, EXIF_TAG_OFFSET_TIME_DIGITIZED,
                                    EXIF_TAG_SUB_SEC_TIME, EXIF_TAG_SUB_SEC_TIME_ORIGINAL,
                                    EXIF_TAG_SUB_SEC_TIME_DIGITIZED, EXIF_TAG_LENS_MODEL, EXIF_TAG_USER_COMMENT};
    static const ExifTag ints[] = {EXIF_TAG_ORIENTATION, EXIF_TAG_PIXEL_X_DIMENSION, EXIF_TAG_PIXEL_Y_DIMENSION};
    static const ExifTag gps[] = {EXIF_TAG_GPS_LATITUDE, EXIF_TAG_GPS_LONGITUDE, EXIF_TAG_GPS_LATITUDE_REF,
                                  EXIF_TAG_GPS_LONGITUDE_REF, EXIF_TAG_GPS_DATE_STAMP, EXIF_TAG_GPS_TIME_STAMP};
    ExifByteOrder order = exif_data_get_byte_order(data);
    size_t n = 0;
    for (int k = 0; k < 3; k++) {
        ExifContent *ifd = data->ifd[k == 0 ? EXIF_IFD_0 : k == 1 ? EXIF_IFD_EXIF : EXIF_IFD_GPS];
        const ExifTag *tags = k == 0 ? text0 : k == 1 ? textx : gps;
        size_t count = k == 0 ? 5 : k == 1 ? 10 : 6;
        for (size_t i = 0; i < count; i++) {
            ExifEntry *e = ifd ? exif_content_get_entry(ifd, tags[i]) : NULL;
            if (room - n < 256) return n;
            n += put_key(out + n, 't', tags[i]);
            if (!e || !e->data) { n += PUT(out + n, "null,"); continue; }
            if (e->format == EXIF_FORMAT_RATIONAL && e->components >= 3) {
                double v = 0;
                for (int c = 0; c < 3; c++) {
                    ExifRational r = exif_get_rational(e->data + 8 * c, order);
                    if (r.denominator) v += (double)r.numerator / r.denominator / (c == 0 ? 1 : c == 1 ? 60 : 3600);
                }
                n += put_fixed7(out + n, v);
                out[n++] = ',';
            } else {
                int len = e->size > 64 ? 64 : (int)e->size;
                const char *text = (const char *)e->data;
                size_t used = strnlen(text, (size_t)len);
                out[n++] = '"';
                n += put(out + n, text, used);
                n += PUT(out + n, "\",");
            }
        }
    }
    for (size_t i = 0; i < 3; i++) {
        ExifEntry *e = exif_content_get_entry(data->ifd[i == 0 ? EXIF_IFD_0 : EXIF_IFD_EXIF], ints[i]);
        long v = !e || !e->data ? -1 : e->format == EXIF_FORMAT_SHORT ? exif_get_short(e->data, order)
                                                                     : (long)exif_get_long(e->data, order);
        if (room - n < 64) return n;
        n += put_key(out + n, 'i', ints[i]);
        n += put_int(out + n, v);
        out[n++] = ',';
    }
    return n;
}

static __thread char *json_out;
static __thread size_t json_used, json_room;

static uint64_t load_exif(const unsigned char *buf, size_t n) {
    unsigned length = 0;
    const unsigned char *segment = exif_segment(buf, n, &length);
    if (!segment || segment + length > buf + n) return 0;
    ExifData *data = photometa_exif_data_new();
    if (!data) return 0;
    exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
    exif_data_load_data(data, segment, length);
    if (json_room) json_used += facts_json(data, json_out + json_used, json_room - json_used);
    uint64_t entries = data->ifd[EXIF_IFD_0] ? data->ifd[EXIF_IFD_0]->count : 0;
    photometa_exif_data_release(data);
    return entries;
}

static void add(const char *path, long long size) {
    if (count == capacity) {
        capacity = capacity ? capacity * 2 : 4096;
        paths = realloc(paths, capacity * sizeof *paths);
        sizes = realloc(sizes, capacity * sizeof *sizes);
        if (!paths || !sizes) { perror("realloc"); exit(1); }
    }
    sizes[count] = size;
    paths[count++] = strdup(path);
}

static void walk(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) { fprintf(stderr, "floor: %s: %s\n", dir, strerror(errno)); return; }
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unsigned char t = e->d_type;
        if (t == DT_UNKNOWN) {
            struct stat st;
            if (lstat(path, &st) != 0) continue;
            t = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
        }
        if (t == DT_DIR) walk(path);
        else if (t == DT_REG) add(path, -1);
    }
    closedir(d);
}

struct result { uint64_t files, bytes, sum; };

static void *work(void *arg) {
    struct result *r = arg;
    unsigned char *buf = malloc(READ_SIZE);
    unsigned char tail[64];
    char *out = facts_mode ? malloc(OUT_SIZE + 4096) : NULL;
    size_t used = 0;
    for (;;) {
        size_t i = atomic_fetch_add(&cursor, 1);
        if (i >= count) break;
        if (read_mode) {
            int fd = open(paths[i], O_RDONLY | O_CLOEXEC);
            if (fd < 0) continue;
            /* exif: 16 KiB holds a camera's Exif segment (as photometa's first read); the
             * rest of the 64 KiB only when the segment goes on past it. */
            ssize_t n = read(fd, buf, exif_mode ? EXIF_READ_SIZE : READ_SIZE);
            unsigned length = 0;
            const unsigned char *segment = n > 0 && exif_mode ? exif_segment(buf, (size_t)n, &length) : NULL;
            if (exif_mode && n == EXIF_READ_SIZE && (!segment || segment + length > buf + n)) {
                ssize_t more = read(fd, buf + n, READ_SIZE - EXIF_READ_SIZE);
                if (more > 0) n += more;
            }
            int truncated = 0;
            struct statx stx;
            /* inspect reports each file's size and times: one statx a file, on the worker */
            if (facts_mode && statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS | STATX_BTIME, &stx) == 0)
                sizes[i] = (long long)stx.stx_size;
            if (facts_mode && sizes[i] > (long long)sizeof tail) {
                /* the end-of-image check: one small read of the file's last bytes */
                ssize_t t = pread(fd, tail, sizeof tail, sizes[i] - (long long)sizeof tail);
                truncated = t != (ssize_t)sizeof tail || memmem(tail, sizeof tail, "\xff\xd9", 2) == NULL;
            }
            close(fd);
            if (n > 0) { r->bytes += (uint64_t)n; r->sum += buf[0] + buf[n - 1]; }
            if (facts_mode) {
                used += PUT(out + used, "{\"path\":\"");
                used += put(out + used, paths[i], strnlen(paths[i], 900));
                used += PUT(out + used, "\",\"fileSize\":");
                used += put_int(out + used, sizes[i]);
                out[used++] = ',';
                json_out = out; json_used = used; json_room = OUT_SIZE + 3000;
            }
            if (n > 0 && exif_mode) r->sum += load_exif(buf, (size_t)n);
            if (facts_mode) {
                used = json_used;
                used += truncated ? PUT(out + used, "\"truncated\":true}\n") : PUT(out + used, "\"truncated\":false}\n");
                if (used >= OUT_SIZE) {
                    pthread_mutex_lock(&out_lock);
                    fwrite(out, 1, used, stdout);
                    pthread_mutex_unlock(&out_lock);
                    used = 0;
                }
            }
        } else {
            struct statx stx;
            if (statx(AT_FDCWD, paths[i], AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS | STATX_BTIME, &stx) != 0) continue;
            r->sum += stx.stx_size ^ stx.stx_ino ^ (uint64_t)stx.stx_mtime.tv_nsec;
        }
        r->files++;
    }
    if (used) {
        pthread_mutex_lock(&out_lock);
        fwrite(out, 1, used, stdout);
        pthread_mutex_unlock(&out_lock);
    }
    free(out);
    free(buf);
    return NULL;
}

int main(int argc, char **argv) {
    int threads = 1, opt;
    while ((opt = getopt(argc, argv, "j:")) != -1) {
        if (opt == 'j') threads = atoi(optarg);
        else { fprintf(stderr, "usage: floor [-j THREADS] stat|read|exif|facts DIR\n"); return 64; }
    }
    if (argc - optind != 2 || threads < 1 ||
        (strcmp(argv[optind], "stat") != 0 && strcmp(argv[optind], "read") != 0 &&
         strcmp(argv[optind], "exif") != 0 && strcmp(argv[optind], "facts") != 0)) {
        fprintf(stderr, "usage: floor [-j THREADS] stat|read|exif|facts DIR\n");
        return 64;
    }
    facts_mode = strcmp(argv[optind], "facts") == 0;
    exif_mode = facts_mode || strcmp(argv[optind], "exif") == 0;
    if (facts_mode) setvbuf(stdout, NULL, _IOFBF, OUT_SIZE);
    read_mode = exif_mode || strcmp(argv[optind], "read") == 0;
    walk(argv[optind + 1]);
    pthread_t tid[64];
    struct result res[64] = {0};
    if (threads > 64) threads = 64;
    for (int t = 1; t < threads; t++) pthread_create(&tid[t], NULL, work, &res[t]);
    work(&res[0]);
    struct result total = {0};
    for (int t = 0; t < threads; t++) {
        if (t > 0) pthread_join(tid[t], NULL);
        total.files += res[t].files; total.bytes += res[t].bytes; total.sum += res[t].sum;
    }
    fflush(stdout);
    fprintf(facts_mode ? stderr : stdout, "files %llu bytes %llu checksum %llu\n", (unsigned long long)total.files,
           (unsigned long long)total.bytes, (unsigned long long)total.sum);
    return total.files == count ? 0 : 1;
}
