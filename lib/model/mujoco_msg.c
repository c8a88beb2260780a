/*
 * model/mujoco_msg.c - MuJoCo's warnings and errors as hes's messages.
 *
 * MuJoCo reports through two process-wide function pointers: its default
 * warning handler prints "WARNING: ..." on standard output (which would
 * corrupt hes's --csv and --json output) and appends to MUJOCO_LOG.TXT in
 * the working directory; its default error handler does the same and
 * exits.  hes installs its own handlers once (pthread_once) and routes each
 * message to the scope of the hes call running on the same thread
 * (hes__mj_scope, the caller's storage, found through a thread-local
 * pointer): a warning is kept there (the first one, and a count), an error
 * is kept and ends the scope by longjmp, since MuJoCo's error handler must
 * not return (mju_error carries on past a handler that returns, with its
 * state broken).  The jump crosses only MuJoCo's C frames and, within
 * mj_loadXML, its C++ compiler's, whose objects it leaks: an error there is
 * MuJoCo giving up on a file, rare and bounded.
 *
 * A message that comes while no hes call is running on that thread (a
 * program that also calls MuJoCo itself) goes to the handler that was
 * installed before hes's, if any, or else as MuJoCo's own default would:
 * on standard error (not standard output), and an error exits.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>

#include "model/robot_internal.h"

#include <mujoco/mujoco.h>

static pthread_once_t installed = PTHREAD_ONCE_INIT;
/* set once under pthread_once, read-only afterwards */
static void (*prev_error)(const char *);
static void (*prev_warning)(const char *);
/* the scope of the hes call running on this thread, or NULL */
static _Thread_local hes__mj_scope *current;

static void on_error(const char *m)
{
    hes__mj_scope *s = current;
    if (s) {
        snprintf(s->error, sizeof s->error, "%s", m ? m : "unknown error");
        current = s->outer;
        longjmp(s->jump, 1);
    }
    if (prev_error) {
        prev_error(m);
        return;
    }
    fprintf(stderr, "MuJoCo error: %s\n", m ? m : "unknown error");
    exit(EXIT_FAILURE);
}

static void on_warning(const char *m)
{
    hes__mj_scope *s = current;
    if (s) {
        if (s->warnings++ == 0)
            snprintf(s->warning, sizeof s->warning, "%s", m ? m : "unknown warning");
        return;
    }
    if (prev_warning)
        prev_warning(m);
    else
        fprintf(stderr, "MuJoCo warning: %s\n", m ? m : "unknown warning");
}

static void install(void)
{
    prev_error = mju_user_error;
    prev_warning = mju_user_warning;
    mju_user_error = on_error;
    mju_user_warning = on_warning;
}

void hes__mj_enter(hes__mj_scope *s)
{
    pthread_once(&installed, install);
    s->error[0] = s->warning[0] = '\0';
    s->warnings = 0;
    s->outer = current;
    current = s;
}

void hes__mj_leave(hes__mj_scope *s)
{
    if (current == s)
        current = s->outer;
}
