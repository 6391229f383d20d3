#ifndef PHOTOMETA_CSPAWN_H
#define PHOTOMETA_CSPAWN_H
#include <sys/types.h>

/// Starts `/bin/sh -c command` with `envp`, its stdin from /dev/null and its stdout and stderr
/// on photometa's stderr, and no other descriptor of photometa's (posix_spawn with
/// closefrom(3)). Returns the pid, or -errno when it cannot start.
pid_t pm_spawn_shell(const char *command, char *const envp[]);

/// Starts `path` with `argv` and `envp` (NULL: photometa's own environment), its stdin and stdout
/// connected to two new pipes and its stderr on photometa's stderr, and no other descriptor of
/// photometa's (posix_spawn with closefrom(3)). On success returns the pid and sets `*to_child`
/// (write end of the child's stdin) and `*from_child` (read end of its stdout), both close-on-exec;
/// returns -errno when it cannot start (no descriptor is left open then).
pid_t pm_spawn_piped(const char *path, char *const argv[], char *const envp[], int *to_child, int *from_child);

/// The thumbnail helper's environment: photometa's, with `glibc.malloc.hugetlb=1` put first in
/// GLIBC_TUNABLES (a setting of the user's own comes after it and wins). glibc reads its
/// tunables only when a process starts, so the process that starts the helper sets them: with
/// them, glibc asks for transparent huge pages on the blocks it maps (madvise), and a full-size
/// decode's planes, mapped and unmapped for every file (the helper's fixed 1 MiB mmap
/// threshold), fault in 2 MiB at a time instead of 4 KiB (docs/performance.md). One calloc'd
/// block (free() it), or NULL when out of memory.
char **pm_helper_environment(void);

/// The process's environment (environ(7)); NULL after clearenv(3). Swift imports `environ`
/// itself as a pointer that cannot be NULL.
char **pm_environment(void);

/* The spawner (docs/sandbox.md): a process forked before photometa confines itself, which
 * keeps the rights photometa gives up (execve above all) and starts, on request, only the two
 * programs it was told about at its start: the thumbnail helper and the `watch --exec` hook.
 * A confined photometa that a hostile file took over can ask it for nothing else: the program
 * paths and the hook's command are fixed when it starts, requests carry only descriptors and,
 * for the hook, PHOTOMETA_* variables. It ends when photometa closes its socket (or exits). */

/// Forks the spawner; `helper` and `hook_command` may be NULL (that kind is then refused).
/// Call it while the process has one thread. Returns the socket to send requests on
/// (close-on-exec), or -errno.
int pm_spawner_start(const char *helper, const char *hook_command);

/// Asks the spawner for the helper, its stdin and stdout on two new pipes as pm_spawn_piped
/// does. On success returns its pid and sets `*to_child`, `*from_child` and `*status_fd` (read
/// the wait status from it: pm_spawner_wait); returns -errno when it cannot start.
pid_t pm_spawner_helper(int spawner, int *to_child, int *from_child, int *status_fd);

/// Asks the spawner for the hook (`/bin/sh -c COMMAND`, stdin /dev/null, stdout and stderr on
/// photometa's stderr) with `vars` (NULL-terminated "PHOTOMETA_NAME=value" strings; others are
/// dropped) added to its environment. Returns the pid and sets `*status_fd`, or -errno.
pid_t pm_spawner_hook(int spawner, char *const vars[], int *status_fd);

/// Reads the wait status (as waitpid gives it) of a spawned program from `status_fd`, then
/// closes it. Returns -1 when the spawner is gone.
int pm_spawner_wait(int status_fd);

#endif
