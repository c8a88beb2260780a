/*
 * continue_print.c - the branches and curves of `hes continue` on standard
 * output (cmd_continue.h): a table per branch or curve with how it ended,
 * CSV (a header and a row per point of every branch and curve), or one
 * JSON document (Jansson; numbers with 17 significant digits, null where
 * not finite).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd_continue.h"

#define CMD "hes continue"

/* The parameterisation a branch was followed with (one the library left
 * unresolved was followed by the parameter itself). */
static const char *method_name(hes_continuation_method m)
{
    return m == HES_CONT_ARCLENGTH ? "arclength" : "natural";
}

/* A point's crossing as printed: "" for none. */
static const char *crossing_text(hes_crossing c)
{
    return c == HES_CROSS_NONE ? "" : hes_crossing_name(c);
}

/* The guard of a point's smallest finite margin, -1 when it has none (an
 * ESS system, or no guard with an interior minimum). */
static int closest_guard(const hes_continuation *c, const hes_continuation_point *pt)
{
    int best = -1;
    for (int k = 0; pt->margins && k < c->n_guards; k++)
        if (isfinite(pt->margins[k]) && (best < 0 || pt->margins[k] < pt->margins[best]))
            best = k;
    return best;
}

/* Transition k's name ("transition k" past the model's list). */
static const char *guard_name(const cont_result *r, int k, char *buf, size_t len)
{
    if (k < r->n_guards)
        return r->guard_names[k];
    snprintf(buf, len, "transition %d", k);
    return buf;
}

/* The curve's number among the curves: r->branches[b] is a curve. */
static int curve_number(const cont_result *r, int b)
{
    int k = 0;
    for (int j = 0; j < b; j++)
        k += r->branches[j].curve;
    return k;
}

static int write_error(void)
{
    fprintf(stderr, CMD ": write error on standard output\n");
    return CLI_EXIT_FAILURE;
}

/* ------------------------------------------------------------------ text */

static int width_of(const char *name, int least)
{
    int len = (int)strlen(name);
    return len > least ? len : least;
}

/* A point's clearance as printed: its smallest finite margin and that
 * guard's name, "" when it has none. */
static void clearance_text(const cont_result *r, const hes_continuation *c, int i, char *buf,
                           size_t len)
{
    const hes_continuation_point *pt = &c->points[i];
    int k = closest_guard(c, pt);
    char name[32];
    if (k < 0)
        buf[0] = '\0';
    else
        snprintf(buf, len, "%.6g %s", pt->margins[k], guard_name(r, k, name, sizeof name));
}

static void print_branch_text(const cont_result *r, int b)
{
    const cont_branch *br = &r->branches[b];
    const hes_continuation *c = &br->c;
    int wv = width_of(r->param, 17), wv2 = br->curve ? width_of(r->param2, 17) : 0;
    int wc = (int)strlen("clearance"), wd = 0;
    char text[HES_NAME_MAX + 64];

    for (int i = 0; i < c->n_points; i++) {
        int len = (int)strlen(c->points[i].detail);
        wd = len > wd ? len : wd;
        clearance_text(r, c, i, text, sizeof text);
        len = (int)strlen(text);
        wc = len > wc ? len : wc;
    }
    if (wd)
        wd = width_of("detail", wd);
    if (br->curve)
        printf("curve %d: %s of point %d of branch %d in (%s, %s), returns %d\n",
               curve_number(r, b), hes_label_name(c->n_points ? c->points[0].label
                                                              : HES_LABEL_NONE),
               br->from_point, br->from_branch, r->param, r->param2, br->returns);
    else if (br->from_branch < 0)
        printf("branch %d: %s from %.10g to %.10g, returns %d, %s\n", b, r->param, r->from,
               r->to, br->returns, method_name(c->method));
    else
        printf("branch %d: returns %d, switched at point %d of branch %d, %s\n", b, br->returns,
               br->from_point, br->from_branch, method_name(c->method));
    printf("%5s %-5s %*s", "index", "label", wv, r->param);
    if (br->curve)
        printf(" %*s", wv2, r->param2);
    printf(" %17s %17s %-9s %-8s %-*s", "period", "psi", "verdict", "crossing", wc, "clearance");
    if (wd)
        printf(" %-*s", wd, "detail");
    for (int k = 0; k < r->n_states; k++)
        printf(" %*s", width_of(r->state_names[k], 17), r->state_names[k]);
    putchar('\n');
    for (int i = 0; i < c->n_points; i++) {
        const hes_continuation_point *pt = &c->points[i];
        printf("%5d %-5s %*.10g", i, hes_label_name(pt->label), wv, pt->value);
        if (br->curve)
            printf(" %*.10g", wv2, pt->value2);
        clearance_text(r, c, i, text, sizeof text);
        printf(" %17.10g %17.10g %-9s %-8s %-*s", pt->period, pt->psi,
               hes_verdict_name(pt->verdict), crossing_text(pt->crossing), wc, text);
        if (wd)
            printf(" %-*s", wd, pt->detail);
        for (int k = 0; k < c->n && k < r->n_states; k++)
            printf(" %*.10g", width_of(r->state_names[k], 17), pt->x0[k]);
        putchar('\n');
    }
    const char *name = br->curve ? r->param2 : r->param;
    double to = br->curve ? r->to2 : r->to;
    if (c->reached)
        printf("reached %s = %.10g\n", name, to);
    else
        printf("ended before %s = %.10g: %s\n", name, to, c->why);
}

