#ifndef PHOTOMETA_CSANDBOX_H
#define PHOTOMETA_CSANDBOX_H
#include <stdint.h>

/* A process confining itself (docs/sandbox.md): no_new_privs, Landlock, a seccomp deny list
 * and resource limits. Every function returns 0 (or a count) on success and -errno on failure,
 * so the caller can say which confinement is missing and why. The Landlock and seccomp
 * constants this file needs are defined here when the installed kernel headers (Debian
 * bookworm's are 6.1, Landlock ABI 2) predate them: the running kernel is asked, not the
 * headers. */

/// What a Landlock rule allows beneath a path.
#define PM_ALLOW_READ 1        /* read files, list folders */
#define PM_ALLOW_WRITE 2       /* create, write, truncate, rename and remove files and folders */
#define PM_ALLOW_EXECUTE 4     /* execve a file */
#define PM_ALLOW_MAKE_SOCKET 8 /* bind a unix socket's file */
#define PM_ALLOW_LIST 16       /* list a folder (not read the files in it) */

/// The kernel's Landlock ABI version (1...), or -errno: -ENOSYS without Landlock,
/// -EOPNOTSUPP when it is built but disabled at boot.
int pm_landlock_abi(void);

/// A ruleset that handles every file-system right `abi` knows, TCP bind and connect (ABI 4)
/// and, from ABI 6, the abstract unix socket and signal scopes: what no rule allows is denied.
/// Returns its descriptor (close-on-exec) or -errno.
int pm_landlock_ruleset(int abi);

/// Allows `access` (PM_ALLOW_*) beneath `path`, resolved relative to `dirfd` (AT_FDCWD or a
/// folder) and opened O_PATH (links followed). On a file that is not a folder only the rights
/// that apply to a file are kept. Returns 0 or -errno (-ENOENT: nothing at `path`).
int pm_landlock_allow(int ruleset, int abi, int dirfd, const char *path, int access);

/// Enforces the ruleset on the calling thread and the threads it starts afterwards, then
/// closes it. Returns 0 or -errno.
int pm_landlock_restrict(int ruleset);

/// prctl(PR_SET_NO_NEW_PRIVS, 1): execve can never grant privileges again (set-user-ID,
/// file capabilities). Returns 0 or -errno.
int pm_no_new_privs(void);

/// Installs the seccomp deny list (CSandbox.c says which calls and why a deny list) on every
/// thread of the process (SECCOMP_FILTER_FLAG_TSYNC). `unix_sockets` nonzero lets socket(2)
/// create AF_UNIX sockets (and connect, bind, listen, accept them); `exec` nonzero lets execve
/// run (Landlock then says which files). Returns 0, -ENOSYS for an architecture the filter
/// does not know, or -errno.
int pm_seccomp_deny(int unix_sockets, int exec);

/// The number of threads of this process (/proc/self/status), or -errno.
int pm_thread_count(void);

/// setrlimit of the address space (`which` 0) or CPU seconds (`which` 1): the soft limit
/// `soft`, the hard limit `hard` (never raised above the current hard limit). Returns 0 or -errno.
int pm_set_limit(int which, uint64_t soft, uint64_t hard);

/// The current soft limit (`which` as above), UINT64_MAX for none.
uint64_t pm_get_limit(int which);

/// The probe's three attempts (test builds only call them): open `path` for reading, create an
/// AF_INET socket, spawn /bin/true. Each returns 0 when it succeeded (and undoes it) or errno.
int pm_probe_open(const char *path, int write);
int pm_probe_socket(int family);
int pm_probe_exec(const char *path);

#endif
