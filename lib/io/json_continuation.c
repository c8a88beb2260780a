/*
 * json_continuation.c - a branch read back from the document of `hes
 * continue --json` (hes_continuation_from_json, hes_continuation_read), so
 * that a branch stopped before its end can be resumed
 * (hes_continue_resume).  The document's first branch is read: its
 * points' parameter values, periods, psi, verdicts, labels, arclengths,
 * multipliers, section states and guard margins.  Everything is checked
 * before it is kept: types, finite numbers, sizes (at most
 * HES_INPUT_MAX bytes, 100000 points, 4096 state components), each
 * point's x0 as long as "state_names", the same transitions at every
 * point; and, given the system, that the document is of its problem, its
 * parameter, its section state names and its transitions.  Strings of the
 * document are only ever arguments of a message, truncated.  Only the
 * public API (and base/error.c) is used, so that the fuzz target can
 * compile this file in.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

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

#define MAX_POINTS 100000
#define MAX_STATES 4096


/* A finite number, or -1 after a message naming it. */
static int number(json_t *v, double *out, const char *what, int point, char *msg, size_t len)
{
    if (!json_is_number(v) || !isfinite(json_number_value(v))) {
        if (point >= 0)
            return fail(msg, len, "point %d: \"%s\" is not a finite number", point, what);
        return fail(msg, len, "\"%s\" is not a finite number", what);
    }
    *out = json_number_value(v);
    return 0;
}

/* An optional name (null or a string of at most HES_NAME_MAX bytes) into
 * buf ("" for null). */
static int name_or_null(json_t *v, char *buf, const char *what, int point, char *msg,
                        size_t len)
{
    if (json_is_null(v)) {
        buf[0] = '\0';
        return 0;
    }
    const char *s = json_string_value(v);
    if (!s || strlen(s) > HES_NAME_MAX || strlen(s) != json_string_length(v))
        return fail(msg, len, "point %d: \"%s\" must be null or a name of at most %d bytes",
                    point, what, HES_NAME_MAX);
    strcpy(buf, s);
    return 0;
}

/* The system's section state's dimension and the name of component i, as
 * the document names it (x[i] where the model names none). */
static int section_dim(const hes_system *sys)
{
    const hes_model *m = hes_system_model(sys);
    const hes_ess_model *em = hes_system_ess_model(sys);
    return m ? m->modes[m->orbit.mode].dim : em ? em->n : 0;
}

static const char *state_name(const hes_system *sys, int i, char *buf, size_t len)
{
    const hes_model *m = hes_system_model(sys);
    const hes_ess_model *em = hes_system_ess_model(sys);
    const char *name = NULL;
    if (m && m->modes[m->orbit.mode].state_names)
        name = m->modes[m->orbit.mode].state_names[i];
    else if (!m && em && em->state_names)
        name = em->state_names[i];
    if (name)
        return name;
    snprintf(buf, len, "x[%d]", i);
    return buf;
}

/* The document's head against the system: its problem, parameter and
 * section state names. */
static int check_system(json_t *doc, const hes_system *sys, const char *param, json_t *names,
                        char *msg, size_t len)
{
    const char *problem = json_string_value(json_object_get(doc, "problem"));
    if (!problem)
        return fail(msg, len, "\"problem\" is not a string");
    if (strcmp(problem, hes_system_name(sys)) != 0)
        return fail(msg, len, "the document is of problem '%.64s', not '%.64s'", problem,
                    hes_system_name(sys));
    int found = 0;
    for (int i = 0; i < hes_system_n_params(sys); i++)
        found |= strcmp(hes_system_param_info(sys, i)->name, param) == 0;
    if (!found)
        return fail(msg, len, "the document follows '%.64s', which is not a parameter of '%.64s'",
                    param, hes_system_name(sys));
    int n = (int)json_array_size(names), dim = section_dim(sys);
    if (n != dim)
        return fail(msg, len, "the document's section state has %d components "
                    "(\"state_names\"), the orbit of '%.64s' %d", n, hes_system_name(sys), dim);
    for (int i = 0; i < n; i++) {
        char buf[32];
        const char *want = state_name(sys, i, buf, sizeof buf),
                   *got = json_string_value(json_array_get(names, (size_t)i));
        if (strcmp(got, want) != 0)
            return fail(msg, len, "state %d of the document is '%.64s', of '%.64s' '%.64s'",
                        i, got, hes_system_name(sys), want);
    }
    return 0;
}

