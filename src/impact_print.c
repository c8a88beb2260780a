/*
 * impact_print.c - the output of `hes impact` in text (the contacts before
 * the impact, the single-valued outcomes located in the set, the set's
 * summary and its extreme outcomes) and in CSV (--csv: one row per
 * sample).  The JSON document is the library's (hes_impact_json).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmd_impact.h"

#define CMD "hes impact"

const char *impact_contact_name(const hes_impact_problem *pb, int i)
{
    return pb->mech->constraints[pb->contacts[i]].name;
}

/* The contact velocities u (normal/tangent per contact). */
static void print_u(const double *u, int k)
{
    for (int i = 0; i < k; i++)
        printf(" %+.6f/%+.6f", u[i], u[k + i]);
}

/* The contact modes m (k of them) after an impact. */
static void print_modes(const hes_contact_mode *m, int k)
{
    for (int i = 0; i < k; i++)
        printf("%s%s", i ? "," : " ", hes_contact_mode_name(m[i]));
}

/* One single-valued outcome: its law, contact velocities and modes, and
 * where it lies relative to the set (when sampled). */
static void print_outcome(const hes_impact_problem *pb, const hes_impact_outcome *r, int k)
{
    char name[128] = "anitescu-potra";
    if (r->law == HES_LAW_SEQUENTIAL) {
        int at = snprintf(name, sizeof name, "sequential ");
        for (int i = 0; i < k && at < (int)sizeof name; i++)
            at += snprintf(name + at, sizeof name - (size_t)at, "%s%s", i ? "," : "",
                           impact_contact_name(pb, r->order[i]));
    }
    printf("  %-22s", name);
    if (r->status != HES_OK) {
        printf(" does not end: contacts still approach after 100 passes\n");
        return;
    }
    print_u(r->u, k);
    print_modes(r->modes, k);
    if (r->relative >= 0)
        printf("   %.4f of the set's extent from a sample%s", r->relative,
               k >= 2 ? (r->inside_normals ? ", inside its normal hull" : ", outside its normal hull")
                      : "");
    printf("\n");
}

/* The header names every contact's u_n, u_t and mode and every velocity. */
void impact_print_csv(const hes_impact_problem *pb, const hes_impact_set *S)
{
    int k = S->k, n = S->n;
    printf("sample,finished,lcps,dissipated,residual");
    for (int i = 0; i < k; i++)
        printf(",un_%s", impact_contact_name(pb, i));
    for (int i = 0; i < k; i++)
        printf(",ut_%s", impact_contact_name(pb, i));
    for (int i = 0; i < k; i++)
        printf(",mode_%s", impact_contact_name(pb, i));
    for (int j = 0; j < n; j++)
        printf(",v%d", j);
    printf("\n");
    for (int s = 0; s < S->samples; s++) {
        printf("%d,%d,%d,%.10g,%.3g", s, S->finished[s], S->lcps[s], S->dissipated[s],
               S->residual[s]);
        for (int d = 0; d < 2 * k; d++)
            printf(",%.12g", S->u[(size_t)s * 2 * k + d]);
        for (int i = 0; i < k; i++)
            printf(",%s", hes_contact_mode_name(S->modes[(size_t)s * k + i]));
        for (int j = 0; j < n; j++)
            printf(",%.12g", S->v[(size_t)s * n + j]);
        printf("\n");
    }
}

/* The sampled set: its sequence and step, how many samples finished, their
 * cost, and the modes after the impact.  cnt: 3 counts per contact. */
static void print_set_summary(const hes_impact_problem *pb, const hes_impact_set *S,
                              const hes_impact_set_options *o, const int *cnt)
{
    long lcps = 0;
    for (int i = 0; i < S->samples; i++)
        lcps += S->lcps[i];
    printf("\nimpulse stepping (Halm & Posa Alg. 2): %d samples (%s sequence%s), h = %g, "
           "N = %d, LCP selection %s, %d thread%s\n", S->samples, S->sequence,
           o->seed ? ", shifted" : "", o->routh.h, o->routh.steps,
           o->routh.select ? "random" : "lemke", o->threads, o->threads > 1 ? "s" : "");
    printf("  finished %d of %d; LCPs per sample %.3f; max complementarity residual %.2g; "
           "max energy gain %.2g\n", S->n_finished, S->samples, S->mean_lcps, S->max_residual,
           S->max_energy_gain);
    printf("  %.3f s: %.1f us per sample, %.1f us per LCP\n", S->seconds,
           1e6 * S->seconds / S->samples, lcps ? 1e6 * S->seconds / (double)lcps : 0.0);
    printf("  modes after impact (stick/slide/lift):");
    for (int i = 0; i < S->k; i++)
        printf("  %s %d/%d/%d", impact_contact_name(pb, i), cnt[3 * i], cnt[3 * i + 1],
               cnt[3 * i + 2]);
    printf("\n");
}

/* The set's summary and its samples of least and largest contact velocity,
 * per contact and direction.  The exit status. */
static int print_set(const hes_impact_problem *pb, const hes_impact_set *S,
                     const hes_impact_set_options *o)
{
    int k = S->k;
    int *argmin = malloc(sizeof(int) * 7 * (size_t)k), *argmax = argmin + 2 * k,
        *cnt = argmax + 2 * k;
    if (!argmin) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        return CLI_EXIT_FAILURE;
    }
    hes_impact_set_extremes(S, argmin, argmax, cnt);
    print_set_summary(pb, S, o, cnt);
    printf("\nextreme outcomes:\n");
    for (int d = 0; d < 2 * k; d++)
        for (int e = 0; e < 2; e++) {
            int i = e ? argmax[d] : argmin[d];
            if (i < 0)
                continue;
            printf("  %s u_%s %-8s (sample %7d):", e ? "max" : "min", d < k ? "n" : "t",
                   impact_contact_name(pb, d % k), i);
            print_u(S->u + (size_t)i * 2 * k, k);
            print_modes(S->modes + (size_t)i * k, k);
            printf("\n");
        }
    free(argmin);
    return CLI_EXIT_OK;
}

int impact_print_text(const hes_impact_problem *pb, const hes_impact_setup *s,
                      const hes_impact_outcome *outs, int n_outs, const hes_impact_set *S,
                      const hes_impact_set_options *o)
{
    int k = s->k;
    double *um = malloc(sizeof *um * 2 * (size_t)k);
    if (!um) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        return CLI_EXIT_FAILURE;
    }
    hes_contact_velocities(&s->contacts, s->v, um);
    printf("problem: %s\n  %s\n", pb->name, pb->description);
    printf("contacts (normal/tangent velocity before the impact, mu):\n");
    for (int i = 0; i < k; i++)
        printf("  %-10s %+.6f/%+.6f  mu %g\n", impact_contact_name(pb, i), um[i], um[k + i],
               s->mu[i]);
    free(um);
    printf("\noutcomes (contact velocities normal/tangent per contact, modes):\n");
    for (int j = 0; j < n_outs; j++)
        print_outcome(pb, &outs[j], k);
    return S ? print_set(pb, S, o) : CLI_EXIT_OK;
}
