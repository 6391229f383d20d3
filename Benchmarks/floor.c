/*
 * The I/O floors of `make bench`: the least work any tool must do to look at every file of a
 * folder tree, done by the simplest C program.
 *
 *   floor [-j THREADS] stat DIR   walk DIR (readdir, d_type) and statx every regular file
 *   floor [-j THREADS] read DIR   walk DIR and read the first 64 KiB of every regular file
 *                                 (open, one read, close)
 *
 * The walk is the same for both and mirrors photometa's scanners: recursive, names starting
 * with '.' skipped, symbolic links not followed.  With -j N (default 1) the walk stays on one
 * thread and the per-file work is shared by N threads.  Prints files, bytes read and a checksum
 * (so nothing can be optimised away).
 *
 * Build: gcc -O2 -pthread -o floor Benchmarks/floor.c
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

#define READ_SIZE (64 * 1024)

static char **paths;
static size_t count, capacity;
static atomic_size_t cursor;
static int read_mode;

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
            ssize_t n = read(fd, buf, READ_SIZE);
            close(fd);
            if (n > 0) { r->bytes += (uint64_t)n; r->sum += buf[0] + buf[n - 1]; }
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
        else { fprintf(stderr, "usage: floor [-j THREADS] stat|read DIR\n"); return 64; }
    }
    if (argc - optind != 2 || threads < 1 ||
        (strcmp(argv[optind], "stat") != 0 && strcmp(argv[optind], "read") != 0)) {
        fprintf(stderr, "usage: floor [-j THREADS] stat|read DIR\n");
        return 64;
    }
    read_mode = strcmp(argv[optind], "read") == 0;
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
