/*
 * cmd_list.c - `hes list`: the built-in problems, one line each (name and
 * one-line description), in the order of the problem registry: the hybrid
 * models, then the event-selected systems, whose description starts with
 * "[ess]" (they take `hes simulate --integrator ess`), then the impact
 * problems, marked "[impact]" (they take `hes impact`).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

void cmd_list_usage(FILE *out)
{
    fputs("Usage: hes list\n"
          "List the built-in problems, one per line: name and description.  The\n"
          "event-selected systems (integrated by 'hes simulate --integrator ess')\n"
          "come next, their description marked [ess]; the simultaneous impacts\n"
          "of 'hes impact' last, marked [impact].\n"
          "\n"
          "  -h, --help   show this help\n", out);
}

int cmd_list(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    int c, i, n, width = 0;

    optind = 1;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            cmd_list_usage(stdout);
            return CLI_EXIT_OK;
        default:
            cmd_list_usage(stderr);
            return CLI_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "hes list: unexpected argument '%s'\n", argv[optind]);
        cmd_list_usage(stderr);
        return CLI_EXIT_USAGE;
    }

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
