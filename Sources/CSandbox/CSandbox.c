#define _GNU_SOURCE
#include "CSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- Landlock ([Linux Documentation/userspace-api/landlock.rst]) ----------------------------
 * Rights newer than the 6.1 headers, by the ABI that introduced them. */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13) /* ABI 2 */
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14) /* ABI 3 */
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */
#endif
#define PM_LANDLOCK_NET_BIND_TCP (1ULL << 0)          /* ABI 4 */
#define PM_LANDLOCK_NET_CONNECT_TCP (1ULL << 1)       /* ABI 4 */
#define PM_LANDLOCK_SCOPE_ABSTRACT_UNIX (1ULL << 0)   /* ABI 6 */
#define PM_LANDLOCK_SCOPE_SIGNAL (1ULL << 1)          /* ABI 6 */
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif

/* struct landlock_ruleset_attr as of ABI 6; the kernel takes a longer struct than it knows as
 * long as the fields it does not know are zero, so the fields are set by ABI. */
struct pm_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

/* The rights that apply to a file that is not a folder (a rule on such a file may hold no
 * other: EINVAL). */
#define PM_FILE_RIGHTS                                                                         \
    (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | \
     LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV)

static uint64_t pm_fs_rights(int abi) {
    uint64_t all = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1; /* ABI 1: bits 0-12 */
    if (abi >= 2) all |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3) all |= LANDLOCK_ACCESS_FS_TRUNCATE;
    if (abi >= 5) all |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
    return all;
}

int pm_landlock_abi(void) {
    long v = syscall(__NR_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return v < 0 ? -errno : (int)v;
}

int pm_landlock_ruleset(int abi) {
    struct pm_ruleset_attr attr = {0};
    attr.handled_access_fs = pm_fs_rights(abi);
    /* No rule ever allows a TCP port: a decoder or a metadata parser never listens or dials. */
    if (abi >= 4) attr.handled_access_net = PM_LANDLOCK_NET_BIND_TCP | PM_LANDLOCK_NET_CONNECT_TCP;
    /* Abstract unix sockets (the session bus, X11's) and signals reach only this domain. */
    if (abi >= 6) attr.scoped = PM_LANDLOCK_SCOPE_ABSTRACT_UNIX | PM_LANDLOCK_SCOPE_SIGNAL;
    long fd = syscall(__NR_landlock_create_ruleset, &attr, sizeof attr, 0);
    return fd < 0 ? -errno : (int)fd;
}

int pm_landlock_allow(int ruleset, int abi, int dirfd, const char *path, int access) {
    uint64_t rights = 0;
    if (access & PM_ALLOW_READ) rights |= LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
    if (access & PM_ALLOW_WRITE)
        rights |= LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                  LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_REFER |
                  LANDLOCK_ACCESS_FS_TRUNCATE;
    if (access & PM_ALLOW_EXECUTE) rights |= LANDLOCK_ACCESS_FS_EXECUTE;
    if (access & PM_ALLOW_MAKE_SOCKET) rights |= LANDLOCK_ACCESS_FS_MAKE_SOCK;
    if (access & PM_ALLOW_LIST) rights |= LANDLOCK_ACCESS_FS_READ_DIR;
    int fd = openat(dirfd, path, O_PATH | O_CLOEXEC);
    if (fd < 0) return -errno;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    if (!S_ISDIR(st.st_mode)) rights &= PM_FILE_RIGHTS;
    rights &= pm_fs_rights(abi);
    struct landlock_path_beneath_attr rule = {.allowed_access = rights, .parent_fd = fd};
    long rc = rights ? syscall(__NR_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) : 0;
    int e = errno;
    close(fd);
    return rc < 0 ? -e : 0;
}

int pm_landlock_restrict(int ruleset) {
    long rc = syscall(__NR_landlock_restrict_self, ruleset, 0);
    int e = errno;
    close(ruleset);
    return rc < 0 ? -e : 0;
}

int pm_no_new_privs(void) { return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 ? 0 : -errno; }

/* ---- seccomp ([Linux Documentation/userspace-api/seccomp_filter.rst]) ----------------------
 *
 * A deny list, not an allow list. An allow list names every call libvips, libheif, libde265,
 * libwebp, FFmpeg, GLib, glibc and the Swift runtime may make, and breaks whenever one of them
 * starts using a new call (clone3, rseq, getrandom, statx, faccessat2, close_range... each
 * broke allow lists when glibc adopted it). glycin, GNOME's image loader sandbox, moved from an
 * allow list to a deny list for that reason. The deny list takes away what a decoder or a
 * metadata parser never needs and an attacker wants: the network, running programs, other
 * processes' memory, namespaces (the way out of most sandboxes and into kernel attack
 * surface), mounts, keyrings, kernel modules and kexec, BPF, io_uring (its operations bypass
 * seccomp), userfaultfd (a kernel exploit's tool), personality (READ_IMPLIES_EXEC). Files are
 * Landlock's job. A denied call fails with EPERM, so a library that tries one gets an error it
 * handles, and the probe can report it. */

#if defined(__x86_64__)
#define PM_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define PM_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#define PM_DENY(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM)
#define PM_ARG0_LOW offsetof(struct seccomp_data, args[0])
#define PM_NS_FLAGS                                                                                       \
    (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET)

/* Calls denied in every confined photometa process. */
static const int pm_denied[] = {
    __NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev, __NR_mount, __NR_umount2, __NR_pivot_root,
    __NR_chroot, __NR_unshare, __NR_setns, __NR_kexec_load, __NR_kexec_file_load, __NR_add_key, __NR_request_key,
    __NR_keyctl, __NR_init_module, __NR_finit_module, __NR_delete_module, __NR_bpf, __NR_perf_event_open,
    __NR_userfaultfd, __NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register, __NR_open_by_handle_at,
    __NR_swapon, __NR_swapoff, __NR_reboot, __NR_acct, __NR_quotactl, __NR_syslog,
#ifdef __NR_open_tree
    __NR_open_tree, __NR_move_mount, __NR_fsopen, __NR_fsconfig, __NR_fsmount, __NR_fspick,
#endif
#ifdef __NR_mount_setattr
    __NR_mount_setattr,
#endif
#if defined(__x86_64__)
    __NR_iopl, __NR_ioperm, __NR_uselib,
#endif
};
/* Sockets beyond AF_UNIX's (socket itself is filtered on its family). */
static const int pm_denied_network[] = {__NR_socketpair, __NR_connect, __NR_bind, __NR_listen, __NR_accept,
                                        __NR_accept4};

int pm_seccomp_deny(int unix_sockets, int exec) {
#ifndef PM_AUDIT_ARCH
    (void)unix_sockets;
    (void)exec;
    return -ENOSYS;
#else
    struct sock_filter f[160];
    size_t n = 0;
#define PM_PUT(...)                                                                        \
    do {                                                                                   \
        struct sock_filter put[] = {__VA_ARGS__};                                          \
        if (n + sizeof put / sizeof put[0] > sizeof f / sizeof f[0]) return -E2BIG;        \
        memcpy(f + n, put, sizeof put);                                                    \
        n += sizeof put / sizeof put[0];                                                   \
    } while (0)
    /* A call made through another architecture's table (int 0x80 on x86_64, x32) has other
     * numbers: the process is killed rather than judged by the wrong table. */
    PM_PUT(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
           BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PM_AUDIT_ARCH, 1, 0),
           BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
           BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
#if defined(__x86_64__)
    PM_PUT(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1), /* __X32_SYSCALL_BIT */
           BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM));
