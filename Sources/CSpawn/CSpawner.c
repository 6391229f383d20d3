#define _GNU_SOURCE
#include "CSpawn.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* A request is one SOCK_SEQPACKET message: its kind ('H' helper, 'S' hook) then, for a hook,
 * NUL-terminated PHOTOMETA_* variables; its descriptors travel beside it (SCM_RIGHTS): the
 * socket the pid and then the wait status go back on, and for the helper its stdin and stdout.
 * The answer is two ints on that socket: the pid (or -errno), then the wait status. */
#define PM_REQUEST_MAX 65536
#define PM_HOOK_VARS_MAX 64

static const char *pm_helper;
static const char *pm_hook;

/* Helpers whose reaper has not finished. When photometa goes (its end of the spawner's socket
 * hangs up), the spawner waits for them before it exits: each reaper sees photometa's end of
 * its reply socket hang up and kills its helper. Exiting at once ended the reapers instead,
 * and a killed photometa's helper went on decoding (and writing into `--out`) for seconds. */
static pthread_mutex_t pm_live_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pm_live_changed = PTHREAD_COND_INITIALIZER;
static int pm_live_helpers;

static void pm_live_add(int n) {
    pthread_mutex_lock(&pm_live_lock);
    pm_live_helpers += n;
    pthread_cond_broadcast(&pm_live_changed);
    pthread_mutex_unlock(&pm_live_lock);
}

static int pm_send(int sock, const char *data, size_t len, const int *fds, int nfds) {
    char control[CMSG_SPACE(3 * sizeof(int))];
    memset(control, 0, sizeof control);
    struct iovec iov = {.iov_base = (void *)data, .iov_len = len};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
                         .msg_controllen = CMSG_SPACE(nfds * sizeof(int))};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
    memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
    ssize_t n;
    do n = sendmsg(sock, &msg, MSG_NOSIGNAL); while (n < 0 && errno == EINTR);
    return n < 0 ? -errno : 0;
}

/* Receives a request; returns its length (0: photometa is gone) and up to 3 descriptors. */
static ssize_t pm_receive(int sock, char *data, size_t cap, int *fds, int *nfds) {
    char control[CMSG_SPACE(3 * sizeof(int))];
    struct iovec iov = {.iov_base = data, .iov_len = cap};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
    ssize_t n;
    do n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC); while (n < 0 && errno == EINTR);
    *nfds = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        int count = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        for (int i = 0; i < count; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
            if (*nfds < 3) fds[(*nfds)++] = fd; else close(fd);
        }
    }
    return n;
}

static void pm_write_int(int fd, int value) {
    ssize_t n;
    do n = write(fd, &value, sizeof value); while (n < 0 && errno == EINTR);
}

struct pm_child {
    pid_t pid;
    int reply;
    int helper;
};

/* Waits for the child and sends its wait status. For the helper, photometa hanging up the
 * reply socket before the helper ended means it gave up on it (a helper that stopped
 * answering: a stalled disk, a decoder stuck): the helper is killed then, as photometa may not
 * signal it itself (Landlock's signal scope). Both are waited for at once: the hang-up, and the
 * helper's end through a pidfd [pidfd_open(2), Linux 5.3], which becomes readable when it
 * exits, so its status goes back at once (photometa waits for it before it exits: polling
 * every 100 ms alone cost a `thumbnail` run 50 ms on average). Where there is no pidfd (an
 * older kernel, a container that refuses the call), the 100 ms poll finds the end. A hook is
 * left to finish, whatever photometa does. */
