#define _GNU_SOURCE
#include "CStatx.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

int pm_statx(const char *path, int nofollow, pm_file_stat *out) {
    struct statx sx;
    memset(out, 0, sizeof(*out));
    int flags = AT_STATX_SYNC_AS_STAT | (nofollow ? AT_SYMLINK_NOFOLLOW : 0);
    unsigned mask = STATX_BASIC_STATS | STATX_BTIME;
    if (statx(AT_FDCWD, path, flags, mask, &sx) != 0) {
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
    return 0;
}
