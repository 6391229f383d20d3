#define _GNU_SOURCE
#include "CSpawn.h"
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

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

pid_t pm_spawn_piped(const char *path, char *const argv[], char *const envp[], int *to_child, int *from_child) {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) return -errno;
    if (pipe2(out, O_CLOEXEC) != 0) {
        int e = errno;
        close(in[0]);
        close(in[1]);
        return -e;
    }
    posix_spawn_file_actions_t actions;
    int rc = posix_spawn_file_actions_init(&actions);
    if (rc == 0) {
        // dup2 onto 0 and 1 clears close-on-exec there; everything from 3 up is closed.
        rc = posix_spawn_file_actions_adddup2(&actions, in[0], 0);
        if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
        pid_t pid = -1;
        if (rc == 0) rc = posix_spawn(&pid, path, &actions, NULL, argv, envp ? envp : environ);
        posix_spawn_file_actions_destroy(&actions);
        close(in[0]);
        close(out[1]);
        if (rc == 0) {
            *to_child = in[1];
            *from_child = out[0];
            return pid;
        }
        close(in[1]);
        close(out[0]);
        return -rc;
    }
    close(in[0]);
    close(in[1]);
    close(out[0]);
    close(out[1]);
    return -rc;
}

#define PM_HELPER_TUNABLES "GLIBC_TUNABLES=glibc.malloc.hugetlb=1"

char **pm_environment(void) { return environ; }

char **pm_helper_environment(void) {
    size_t n = 0, theirs = 0;
    const char *user = NULL;
    while (environ[n]) {
        if (!user && strncmp(environ[n], "GLIBC_TUNABLES=", 15) == 0 && environ[n][15]) user = environ[n] + 15;
        n++;
    }
    if (user) theirs = strlen(user) + 1; /* ':' then the user's settings */
    size_t pointers = (n + 2) * sizeof(char *);
    size_t text = sizeof PM_HELPER_TUNABLES + theirs;
    char **env = calloc(1, pointers + text);
    if (!env) return NULL;
    char *tunables = (char *)env + pointers;
    memcpy(tunables, PM_HELPER_TUNABLES, sizeof PM_HELPER_TUNABLES);
    if (user) {
        strcat(tunables, ":");
        strcat(tunables, user);
    }
    size_t k = 0;
    env[k++] = tunables;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "GLIBC_TUNABLES=", 15) != 0) env[k++] = environ[i];
    env[k] = NULL;
    return env;
}