/* A point's margins: [] (an ESS system) or one {transition, margin} per
 * transition, margin null for no interior minimum (+INFINITY).  The first
 * point fixes the transitions (*n_guards, and with the system they must be
 * its model's); every other point has the same. */
static int read_margins(json_t *a, int i, const hes_system *sys, json_t **first,
                        hes_continuation *c, hes_continuation_point *pt, char *msg, size_t len)
{
    if (!json_is_array(a))
        return fail(msg, len, "point %d: \"margins\" is not a list", i);
    int ng = (int)json_array_size(a);
    if (!*first) {
        const hes_model *m = sys ? hes_system_model(sys) : NULL;
        if (sys && ng != (m ? m->n_transitions : 0))
            return fail(msg, len, "point %d: %d margins, but '%.64s' has %d transitions", i, ng,
                        hes_system_name(sys), m ? m->n_transitions : 0);
        if (ng > MAX_STATES)
            return fail(msg, len, "point %d: more than %d margins", i, MAX_STATES);
        *first = a;
        c->n_guards = ng;
    } else if (ng != c->n_guards) {
        return fail(msg, len, "point %d: %d margins, point 0 has %d", i, ng, c->n_guards);
    }
    if (ng == 0)
        return 0;
    if (!(pt->margins = malloc(sizeof(double) * (size_t)ng)))
        return oom(msg, len);
    for (int k = 0; k < ng; k++) {
        json_t *o = json_array_get(a, (size_t)k), *v = json_object_get(o, "margin");
        const char *name = json_string_value(json_object_get(o, "transition"));
        const char *want = json_string_value(json_object_get(json_array_get(*first, (size_t)k),
                                                             "transition"));
        if (!json_is_object(o) || !name || (v && !json_is_null(v) && !json_is_number(v)) || !v)
            return fail(msg, len, "point %d: margin %d is not {\"transition\": NAME, "
                        "\"margin\": number or null}", i, k);
        if (!want || strcmp(name, want) != 0)
            return fail(msg, len, "point %d: margin %d is of transition '%.64s', point 0's of "
                        "'%.64s'", i, k, name, want ? want : "?");
        if (i == 0 && sys) {
            const char *model = hes_system_model(sys)->transitions[k].name;
            if (strcmp(name, model) != 0)
                return fail(msg, len, "margin %d is of transition '%.64s', transition %d of "
                            "'%.64s' is '%.64s'", k, name, k, hes_system_name(sys), model);
        }
        pt->margins[k] = json_is_null(v) ? INFINITY : json_number_value(v);
        if (isnan(pt->margins[k]) || pt->margins[k] == -INFINITY)
            return fail(msg, len, "point %d: margin %d is not a number", i, k);
    }
    return 0;
}

