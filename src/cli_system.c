/*
 * cli_system.c - the system a command works on, set up from its PROBLEM
 * and -p assignments, and a library status turned into a message and an
 * exit status (0 success, 1 the computation failed, 2 bad usage or input).
 * All messages go to stderr and start with "hes: "; stdout is reserved for
 * the command's result (one JSON object with --json).
 */

#include <math.h>
#include <string.h>

#include "cli.h"

int cli_once(const char *cmd, const struct option *longopts, int code, unsigned char *seen)
{
    const struct option *o;

    if (code < 0 || code >= CLI_OPTION_CODES)
        return 0;
    if (!seen[code]) {
        seen[code] = 1;
        return 0;
    }
    for (o = longopts; o->name; o++)
        if (o->val == code && !o->flag)
            break;
    if (o->name)
        fprintf(stderr, "%s: --%s given twice (one value only)\n", cmd, o->name);
    else
        fprintf(stderr, "%s: -%c given twice (one value only)\n", cmd, code);
    return CLI_EXIT_USAGE;
}

int cli_report_status(hes_status status, const hes_system *sys)
{
    const char *detail = sys ? hes_system_errmsg(sys) : NULL;

    if (detail && detail[0])
        fprintf(stderr, "hes: %s: %s\n", hes_strerror(status), detail);
    else
        fprintf(stderr, "hes: %s\n", hes_strerror(status));
    /* the library names its setting; the program's user needs the option */
    if (detail && strstr(detail, "hes_settings.max_wall_time"))
        fprintf(stderr, "hes: a larger budget: --max-wall-time S (seconds per simulation)\n");
    return hes_status_exit_code(status);
}

/* The -p assignments, --no-check-derivatives and the model's validate() on
 * a new system: sys, or NULL (destroyed) with *exit_code after a message. */
static hes_system *setup(hes_system *sys, const cli_assignments *a, int *exit_code)
{
    hes_status st;
    int rc = cli_apply_params(sys, a);
    if (rc == 0 && (a->no_check_derivatives || a->max_wall_time > 0)) {
        hes_settings set = hes_system_get_settings(sys);
        if (a->no_check_derivatives)
            set.check_derivatives = 0;
        if (a->max_wall_time > 0) {
            set.max_wall_time = a->max_wall_time;
            set.max_search_time = fmax(set.max_search_time, 12 * a->max_wall_time);
        }
        if ((st = hes_system_set_settings(sys, &set)) != HES_OK)
            rc = cli_report_status(st, sys);
    }
    if (rc != 0) {
        hes_system_destroy(sys);
        *exit_code = rc;
        return NULL;
    }
    /* Each value passed its own range check; the model's validate() judges
     * the combination. */
    st = hes_system_check_params(sys);
    if (st != HES_OK) {
        *exit_code = cli_report_status(st, sys);
        hes_system_destroy(sys);
        return NULL;
    }
    *exit_code = CLI_EXIT_OK;
    return sys;
}

/* A system just created (st, msg from its constructor), set up. */
static hes_system *created(hes_status st, hes_system *sys, const char *name, const char *msg,
                           const cli_assignments *a, int *exit_code)
{
    if (st != HES_OK) {
        fprintf(stderr, "hes: cannot create a system for problem '%s': %s\n", name, msg);
        *exit_code = hes_status_exit_code(st);
        return NULL;
    }
    return setup(sys, a, exit_code);
}

hes_system *cli_system_setup(const hes_model *model, const cli_assignments *a,
                             int *exit_code)
{
    hes_system *sys = NULL;
    hes_error msg;
    hes_status st = hes_system_new(model, &sys, &msg);
    return created(st, sys, model->name, msg.message, a, exit_code);
}

hes_system *cli_system_setup_ess(const hes_ess_model *model, const cli_assignments *a,
                                 int *exit_code)
{
    hes_system *sys = NULL;
    hes_error msg;
    hes_status st = hes_system_new_ess(model, &sys, &msg);
    return created(st, sys, model->name, msg.message, a, exit_code);
}

hes_system *cli_system_for(const char *arg, const cli_assignments *a, int *exit_code)
{
    const hes_ess_model *em = cli_find_ess_problem(arg);
    if (em)
        return cli_system_setup_ess(em, a, exit_code);
    const hes_model *m = cli_find_problem(arg);
    if (!m) {
        *exit_code = CLI_EXIT_USAGE;
        return NULL;
    }
    return cli_system_setup(m, a, exit_code);
}
