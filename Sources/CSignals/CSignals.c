/*
 * SIGINT and SIGTERM for the commands that run until stopped (watch, serve), received without
 * libdispatch: a handler that writes one byte to a pipe, read by a thread of photometa's that
 * sleeps in read(2) (PhotoMetaSystem/TerminationSignals.swift). A dispatch signal source runs
 * its handler on libdispatch's global queue, which starts libdispatch's worker pool and, with
 * it, the pool monitor that wakes the process once a second for as long as it lives.
 */
#include "CSignals.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* Set once, before the handler is installed; read only by the handler. */
static volatile sig_atomic_t termination_fd = -1;

static void termination_handler(int sig) {
    int saved = errno;
    unsigned char byte = (unsigned char)sig;
    if (termination_fd >= 0) (void)write((int)termination_fd, &byte, 1);
    errno = saved;
}

int pm_termination_handle(int fd) {
    termination_fd = fd;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = termination_handler;
    sigemptyset(&sa.sa_mask);
    /* Interrupted reads and writes restart; poll(2) and sleeps do not (they return EINTR
     * whatever SA_RESTART says), so photometa's waits go on for the time left (Readiness,
     * SystemCalls.poll). The reading thread sets the stop flag, whose wake pipe ends the
     * waits that must end. */
    sa.sa_flags = SA_RESTART;
    if (sigaction(SIGINT, &sa, NULL) != 0) return errno;
    if (sigaction(SIGTERM, &sa, NULL) != 0) return errno;
    return 0;
}

void pm_termination_unblock(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    (void)pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}
