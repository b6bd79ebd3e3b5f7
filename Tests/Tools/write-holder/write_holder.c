// SPDX-License-Identifier: Apache-2.0
// Holds one thread of a running process for a while after each write(2) it makes, as a loaded
// machine holds a server, until SIGTERM or SIGINT; then lets it go and exits 0.
//
//   write-holder TID MICROSECONDS
//
// It prints "attached" once the thread is held, and "held N writes" when it ends. It does what
// `strace -p TID -e trace=write -e inject=write:delay_exit=MICROSECONDS` does, with the pause slept by
// the tracer itself: strace 6.1 resumes a delayed thread from a timer signal, and under load it once
// left the server stopped in a system call with its timer disarmed, for good. Here nothing but this
// loop resumes the thread.
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

static volatile sig_atomic_t stopping = 0;
static pid_t tracee = 0;
static long held = 0;

// Says how many writes were held, and ends with `code`.
static int finish(int code) {
    printf("held %ld writes\n", held);
    fflush(stdout);
    return code;
}

// PTRACE_INTERRUPT from the handler: a tracee that is running stops, and the loop's waitpid returns.
static void stop_holding(int signal_number) {
    (void)signal_number;
    stopping = 1;
    ptrace(PTRACE_INTERRUPT, tracee, 0, 0);
}

// Lets the thread go from the ptrace-stop it is in, passing on a signal it was about to receive.
static int detach(int status) {
    int pass = 0;
    if (WIFSTOPPED(status) && status >> 16 == 0 && WSTOPSIG(status) != (SIGTRAP | 0x80)) pass = WSTOPSIG(status);
    if (ptrace(PTRACE_DETACH, tracee, 0, pass) != 0 && errno != ESRCH) {
        perror("write-holder: PTRACE_DETACH");
        return finish(1);
    }
    return finish(0);
}

// Sleeps `microseconds` unless told to stop first.
static void pause_for(long microseconds) {
    struct timespec left = {microseconds / 1000000, (microseconds % 1000000) * 1000};
    while (!stopping && nanosleep(&left, &left) != 0 && errno == EINTR) {}
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: write-holder TID MICROSECONDS\n");
        return 2;
    }
    tracee = (pid_t)atoi(argv[1]);
    long microseconds = atol(argv[2]);

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = stop_holding;  // no SA_RESTART: waitpid and nanosleep return EINTR
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);

    if (ptrace(PTRACE_SEIZE, tracee, 0, PTRACE_O_TRACESYSGOOD) != 0) {
        perror("write-holder: PTRACE_SEIZE");
        return 1;
    }
    ptrace(PTRACE_INTERRUPT, tracee, 0, 0);
    int status = 0;
    while (waitpid(tracee, &status, __WALL) < 0) {
        if (errno != EINTR) {
            perror("write-holder: waitpid");
            return 1;
        }
    }
    printf("attached\n");
    fflush(stdout);
    if (stopping) return detach(status);
    ptrace(PTRACE_SYSCALL, tracee, 0, 0);

    long last_entered = -1;
    for (;;) {
        if (waitpid(tracee, &status, __WALL) < 0) {
            if (errno == EINTR) continue;  // told to stop: the interrupt's stop comes next
            if (errno == ECHILD) return finish(0);
            perror("write-holder: waitpid");
            return finish(1);
        }
        if (WIFEXITED(status) || WIFSIGNALED(status)) return finish(0);
        if (stopping) return detach(status);
        int deliver = 0;
        if (WSTOPSIG(status) == (SIGTRAP | 0x80)) {
            struct __ptrace_syscall_info info;
            if (ptrace(PTRACE_GET_SYSCALL_INFO, tracee, sizeof info, &info) > 0) {
                if (info.op == PTRACE_SYSCALL_INFO_ENTRY) {
                    last_entered = (long)info.entry.nr;
                } else if (info.op == PTRACE_SYSCALL_INFO_EXIT && last_entered == SYS_write) {
                    held += 1;
                    pause_for(microseconds);
                    if (stopping) return detach(status);
                }
            }
        } else if (status >> 16 == PTRACE_EVENT_STOP) {
            // A group-stop (SIGSTOP and the like) is left in place; an interrupt's stop is resumed.
            int signal_number = WSTOPSIG(status);
            if (signal_number == SIGSTOP || signal_number == SIGTSTP || signal_number == SIGTTIN || signal_number == SIGTTOU) {
                ptrace(PTRACE_LISTEN, tracee, 0, 0);
                continue;
            }
        } else if (status >> 16 == 0) {
            deliver = WSTOPSIG(status);  // a signal for the thread: passed on
        }
        ptrace(PTRACE_SYSCALL, tracee, 0, deliver);
    }
}
