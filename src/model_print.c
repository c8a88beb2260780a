/*
 * model_print.c - the text of `hes info PROBLEM`: a hybrid model's modes,
 * transitions, parameters (default, unit, flags, valid range, search bounds
 * of the shape parameters), the orbit spec the solver uses and the
 * integrator; an event-selected system's states, event functions and
 * parameters.  The mechanical layer's part is mech_print.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmd_info.h"

/* The name of mode i, or "?" for an index outside the model. */
static const char *mode_name(const hes_model *m, int i)
{
    return i >= 0 && i < m->n_modes ? m->modes[i].name : "?";
}

/* The name of transition i, or "?". */
static const char *transition_name(const hes_model *m, int i)
{
    return i >= 0 && i < m->n_transitions ? m->transitions[i].name : "?";
}

/* State `i` of mode `mode` for people: its name, or "x[i]". */
static void format_state(char *buf, size_t len, const hes_model *m, int mode, int i)
{
    const char *name = cli_state_name(m, mode, i);

    if (name)
        snprintf(buf, len, "%s", name);
    else
        snprintf(buf, len, "x[%d]", i);
}

/* A parameter's valid range: "> 0", "(0, MAX]", "any", ">= MIN", "<= MAX"
 * or "[MIN, MAX]". */
static void format_range(char *buf, size_t len, const hes_param *p)
{
    int lo = isfinite(p->min), hi = isfinite(p->max);
    int strict = (p->flags & HES_PARAM_POSITIVE) && !(p->min > 0);

    if (strict && !hi)
        snprintf(buf, len, "> 0");
    else if (strict)
        snprintf(buf, len, "(0, %g]", p->max);
    else if (!lo && !hi)
        snprintf(buf, len, "any");
    else if (!hi)
        snprintf(buf, len, ">= %g", p->min);
    else if (!lo)
        snprintf(buf, len, "<= %g", p->max);
    else
        snprintf(buf, len, "[%g, %g]", p->min, p->max);
}

/* The default search bounds of a shape parameter (`hes shape`); both 0
 * means the model gives none. */
static int has_search(const hes_param *p)
{
    return (p->flags & HES_PARAM_SHAPE) && !(p->search_lo == 0 && p->search_hi == 0);
}

/* The search bounds as "[LO, HI]", or "-". */
static void format_search(char *buf, size_t len, const hes_param *p)
{
    if (has_search(p))
        snprintf(buf, len, "[%g, %g]", p->search_lo, p->search_hi);
    else
        snprintf(buf, len, "-");
}

/* The flags as "shape,solved,positive" (those set), or "-". */
static void format_flags(char *buf, size_t len, unsigned flags)
{
    buf[0] = '\0';
    if (flags & HES_PARAM_SHAPE)
        strncat(buf, "shape,", len - strlen(buf) - 1);
    if (flags & HES_PARAM_SOLVED)
        strncat(buf, "solved,", len - strlen(buf) - 1);
    if (flags & HES_PARAM_POSITIVE)
        strncat(buf, "positive,", len - strlen(buf) - 1);
    if (buf[0])
        buf[strlen(buf) - 1] = '\0';
    else
        snprintf(buf, len, "-");
}

/* The states idx[0..n) of a mode by name, comma-separated: the orbit
 * spec's free states and residual, which are tangent coordinates when the
 * mode has a chart (hes_mode.retract). */
static void print_state_list(const hes_model *m, int mode, const int *idx, int n)
{
    char buf[80];
    int i;

    for (i = 0; i < n; i++) {
        if (m->modes[mode].retract)
            cli_tangent_name(m, mode, idx[i], buf, sizeof buf);
        else
            format_state(buf, sizeof buf, m, mode, idx[i]);
        printf("%s%s", i ? ", " : "", buf);
    }
}

/* The parameters as a table: name, default, unit, flags, range, search
 * bounds, description. */
static void print_param_table(const hes_param *params, int n)
{
    char range[64], flags[40], search[64];
    int i, w = 4;

    for (i = 0; i < n; i++)
        if ((int)strlen(params[i].name) > w)
            w = (int)strlen(params[i].name);
    printf("  %-*s %12s %-8s %-15s %-20s %-14s %s\n", w, "name", "default", "unit",
           "flags", "range", "search", "description");
    for (i = 0; i < n; i++) {
        const hes_param *p = &params[i];

        format_range(range, sizeof range, p);
        format_flags(flags, sizeof flags, p->flags);
        format_search(search, sizeof search, p);
        printf("  %-*s %12g %-8s %-15s %-20s %-14s %s\n", w, p->name, p->value,
               p->unit && p->unit[0] ? p->unit : "-", flags, range, search,
               p->description ? p->description : "");
    }
}

/* The orbit spec: where the orbit starts, its sequence of transitions,
 * what ends a period, the unknowns and the residual the solver zeroes. */