static void *pm_reap(void *arg) {
    struct pm_child child = *(struct pm_child *)arg;
    free(arg);
    pid_t pid = child.pid;
    int reply = child.reply;
    int status = 0;
    int killed = !child.helper; /* a hook: wait, never kill */
    int pidfd = -1;
#ifdef SYS_pidfd_open
    if (!killed) pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
    int exited = 0; /* the pidfd said the child ended */
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR)) break;
        if (killed) {
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            break;
        }
        if (exited && r == 0 && pidfd >= 0) {
            /* Readable, yet not to be reaped: a tracer (strace -f) holds the exit until it has
             * seen it. The 100 ms poll from here on, not a loop that spins until then. */
            close(pidfd);
            pidfd = -1;
        }
        /* A negative descriptor is ignored by poll: without a pidfd, only the hang-up wakes it. */
        struct pollfd p[2] = {{.fd = reply, .events = POLLRDHUP}, {.fd = pidfd, .events = POLLIN}};
        if (poll(p, 2, 100) > 0) {
            exited = (p[1].revents & POLLIN) != 0;
            if (p[0].revents & (POLLHUP | POLLRDHUP | POLLERR)) {
                kill(pid, SIGKILL);
                killed = 1;
            }
        }
    }
    if (pidfd >= 0) close(pidfd);
    pm_write_int(reply, status);
    close(reply);
    if (child.helper) pm_live_add(-1);
    return NULL;
}

/* The hook's environment: the spawner's own, then the request's PHOTOMETA_* variables. */
static char **pm_hook_env(char *vars, size_t len) {
    size_t own = 0;
    while (environ[own]) own++;
    char **env = calloc(own + PM_HOOK_VARS_MAX + 1, sizeof(char *));
    if (!env) return NULL;
    size_t n = 0;
    for (size_t i = 0; i < len && n < PM_HOOK_VARS_MAX;) {
        char *v = vars + i;
        size_t l = strnlen(v, len - i);
        if (l == len - i) break; /* not terminated */
        if (strncmp(v, "PHOTOMETA_", 10) == 0 && strchr(v, '=')) env[n++] = v;
        i += l + 1;
    }
    for (size_t i = 0; i < own; i++) {
        size_t key = strcspn(environ[i], "=");
        int replaced = 0;
        for (size_t j = 0; j < n && !replaced; j++) replaced = strncmp(env[j], environ[i], key + 1) == 0;
        if (!replaced) env[n++] = environ[i];
    }
    return env;
}

static pid_t pm_start(char kind, char *rest, size_t len, const int *fds, int nfds) {
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0) return -ENOMEM;
    int rc;
    pid_t pid = -1;
    if (kind == 'H' && pm_helper && nfds == 3) {
        rc = posix_spawn_file_actions_adddup2(&actions, fds[1], 0);
        if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, fds[2], 1);
        if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
        char *const argv[] = {(char *)pm_helper, NULL};
        char **env = pm_helper_environment();
        if (rc == 0) rc = posix_spawn(&pid, pm_helper, &actions, NULL, argv, env ? env : environ);
        free(env);
    } else if (kind == 'S' && pm_hook) {
        char **env = pm_hook_env(rest, len);
        rc = env ? posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) : ENOMEM;
        if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, 2, 1);
        if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
        char *const argv[] = {"sh", "-c", (char *)pm_hook, NULL};
        if (rc == 0) rc = posix_spawn(&pid, "/bin/sh", &actions, NULL, argv, env);
        free(env);
    } else {
        rc = EPERM; /* a program the spawner was not told about at its start */
    }
    posix_spawn_file_actions_destroy(&actions);
    return rc == 0 ? pid : -rc;
}

static void pm_serve(int sock) {
    static char request[PM_REQUEST_MAX];
    for (;;) {
        int fds[3], nfds;
        ssize_t n = pm_receive(sock, request, sizeof request - 1, fds, &nfds);
        if (n <= 0) return;
        request[n] = '\0';
        pid_t pid = nfds >= 1 ? pm_start(request[0], request + 1, (size_t)n - 1, fds, nfds) : -EINVAL;
        for (int i = 1; i < nfds; i++) close(fds[i]);
        if (nfds < 1) continue;
        pm_write_int(fds[0], pid);
        pthread_t t;
        struct pm_child *child = pid > 0 ? malloc(sizeof *child) : NULL;
        int helper = request[0] == 'H';
        if (child) *child = (struct pm_child){.pid = pid, .reply = fds[0], .helper = helper};
        if (child && helper) pm_live_add(1);
        if (!child || pthread_create(&t, NULL, pm_reap, child) != 0) {
            if (child && helper) pm_live_add(-1);
            free(child);
            close(fds[0]);
            continue;
        }
        pthread_detach(t);
    }
}

