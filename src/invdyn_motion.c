/*
 * invdyn_motion.c - the motion `hes invdyn` runs along: the trajectory
 * file of --trajectory (a header naming the columns, t and every
 * coordinate of the robot (hes_robot_coordinate's names, in any order:
 * a free or ball joint's quaternion too), optionally a
 * column "stance:SITE" (1 in stance, 0 not) per contact; then one row per
 * node, the times increasing) or the one state of --q, --v and --a.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_invdyn.h"
#include "base/csv_line.h"

#define CMD "hes invdyn"

void invdyn_input_free(invdyn_input *in)
{
    hes_robot_destroy(in->robot);
    free(in->t), free(in->q), free(in->stance), free(in->v), free(in->a);
}

/* The column of each header field: coordinate i, stance of contact c
 * (-2 - c), or t (-1).  Returns 0, or CLI_EXIT_USAGE after a message. */
static int read_header(const char *file, char **fields, int nf, const invdyn_input *in, int *col,
                       int *has_stance)
{
    int seen_t = 0, *seen = calloc((size_t)in->nq, sizeof(int));
    if (!seen)
        return CLI_EXIT_FAILURE;
    *has_stance = 0;
    for (int f = 0; f < nf; f++) {
        char *name = hes__csv_trim(fields[f]);
        col[f] = -100;
        if (strcmp(name, "t") == 0)
            col[f] = -1, seen_t++;
        for (int i = 0; i < in->nq && col[f] == -100; i++) {
            const char *cn = hes_robot_coordinate(in->robot, i);
            if (cn && strcmp(cn, name) == 0)
                col[f] = i, seen[i]++;
        }
        if (col[f] == -100 && strncmp(name, "stance:", 7) == 0)
            for (int c = 0; c < in->nc; c++)
                if (strcmp(hes_robot_contact_name(in->robot, c), name + 7) == 0)
                    col[f] = -2 - c, *has_stance = 1;
        if (col[f] == -100) {
            fprintf(stderr, "%s: %s: column '%s' is neither t, a coordinate of the robot nor "
                    "stance:CONTACT\n", CMD, file, name);
            free(seen);
            return CLI_EXIT_USAGE;
        }
    }
    int missing = seen_t != 1 ? -1 : -2;
    for (int i = 0; i < in->nq && missing == -2; i++)
        if (seen[i] != 1)
            missing = i;
    free(seen);
    if (missing != -2) {
        fprintf(stderr, "%s: %s: the header needs t and every coordinate once; %s%s\n", CMD,
                file, missing == -1 ? "t" : hes_robot_coordinate(in->robot, missing),
                " is missing or repeated");
        return CLI_EXIT_USAGE;
    }
    return 0;
}

/* Room for twice as many nodes (64 at first) in t, q and stance: 0, or -1
 * when out of memory (what was grown is kept, freed with the input). */
static int grow(invdyn_input *in, int *cap)
{
    int n = *cap ? 2 * *cap : 64;
    double *t = realloc(in->t, sizeof(double) * (size_t)n);
    if (t)
        in->t = t;
    double *q = realloc(in->q, sizeof(double) * (size_t)n * (size_t)in->nq);
    if (q)
        in->q = q;
    int *s = realloc(in->stance, sizeof(int) * ((size_t)n * (size_t)in->nc + 1));
    if (s)
        in->stance = s;
    if (!t || !q || !s)
        return -1;
    *cap = n;
    return 0;
}

/* One data line l into node in->nodes (room for it), its fields split
 * into `fields` by the header's columns col: 0, or -1 after a message. */
static int read_row(const char *file, const csv_line *l, char **fields, int nf, int maxf,
                    const int *col, invdyn_input *in)
{
    /* contacts without a stance column are not in stance */
    memset(in->stance + (size_t)in->nodes * in->nc, 0, sizeof(int) * (size_t)in->nc);
    int n = hes__csv_split(l->text, fields, maxf);
    if (n != nf) {
        fprintf(stderr, "%s: %s: line %d has %d fields, the header %d\n", CMD, file,
                l->number, n > maxf ? maxf + 1 : n, nf);
        return -1;
    }
    for (int k = 0; k < nf; k++) {
        double x;
        if (hes__csv_parse_double(hes__csv_trim(fields[k]), &x)) {
            fprintf(stderr, "%s: %s: line %d, field %d: '%s' is not a number\n", CMD, file,
                    l->number, k + 1, fields[k]);
            return -1;
        }
        if (col[k] == -1)
            in->t[in->nodes] = x;
        else if (col[k] >= 0)
            in->q[(size_t)in->nodes * in->nq + col[k]] = x;
        else if (x != 0 && x != 1) {
            fprintf(stderr, "%s: %s: line %d: a stance column holds 0 or 1, not %s\n", CMD,
                    file, l->number, fields[k]);
            return -1;
        } else
            in->stance[(size_t)in->nodes * in->nc + (-2 - col[k])] = (int)x;
    }
    if (in->nodes > 0 && !(in->t[in->nodes] > in->t[in->nodes - 1])) {
        fprintf(stderr, "%s: %s: line %d: the times must increase\n", CMD, file, l->number);
        return -1;
    }
    return 0;
}

