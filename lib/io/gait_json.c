/*
 * gait_json.c - gait files (format "hes-gait", version 1): what `hes trajopt
 * -o FILE` writes and `hes analyze --orbit FILE` / `hes simulate --orbit
 * FILE` read.  One JSON object:
 *   { "format": "hes-gait", "version": 1, "problem": NAME,
 *     "objective": ..., "psi_collocation": ..., "energy": ...,
 *     "params": { NAME: VALUE, ... },            every parameter of the model
 *     "inputs": [ NAME, ... ],                   parameters driven per phase
 *     "phases": [ { "mode": NAME, "ends_with": TRANSITION, "virtual": BOOL,
 *                   "offset": P, "duration": T, "nodes": N,
 *                   "states": [[...] x N], "inputs": [[...] x N or x 1] }, ... ] }
 * A virtual phase ends where the guard of "ends_with" plus "offset" is zero.
 * Numbers have 17 significant digits, so a gait reads back bit for bit.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "hes.h"
#include "io/io.h"
#include "base/base.h"

/* The io layer's reader helpers (io.h), by the short names of the readers. */
#define fail hes__reader_fail
#define oom hes__reader_oom
#define reader_status hes__reader_status

static json_t *rows_json(const double *v, int rows, int cols)
{
    json_t *a = json_array();
    for (int r = 0; a && r < rows; r++) {
        json_t *row = json_array();
        for (int c = 0; row && c < cols; c++)
            json_array_append_new(row, isfinite(v[(size_t)r * cols + c]) ? json_real(v[(size_t)r * cols + c])
                                                                          : json_null());
        json_array_append_new(a, row);
    }
    return a;
}

