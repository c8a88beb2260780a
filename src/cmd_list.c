/*
 * cmd_list.c - `hes list`: the built-in problems, one line each (name and
 * one-line description), in the order of the problem registry: the hybrid
 * models, then the event-selected systems, whose description starts with
 * "[ess]" (they take `hes simulate --integrator ess`), then the impact
 * problems, marked "[impact]" (they take `hes impact`).
 */
#include <stdio.h>
#include <string.h>

#include "cli_args.h"

/* No options of its own: --help and --usage come with every command. */
static const struct argp list_argp = {
    NULL, NULL, NULL,
    "List the built-in problems, one per line: name and description.  The event-selected "
    "systems (integrated by 'hes simulate --integrator ess') come next, their description "
    "marked [ess]; the simultaneous impacts of 'hes impact' last, marked [impact].",
    NULL, NULL, NULL
};

int cmd_list(int argc, char **argv)
{
    cli_args a;
    int i, n, width = 0;
    int rc = cli_parse(&list_argp, 0, argc, argv, &a);

    if (rc == CLI_EXIT_OK && !a.done && a.n_args > 0) {
        fprintf(stderr, "hes list: unexpected argument '%s'\n", a.args[0]);
        argp_help(&list_argp, stderr, ARGP_HELP_SHORT_USAGE | ARGP_HELP_SEE, argv[0]);
        rc = CLI_EXIT_USAGE;
    }
    cli_args_free(&a);
    if (rc != CLI_EXIT_OK || a.done)
        return rc;

    n = hes_problem_count();
    for (i = 0; i < n; i++) {
        const hes_model *m = hes_problem_get(i);
        int len = m ? (int)strlen(m->name) : 0;

        if (len > width)
            width = len;
    }
    for (i = 0; i < hes_ess_problem_count(); i++) {
        const hes_ess_model *m = hes_ess_problem_get(i);
        int len = m ? (int)strlen(m->name) : 0;

        if (len > width)
            width = len;
    }
    for (i = 0; i < hes_impact_problem_count(); i++) {
        int len = (int)strlen(hes_impact_problem_get(i)->name);

        if (len > width)
            width = len;
    }
    for (i = 0; i < n; i++) {
        const hes_model *m = hes_problem_get(i);

        if (m)
            printf("%-*s  %s\n", width, m->name,
                   m->description ? m->description : "");
    }
    for (i = 0; i < hes_ess_problem_count(); i++) {
        const hes_ess_model *m = hes_ess_problem_get(i);

        if (m)
            printf("%-*s  [ess] %s\n", width, m->name, m->description ? m->description : "");
    }
    for (i = 0; i < hes_impact_problem_count(); i++) {
        const hes_impact_problem *pb = hes_impact_problem_get(i);

        printf("%-*s  [impact] %s\n", width, pb->name, pb->description);
    }
    return CLI_EXIT_OK;
}
