/* peer_launcher.h: the benchmarks start their peer programs (Boost.Compute, CUB) through a
 * process forked before the benchmark touches OpenCL.
 *
 * Why: on the H200 machine (2026-11-29; NVIDIA's and PoCL's platforms announced through
 * OCL_ICD_FILENAMES), once a process had called clGetPlatformIDs with NVIDIA's OpenCL loaded,
 * the programs it started saw only PoCL's platform; a program started before that call saw
 * both.  So a Boost.Compute peer started by clscan-bench at the end of its run could not find
 * the NVIDIA device.  The launcher is forked first and never calls OpenCL, so what it starts
 * sees what the benchmark saw.
 *
 * Protocol: the benchmark writes one command line per peer to the launcher; the launcher runs
 * it with popen and sends back its standard output, then a line PEER_END followed by the
 * status pclose returned.  (The peers' standard error goes where the benchmark's goes.)  Without
 * a launcher (fork failed) the commands run with popen directly. */
#ifndef CLSCAN_BENCH_PEER_LAUNCHER_H
#define CLSCAN_BENCH_PEER_LAUNCHER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define PEER_END "\001peer-launcher-end"

typedef struct peer_launcher {
    pid_t pid;        /* 0: none, commands run with popen */
    FILE *to, *from;  /* commands in, output out */
} peer_launcher;

/* The launcher's loop: one command per line until the benchmark closes the pipe. */
static void peer_launcher_serve(FILE *in, FILE *out)
{
    char cmd[4096], buf[4096];
    while (fgets(cmd, sizeof cmd, in)) {
        cmd[strcspn(cmd, "\n")] = '\0';
        int st = -1;
        FILE *p = popen(cmd, "r");
        if (p) {
            size_t n;
            while ((n = fread(buf, 1, sizeof buf, p)) > 0)
                fwrite(buf, 1, n, out);
            st = pclose(p);
        }
        fprintf(out, "\n%s %d\n", PEER_END, st);
        fflush(out);
    }
}

/* Forks the launcher; on failure l->pid is 0 and peers run with popen. */
static void peer_launcher_start(peer_launcher *l)
{
    int cmd[2], out[2];
    memset(l, 0, sizeof *l);
    if (pipe(cmd) != 0)
        return;
    if (pipe(out) != 0) {
        close(cmd[0]);
        close(cmd[1]);
        return;
    }
    fflush(NULL);   /* nothing buffered is written twice */
    const pid_t pid = fork();
    if (pid == 0) {
        close(cmd[1]);
        close(out[0]);
        FILE *in = fdopen(cmd[0], "r"), *o = fdopen(out[1], "w");
        if (in && o)
            peer_launcher_serve(in, o);
        _exit(0);
    }
    close(cmd[0]);
    close(out[1]);
    if (pid > 0 && (l->to = fdopen(cmd[1], "w")) && (l->from = fdopen(out[0], "r"))) {
        l->pid = pid;
        return;
    }
    if (l->to) fclose(l->to); else close(cmd[1]);
    close(out[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);   /* it sees end of input and leaves */
    memset(l, 0, sizeof *l);
}

/* Closes the command pipe (the launcher leaves) and waits for it. */
static void peer_launcher_stop(peer_launcher *l)
{
    if (!l->pid)
        return;
    fclose(l->to);
    fclose(l->from);
    waitpid(l->pid, NULL, 0);
    memset(l, 0, sizeof *l);
}

/* One peer run: its output line by line (peer_gets), then its status (peer_close). */
typedef struct peer_run {
    peer_launcher *l;
    FILE *direct;     /* popen's stream when there is no launcher */
    int status, done;
} peer_run;

/* Starts cmd; 0 on success. */
static int peer_open(peer_launcher *l, const char *cmd, peer_run *r)
{
    memset(r, 0, sizeof *r);
    r->status = -1;
    if (!l->pid || strchr(cmd, '\n')) {
        r->direct = popen(cmd, "r");
        return r->direct ? 0 : -1;
    }
    r->l = l;
    return fprintf(l->to, "%s\n", cmd) < 0 || fflush(l->to) != 0 ? -1 : 0;
}

/* The next non-empty line of the peer's output into line; 0 at its end. */
static int peer_gets(peer_run *r, char *line, int n)
{
    FILE *f = r->direct ? r->direct : r->l->from;
    while (!r->done && fgets(line, n, f)) {
        if (!r->direct && !strncmp(line, PEER_END, strlen(PEER_END))) {
            r->status = atoi(line + strlen(PEER_END));
            r->done = 1;
            break;
        }
        if (line[0] != '\n')
            return 1;
    }
    r->done = 1;
    return 0;
}

/* Reads what is left and returns the peer's status as pclose gives it. */
static int peer_close(peer_run *r)
{
    char line[1024];
    while (peer_gets(r, line, (int)sizeof line))
        ;
    return r->direct ? pclose(r->direct) : r->status;
}

#endif