hes_status hes_gait_write(const hes_gait *g, const hes_model *base, FILE *out)
{
    if (!g || !base || !out)
        return HES_EINVAL;
    json_t *doc = json_object(), *params = json_object(), *inputs = json_array(),
           *phases = json_array();
    for (int j = 0; j < g->n_params; j++)
        json_object_set_new(params, base->params[j].name, json_real(g->params[j]));
    for (int r = 0; r < g->n_inputs; r++)
        json_array_append_new(inputs, json_string(base->params[g->inputs[r]].name));
    for (int i = 0; i < g->n_phases; i++) {
        const hes_gait_phase *ph = &g->phases[i];
        json_t *o = json_object();
        json_object_set_new(o, "mode", json_string(base->modes[ph->mode].name));
        json_object_set_new(o, "ends_with", json_string(base->transitions[ph->transition].name));
        json_object_set_new(o, "virtual", json_boolean(ph->is_virtual));
        json_object_set_new(o, "offset", json_real(ph->offset));
        json_object_set_new(o, "direction", json_string(ph->direction == HES_UP ? "up"
                                                        : ph->direction == HES_DOWN ? "down" : "any"));
        json_object_set_new(o, "duration", json_real(ph->duration));
        json_object_set_new(o, "nodes", json_integer(ph->nodes));
        json_object_set_new(o, "states", rows_json(ph->x, ph->nodes, base->modes[ph->mode].dim));
        json_object_set_new(o, "inputs", rows_json(ph->u, ph->u_rows, g->n_inputs));
        json_array_append_new(phases, o);
    }
    json_object_set_new(doc, "format", json_string("hes-gait"));
    json_object_set_new(doc, "version", json_integer(1));
    json_object_set_new(doc, "problem", json_string(base->name));
    json_object_set_new(doc, "objective", json_string(g->objective ? g->objective : "unknown"));
    json_object_set_new(doc, "psi_collocation", isfinite(g->psi) ? json_real(g->psi) : json_null());
    json_object_set_new(doc, "energy", isfinite(g->energy) ? json_real(g->energy) : json_null());
    json_object_set_new(doc, "params", params);
    json_object_set_new(doc, "inputs", inputs);
    json_object_set_new(doc, "phases", phases);
    int rc = json_dumpf(doc, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    if (rc == 0)
        fputc('\n', out);
    json_decref(doc);
    return rc == 0 && !ferror(out) ? HES_OK : HES_EIO;
}


/* rows x cols numbers from an array of arrays into out (malloc'd) */
static int read_rows(json_t *a, int rows, int cols, double **out, const char *what, int phase,
                     char *msg, size_t len)
{
    if (!json_is_array(a) || (int)json_array_size(a) != rows)
        return fail(msg, len, "phase %d: \"%s\" must be a list of %d rows", phase, what, rows);
    *out = malloc(sizeof(double) * (size_t)(rows * cols + 1));
    if (!*out)
        return oom(msg, len);
    for (int r = 0; r < rows; r++) {
        json_t *row = json_array_get(a, (size_t)r);
        if (!json_is_array(row) || (int)json_array_size(row) != cols)
            return fail(msg, len, "phase %d: row %d of \"%s\" must have %d numbers", phase, r + 1,
                        what, cols);
        for (int c = 0; c < cols; c++) {
            json_t *v = json_array_get(row, (size_t)c);
            if (!json_is_number(v) || !isfinite(json_number_value(v)))
                return fail(msg, len, "phase %d: \"%s\"[%d][%d] is not a finite number", phase,
                            what, r + 1, c + 1);
            (*out)[(size_t)r * cols + c] = json_number_value(v);
        }
    }
    return 0;
}

/* Whether a phase's "inputs" holds any value: absent, [] and rows of [] do not. */
static int has_values(const json_t *u)
{
    if (!u)
        return 0;
    if (!json_is_array(u))
        return 1;
    for (size_t r = 0; r < json_array_size(u); r++) {
        const json_t *row = json_array_get(u, r);
        if (!json_is_array(row) || json_array_size(row) > 0)
            return 1;
    }
    return 0;
}

static int parse(json_t *doc, const hes_model *base, hes_gait *g, char *msg, size_t len)
{
    json_t *v, *phases, *inputs, *params;
    const char *s;
    if (!json_is_object(doc) || !(s = json_string_value(json_object_get(doc, "format"))) ||
        strcmp(s, "hes-gait") != 0)
        return fail(msg, len, "not a gait file (\"format\": \"hes-gait\" missing)");
    if (json_integer_value(json_object_get(doc, "version")) != 1)
        return fail(msg, len, "gait file version %lld is not supported (this hes reads 1)",
                    (long long)json_integer_value(json_object_get(doc, "version")));
    if (!(s = json_string_value(json_object_get(doc, "problem"))) || strcmp(s, base->name) != 0)
        return fail(msg, len, "the gait is for problem '%s', not '%s'", s ? s : "?", base->name);
    g->problem = strdup(s);
    s = json_string_value(json_object_get(doc, "objective"));
    g->objective = strdup(s ? s : "unknown");
    v = json_object_get(doc, "psi_collocation");
    g->psi = json_is_number(v) ? json_number_value(v) : NAN;
    v = json_object_get(doc, "energy");
    g->energy = json_is_number(v) ? json_number_value(v) : NAN;
    g->n_params = base->n_params;
    g->params = malloc(sizeof(double) * (size_t)base->n_params);
    if (!g->problem || !g->objective || !g->params)
        return oom(msg, len);
    params = json_object_get(doc, "params");
    for (int j = 0; j < base->n_params; j++) {
        v = json_object_get(params, base->params[j].name);
        if (!json_is_number(v) || !isfinite(json_number_value(v)))
            return fail(msg, len, "parameter '%s' is missing or not a finite number",
                        base->params[j].name);
        g->params[j] = json_number_value(v);
    }
    inputs = json_object_get(doc, "inputs");
    if (!json_is_array(inputs))
        return fail(msg, len, "\"inputs\" must be a list of parameter names");
    g->n_inputs = (int)json_array_size(inputs);
    g->inputs = malloc(sizeof(int) * (size_t)(g->n_inputs + 1));
    if (!g->inputs)
        return oom(msg, len);
    for (int r = 0; r < g->n_inputs; r++) {
        s = json_string_value(json_array_get(inputs, (size_t)r));
        if (!s || (g->inputs[r] = hes_model_param_index(base, s)) < 0)
            return fail(msg, len, "input '%s' is not a parameter of '%s'", s ? s : "?", base->name);
        for (int q = 0; q < r; q++)
            if (g->inputs[q] == g->inputs[r])
                return fail(msg, len, "input '%s' is listed twice in \"inputs\"", s);
    }
    phases = json_object_get(doc, "phases");
    if (!json_is_array(phases) || json_array_size(phases) < 1 || json_array_size(phases) > 10000)
        return fail(msg, len, "\"phases\" must be a non-empty list");
    g->n_phases = (int)json_array_size(phases);
    g->phases = calloc((size_t)g->n_phases, sizeof *g->phases);
    if (!g->phases)
        return oom(msg, len);
    for (int i = 0; i < g->n_phases; i++) {
        json_t *o = json_array_get(phases, (size_t)i);
        hes_gait_phase *ph = &g->phases[i];
        const char *mode = json_string_value(json_object_get(o, "mode")),
                   *ends = json_string_value(json_object_get(o, "ends_with"));
        if (!mode || (ph->mode = hes_model_mode_index(base, mode)) < 0)
            return fail(msg, len, "phase %d: unknown mode '%s'", i + 1, mode ? mode : "?");
        if (!ends || (ph->transition = hes_model_transition_index(base, ends)) < 0)
            return fail(msg, len, "phase %d: unknown transition '%s'", i + 1, ends ? ends : "?");
        v = json_object_get(o, "virtual");
        if (v && !json_is_boolean(v))
            return fail(msg, len, "phase %d: \"virtual\" must be true or false", i + 1);
        ph->is_virtual = json_is_true(v);
        v = json_object_get(o, "offset");
        if (v && !json_is_number(v))
            return fail(msg, len, "phase %d: \"offset\" must be a number", i + 1);
        ph->offset = json_is_number(v) ? json_number_value(v) : 0.0;
        json_t *dj = json_object_get(o, "direction");
        const char *dir = json_string_value(dj);
        if (dj && !(dir && (strcmp(dir, "down") == 0 || strcmp(dir, "up") == 0 ||
                            strcmp(dir, "any") == 0)))
            return fail(msg, len, "phase %d: \"direction\" must be \"down\", \"up\" or "
                        "\"any\", got '%s'", i + 1, dir ? dir : "(not a string)");
        ph->direction = !dir ? base->transitions[ph->transition].direction
                      : strcmp(dir, "up") == 0 ? HES_UP : strcmp(dir, "down") == 0 ? HES_DOWN : HES_ANY;
        v = json_object_get(o, "duration");
        ph->duration = json_is_number(v) ? json_number_value(v) : -1;
        if (!(ph->duration > 0) || !isfinite(ph->duration) || !isfinite(ph->offset))
            return fail(msg, len, "phase %d: \"duration\" must be a positive number", i + 1);
        ph->nodes = (int)json_integer_value(json_object_get(o, "nodes"));
        if (ph->nodes < 2 || ph->nodes > 100000)
            return fail(msg, len, "phase %d: \"nodes\" must be an integer >= 2", i + 1);
        json_t *u = json_object_get(o, "inputs");
        ph->u_rows = g->n_inputs == 0 ? 0 : json_is_array(u) && json_array_size(u) == 1 ? 1 : ph->nodes;
        int rr = read_rows(json_object_get(o, "states"), ph->nodes, base->modes[ph->mode].dim,
                           &ph->x, "states", i + 1, msg, len);
        if (rr)
            return rr;
        if (g->n_inputs == 0 && has_values(u))
            return fail(msg, len, "phase %d has input values but the gait's \"inputs\" list is "
                        "empty: name the parameters they drive (values would be dropped)", i + 1);
        if (g->n_inputs == 0)
            ph->u = malloc(sizeof(double));
        else if ((rr = read_rows(u, ph->u_rows, g->n_inputs, &ph->u, "inputs", i + 1, msg, len)))
            return rr;
        if (!ph->u)
            return oom(msg, len);
    }
    return 0;
}

hes_status hes_gait_read(const char *path, const hes_model *base, hes_gait *g, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (!g)
        return reader_status(fail(msg, len, "hes_gait_read: no gait to fill (g is NULL)"));
    memset(g, 0, sizeof *g);
    if (!path || !base)
        return reader_status(fail(msg, len, "hes_gait_read: no file or no base model"));
    hes_status st;
    json_t *doc = hes__json_load_input(path, &st, msg, len);
    if (!doc)
        return st;
    int rc = parse(doc, base, g, msg, len);
    json_decref(doc);
    if (rc != 0)
        hes_gait_free(g);
    return reader_status(rc);
}

hes_status hes_gait_problem(const char *path, char *name, size_t name_len, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (!path || !name || !name_len)
        return reader_status(fail(msg, len, "hes_gait_problem: no file or no place for the name"));
    hes_status st;
    json_t *doc = hes__json_load_input(path, &st, msg, len);
    if (!doc)
        return st;
    const char *s = json_string_value(json_object_get(doc, "problem"));
    int rc = 0;
    if (!s || strlen(s) >= name_len)
        rc = fail(msg, len, "%s: not a gait file (no \"problem\")", path);
    else
        strcpy(name, s);
    json_decref(doc);
    return reader_status(rc);
}
