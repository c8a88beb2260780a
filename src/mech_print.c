/*
 * mech_print.c - the part of `hes info PROBLEM` for models built with the
 * mechanical layer (hes_mech_field, hes_mech_guard): the mechanical systems
 * and their constraints, what each mode holds, and how each transition is
 * derived (an activation and its impact, or a release).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmd_info.h"

/* Lists constraint indices of a mechanical system by name. */
static void print_constraints(const hes_mech *ms, int n, const int *idx)
{
    if (n == 0)
        printf("none");
    for (int i = 0; i < n; i++)
        printf("%s%s", i ? ", " : "", ms->constraints[idx[i]].name);
}

/* The mechanical system of mode or transition `k` (modes first), or NULL
 * for a transition that is not mechanical. */
static const hes_mech *system_of(const hes_model *m, int k)
{
    if (k < m->n_modes)
        return ((const hes_mech_mode *)m->modes[k].data)->mech;
    const hes_transition *t = &m->transitions[k - m->n_modes];
    const hes_mech_transition *mt = t->data;
    if (t->guard != hes_mech_guard || !mt)
        return NULL;
    return mt->mech ? mt->mech : mt->from->mech;
}

/* Each distinct system once (each mode and transition may have its own),
 * with its constraints. */
static void print_systems(const hes_model *m)
{
    int n = m->n_modes + m->n_transitions, n_seen = 0;
    const hes_mech **seen = malloc(sizeof *seen * (size_t)n);

    if (!seen) {
        printf("\nmechanical systems: (out of memory to list them)\n");
        return;
    }
    printf("\nmechanical systems (vector fields, guards and resets derived by the library):\n");
    for (int k = 0; k < n; k++) {
        const hes_mech *ms = system_of(m, k);
        int known = !ms;
        for (int j = 0; j < n_seen && !known; j++)
            known = seen[j] == ms;
        if (known)
            continue;
        seen[n_seen++] = ms;
        if (hes_mech_nq(ms) != ms->d)
            printf("  %s: %d coordinates (%d quaternions), %d velocities, %d inputs; "
                   "constraints:\n", ms->name ? ms->name : "(unnamed)", hes_mech_nq(ms),
                   ms->n_quat, ms->d, ms->m);
        else
            printf("  %s: %d coordinates, %d inputs; constraints:\n",
                   ms->name ? ms->name : "(unnamed)", ms->d, ms->m);
        for (int c = 0; c < ms->n_constraints; c++)
            printf("    %-20s %s, restitution %g\n", ms->constraints[c].name,
                   ms->constraints[c].unilateral ? "unilateral" : "bilateral",
                   ms->constraints[c].restitution);
    }
    free(seen);
}

/* Each transition: a release, or an activation with the constraints its
 * impact enforces. */
static void print_transitions(const hes_model *m)
{
    printf("  transitions:\n");
    for (int i = 0; i < m->n_transitions; i++) {
        const hes_transition *t = &m->transitions[i];
        const hes_mech_transition *mt = t->data;
        if (t->guard != hes_mech_guard || !mt) {
            printf("    %-16s (not mechanical)\n", t->name);
            continue;
        }
        const hes_mech *ms = mt->mech ? mt->mech : mt->from->mech;
        if (mt->kind == HES_MECH_RELEASE) {
            printf("    %-16s release of %s (its force crosses zero), no impulse\n", t->name,
                   mt->from->mech->constraints[mt->constraint].name);
            continue;
        }
        printf("    %-16s activation of %s in %s%s; impact enforces ", t->name,
               ms->constraints[mt->constraint].name, ms->name ? ms->name : "",
               mt->lift ? " (lifted)" : "");
        print_constraints(ms, mt->n_after, mt->after);
        if (mt->n_separate > 0) {
            printf("; must separate: ");
            print_constraints(ms, mt->n_separate, mt->separate);
        }
        printf("%s\n", mt->to_chart ? "; then new coordinates" : "");
    }
}

void mech_print_model(const hes_model *m)
{
    for (int i = 0; i < m->n_modes; i++)
        if (m->modes[i].field != hes_mech_field || !m->modes[i].data)
            return;
    print_systems(m);
    printf("  modes:\n");
    for (int i = 0; i < m->n_modes; i++) {
        const hes_mech_mode *mm = m->modes[i].data;
        printf("    %-16s %s, holds ", m->modes[i].name, mm->mech->name ? mm->mech->name : "");
        print_constraints(mm->mech, mm->n_active, mm->active);
        printf(", %s\n", mm->chart ? "in a chart of the held constraints"
                         : mm->held && mm->n_active > 0 ? "by their forces, on their manifold"
                                                       : "in its own coordinates");
    }
    print_transitions(m);
}
