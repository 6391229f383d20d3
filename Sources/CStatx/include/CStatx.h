#ifndef PHOTOMETA_CSTATX_H
#define PHOTOMETA_CSTATX_H
#include <stdint.h>

/// File times and identity as returned by statx(2), reduced to what photometa needs.
typedef struct {
    int64_t size;
    int64_t mtime_sec;
    int32_t mtime_nsec;
    int64_t ctime_sec;
    int32_t ctime_nsec;
    int64_t btime_sec;
    int32_t btime_nsec;
    int has_btime;   /* 1 when the file system reported a birth time (STATX_BTIME) */
    uint64_t inode;
    uint64_t device;
    uint32_t mode;   /* st_mode: file type and permissions */
    uint32_t uid;    /* owner */
} pm_file_stat;

/// Returns 0 on success, or an errno value. Does not follow a final symlink when nofollow != 0.
int pm_statx(const char *path, int nofollow, pm_file_stat *out);

/// The same for `name` inside the open directory `dirfd`: one path component to resolve
/// instead of the whole path.
int pm_statx_at(int dirfd, const char *name, int nofollow, pm_file_stat *out);

/// The same for an open file descriptor (AT_EMPTY_PATH).
int pm_statx_fd(int fd, pm_file_stat *out);

/// openat(dirfd, name, O_PATH | O_DIRECTORY | O_CLOEXEC): a folder opened for lookups below it
/// only (search permission suffices; Swift's Glibc module lacks O_PATH). Returns the
/// descriptor, or -errno.
int pm_open_folder_path(int dirfd, const char *name);
/// pm_open_folder_path, but `name` itself is not followed when it is a symbolic link
/// (O_NOFOLLOW: -ENOTDIR or -ELOOP): the folder inotify is to watch, as IN_DONT_FOLLOW asks.
int pm_open_folder_path_nofollow(int dirfd, const char *name);

/// preadv2(fd, buf, count, offset, RWF_NOWAIT): the bytes only if the page cache holds them,
/// without waiting for the disk. Returns the count read (possibly short), or -errno (-EAGAIN:
/// not all cached; -EOPNOTSUPP or -EINVAL: the kernel or file system cannot say).
long pm_pread_cached(int fd, void *buf, unsigned long count, long long offset);

/// statfs(2)'s f_type, the file system's magic number, for `path` (links followed). Returns 0,
/// or an errno value. (Swift's Glibc module lacks <sys/vfs.h>.)
int pm_statfs_type(const char *path, uint64_t *type);

#endif