static int read_point(json_t *o, int i, const hes_system *sys, json_t **first_margins,
                      hes_continuation *c, char *msg, size_t len)
{
    hes_continuation_point *pt = &c->points[i];
    json_t *v;
    const char *s;
    int rc;

    if (!json_is_object(o))
        return fail(msg, len, "point %d is not an object", i);
    v = json_object_get(o, "index");
    if (!json_is_integer(v) || json_integer_value(v) != i)
        return fail(msg, len, "point %d: \"index\" is not %d", i, i);
    if ((rc = number(json_object_get(o, "value"), &pt->value, "value", i, msg, len)) ||
        (rc = number(json_object_get(o, "period"), &pt->period, "period", i, msg, len)) ||
        (rc = number(json_object_get(o, "psi"), &pt->psi, "psi", i, msg, len)) ||
        (rc = number(json_object_get(o, "psi_tol"), &pt->psi_tol, "psi_tol", i, msg, len)) ||
        (rc = number(json_object_get(o, "s"), &pt->s, "s", i, msg, len)))
        return rc;
    if (pt->period < 0 || pt->psi < 0 || pt->psi_tol < 0)
        return fail(msg, len, "point %d: a negative period, psi or psi_tol", i);
    v = json_object_get(o, "value2");
    if (!json_is_null(v))
        return fail(msg, len, "point %d: \"value2\" is not null (a curve's point, not a "
                    "branch's)", i);
    pt->value2 = NAN;
    s = json_string_value(json_object_get(o, "verdict"));
    int verdict = -1;
    for (int k = HES_UNSTABLE; s && k <= HES_MARGINAL; k++)
        if (strcmp(s, hes_verdict_name((hes_verdict)k)) == 0)
            verdict = k;
    if (verdict < 0)
        return fail(msg, len, "point %d: \"verdict\" is not stable, unstable or marginal", i);
    pt->verdict = (hes_verdict)verdict;
    v = json_object_get(o, "crossing");
    s = json_string_value(v);
    pt->crossing = HES_CROSS_NONE;
    if (s) {
        int k = HES_CROSS_PLUS_ONE;
        while (k <= HES_CROSS_COMPLEX && strcmp(s, hes_crossing_name((hes_crossing)k)) != 0)
            k++;
        if (k > HES_CROSS_COMPLEX)
            return fail(msg, len, "point %d: \"crossing\" is not +1, -1, complex or null", i);
        pt->crossing = (hes_crossing)k;
    } else if (!json_is_null(v)) {
        return fail(msg, len, "point %d: \"crossing\" is not +1, -1, complex or null", i);
    }
    v = json_object_get(o, "label");
    s = json_string_value(v);
    pt->label = HES_LABEL_NONE;
    if (s) {
        int k = HES_LABEL_EP;
        while (k <= HES_LABEL_SIM && strcmp(s, hes_label_name((hes_label)k)) != 0)
            k++;
        if (k > HES_LABEL_SIM)
            return fail(msg, len, "point %d: \"label\" is not EP, SN, BP, PD, NS, GR, SEQ or "
                        "null", i);
        pt->label = (hes_label)k;
    } else if (!json_is_null(v)) {
        return fail(msg, len, "point %d: \"label\" is not EP, SN, BP, PD, NS, GR, SEQ or null",
                    i);
    }
    if ((rc = name_or_null(json_object_get(o, "detail"), pt->detail, "detail", i, msg, len)))
        return rc;
    v = json_object_get(o, "full");
    if (!json_is_boolean(v))
        return fail(msg, len, "point %d: \"full\" is not true or false", i);
    pt->full = json_is_true(v);

    v = json_object_get(o, "x0");
    if (!json_is_array(v) || (int)json_array_size(v) != c->n)
        return fail(msg, len, "point %d: \"x0\" is not a list of %d numbers (as many as "
                    "\"state_names\")", i, c->n);
    if (!(pt->x0 = malloc(sizeof(double) * (size_t)c->n)))
        return oom(msg, len);
    for (int k = 0; k < c->n; k++)
        if ((rc = number(json_array_get(v, (size_t)k), &pt->x0[k], "x0", i, msg, len)))
            return rc;

    v = json_object_get(o, "multipliers");
    if (!json_is_array(v) || (int)json_array_size(v) > c->n)
        return fail(msg, len, "point %d: \"multipliers\" is not a list of at most %d", i, c->n);
    pt->n_mult = (int)json_array_size(v);
    pt->re = malloc(sizeof(double) * (size_t)(pt->n_mult + 1));
    pt->im = malloc(sizeof(double) * (size_t)(pt->n_mult + 1));
    if (!pt->re || !pt->im)
        return oom(msg, len);
    for (int k = 0; k < pt->n_mult; k++) {
        json_t *m = json_array_get(v, (size_t)k);
        if (!json_is_object(m))
            return fail(msg, len, "point %d: multiplier %d is not {\"re\", \"im\"}", i, k);
        if ((rc = number(json_object_get(m, "re"), &pt->re[k], "multipliers re", i, msg, len)) ||
            (rc = number(json_object_get(m, "im"), &pt->im[k], "multipliers im", i, msg, len)))
            return rc;
    }
    return read_margins(json_object_get(o, "margins"), i, sys, first_margins, c, pt, msg, len);
}