int continue_print_text(const cont_result *r)
{
    int n_curves = curve_number(r, r->n_branches), n = r->n_branches - n_curves;
    printf("%s: %s from %.10g to %.10g (%d branch%s", r->problem, r->param, r->from, r->to, n,
           n == 1 ? "" : "es");
    if (r->param2)
        printf("; %d curve%s in (%s, %s), %s from %.10g towards %.10g", n_curves,
               n_curves == 1 ? "" : "s", r->param, r->param2, r->param2, r->from2, r->to2);
    printf(")\n");
    for (int b = 0; b < r->n_branches; b++) {
        putchar('\n');
        print_branch_text(r, b);
    }
    return ferror(stdout) ? write_error() : CLI_EXIT_OK;
}

/* ------------------------------------------------------------------- CSV */

/* A text field kept CSV-safe: no comma, quote or control character (names
 * have none; anything else is shown as '?'). */
static void csv_text(const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        putchar(ch < 0x20 || ch == ',' || ch == '"' || ch == 0x7f ? '?' : ch);
    }
}

/* A number with 17 significant digits, empty where not finite. */
static void csv_number(double v)
{
    if (isfinite(v))
        printf(",%.17g", v);
    else
        putchar(',');
}

int continue_print_csv(const cont_result *r)
{
    fputs("branch,returns,index,label,detail,value,value2,s,period,psi,verdict,crossing",
          stdout);
    for (int k = 0; k < r->n_states; k++) {
        putchar(',');
        csv_text(r->state_names[k]);
    }
    for (int k = 0; k < r->n_guards; k++) {
        fputs(",margin_", stdout);
        csv_text(r->guard_names[k]);
    }
    putchar('\n');
    for (int b = 0; b < r->n_branches; b++) {
        const hes_continuation *c = &r->branches[b].c;
        for (int i = 0; i < c->n_points; i++) {
            const hes_continuation_point *pt = &c->points[i];
            printf("%d,%d,%d,%s,", b, r->branches[b].returns, i, hes_label_name(pt->label));
            csv_text(pt->detail);
            csv_number(pt->value);
            csv_number(r->branches[b].curve ? pt->value2 : NAN);
            csv_number(pt->s);
            csv_number(pt->period);
            csv_number(pt->psi);
            printf(",%s,%s", hes_verdict_name(pt->verdict), crossing_text(pt->crossing));
            for (int k = 0; k < r->n_states; k++)
                csv_number(k < c->n ? pt->x0[k] : NAN);
            for (int k = 0; k < r->n_guards; k++)
                csv_number(pt->margins && k < c->n_guards ? pt->margins[k] : NAN);
            putchar('\n');
        }
    }
    return ferror(stdout) ? write_error() : CLI_EXIT_OK;
}

/* ------------------------------------------------------------------ JSON */

