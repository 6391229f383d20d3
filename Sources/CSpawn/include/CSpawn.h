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

#endif
