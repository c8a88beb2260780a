/*
 * cli_params.c - the -p NAME=VALUE assignments of a command line: kept in
 * order, applied to a system (of either kind) with a message naming the
 * problem and listing its parameters when a name is unknown.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_assignments_init(cli_assignments *a)
{
    a->n = 0;
    a->cap = 0;
    a->items = NULL;
    a->no_check_derivatives = 0;
    a->max_wall_time = 0;
}

int cli_assignments_add(cli_assignments *a, const char *item)
{
    if (a->n == a->cap) {
        int cap = a->cap ? 2 * a->cap : 8;
        const char **items = realloc(a->items, (size_t)cap * sizeof *items);

        if (!items) {
            fprintf(stderr, "hes: out of memory\n");
            return -1;
        }
        a->items = items;
        a->cap = cap;
    }
    a->items[a->n++] = item;
    return 0;
}

void cli_assignments_free(cli_assignments *a)
{
    free(a->items);
    cli_assignments_init(a);
}

static void print_valid_params(FILE *out, const hes_system *sys)
{
    int i, n = hes_system_n_params(sys);

    if (n == 0) {
        fprintf(out, "hes: problem '%s' has no parameters\n", hes_system_name(sys));
        return;
    }
    fprintf(out, "hes: valid parameters of '%s':", hes_system_name(sys));
    for (i = 0; i < n; i++)
        fprintf(out, "%s %s", i ? "," : "", hes_system_param_info(sys, i)->name);
    fputc('\n', out);
}

static int param_known(const hes_system *sys, const char *name)
{
    for (int i = 0; i < hes_system_n_params(sys); i++)
        if (strcmp(hes_system_param_info(sys, i)->name, name) == 0)
            return 1;
    return 0;
}

/* Applies one "NAME=VALUE"; returns 0 or CLI_EXIT_USAGE after printing. */
static int apply_one(hes_system *sys, const char *item)
{
    const char *eq = strchr(item, '=');
    char name[128];
    size_t len;
    double value;
    int rc;
    hes_status st;

    if (!eq || eq == item) {
        fprintf(stderr, "hes: -p expects NAME=VALUE, got '%s'\n", item);
        return CLI_EXIT_USAGE;
    }
    len = (size_t)(eq - item);
    if (len >= sizeof name) {
        fprintf(stderr, "hes: unknown parameter '%.*s'\n", (int)len, item);
        print_valid_params(stderr, sys);
        return CLI_EXIT_USAGE;
    }
    memcpy(name, item, len);
    name[len] = '\0';

    if (!param_known(sys, name)) {
        fprintf(stderr, "hes: unknown parameter '%s' for problem '%s'\n",
                name, hes_system_name(sys));
        print_valid_params(stderr, sys);
        return CLI_EXIT_USAGE;
    }
    rc = cli_parse_double(eq + 1, &value);
    if (rc == -2) {
        fprintf(stderr, "hes: parameter '%s': '%s' is not a finite number\n",
                name, eq + 1);
        return CLI_EXIT_USAGE;
    }
    if (rc != 0) {
        fprintf(stderr, "hes: parameter '%s': '%s' is not a number\n",
                name, eq + 1);
        return CLI_EXIT_USAGE;
    }
    st = hes_system_set_param(sys, name, value);
    if (st != HES_OK) {
        const char *detail = hes_system_errmsg(sys);

        fprintf(stderr, "hes: -p %s: %s\n", item,
                detail && detail[0] ? detail : hes_strerror(st));
        return CLI_EXIT_USAGE;
    }
    return 0;
}

/* Length of the NAME of "NAME=VALUE" (the whole item without '='). */
static size_t name_length(const char *item)
{
    const char *eq = strchr(item, '=');
    return eq ? (size_t)(eq - item) : strlen(item);
}

int cli_assignment_param(const hes_model *model, const char *item)
{
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)name_length(item), item);
    return hes_model_param_index(model, name);
}

static int apply_all(hes_system *sys, const cli_assignments *a)
{
    int i, j, rc;

    /* a second value for a name would silently replace the first */
    for (i = 0; i < a->n; i++)
        for (j = 0; j < i; j++) {
            size_t len = name_length(a->items[i]);
            if (len > 0 && len == name_length(a->items[j]) &&
                strncmp(a->items[i], a->items[j], len) == 0) {
                fprintf(stderr, "hes: -p %.*s given twice ('%s' and '%s')\n", (int)len,
                        a->items[i], a->items[j], a->items[i]);
                return CLI_EXIT_USAGE;
            }
        }
    for (i = 0; i < a->n; i++) {
        rc = apply_one(sys, a->items[i]);
        if (rc != 0)
            return rc;
    }
    return 0;
}

int cli_apply_params(hes_system *sys, const cli_assignments *a)
{
    const hes_model *m = hes_system_model(sys);
    int rc = apply_all(sys, a);
    /* a solved parameter's value is where Newton starts, not a setting: the
       orbit's own value replaces it, so the user is told */
    for (int i = 0; m && rc == 0 && i < a->n; i++) {
        int k = cli_assignment_param(m, a->items[i]);
        if (k >= 0 && (m->params[k].flags & HES_PARAM_SOLVED))
            fprintf(stderr, "hes: note: %s is solved for by the orbit search: the value given "
                    "is only where the search starts, and the orbit's own value replaces it "
                    "(hes info %s lists the solved parameters)\n", m->params[k].name, m->name);
    }
    return rc;
}
