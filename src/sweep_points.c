/*
 * sweep_points.c - the points of `hes sweep` (cmd_sweep.h): a tensor grid
 * of --grid NAME=LO:HI:N (the first varies slowest), a Latin hypercube
 * sample of --random N --bounds NAME=LO:HI, or the rows of a --list CSV
 * file (point_list.c); every swept name a parameter of the system that the
 * orbit search does not solve for, and the text that says in the sweep
 * file which points these are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_sweep.h"

int sweep_parse_range(const char *opt, const char *text, int with_count, sweep_ranges *r)
{
    const char *eq = strchr(text, '=');
    char buf[256];
    if (r->n >= SWEEP_MAX_SWEPT || !eq || eq == text || (size_t)(eq - text) >= sizeof r->names[0] ||
        strlen(eq + 1) >= sizeof buf) {
        fprintf(stderr, "hes sweep: %s needs NAME=LO:HI%s (at most %d), got '%s'\n", opt,
                with_count ? ":N" : "", SWEEP_MAX_SWEPT, text);
        return -1;
    }
    memcpy(r->names[r->n], text, (size_t)(eq - text));
    r->names[r->n][eq - text] = '\0';
    for (int j = 0; j < r->n; j++)
        if (strcmp(r->names[j], r->names[r->n]) == 0) {
            fprintf(stderr, "hes sweep: %s %s given twice\n", opt, r->names[j]);
            return -1;
        }
    strcpy(buf, eq + 1);
    char *a = buf, *b = strchr(a, ':'), *c = b ? strchr(b + 1, ':') : NULL;
    if (b)
        *b++ = '\0';
    if (c)
        *c++ = '\0';
    int n = 1;
    if (!b || (with_count ? !c : c != NULL) || cli_parse_double(a, &r->lo[r->n]) ||
        cli_parse_double(b, &r->hi[r->n]) ||
        (with_count && (cli_parse_int(c, &n) || n < 1 || n > 1000000)) ||
        !(r->lo[r->n] <= r->hi[r->n])) {
        fprintf(stderr, "hes sweep: %s %s: expected NAME=LO:HI%s with numbers LO <= HI%s\n", opt,
                text, with_count ? ":N" : "", with_count ? " and N >= 1" : "");
        return -1;
    }
    r->count[r->n++] = n;
    return 0;
}

/* --list FILE: the points of a CSV file (point_list.h), names into r. */
static int read_list(const char *path, sweep_ranges *r, double **values, int *n_points)
{
    point_list pl;
    char msg[512], *data;
    int rc;
    FILE *f = cli_input_open("hes sweep", "--list", path, &data, &rc);
    if (!f)
        return rc;
    int st = point_list_read(f, &pl, msg, sizeof msg);
    cli_input_close(f, data);
    if (st != POINT_LIST_OK) {
        fprintf(stderr, "hes sweep: --list %s: %s\n", path, msg);
        return st == POINT_LIST_BAD ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
    }
    r->n = pl.n_names;
    memcpy(r->names, pl.names, sizeof pl.names);
    *values = pl.values;
    *n_points = pl.n_points;
    return CLI_EXIT_OK;
}

/* The index of parameter `name` of the system, or -1. */
static int param_index(const hes_system *sys, const char *name)
{
    for (int i = 0; i < hes_system_n_params(sys); i++)
        if (strcmp(hes_system_param_info(sys, i)->name, name) == 0)
            return i;
    return -1;
}

/* Every swept name a parameter the sweep can set: p->pidx, or the exit
 * status after printing why. */
