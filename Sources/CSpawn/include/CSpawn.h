#ifndef PHOTOMETA_CSPAWN_H
#define PHOTOMETA_CSPAWN_H
#include <sys/types.h>

/// Starts `/bin/sh -c command` with `envp`, its stdin from /dev/null and its stdout and stderr
/// on photometa's stderr, and no other descriptor of photometa's (posix_spawn with
/// closefrom(3)). Returns the pid, or -errno when it cannot start.
pid_t pm_spawn_shell(const char *command, char *const envp[]);

#endif