static int parse(json_t *doc, const hes_system *sys, hes_continuation *c, double *from,
                 double *to, char *msg, size_t len)
{
    json_t *v, *names, *branches, *b, *points;
    const char *s;
    int rc;

    if (!json_is_object(doc))
        return fail(msg, len, "not a document of 'hes continue --json' (not an object)");
    s = json_string_value(json_object_get(doc, "param"));
    if (!s || !s[0] || strlen(s) > HES_NAME_MAX || strlen(s) != json_string_length(
            json_object_get(doc, "param")))
        return fail(msg, len, "\"param\" is not a parameter's name");
    strcpy(c->param, s);
    double f = 0, t = 0;
    if ((rc = number(json_object_get(doc, "from"), &f, "from", -1, msg, len)) ||
        (rc = number(json_object_get(doc, "to"), &t, "to", -1, msg, len)))
        return rc;
    names = json_object_get(doc, "state_names");
    if (!json_is_array(names) || json_array_size(names) < 1 ||
        json_array_size(names) > MAX_STATES)
        return fail(msg, len, "\"state_names\" is not a list of 1 to %d names", MAX_STATES);
    for (size_t k = 0; k < json_array_size(names); k++)
        if (!json_is_string(json_array_get(names, k)))
            return fail(msg, len, "\"state_names\"[%zu] is not a string", k);
    c->n = (int)json_array_size(names);
    if (sys && (rc = check_system(doc, sys, c->param, names, msg, len)))
        return rc;

    branches = json_object_get(doc, "branches");
    if (!json_is_array(branches) || json_array_size(branches) < 1)
        return fail(msg, len, "\"branches\" is not a non-empty list");
    b = json_array_get(branches, 0);
    s = json_string_value(json_object_get(b, "kind"));
    if (!json_is_object(b) || !s || strcmp(s, "branch") != 0)
        return fail(msg, len, "the first of \"branches\" is not of kind \"branch\"");
    v = json_object_get(b, "returns");
    if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 64)
        return fail(msg, len, "the branch's \"returns\" is not an integer from 1 to 64");
    c->returns = (int)json_integer_value(v);
    s = json_string_value(json_object_get(b, "method"));
    if (!s || (strcmp(s, "natural") != 0 && strcmp(s, "arclength") != 0))
        return fail(msg, len, "the branch's \"method\" is not natural or arclength");
    c->method = strcmp(s, "natural") == 0 ? HES_CONT_NATURAL : HES_CONT_ARCLENGTH;
    v = json_object_get(b, "reached");
    if (!json_is_boolean(v))
        return fail(msg, len, "the branch's \"reached\" is not true or false");
    c->reached = json_is_true(v);
    v = json_object_get(b, "why");
    if (!json_is_null(v) && !json_is_string(v))
        return fail(msg, len, "the branch's \"why\" is not a string or null");
    snprintf(c->why, sizeof c->why, "%s", json_is_string(v) ? json_string_value(v) : "");
    points = json_object_get(b, "points");
    if (!json_is_array(points) || json_array_size(points) < 1 ||
        json_array_size(points) > MAX_POINTS)
        return fail(msg, len, "the branch's \"points\" is not a list of 1 to %d points",
                    MAX_POINTS);
    int np = (int)json_array_size(points);
    if (!(c->points = calloc((size_t)np, sizeof *c->points)))
        return oom(msg, len);
    c->n_points = np;
    json_t *first_margins = NULL;
    for (int i = 0; i < np; i++)
        if ((rc = read_point(json_array_get(points, (size_t)i), i, sys, &first_margins, c, msg,
                             len)))
            return rc;
    if (from)
        *from = f;
    if (to)
        *to = t;
    return 0;
}

hes_status hes_continuation_from_json(const char *text, size_t size, const hes_system *sys,
                                      hes_continuation *out, double *from, double *to,
                                      hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (!out)
        return reader_status(fail(msg, len, "hes_continuation_from_json: no branch to fill"));
    memset(out, 0, sizeof *out);
    if (!text)
        return reader_status(fail(msg, len, "hes_continuation_from_json: no text"));
    if (size > HES_INPUT_MAX)
        return reader_status(fail(msg, len, "the document is larger than %zu bytes",
                                  (size_t)HES_INPUT_MAX));
    json_error_t jerr;
    json_t *doc = json_loadb(text, size, JSON_REJECT_DUPLICATES, &jerr);
    if (!doc)
        return reader_status(fail(msg, len, "not JSON: line %d: %s", jerr.line, jerr.text));
    int rc = parse(doc, sys, out, from, to, msg, len);
    json_decref(doc);
    if (rc != 0)
        hes_continuation_free(out);
    return reader_status(rc);
}

hes_status hes_continuation_read(const char *path, const hes_system *sys, hes_continuation *out,
                                 double *from, double *to, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (out)
        memset(out, 0, sizeof *out);
    if (!path || !out)
        return reader_status(fail(msg, len, "hes_continuation_read: no file or no branch to "
                                  "fill"));
    char *text;
    size_t n;
    hes_error e;
    hes_status st = hes_input_read(path, 0, &text, &n, &e);
    if (st != HES_OK) {
        fail(msg, len, "%s", e.message);
        return st == HES_ENOMEM ? HES_ENOMEM : HES_EINVAL;
    }
    st = hes_continuation_from_json(text, n, sys, out, from, to, &e);
    free(text);
    if (st != HES_OK)
        fail(msg, len, "%.256s: %s", path, e.message);
    return st;
}