#endif
    for (size_t i = 0; i < sizeof pm_denied / sizeof pm_denied[0]; i++) PM_PUT(PM_DENY(pm_denied[i]));
    if (!unix_sockets)
        for (size_t i = 0; i < sizeof pm_denied_network / sizeof pm_denied_network[0]; i++)
            PM_PUT(PM_DENY(pm_denied_network[i]));
    if (!exec) {
        PM_PUT(PM_DENY(__NR_execve));
        PM_PUT(PM_DENY(__NR_execveat));
    }
    /* clone3 passes its flags in memory a filter cannot read: ENOSYS makes glibc (2.34+) fall
     * back to clone, whose flags it can. */
    PM_PUT(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 0, 1),
           BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS));
    /* clone: threads and processes yes, new namespaces no. */
    PM_PUT(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 4),
           BPF_STMT(BPF_LD | BPF_W | BPF_ABS, PM_ARG0_LOW),
           BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PM_NS_FLAGS, 0, 1),
           BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
           BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    /* personality: asking (0xffffffff) yes, changing (READ_IMPLIES_EXEC, ADDR_NO_RANDOMIZE) no. */
    PM_PUT(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_personality, 0, 4),
           BPF_STMT(BPF_LD | BPF_W | BPF_ABS, PM_ARG0_LOW),
           BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xffffffffU, 1, 0),
           BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
           BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    /* socket: AF_UNIX when allowed, no other family ever. */
    PM_PUT(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 4),
           BPF_STMT(BPF_LD | BPF_W | BPF_ABS, PM_ARG0_LOW),
           BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, unix_sockets ? 1 : 0, 0),
           BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
           BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    PM_PUT(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
#undef PM_PUT
    struct sock_fprog prog = {.len = (unsigned short)n, .filter = f};
    if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) != 0) return -errno;
    return 0;
#endif
}

int pm_thread_count(void) {
    FILE *f = fopen("/proc/self/status", "re");
    if (!f) return -errno;
    char line[256];
    int threads = -ENOENT;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "Threads: %d", &threads) == 1) break;
    fclose(f);
    return threads;
}

/* ---- resource limits ------------------------------------------------------------------- */

int pm_set_limit(int which, uint64_t soft, uint64_t hard) {
    int resource = which == 0 ? RLIMIT_AS : RLIMIT_CPU;
    struct rlimit now;
    if (getrlimit(resource, &now) != 0) return -errno;
    struct rlimit want = {.rlim_cur = soft, .rlim_max = hard};
    if (now.rlim_max != RLIM_INFINITY && want.rlim_max > now.rlim_max) want.rlim_max = now.rlim_max;
    if (want.rlim_cur > want.rlim_max) want.rlim_cur = want.rlim_max;
    return setrlimit(resource, &want) == 0 ? 0 : -errno;
}

uint64_t pm_get_limit(int which) {
    struct rlimit now;
    if (getrlimit(which == 0 ? RLIMIT_AS : RLIMIT_CPU, &now) != 0 || now.rlim_cur == RLIM_INFINITY) return UINT64_MAX;
    return now.rlim_cur;
}

/* ---- the probe (test builds) ------------------------------------------------------------ */

int pm_probe_open(const char *path, int write) {
    int fd = write ? open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600) : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    close(fd);
    if (write) unlink(path);
    return 0;
}

int pm_probe_socket(int family) {
    int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return errno;
    close(fd);
    return 0;
}

int pm_probe_exec(const char *path) {
    char *const argv[] = {(char *)path, NULL};
    char *const envp[] = {NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, path, NULL, NULL, argv, envp);
    if (rc != 0) return rc;
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return 0;
}