/* Each returns a new reference, or NULL out of memory. */
static json_t *number(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *text_or_null(const char *s)
{
    return s && s[0] ? json_string(s) : json_null();
}

/* obj[key] = val, taking val; nonzero on failure. */
static int put(json_t *obj, const char *key, json_t *val)
{
    return !val || json_object_set_new(obj, key, val) != 0;
}

static int append(json_t *arr, json_t *val)
{
    return !val || json_array_append_new(arr, val) != 0;
}

static json_t *point_json(const cont_result *r, const cont_branch *br, int i)
{
    const hes_continuation *c = &br->c;
    const hes_continuation_point *pt = &c->points[i];
    json_t *o = json_object(), *mult = json_array(), *x0 = json_array(),
           *margins = json_array(), *xr = json_array();
    int bad = !o || !mult || !x0 || !margins || !xr;
    char name[32];

    for (int k = 0; !bad && pt->margins && k < c->n_guards; k++) {
        json_t *m = json_object();
        bad = !m || put(m, "transition", json_string(guard_name(r, k, name, sizeof name))) ||
              put(m, "margin", number(pt->margins[k])) || append(margins, m);
    }
    for (int k = 0; !bad && k < pt->n_mult; k++) {
        json_t *m = json_object();
        bad = !m || put(m, "re", number(pt->re[k])) || put(m, "im", number(pt->im[k])) ||
              append(mult, m);
    }
    for (int k = 0; !bad && k < c->n; k++)
        bad = append(x0, number(pt->x0[k]));
    /* the state after each section event (a hybrid system's points) */
    for (int j = 0; !bad && pt->xr && j < c->returns; j++) {
        json_t *v = json_array();
        for (int k = 0; v && !bad && k < c->n; k++)
            bad = append(v, number(pt->xr[(size_t)j * c->n + k]));
        bad = bad || append(xr, v);
    }
    if (bad || put(o, "index", json_integer(i)) ||
        put(o, "label", text_or_null(hes_label_name(pt->label))) ||
        put(o, "detail", text_or_null(pt->detail)) || put(o, "value", number(pt->value)) ||
        put(o, "value2", br->curve ? number(pt->value2) : json_null()) ||
        put(o, "s", number(pt->s)) || put(o, "period", number(pt->period)) ||
        put(o, "psi", number(pt->psi)) || put(o, "psi_tol", number(pt->psi_tol)) ||
        put(o, "verdict", json_string(hes_verdict_name(pt->verdict))) ||
        put(o, "crossing", text_or_null(crossing_text(pt->crossing))) ||
        put(o, "margins", json_incref(margins)) || put(o, "full", json_boolean(pt->full)) ||
        put(o, "multipliers", json_incref(mult)) || put(o, "x0", json_incref(x0)) ||
        put(o, "xr", json_incref(xr))) {
        json_decref(o);
        o = NULL;
    }
    json_decref(mult);
    json_decref(x0);
    json_decref(margins);
    json_decref(xr);
    return o;
}

static json_t *branch_json(const cont_result *r, const cont_branch *br)
{
    const hes_continuation *c = &br->c;
    json_t *o = json_object(), *points = json_array();
    int bad = !o || !points, sw = br->from_branch >= 0;

    for (int i = 0; !bad && i < c->n_points; i++)
        bad = append(points, point_json(r, br, i));
    if (bad || put(o, "kind", json_string(br->curve ? "curve" : "branch")) ||
        put(o, "param2", br->curve ? json_string(r->param2) : json_null()) ||
        put(o, "returns", json_integer(br->returns)) ||
        put(o, "method", json_string(method_name(c->method))) ||
        put(o, "from_branch", sw ? json_integer(br->from_branch) : json_null()) ||
        put(o, "from_point", sw ? json_integer(br->from_point) : json_null()) ||
        put(o, "reached", json_boolean(c->reached)) ||
        put(o, "why", c->reached ? json_null() : text_or_null(c->why)) ||
        put(o, "points", json_incref(points))) {
        json_decref(o);
        o = NULL;
    }
    json_decref(points);
    return o;
}

int continue_print_json(const cont_result *r)
{
    json_t *doc = json_object(), *names = json_array(), *branches = json_array();
    int bad = !doc || !names || !branches;

    for (int k = 0; !bad && k < r->n_states; k++)
        bad = append(names, json_string(r->state_names[k]));
    for (int b = 0; !bad && b < r->n_branches; b++)
        bad = append(branches, branch_json(r, &r->branches[b]));
    bad = bad || put(doc, "problem", json_string(r->problem)) ||
          put(doc, "param", json_string(r->param)) || put(doc, "from", number(r->from)) ||
          put(doc, "to", number(r->to)) ||
          put(doc, "param2", r->param2 ? json_string(r->param2) : json_null()) ||
          put(doc, "from2", r->param2 ? number(r->from2) : json_null()) ||
          put(doc, "to2", r->param2 ? number(r->to2) : json_null()) ||
          put(doc, "state_names", json_incref(names)) ||
          put(doc, "branches", json_incref(branches));
    char *text = bad ? NULL : json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                                  JSON_REAL_PRECISION(17));
    json_decref(names);
    json_decref(branches);
    json_decref(doc);
    return cli_print_document(CMD, text);
}
