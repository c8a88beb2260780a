/*
 * cli_trials.c - CLI pieces that several commands share: the message of a
 * bad option value, the perturbation-trial options (hes simulate, hes shape
 * --verify) and the transient progress line on a terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int cli_print_document(const char *cmd, char *text)
{
    if (!text) {
        fprintf(stderr, "%s: cannot build the JSON document (out of memory)\n", cmd);
        return CLI_EXIT_FAILURE;
    }
    printf("%s\n", text);
    free(text);
    return CLI_EXIT_OK;
}

int cli_bad_value(const char *cmd, const char *option, const char *text, const char *expected)
{
    fprintf(stderr, "%s: %s expects %s, got '%s'\n", cmd, option, expected, text);
    return CLI_EXIT_USAGE;
}

int cli_int_option(const char *cmd, const char *option, const char *text, int lo, int hi,
                   int *value)
{
    int v;
    if (cli_parse_int(text, &v) != 0 || v < lo || v > hi) {
        fprintf(stderr, "%s: %s expects an integer from %d to %d, got '%s'\n", cmd, option, lo,
                hi, text);
        return CLI_EXIT_USAGE;
    }
    *value = v;
    return 0;
}

int cli_parse_trial_option(const char *cmd, const char *option, const char *text,
                           cli_trial_opts *t)
{
    if (strcmp(option, "--perturb") == 0) {
        if (cli_parse_double(text, &t->perturb) != 0 || t->perturb < 0)
            return cli_bad_value(cmd, option, text, "a finite number >= 0");
    } else if (strcmp(option, "--trials") == 0) {
        return cli_int_option(cmd, option, text, 1, CLI_MAX_TRIALS, &t->trials);
    } else if (strcmp(option, "--steps") == 0) {
        return cli_int_option(cmd, option, text, 1, CLI_MAX_STEPS, &t->steps);
    } else if (strcmp(option, "--seed") == 0) {
        if (cli_parse_ulong(text, &t->seed) != 0)
            return cli_bad_value(cmd, option, text, "a non-negative integer");
    } else if (strcmp(option, "--tol") == 0) {
        if (cli_parse_double(text, &t->tol) != 0 || !(t->tol > 0))
            return cli_bad_value(cmd, option, text, "a finite number > 0");
    } else {
        return CLI_EXIT_USAGE;
    }
    return 0;
}

int cli_check_trial_total(const char *cmd, const cli_trial_opts *t)
{
    if ((long)t->trials * t->steps <= CLI_MAX_TRIAL_STEPS)
        return 0;
    fprintf(stderr, "%s: --trials %d x --steps %d is more than %d periods in all\n", cmd,
            t->trials, t->steps, CLI_MAX_TRIAL_STEPS);
    return CLI_EXIT_USAGE;
}

void cli_progress_init(cli_progress *p, const char *cmd)
{
    p->cmd = cmd;
    p->tty = isatty(STDERR_FILENO);
    p->shown = 0;
}

void cli_progress_say(cli_progress *p, const char *what)
{
    if (p->tty) {
        fprintf(stderr, "\r%s: %-45s", p->cmd, what);
        fflush(stderr);
        p->shown = 1;
    }
}

void cli_progress_clear(cli_progress *p)
{
    if (p->shown) {
        fprintf(stderr, "\r%60s\r", "");
        fflush(stderr);
        p->shown = 0;
    }
}