int invdyn_read_trajectory(const char *file, invdyn_input *in)
{
    char *data;
    int orc;
    FILE *f = cli_input_open(CMD, "--trajectory", file, &data, &orc);
    if (!f)
        return orc;
    csv_line l;
    hes__csv_line_init(&l);
    int maxf = in->nq + in->nc + 2, rc = CLI_EXIT_USAGE, nf = 0, has_stance = 0, cap = 0;
    char **fields = malloc(sizeof(char *) * (size_t)(maxf + 1));
    int *col = malloc(sizeof(int) * (size_t)(maxf + 1));
    if (!fields || !col) {
        rc = CLI_EXIT_FAILURE;
        goto done;
    }
    if (hes__csv_line_read(f, &l) != 1 || l.too_long || l.has_nul) {
        fprintf(stderr, "%s: %s: no header line\n", CMD, file);
        goto done;
    }
    nf = hes__csv_split(l.text, fields, maxf);
    if (nf > maxf) {
        fprintf(stderr, "%s: %s: more columns than t, %d coordinates and %d stance columns\n",
                CMD, file, in->nq, in->nc);
        goto done;
    }
    if ((rc = read_header(file, fields, nf, in, col, &has_stance)) != 0)
        goto done;
    rc = CLI_EXIT_USAGE;
    for (;;) {
        int r = hes__csv_line_read(f, &l);
        if (r == 0)
            break;
        if (r < 0 || l.too_long || l.has_nul) {
            fprintf(stderr, "%s: %s: line %d cannot be read\n", CMD, file, l.number);
            goto done;
        }
        if (hes__csv_trim(l.text)[0] == '\0' || l.text[0] == '#')
            continue;
        if (in->nodes == INVDYN_MAX_NODES) {
            fprintf(stderr, "%s: %s: more than " STR(INVDYN_MAX_NODES) " nodes\n", CMD, file);
            goto done;
        }
        if (in->nodes == cap && grow(in, &cap)) {
            rc = CLI_EXIT_FAILURE;
            goto done;
        }
        if (read_row(file, &l, fields, nf, maxf, col, in))
            goto done;
        in->nodes++;
    }
    if (in->nodes < 3) {
        fprintf(stderr, "%s: %s: %d nodes; the derivatives need at least 3\n", CMD, file,
                in->nodes);
        goto done;
    }
    if (!has_stance) {
        free(in->stance);
        in->stance = NULL;
    }
    rc = 0;
done:
    hes__csv_line_free(&l);
    free(fields), free(col);
    cli_input_close(f, data);
    return rc;
}

int invdyn_read_state(const char *qt, const char *vt, const char *at, invdyn_input *in)
{
    int k1 = 0, k2 = 0, k3 = 0;
    if (cli_parse_vector(qt, &in->q, &k1) || cli_parse_vector(vt, &in->v, &k2) ||
        cli_parse_vector(at, &in->a, &k3) || k1 != in->nq || k2 != in->nv || k3 != in->nv) {
        if (in->nq == in->nv)
            fprintf(stderr, "%s: --q, --v and --a need %d numbers each (the robot's "
                    "coordinates", CMD, in->nv);
        else
            fprintf(stderr, "%s: --q needs %d numbers, --v and --a %d each (the robot's "
                    "coordinates", CMD, in->nq, in->nv);
        for (int i = 0; i < in->nq; i++)
            fprintf(stderr, "%s%s", i ? ", " : ": ", hes_robot_coordinate(in->robot, i));
        for (int i = 0; in->nq != in->nv && i < in->nv; i++)
            fprintf(stderr, "%s%s", i ? ", " : "; velocities: ",
                    hes_robot_velocity_name(in->robot, i));
        fprintf(stderr, ")\n");
        return CLI_EXIT_USAGE;
    }
    in->nodes = 1;
    in->t = calloc(1, sizeof(double));
    return in->t ? 0 : CLI_EXIT_FAILURE;
}
