#define _GNU_SOURCE
#include "CSpawn.h"
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

pid_t pm_spawn_shell(const char *command, char *const envp[]) {
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0) return -ENOMEM;
    int rc = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, 2, 1);
    // Nothing of photometa's reaches the hook: not the index, the memory, inotify or a socket.
    if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    pid_t pid = -1;
    if (rc == 0) {
        char *const argv[] = {"sh", "-c", (char *)command, NULL};
        rc = posix_spawn(&pid, "/bin/sh", &actions, NULL, argv, envp);
    }
    posix_spawn_file_actions_destroy(&actions);
    return rc == 0 ? pid : -rc;
}
