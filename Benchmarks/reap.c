/*
 * reap: runs a command as a child subreaper and waits for every process it leaves behind, so
 * that /usr/bin/time, which waits for reap, counts the CPU and peak RSS of all of them.
 *
 * Why: `photometa thumbnail` makes pictures in photometa-thumbnailer, started by a spawner
 * process that photometa forks before confining itself (Sources/CSpawn/CSpawner.c). photometa
 * does not wait for the spawner, so the spawner and the helper it waited for are reparented when
 * photometa exits, and their CPU and peak RSS never reach the rusage that wait4 gives time:
 * photometa's rows read 0.01 CPU s and 15 MiB. Here they are reparented to reap
 * (PR_SET_CHILD_SUBREAPER, prctl(2)) and waited for, so their rusage joins reap's children's.
 *
 * Usage: reap COMMAND [ARG...]; the exit status is COMMAND's (128 + signal when killed).
 * Built by Benchmarks/thumb_bench.py with gcc.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
    pid_t child, p;
    int status = 0, s;

    if (argc < 2) {
        fprintf(stderr, "usage: reap COMMAND [ARG...]\n");
        return 64;
    }
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
        perror("reap: prctl");
        return 70;
    }
    if ((child = fork()) < 0) {
        perror("reap: fork");
        return 71;
    }
    if (child == 0) {
        execvp(argv[1], argv + 1);
        perror("reap: exec");
        _exit(127);
    }
    /* Every descendant, the command's and the orphans adopted from it, until none is left. */
    for (;;) {
        p = wait(&s);
        if (p < 0 && errno == EINTR)
            continue;
        if (p < 0)
            break;
        if (p == child)
            status = s;
    }
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
