/*
 * trajopt_values.c - the composite values of `hes trajopt`'s options:
 * NAME=LO:HI pairs (--design, --bound), a value per grid of the mesh
 * continuation (--nodes, --maxeval) and the virtual-event counts
 * (--virtual-events).  Each refusal names the option and what it expects.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_trajopt.h"

void trajopt_designs_free(trajopt_designs *d)
{
    for (int j = 0; j < d->n; j++)
        free((char *)d->names[j]);
    d->n = 0;
}

/* NAME=LO:HI of `option` (--design or --bound) into d. */
int trajopt_parse_design(const char *option, const char *text, trajopt_designs *d)
{
    const char *eq = strchr(text, '='), *colon = eq ? strchr(eq + 1, ':') : NULL;
    char *name, *lo;
    if (d->n >= HES_COLLOC_MAX_DESIGN) {
        fprintf(stderr, "hes trajopt: %s: at most %d of them\n", option, HES_COLLOC_MAX_DESIGN);
        return -1;
    }
    if (!eq || !colon || eq == text) {
        fprintf(stderr, "hes trajopt: %s needs NAME=LO:HI, got '%s'\n", option, text);
        return -1;
    }
    if (!(name = strndup(text, (size_t)(eq - text)))) {
        fprintf(stderr, "hes trajopt: out of memory\n");
        return -1;
    }
    for (int j = 0; j < d->n; j++)
        if (strcmp(d->names[j], name) == 0) {
            fprintf(stderr, "hes trajopt: %s %s given twice (one pair of bounds each)\n", option,
                    name);
            free(name);
            return -1;
        }
    if (!(lo = strndup(eq + 1, (size_t)(colon - eq - 1)))) {
        fprintf(stderr, "hes trajopt: out of memory\n");
        free(name);
        return -1;
    }
    int bad = cli_parse_double(lo, &d->lo[d->n]) || cli_parse_double(colon + 1, &d->hi[d->n]) ||
              !(d->lo[d->n] <= d->hi[d->n]);
    free(lo);
    if (bad) {
        fprintf(stderr, "hes trajopt: %s %s: bounds must be finite numbers with LO <= HI\n",
                option, text);
        free(name);
        return -1;
    }
    d->names[d->n++] = name;
    return 0;
}

/* --virtual-events: counts (n_sequence of them) of 'none', 'default' or
 * "A,B,..". */
int trajopt_parse_virtual(const char *text, const hes_model *m, int *counts)
{
    const hes_orbit_spec *o = &m->orbit;
    if (strcmp(text, "none") == 0)
        return 0;
    if (strcmp(text, "default") == 0) {
        if (!m->trajopt || !m->trajopt->virtual_events) {
            fprintf(stderr, "hes trajopt: problem '%s' has no default virtual events\n", m->name);
            return -1;
        }
        memcpy(counts, m->trajopt->virtual_events, sizeof(int) * (size_t)o->n_sequence);
        return 0;
    }
    const char *p = text;
    for (int i = 0; i < o->n_sequence; i++) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v > 64 || (i + 1 < o->n_sequence ? *end != ',' : *end != '\0')) {
            fprintf(stderr, "hes trajopt: --virtual-events needs 'none', 'default' or %d counts "
                    "0..64 separated by commas (one per event of the sequence), got '%s'\n",
                    o->n_sequence, text);
            return -1;
        }
        counts[i] = (int)v;
        p = end + 1;
    }
    return 0;
}

/* A value per grid (--nodes, --maxeval): 1 to HES_TRAJOPT_MAX_GRIDS
 * comma-separated integers in [lo, hi], increasing if asked; nonzero
 * (after the message, which names the form) when they are not. */
int trajopt_parse_per_grid(const char *option, const char *text, int lo, int hi,
                           int increasing, const char *form, int *out, int *n_out)
{
    double *v = NULL;
    int n = 0, bad = cli_parse_vector(text, &v, &n) != 0 || n > HES_TRAJOPT_MAX_GRIDS;
    for (int k = 0; !bad && k < n; k++) {
        bad = !(v[k] >= lo && v[k] <= hi && v[k] == (int)v[k]) ||
              (increasing && k > 0 && !(v[k] > v[k - 1]));
        out[k] = bad ? 0 : (int)v[k];
    }
    free(v);
    if (bad)
        return cli_bad_value("hes trajopt", option, text, form);
    *n_out = n;
    return 0;
}

int trajopt_any_virtual(const hes_model *m, const int *counts)
{
    for (int i = 0; i < m->orbit.n_sequence; i++)
        if (counts[i] > 0)
            return 1;
    return 0;
}
