#ifndef PHOTOMETA_CSIGNALS_H
#define PHOTOMETA_CSIGNALS_H

/// SIGINT and SIGTERM handled by writing the signal's number, as one byte, to `fd` (a pipe's
/// write end, non-blocking: a full pipe means a stop is already pending). Only `write(2)` runs
/// in the handler, which is async-signal-safe; errno is kept. Returns 0, or the errno of the
/// sigaction(2) that failed.
int pm_termination_handle(int fd);

/// Unblocks SIGINT and SIGTERM on the calling thread (the one that reads the pipe): a process
/// started from a thread that blocks them (a Swift concurrency or libdispatch thread of its
/// parent) inherits them blocked on every thread, and would otherwise never take them.
void pm_termination_unblock(void);

#endif
