/*
 * cli_print.c - the printing several commands share: the verdict line,
 * vectors and matrices, state names, the report of simultaneous events.
 */
#include <math.h>

#include "cli.h"

void cli_print_verdict(const hes_stability *st)
{
    switch (st->verdict) {
    case HES_STABLE:
        printf("stable: psi = %.6g < 1\n", st->psi);
        break;
    case HES_UNSTABLE:
        printf("unstable: psi = %.6g > 1\n", st->psi);
        break;
    default:
        printf("marginal: psi = %.12g is within %.2g (its accuracy) of 1: neither stable nor "
               "unstable as far as this computation can tell\n", st->psi, st->psi_tol);
        /* a lone multiplier 1 with the others inside: a family of orbits */
        if (st->n_mult >= 2 && st->im[0] == 0 && fabs(st->re[0] - 1) <= st->psi_tol &&
            hypot(st->re[1], st->im[1]) < 1 - st->psi_tol)
            printf("  one multiplier is 1, the others inside the unit circle (largest |.| "
                   "%.6g): neutral along one direction only, to first order (a family of "
                   "orbits, such as a rolling wheel's headings; a conserved quantity; a "
                   "symmetry not declared; or the edge of stability, where higher orders "
                   "decide)\n",
                   hypot(st->re[1], st->im[1]));
        break;
    }
}

void cli_print_matrix(FILE *out, const double *a, int n)
{
    for (int i = 0; i < n; i++) {
        fputc(' ', out);
        for (int j = 0; j < n; j++)
            fprintf(out, " % .10e", a[i + (size_t)j * n]);
        fputc('\n', out);
    }
}

void cli_print_vector(FILE *out, const double *v, int n, const char *fmt)
{
    int i;

    fputc('[', out);
    for (i = 0; i < n; i++) {
        if (i)
            fputs(", ", out);
        fprintf(out, fmt, v[i]);
    }
    fputc(']', out);
}

const char *cli_state_name(const hes_model *model, int mode, int i)
{
    const hes_mode *m;

    if (mode < 0 || mode >= model->n_modes)
        return NULL;
    m = &model->modes[mode];
    if (!m->state_names || i < 0 || i >= m->dim)
        return NULL;
    return m->state_names[i];
}

const char *cli_tangent_name(const hes_model *model, int mode, int i, char *buf, size_t len)
{
    const hes_mode *m = &model->modes[mode];
    int nt = m->tdim > 0 ? m->tdim : m->dim;

    if (m->tangent_names)
        snprintf(buf, len, "%s", m->tangent_names[i]);
    else if (nt == m->dim && m->state_names)
        snprintf(buf, len, "%s", m->state_names[i]);
    else
        snprintf(buf, len, "d[%d]", i);
    return buf;
}

void cli_print_simultaneous(const hes_model *m, const hes_simultaneous *list, int n)
{
    for (int k = 0; k < n; k++) {
        const hes_simultaneous *s = &list[k];
        printf("\nsimultaneous events: '%s' then '%s' (%.3g apart)\n",
               m->transitions[s->first].name, m->transitions[s->second].name, s->dt);
        if (!isnan(s->coupling))
            printf("  limb coupling (eq. 6, cosine in the M^-1 metric): %.3g%s\n", s->coupling,
                   s->decoupled ? " (decoupled)" : " (coupled)");
        if (s->alt_first < 0) {
            printf("  the model has no transitions for the other order: not compared\n");
            continue;
        }
        printf("  other order: '%s' then '%s'\n", m->transitions[s->alt_second].name,
               m->transitions[s->alt_first].name);
        if (isnan(s->outcome_gap)) {
            printf("  the orders end in different modes: not compared\n");
            continue;
        }
        printf("  outcomes %s (max difference %.3g)\n", s->continuous ? "agree" : "DIFFER",
               s->outcome_gap);
        if (s->differentiable)
            printf("  linearisations agree (relative difference %.3g): the monodromy is valid\n",
                   s->piece_gap);
        else
            printf("  linearisations differ (relative difference %.3g): the return map is only\n"
                   "  piecewise linear; this orbit's monodromy uses the order taken\n", s->piece_gap);
        if (!isnan(s->psi_other))
            printf("  psi with the order taken: %.12g; with the other order: %.12g\n",
                   s->psi_taken, s->psi_other);
    }
}
