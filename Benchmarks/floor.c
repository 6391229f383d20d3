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
static size_t count, capacity;
static atomic_size_t cursor;
static int read_mode, exif_mode;

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

static uint64_t load_exif(const unsigned char *buf, size_t n) {
    unsigned length = 0;
    const unsigned char *segment = exif_segment(buf, n, &length);
    if (!segment || segment + length > buf + n) return 0;
    ExifData *data = photometa_exif_data_new();
    if (!data) return 0;
    exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
    exif_data_load_data(data, segment, length);
    uint64_t entries = data->ifd[EXIF_IFD_0] ? data->ifd[EXIF_IFD_0]->count : 0;
    photometa_exif_data_release(data);
    return entries;
}

static void add(const char *path) {
    if (count == capacity) {
        capacity = capacity ? capacity * 2 : 4096;
        paths = realloc(paths, capacity * sizeof *paths);
        if (!paths) { perror("realloc"); exit(1); }
    }
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
        else if (t == DT_REG) add(path);
    }
    closedir(d);
}

struct result { uint64_t files, bytes, sum; };

static void *work(void *arg) {
    struct result *r = arg;
    unsigned char *buf = malloc(READ_SIZE);
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
            close(fd);
            if (n > 0) { r->bytes += (uint64_t)n; r->sum += buf[0] + buf[n - 1]; }
            if (n > 0 && exif_mode) r->sum += load_exif(buf, (size_t)n);
        } else {
            struct statx stx;
            if (statx(AT_FDCWD, paths[i], AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS | STATX_BTIME, &stx) != 0) continue;
            r->sum += stx.stx_size ^ stx.stx_ino ^ (uint64_t)stx.stx_mtime.tv_nsec;
        }
        r->files++;
    }
    free(buf);
    return NULL;
}

int main(int argc, char **argv) {
    int threads = 1, opt;
    while ((opt = getopt(argc, argv, "j:")) != -1) {
        if (opt == 'j') threads = atoi(optarg);
        else { fprintf(stderr, "usage: floor [-j THREADS] stat|read|exif DIR\n"); return 64; }
    }
    if (argc - optind != 2 || threads < 1 ||
        (strcmp(argv[optind], "stat") != 0 && strcmp(argv[optind], "read") != 0 &&
         strcmp(argv[optind], "exif") != 0)) {
        fprintf(stderr, "usage: floor [-j THREADS] stat|read|exif DIR\n");
        return 64;
    }
    exif_mode = strcmp(argv[optind], "exif") == 0;
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
    printf("files %llu bytes %llu checksum %llu\n", (unsigned long long)total.files,
           (unsigned long long)total.bytes, (unsigned long long)total.sum);
    return total.files == count ? 0 : 1;
}
