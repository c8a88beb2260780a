/*
 * interrupt.c - Ctrl-C during a long call of the Python module
 * (interrupt.h).  The flag is the process's, as a signal is: the module's
 * state, never the library's.  Python runs its signal handlers in the
 * main thread only, and the module installs this one from there only, so
 * install and restore never race.
 */
#include <signal.h>
#include <string.h>

#include "interrupt.h"

static volatile sig_atomic_t interrupted;
static int depth;
static struct sigaction previous;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

int hes_py_interrupt_install(void)
{
    if (depth > 0) {
        depth++;
        return 0;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGINT, &sa, &previous) != 0)
        return -1;
    interrupted = 0;
    depth = 1;
    return 0;
}

void hes_py_interrupt_restore(void)
{
    if (depth <= 0)
        return;
    if (--depth == 0) {
        sigaction(SIGINT, &previous, NULL);
        interrupted = 0;
    }
}

/* Only while the handler is installed: a call outside the main thread,
 * which installs none, is never stopped by an earlier Ctrl-C. */
int hes_py_interrupted(void)
{
    return depth > 0 && interrupted != 0;
}