int pm_spawner_start(const char *helper, const char *hook_command) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) return -errno;
    /* Copies made before the fork: the child uses no allocator state of the parent's threads. */
    char *h = helper ? strdup(helper) : NULL;
    char *k = hook_command ? strdup(hook_command) : NULL;
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(sv[0]);
        close(sv[1]);
        free(h);
        free(k);
        return -e;
    }
    if (pid == 0) {
        close(sv[0]);
        /* Nothing of photometa's but the socket and stderr: not its database, not inotify, and
         * not its stdin or stdout (a reader of photometa's output must see its end when
         * photometa exits; hooks write to stderr, the helper gets pipes). */
        if (sv[1] > 3) close_range(3, (unsigned)sv[1] - 1, 0);
        close_range((unsigned)sv[1] + 1, ~0U, 0);
        int null = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
            close(null);
        }
        signal(SIGINT, SIG_IGN); /* Ctrl-C stops photometa, which then closes the socket */
        signal(SIGPIPE, SIG_IGN);
        pm_helper = h;
        pm_hook = k;
        pm_serve(sv[1]);
        /* Hooks are left to finish; helpers are not left running (pm_live_helpers). */
        pthread_mutex_lock(&pm_live_lock);
        while (pm_live_helpers > 0) pthread_cond_wait(&pm_live_changed, &pm_live_lock);
        pthread_mutex_unlock(&pm_live_lock);
        _exit(0);
    }
    free(h);
    free(k);
    close(sv[1]);
    return sv[0];
}

static pid_t pm_answer(int status_fd) {
    int pid;
    ssize_t n;
    do n = read(status_fd, &pid, sizeof pid); while (n < 0 && errno == EINTR);
    if (n != sizeof pid) return -EPIPE;
    return pid;
}

pid_t pm_spawner_helper(int spawner, int *to_child, int *from_child, int *status_fd) {
    int in[2], out[2], reply[2];
    if (pipe2(in, O_CLOEXEC) != 0) return -errno;
    if (pipe2(out, O_CLOEXEC) != 0) {
        int e = errno;
        close(in[0]);
        close(in[1]);
        return -e;
    }
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, reply) != 0) {
        int e = errno;
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        return -e;
    }
    int fds[3] = {reply[1], in[0], out[1]};
    int rc = pm_send(spawner, "H", 1, fds, 3);
    close(reply[1]);
    close(in[0]);
    close(out[1]);
    pid_t pid = rc == 0 ? pm_answer(reply[0]) : rc;
    if (pid <= 0) {
        close(reply[0]);
        close(in[1]);
        close(out[0]);
        return pid < 0 ? pid : -EPIPE;
    }
    *to_child = in[1];
    *from_child = out[0];
    *status_fd = reply[0];
    return pid;
}

pid_t pm_spawner_hook(int spawner, char *const vars[], int *status_fd) {
    static const size_t cap = PM_REQUEST_MAX - 1;
    char *request = malloc(cap);
    if (!request) return -ENOMEM;
    size_t len = 0;
    request[len++] = 'S';
    for (size_t i = 0; vars && vars[i]; i++) {
        size_t l = strlen(vars[i]) + 1;
        if (len + l > cap) break;
        memcpy(request + len, vars[i], l);
        len += l;
    }
    int reply[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, reply) != 0) {
        int e = errno;
        free(request);
        return -e;
    }
    int rc = pm_send(spawner, request, len, &reply[1], 1);
    free(request);
    close(reply[1]);
    pid_t pid = rc == 0 ? pm_answer(reply[0]) : rc;
    if (pid <= 0) {
        close(reply[0]);
        return pid < 0 ? pid : -EPIPE;
    }
    *status_fd = reply[0];
    return pid;
}

int pm_spawner_wait(int status_fd) {
    int status;
    ssize_t n;
    do n = read(status_fd, &status, sizeof status); while (n < 0 && errno == EINTR);
    close(status_fd);
    return n == sizeof status ? status : -1;
}
