#define _GNU_SOURCE
#include <sys/vfs.h>
#include "CStatx.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>

static int pm_statx_impl(int dirfd, const char *path, int flags, pm_file_stat *out) {
    struct statx sx;
    memset(out, 0, sizeof(*out));
    unsigned mask = STATX_BASIC_STATS | STATX_BTIME;
    if (statx(dirfd, path, flags | AT_STATX_SYNC_AS_STAT, mask, &sx) != 0) {
        return errno;
    }
    out->size = (int64_t)sx.stx_size;
    out->mtime_sec = sx.stx_mtime.tv_sec;
    out->mtime_nsec = (int32_t)sx.stx_mtime.tv_nsec;
    out->ctime_sec = sx.stx_ctime.tv_sec;
    out->ctime_nsec = (int32_t)sx.stx_ctime.tv_nsec;
    if (sx.stx_mask & STATX_BTIME) {
        out->has_btime = 1;
        out->btime_sec = sx.stx_btime.tv_sec;
        out->btime_nsec = (int32_t)sx.stx_btime.tv_nsec;
    }
    out->inode = sx.stx_ino;
    out->device = makedev(sx.stx_dev_major, sx.stx_dev_minor);
    out->mode = sx.stx_mode;
    out->uid = sx.stx_uid;
    return 0;
}

int pm_statx(const char *path, int nofollow, pm_file_stat *out) {
    return pm_statx_impl(AT_FDCWD, path, nofollow ? AT_SYMLINK_NOFOLLOW : 0, out);
}

int pm_statx_at(int dirfd, const char *name, int nofollow, pm_file_stat *out) {
    return pm_statx_impl(dirfd, name, nofollow ? AT_SYMLINK_NOFOLLOW : 0, out);
}

int pm_statx_fd(int fd, pm_file_stat *out) {
    return pm_statx_impl(fd, "", AT_EMPTY_PATH, out);
}

int pm_open_folder_path(int dirfd, const char *name) {
    int fd = openat(dirfd, name, O_PATH | O_DIRECTORY | O_CLOEXEC);
    return fd >= 0 ? fd : -errno;
}

int pm_open_folder_path_nofollow(int dirfd, const char *name) {
    int fd = openat(dirfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    return fd >= 0 ? fd : -errno;
}

long pm_pread_cached(int fd, void *buf, unsigned long count, long long offset) {
    struct iovec v = {.iov_base = buf, .iov_len = count};
    ssize_t n = preadv2(fd, &v, 1, (off_t)offset, RWF_NOWAIT);
    return n >= 0 ? (long)n : -(long)errno;
}

int pm_statfs_type(const char *path, uint64_t *type) {
    struct statfs s;
    if (statfs(path, &s) != 0) return errno;
    *type = (uint64_t)s.f_type;
    return 0;
}