static int find_params(const hes_system *sys, sweep_points *p)
{
    for (int j = 0; j < p->r->n; j++) {
        if ((p->pidx[j] = param_index(sys, p->r->names[j])) < 0) {
            fprintf(stderr, "hes sweep: problem '%s' has no parameter '%s'\n",
                    hes_system_name(sys), p->r->names[j]);
            return CLI_EXIT_USAGE;
        }
        if (hes_system_param_info(sys, p->pidx[j])->flags & HES_PARAM_SOLVED) {
            fprintf(stderr, "hes sweep: '%s' is solved for by the orbit search (its value is "
                    "found, not set): a sweep over it would only move Newton's start; sweep "
                    "the parameters that define the orbit instead\n", p->r->names[j]);
            return CLI_EXIT_USAGE;
        }
    }
    return CLI_EXIT_OK;
}

/* The tensor grid of --grid into p->values, the first axis slowest. */
static int grid_values(const sweep_ranges *grid, sweep_points *p)
{
    long total;
    if (hes_grid_tensor_size(grid->n, grid->count, &total) != HES_OK || total > CLI_MAX_POINTS) {
        fprintf(stderr, "hes sweep: more than " STR(CLI_MAX_POINTS) " grid points\n");
        return CLI_EXIT_USAGE;
    }
    if (!(p->values = malloc(sizeof(double) * (size_t)total * (size_t)grid->n)))
        return CLI_EXIT_OK; /* out of memory: said by the caller */
    p->n_points = (int)total;
    if (hes_grid_tensor(grid->n, grid->lo, grid->hi, grid->count, p->values) != HES_OK) {
        fprintf(stderr, "hes sweep: --grid: HI - LO must be a finite number\n");
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

/* The text that says which points a grid or a random sample has (the
 * "# points:" line; a list's is the library's, from its names and values). */
static char *points_text(const sweep_ranges *grid, const sweep_ranges *bounds, int n_random,
                         unsigned long seed)
{
    char *text = NULL, v[3][32];
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    if (grid->n) {
        fputs("grid", f);
        for (int j = 0; j < grid->n; j++) {
            hes_format_double(v[0], sizeof v[0], grid->lo[j]);
            hes_format_double(v[1], sizeof v[1], grid->hi[j]);
            fprintf(f, " %s=%s:%s:%d", grid->names[j], v[0], v[1], grid->count[j]);
        }
    } else if (n_random) {
        fprintf(f, "random %d seed=%lu", n_random, seed);
        for (int j = 0; j < bounds->n; j++) {
            hes_format_double(v[0], sizeof v[0], bounds->lo[j]);
            hes_format_double(v[1], sizeof v[1], bounds->hi[j]);
            fprintf(f, " %s=%s:%s", bounds->names[j], v[0], v[1]);
        }
    }
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

int sweep_points_make(const sweep_cli *o, const hes_system *sys, sweep_points *p)
{
    int rc = CLI_EXIT_OK;

    memset(p, 0, sizeof *p);
    p->r = o->grid.n ? &o->grid : o->n_random ? &o->bounds : &p->list;
    if (o->list_path)
        rc = read_list(o->list_path, &p->list, &p->values, &p->n_points);
    if (rc == CLI_EXIT_OK)
        rc = find_params(sys, p);
    if (rc == CLI_EXIT_OK && o->grid.n)
        rc = grid_values(&o->grid, p);
    if (rc == CLI_EXIT_OK && o->n_random &&
        (p->values = malloc(sizeof(double) * (size_t)o->n_random * (size_t)o->bounds.n))) {
        p->n_points = o->n_random;
        hes_latin_hypercube(o->n_random, o->bounds.n, o->bounds.lo, o->bounds.hi, o->seed,
                            p->values);
    }
    if (rc == CLI_EXIT_OK && !o->list_path)
        p->text = points_text(&o->grid, &o->bounds, o->n_random, o->seed);
    if (rc == CLI_EXIT_OK && (!p->values || (!o->list_path && !p->text))) {
        fprintf(stderr, "hes sweep: out of memory\n");
        rc = CLI_EXIT_FAILURE;
    }
    return rc;
}

void sweep_points_free(sweep_points *p)
{
    free(p->values);
    free(p->text);
    p->values = NULL;
    p->text = NULL;
}