static void print_orbit(const hes_model *m)
{
    const hes_orbit_spec *o = &m->orbit;
    int i;

    if (!o->guess) {
        printf("\norbit: none declared (simulation only; see hes simulate --sweep)\n");
    } else {
        printf("\norbit:\n");
        printf("  starts in mode %s just after transition %s\n",
               mode_name(m, o->mode), transition_name(m, o->section));
        printf("  sequence: ");
        for (i = 0; i < o->n_sequence; i++)
            printf("%s%s", i ? " -> " : "", transition_name(m, o->sequence[i]));
        printf("\n");
        if (o->period_param)
            printf("  non-autonomous: period given by parameter %s (stroboscopic map)\n",
                   o->period_param);
        else
            printf("  autonomous: a period ends at the next %s event\n",
                   transition_name(m, o->section));
        printf("  unknowns: ");
        if (o->n_free_states > 0) {
            printf("states ");
            print_state_list(m, o->mode, o->free_states, o->n_free_states);
        }
        if (o->n_free_params > 0) {
            printf("%sparameters ", o->n_free_states > 0 ? "; " : "");
            for (i = 0; i < o->n_free_params; i++)
                printf("%s%s", i ? ", " : "", o->free_params[i]);
        }
        if (o->n_free_states + o->n_free_params == 0)
            printf("none");
        printf("\n  residual: %s in ", m->modes[o->mode].retract ? "local(x_return, x0)"
                                                                : "x_return - x0");
        print_state_list(m, o->mode, o->residual, o->n_residual);
        printf("\n");
    }
}

void model_print_text(const hes_model *m)
{
    int i, j;

    printf("%s: %s\n", m->name, m->description ? m->description : "");

    printf("\nmodes:\n");
    for (i = 0; i < m->n_modes; i++) {
        const hes_mode *md = &m->modes[i];

        printf("  %-16s dim %d", md->name, md->dim);
        if (md->state_names) {
            printf("  states: ");
            for (j = 0; j < md->dim; j++)
                printf("%s%s", j ? ", " : "", md->state_names[j]);
        }
        printf("\n");
        if (md->retract) { /* a state on a manifold, linearised in tangent coordinates */
            char buf[80];
            printf("  %-16s tangent dim %d: ", "", md->tdim > 0 ? md->tdim : md->dim);
            for (j = 0; j < (md->tdim > 0 ? md->tdim : md->dim); j++)
                printf("%s%s", j ? ", " : "", cli_tangent_name(m, i, j, buf, sizeof buf));
            printf("\n");
        }
    }

    printf("\ntransitions:\n");
    for (i = 0; i < m->n_transitions; i++) {
        const hes_transition *t = &m->transitions[i];

        printf("  %-16s %s -> %s, guard crossing %s%s\n", t->name,
               mode_name(m, t->from), mode_name(m, t->to),
               hes_direction_name(t->direction),
               t->clock_reset ? ", resets the clock" : "");
    }

    mech_print_model(m);

    printf("\nparameters:\n");
    print_param_table(m->params, m->n_params);

    print_orbit(m);
    if (m->integrator == HES_RK8)
        printf("\nintegrator: rk8 (explicit Runge-Kutta, Fehlberg 7(8)) with the variational "
               "equations; rootfinding on the guards of the current mode\n");
    else if (m->integrator == HES_DOPRI5)
        printf("\nintegrator: dopri5 (explicit Runge-Kutta, Dormand-Prince 5(4)) with the "
               "variational equations; rootfinding on the guards of the current mode, on its "
               "continuous extension\n");
    else
        printf("\nintegrator: CVODES %s with forward sensitivities; rootfinding on the "
               "guards of the current mode\n", m->integrator == HES_BDF ? "BDF" : "Adams");
}

/* A comma-separated list of names, or PREFIX[i] when there are none. */
static void print_names(const char *const *names, int n, const char *prefix)
{
    for (int i = 0; i < n; i++) {
        if (names)
            printf("%s%s", i ? ", " : "", names[i]);
        else
            printf("%s%s[%d]", i ? ", " : "", prefix, i);
    }
    printf("\n");
}

void ess_model_print_text(const hes_ess_model *m, const char *problem)
{
    /* how a command line names this model: a built-in by its name, a
       plugin by --model and its path */
    const char *model_opt, *word;
    cli_problem_words(problem, &model_opt, &word);
    printf("%s: %s\n", m->name, m->description ? m->description : "");
    printf("\nevent-selected system: the vector field f(x, s) depends on the state and on\n"
           "the sign pattern s of the event functions h(x) (s_i = +1 where h_i >= 0); a\n"
           "guard is crossed from h_i < 0 to h_i >= 0\n");
    printf("\nstates (%d): ", m->n);
    print_names(m->state_names, m->n, "x");
    printf("event functions (%d): ", m->m);
    print_names(m->event_names, m->m, "h");
    printf("\nparameters:\n");
    print_param_table(m->params, m->n_params);
    printf("\nintegrator: ESS (hes simulate %s%s --integrator ess --eps E --time T --x0 ...):\n"
           "CVODES Adams steps stopped at the eps-band of the next guard, projection steps\n"
           "across it; --jacobian adds d x(T) / d x0\n", model_opt, word);
    if (m->orbit_x0) {
        printf("\nperiodic orbit guess (hes analyze %s%s): x0 = ", model_opt, word);
        cli_print_vector(stdout, m->orbit_x0, m->n, "%.10g");
        printf(", period %.10g, section ", m->orbit_period);
        if (m->state_names)
            printf("%s\n", m->state_names[m->orbit_section]);
        else
            printf("x[%d]\n", m->orbit_section);
    }
}
