/*
 * model.c - the model description: structural validation, lookup by name,
 * the model's functions bound to parameter values, the integrators' and
 * directions' names.  Its supplied Jacobians are checked by
 * model_check.c; the evaluation of the callbacks inside a computation is
 * hybrid/eval.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_internal.h"

/* Structural validation.  Every field a model (a plugin) can set is checked
 * before any callback runs, and each failure names the field ("orbit.
 * n_sequence", "modes[1].dim", "trajopt.input_lo[0]", ...): a model that
 * passes cannot make the library index out of bounds or loop on a count.
 * (The callbacks themselves are only checked as they are called.) */

#define BAD(...) do { if (msg && len) snprintf(msg, len, __VA_ARGS__); return HES_EINVAL; } while (0)

/* The largest state dimension of a mode (dense n x n matrices, int sizes). */
#define MAX_DIM 10000
/* The largest count of anything listed in a model (events of a sequence,
 * modes, transitions, parameters, inputs, path constraints). */
#define MAX_COUNT 100000

/* A name of the model (hes_name_check), field saying where, e.g.
 * "modes[1].name". */
static hes_status check_name(const char *model, const char *name, char *msg, size_t len,
                             const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static hes_status check_name(const char *model, const char *name, char *msg, size_t len,
                             const char *fmt, ...)
{
    char field[160];
    hes_error why;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(field, sizeof field, fmt, ap);
    va_end(ap);
    if (hes_name_check(field, name, &why) == HES_OK)
        return HES_OK;
    if (model)
        BAD("model '%s': %.400s", model, why.message);
    BAD("model %.400s", why.message);
}

static hes_status check_count(const char *model, const char *field, int n, const void *ptr,
                              int min, char *msg, size_t len)
{
    if (n < min || n > MAX_COUNT)
        BAD("model '%s': %s = %d must be from %d to %d", model, field, n, min, MAX_COUNT);
    if (n > 0 && !ptr)
        BAD("model '%s': %s = %d but its array is NULL", model, field, n);
    return HES_OK;
}

/* A hes_mech (cheap checks: counts, pointers, indices). */
static hes_status check_mech(const char *model, const char *where, const hes_mech *ms,
                             char *msg, size_t len)
{
    if (!ms)
        BAD("model '%s': %s: the mechanical system (mech) is NULL", model, where);
    if (ms->d < 1 || ms->d > MAX_DIM)
        BAD("model '%s': %s: mech.d = %d must be from 1 to %d", model, where, ms->d, MAX_DIM);
    if (!ms->net_force && ms->d > HES__MECH_DM_MAX)
        BAD("model '%s': %s: mech.d = %d: a system without net_force takes at most %d "
            "coordinates (its Coriolis terms come from dM/dq, d^3 values)", model, where,
            ms->d, HES__MECH_DM_MAX);
    if (!ms->mass || !ms->force)
        BAD("model '%s': %s: mech.%s is NULL", model, where, ms->mass ? "force" : "mass");
    if (ms->n_quat < 0 || ms->n_quat > ms->d / 3 || (ms->n_quat > 0 && !ms->quat))
        BAD("model '%s': %s: mech.n_quat = %d must be from 0 to d / 3 = %d with its array",
            model, where, ms->n_quat, ms->d / 3);
    for (int j = 0; ms->quat && j < ms->n_quat; j++)
        if (ms->quat[j] < (j ? ms->quat[j - 1] + 4 : 0) || ms->quat[j] + 4 > ms->d + ms->n_quat)
            BAD("model '%s': %s: mech.quat[%d] = %d: quaternions start in ascending order, "
                "4 coordinates apart at least, within the %d coordinates", model, where, j,
                ms->quat[j], ms->d + ms->n_quat);
    if (ms->n_quat > 0 && !ms->net_force)
        BAD("model '%s': %s: a system with quaternions needs net_force (its Coriolis terms "
            "are not derived from dM/dq in those coordinates)", model, where);
    if (ms->m < 0 || ms->m > MAX_DIM)
        BAD("model '%s': %s: mech.m = %d inputs must be from 0 to %d", model, where, ms->m,
            MAX_DIM);
    if (ms->n_constraints < 0 || ms->n_constraints > MAX_COUNT ||
        (ms->n_constraints > 0 && !ms->constraints))
        BAD("model '%s': %s: mech.n_constraints = %d must be from 0 to %d with its array",
            model, where, ms->n_constraints, MAX_COUNT);
    for (int c = 0; c < ms->n_constraints; c++) {
        const hes_mech_constraint *mc = &ms->constraints[c];
        if (!mc->a)
            BAD("model '%s': %s: mech.constraints[%d].a is NULL", model, where, c);
        hes_status st;
        if (mc->name && (st = check_name(model, mc->name, msg, len, "%s: mech.constraints[%d].name",
                                         where, c)) != HES_OK)
            return st;
        if (!(mc->restitution >= 0) || !isfinite(mc->restitution))
            BAD("model '%s': %s: mech.constraints[%d].restitution = %g must be a finite "
                "number >= 0", model, where, c, mc->restitution);
    }
    return HES_OK;
}

/* n indices of constraints of ms in idx. */
static hes_status check_constraint_list(const char *model, const char *where, const char *field,
                                        int n, const int *idx, const hes_mech *ms, char *msg,
                                        size_t len)
{
    if (n < 0 || n > ms->n_constraints || (n > 0 && !idx))
        BAD("model '%s': %s: %s = %d must be from 0 to %d (the constraints of its mech) with "
            "its array", model, where, field, n, ms->n_constraints);
    for (int i = 0; i < n; i++)
        if (idx[i] < 0 || idx[i] >= ms->n_constraints)
            BAD("model '%s': %s: %s[%d] = %d is not a constraint of its mech (0 to %d)", model,
                where, field, i, idx[i], ms->n_constraints - 1);
    return HES_OK;
}

/* A hes_mech_mode whose state has dim values. */
static hes_status check_mech_mode(const char *model, const char *where, const hes_mech_mode *mm,
                                  int dim, char *msg, size_t len)
{
    hes_status st;
    if (!mm)
        BAD("model '%s': %s: no hes_mech_mode (its data is NULL)", model, where);
    if ((st = check_mech(model, where, mm->mech, msg, len)) != HES_OK)
        return st;
    int nq = hes_mech_nq(mm->mech);
    if (mm->chart && nq != mm->mech->d)
        BAD("model '%s': %s: a chart on a system with quaternions (mech.n_quat = %d): "
            "charts take systems whose coordinates are their velocities", model, where,
            mm->mech->n_quat);
    if (mm->k < 1 || mm->k > mm->mech->d || hes__mech_kq(mm) + mm->k != dim)
        BAD("model '%s': %s: k = %d coordinates must be from 1 to mech.d = %d, and the state "
            "dimension %d must be %s", model, where, mm->k, mm->mech->d, dim,
            nq != mm->mech->d ? "nq + d (q and v)" : "2 k");
    if (!mm->chart && mm->k != mm->mech->d)
        BAD("model '%s': %s: without a chart k = %d must equal mech.d = %d", model, where,
            mm->k, mm->mech->d);
    if (mm->chart && (!mm->chart_dz || !mm->chart_acc))
        BAD("model '%s': %s: a chart needs chart_dz and chart_acc", model, where);
    if (mm->held && mm->chart)
        BAD("model '%s': %s: a mode that holds its constraints by their forces has no chart",
            model, where);
    return check_constraint_list(model, where, "n_active", mm->n_active, mm->active, mm->mech,
                                 msg, len);
}

static hes_status check_mech_transition(const hes_model *m, int k, char *msg, size_t len)
{
    const hes_transition *tr = &m->transitions[k];
    const hes_mech_transition *mt = tr->data ? tr->data : m->data;
    char where[160];
    hes_status st;
    snprintf(where, sizeof where, "transitions[%d] ('%s', hes_mech_guard/reset)", k, tr->name);
    if (!mt)
        BAD("model '%s': %s: data must point to its hes_mech_transition", m->name, where);
    snprintf(where, sizeof where, "transitions[%d] ('%s'): its hes_mech_transition's from", k,
             tr->name);
    if ((st = check_mech_mode(m->name, where, mt->from, m->modes[tr->from].dim, msg, len)) !=
        HES_OK)
        return st;
    snprintf(where, sizeof where, "transitions[%d] ('%s'): its hes_mech_transition's to", k,
             tr->name);
    if ((st = check_mech_mode(m->name, where, mt->to, m->modes[tr->to].dim, msg, len)) != HES_OK)
        return st;
    snprintf(where, sizeof where, "transitions[%d] ('%s', hes_mech_guard/reset)", k, tr->name);
    if (mt->kind != HES_MECH_ACTIVATE && mt->kind != HES_MECH_RELEASE &&
        mt->kind != HES_MECH_SLIP && mt->kind != HES_MECH_STICK)
        BAD("model '%s': %s: kind = %d is none of HES_MECH_ACTIVATE, HES_MECH_RELEASE, "
            "HES_MECH_SLIP and HES_MECH_STICK", m->name, where, (int)mt->kind);
    const hes_mech *em = mt->mech ? mt->mech : mt->from->mech;
    if (mt->mech && (st = check_mech(m->name, where, mt->mech, msg, len)) != HES_OK)
        return st;
    if (mt->mech && mt->mech != mt->from->mech && !mt->lift &&
        (mt->from->chart || mt->mech->d != mt->from->mech->d ||
         hes_mech_nq(mt->mech) != hes_mech_nq(mt->from->mech)))
        BAD("model '%s': %s: an event in another mechanical system than its source mode's "
            "needs a lift (or, from a mode without a chart, the same coordinates)", m->name,
            where);
    const hes_mech *cm = mt->kind != HES_MECH_ACTIVATE ? mt->from->mech : em;
    if (mt->constraint < 0 || mt->constraint >= cm->n_constraints)
        BAD("model '%s': %s: constraint = %d is not a constraint of its mech (0 to %d)",
            m->name, where, mt->constraint, cm->n_constraints - 1);
    if ((st = check_constraint_list(m->name, where, "n_after", mt->n_after, mt->after, em, msg,
                                    len)) != HES_OK ||
        (st = check_constraint_list(m->name, where, "n_separate", mt->n_separate, mt->separate,
                                    em, msg, len)) != HES_OK)
        return st;
    if (!mt->to_chart && mt->to->k != em->d)
        BAD("model '%s': %s: without a to_chart the target mode's k = %d must equal the "
            "event's mech.d = %d", m->name, where, mt->to->k, em->d);
    /* a lift and a to_chart map d coordinates, and the reset writes the event's q
       (nq values) where the target mode's state has its positions */
    if ((mt->lift || mt->to_chart) &&
        (hes_mech_nq(em) != em->d || hes__mech_kq(mt->from) != mt->from->k ||
         hes__mech_kq(mt->to) != mt->to->k))
        BAD("model '%s': %s: a transition of a system with quaternions (mech.n_quat > 0) "
            "takes no lift and no to_chart", m->name, where);
    if (!mt->to_chart && hes__mech_kq(mt->to) != hes_mech_nq(em))
        BAD("model '%s': %s: without a to_chart the target mode's %d position values must "
            "be the event's nq = %d coordinates", m->name, where, hes__mech_kq(mt->to),
            hes_mech_nq(em));
    return HES_OK;
}

static hes_status check_params(const hes_model *m, char *msg, size_t len)
{
    hes_status st = check_count(m->name, "n_params", m->n_params, m->params, 0, msg, len);
    if (st != HES_OK)
        return st;
    for (int i = 0; i < m->n_params; i++) {
        const hes_param *pp = &m->params[i];
        if (!pp->name || !*pp->name)
            BAD("model '%s': params[%d] has no name", m->name, i);
        if ((st = check_name(m->name, pp->name, msg, len, "params[%d].name", i)) != HES_OK)
            return st;
        for (int j = 0; j < i; j++)
            if (strcmp(pp->name, m->params[j].name) == 0)
                BAD("model '%s': parameter name '%s' appears twice (params[%d] and params[%d])",
                    m->name, pp->name, j, i);
        if (!(pp->min <= pp->max))
            BAD("model '%s': parameter '%s': empty valid range [min, max] = [%g, %g]", m->name,
                pp->name, pp->min, pp->max);
        if (pp->flags & ~(unsigned)(HES_PARAM_SHAPE | HES_PARAM_SOLVED | HES_PARAM_POSITIVE))
            BAD("model '%s': parameter '%s': unknown flags 0x%x", m->name, pp->name, pp->flags);
        if (!isfinite(pp->value))
            BAD("model '%s': parameter '%s': value %g is not a finite number", m->name,
                pp->name, pp->value);
        if (pp->value < pp->min || pp->value > pp->max)
            BAD("model '%s': parameter '%s': value %g is outside its valid range [%g, %g]",
                m->name, pp->name, pp->value, pp->min, pp->max);
        if ((pp->flags & HES_PARAM_POSITIVE) && !(pp->value > 0))
            BAD("model '%s': parameter '%s': value %g must be positive (HES_PARAM_POSITIVE)",
                m->name, pp->name, pp->value);
        if (!isfinite(pp->search_lo) || !isfinite(pp->search_hi) ||
            !(pp->search_lo <= pp->search_hi))
            BAD("model '%s': parameter '%s': search bounds [search_lo, search_hi] = [%g, %g] "
                "must be finite with search_lo <= search_hi", m->name, pp->name, pp->search_lo,
                pp->search_hi);
    }
    return HES_OK;
}

/* A mode's tangent space (hes_mode.tdim and its chart): tdim 0 (= dim) or
 * 1 to dim; a chart is retract, local and tangent together (each needs the
 * others: a manifold's linearisations go through E and P, its Newton steps
 * and differences through retract and local); tdim < dim needs a chart;
 * cotangent only with a chart; tangent_names, when given, tdim valid and
 * distinct names. */
static hes_status check_tangent(const hes_model *m, int i, char *msg, size_t len)
{
    const hes_mode *md = &m->modes[i];
    hes_status st;
    if (md->tdim < 0 || md->tdim > md->dim)
        BAD("model '%s': modes[%d] ('%s'): tdim = %d must be from 1 to dim = %d (0: dim)",
            m->name, i, md->name, md->tdim, md->dim);
    int chart = (md->retract != NULL) + (md->local != NULL) + (md->tangent != NULL);
    if (chart != 0 && chart != 3)
        BAD("model '%s': modes[%d] ('%s'): a chart needs retract, local and tangent together "
            "(%s is NULL)", m->name, i, md->name,
            !md->retract ? "retract" : !md->local ? "local" : "tangent");
    if (chart == 0 && md->tdim > 0 && md->tdim < md->dim)
        BAD("model '%s': modes[%d] ('%s'): tdim = %d < dim = %d needs a chart (retract, local "
            "and tangent)", m->name, i, md->name, md->tdim, md->dim);
    if (chart == 0 && md->cotangent)
        BAD("model '%s': modes[%d] ('%s'): cotangent without a chart (retract, local and "
            "tangent)", m->name, i, md->name);
    int nt = hes__mode_tdim(m, i);
    for (int j = 0; md->tangent_names && j < nt; j++)
        if (!md->tangent_names[j])
            BAD("model '%s': modes[%d] ('%s'): tangent_names[%d] is NULL", m->name, i,
                md->name, j);
        else if ((st = check_name(m->name, md->tangent_names[j], msg, len,
                                  "modes[%d] ('%s'): tangent_names[%d]", i, md->name, j)) !=
                 HES_OK)
            return st;
    const char *dup;
    int d = md->tangent_names ? hes__duplicate_name(md->tangent_names, nt, &dup) : 0;
    if (d < 0)
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    if (d > 0)
        BAD("model '%s': modes[%d] ('%s'): tangent name '%s' appears twice", m->name, i,
            md->name, dup);
    return HES_OK;
}

/* n distinct indices in [0, dim) */
static hes_status check_indices(const char *model, const char *field, int n, const int *idx,
                                int dim, const char *of, char *msg, size_t len)
{
    for (int i = 0; i < n; i++) {
        if (idx[i] < 0 || idx[i] >= dim)
            BAD("model '%s': %s[%d] = %d is out of range: %s has %d", model, field, i, idx[i], of,
                dim);
        for (int j = 0; j < i; j++)
            if (idx[j] == idx[i])
                BAD("model '%s': %s lists %d twice", model, field, idx[i]);
    }
    return HES_OK;
}

static hes_status check_orbit(const hes_model *m, char *msg, size_t len)
{
    const hes_orbit_spec *o = &m->orbit;
    hes_status st;
    if (o->mode < 0 || o->mode >= m->n_modes)
        BAD("model '%s': orbit.mode = %d is not a mode (0 to %d)", m->name, o->mode,
            m->n_modes - 1);
    if (o->section < 0 || o->section >= m->n_transitions)
        BAD("model '%s': orbit.section = %d is not a transition (0 to %d)", m->name, o->section,
            m->n_transitions - 1);
    if (m->transitions[o->section].to != o->mode)
        BAD("model '%s': orbit.section: the section transition '%s' must lead into the orbit's "
            "mode '%s'", m->name, m->transitions[o->section].name, m->modes[o->mode].name);
    if ((st = check_count(m->name, "orbit.n_sequence", o->n_sequence, o->sequence, 0, msg,
                          len)) != HES_OK)
        return st;
    if (o->n_sequence > 0) {
        int mode = o->mode;
        for (int k = 0; k < o->n_sequence; k++) {
            int t = o->sequence[k];
            if (t < 0 || t >= m->n_transitions)
                BAD("model '%s': orbit.sequence[%d] = %d is not a transition (0 to %d)", m->name,
                    k, t, m->n_transitions - 1);
            if (m->transitions[t].from != mode)
                BAD("model '%s': orbit.sequence[%d]: event %d of the sequence ('%s') does not "
                    "leave mode '%s'", m->name, k, k, m->transitions[t].name,
                    m->modes[mode].name);
            mode = m->transitions[t].to;
        }
        if (o->sequence[o->n_sequence - 1] != o->section)
            BAD("model '%s': orbit.sequence: the event sequence must end with the section "
                "transition '%s'", m->name, m->transitions[o->section].name);
    }
    if (o->period_param) {
        int pi = hes_model_param_index(m, o->period_param);
        if (pi < 0)
            BAD("model '%s': orbit.period_param: no parameter '%s'", m->name, o->period_param);
        for (int k = 0; k < o->n_sequence; k++)
            if (m->transitions[o->sequence[k]].clock_reset)
                BAD("model '%s': orbit.period_param: a non-autonomous orbit cannot reset the "
                    "clock (transition '%s' does)", m->name, m->transitions[o->sequence[k]].name);
    } else {
        /* The model clock is part of the state of a period: shooting starts
         * every period at model time 0, so when an event within the period
         * resets the clock the section event must reset it too (the
         * monodromy then uses the clock-local saltation matrix at the
         * intermediate resets, monodromy.c). */
        for (int k = 0; k + 1 < o->n_sequence; k++)
            if (m->transitions[o->sequence[k]].clock_reset &&
                !m->transitions[o->section].clock_reset)
                BAD("model '%s': orbit spec: transition '%s' resets the clock within the period, "
                    "so the section event '%s' must reset it too", m->name,
                    m->transitions[o->sequence[k]].name, m->transitions[o->section].name);
    }
    /* with a chart the free states and the residual are tangent coordinates */
    int n0 = hes__mode_tdim(m, o->mode);
    if ((st = check_count(m->name, "orbit.n_free_states", o->n_free_states, o->free_states, 0,
                          msg, len)) != HES_OK ||
        (st = check_count(m->name, "orbit.n_free_params", o->n_free_params, o->free_params, 0,
                          msg, len)) != HES_OK ||
        (st = check_count(m->name, "orbit.n_residual", o->n_residual, o->residual, 0, msg,
                          len)) != HES_OK ||
        (st = check_count(m->name, "orbit.n_symmetries", o->n_symmetries, o->symmetries, 0,
                          msg, len)) != HES_OK)
        return st;
    if (o->n_symmetries >= n0 && o->n_symmetries > 0)
        BAD("model '%s': orbit.n_symmetries = %d: the orbit's mode has %d (tangent) "
            "dimensions", m->name, o->n_symmetries, n0);
    for (int i = 0; o->symmetry_names && i < o->n_symmetries; i++)
        if (!o->symmetry_names[i])
            BAD("model '%s': orbit.symmetry_names[%d] is NULL", m->name, i);
        else if ((st = check_name(m->name, o->symmetry_names[i], msg, len,
                                  "orbit.symmetry_names[%d]", i)) != HES_OK)
            return st;
    if (o->free_quotient) {
        if (o->n_free_states || o->n_free_params || o->n_residual)
            BAD("model '%s': orbit.free_quotient solves for every direction but the "
                "symmetries: orbit.n_free_states, orbit.n_free_params and orbit.n_residual "
                "must be 0 (they are %d, %d and %d)", m->name, o->n_free_states,
                o->n_free_params, o->n_residual);
        return HES_OK;
    }
    int nu = o->n_free_states + o->n_free_params;
    if (nu < 1)
        BAD("model '%s': the orbit spec has nothing to solve: orbit.n_free_states and "
            "orbit.n_free_params are both 0 (give the section-state components or solved "
            "parameters Newton shooting finds)", m->name);
    if (o->n_residual != nu)
        BAD("model '%s': orbit.n_residual = %d must equal the number of unknowns, "
            "orbit.n_free_states + orbit.n_free_params = %d + %d", m->name, o->n_residual,
            o->n_free_states, o->n_free_params);
    const char *space = hes__mode_has_chart(m, o->mode) ? "the orbit's mode's tangent space"
                                                         : "the orbit's mode's state";
    if ((st = check_indices(m->name, "orbit.free_states", o->n_free_states, o->free_states, n0,
                            space, msg, len)) != HES_OK ||
        (st = check_indices(m->name, "orbit.residual", o->n_residual, o->residual, n0,
                            space, msg, len)) != HES_OK)
        return st;
    for (int i = 0; i < o->n_free_params; i++) {
        int pi = hes_model_param_index(m, o->free_params[i]);
        if (pi < 0)
            BAD("model '%s': orbit.free_params[%d]: no parameter '%s' to solve for", m->name, i,
                o->free_params[i] ? o->free_params[i] : "(null)");
        if (!(m->params[pi].flags & HES_PARAM_SOLVED))
            BAD("model '%s': orbit.free_params[%d]: parameter '%s' is not flagged "
                "HES_PARAM_SOLVED", m->name, i, o->free_params[i]);
        for (int j = 0; j < i; j++)
            if (strcmp(o->free_params[j], o->free_params[i]) == 0)
                BAD("model '%s': orbit.free_params lists '%s' twice", m->name, o->free_params[i]);
    }
    return HES_OK;
}

/* lo[i] <= hi[i] (numbers or infinities) for the n entries given. */
static hes_status check_bounds(const char *model, const char *lo_name, const char *hi_name,
                               const double *lo, const double *hi, int n, char *msg, size_t len)
{
    for (int i = 0; i < n; i++) {
        double a = lo ? lo[i] : -HUGE_VAL, b = hi ? hi[i] : HUGE_VAL;
        if (!(a <= b) || a == HUGE_VAL || b == -HUGE_VAL)
            BAD("model '%s': %s[%d] = %g and %s[%d] = %g are not bounds (need lo <= hi, no NaN)",
                model, lo_name, i, a, hi_name, i, b);
    }
    return HES_OK;
}

static hes_status check_trajopt(const hes_model *m, char *msg, size_t len)
{
    const hes_trajopt_spec *s = m->trajopt;
    const hes_orbit_spec *o = &m->orbit;
    hes_status st;
    if ((st = check_count(m->name, "trajopt.n_inputs", s->n_inputs, s->inputs, 0, msg, len)) !=
        HES_OK)
        return st;
    for (int q = 0; q < s->n_inputs; q++) {
        int pi = hes_model_param_index(m, s->inputs[q]);
        if (pi < 0)
            BAD("model '%s': trajopt.inputs[%d]: no parameter '%s'", m->name, q,
                s->inputs[q] ? s->inputs[q] : "(null)");
        if (m->params[pi].flags & HES_PARAM_SOLVED)
            BAD("model '%s': trajopt.inputs[%d]: the solved parameter '%s' cannot be an input",
                m->name, q, s->inputs[q]);
        for (int j = 0; j < q; j++)
            if (strcmp(s->inputs[j], s->inputs[q]) == 0)
                BAD("model '%s': trajopt.inputs lists '%s' twice", m->name, s->inputs[q]);
    }
    if ((st = check_bounds(m->name, "trajopt.input_lo", "trajopt.input_hi", s->input_lo,
                           s->input_hi, s->n_inputs, msg, len)) != HES_OK)
        return st;
    if ((s->x0_lo || s->x0_hi || s->virtual_events) && !o->guess)
        BAD("model '%s': trajopt.x0_lo, x0_hi and virtual_events need an orbit spec "
            "(orbit.guess)", m->name);
    if (o->guess && (st = check_bounds(m->name, "trajopt.x0_lo", "trajopt.x0_hi", s->x0_lo,
                                       s->x0_hi, m->modes[o->mode].dim, msg, len)) != HES_OK)
        return st;
    if (!isfinite(s->min_duration) || !isfinite(s->max_duration) || s->min_duration < 0 ||
        s->max_duration < 0 || (s->max_duration > 0 && s->min_duration > s->max_duration))
        BAD("model '%s': trajopt.min_duration = %g and max_duration = %g must be finite, >= 0 "
            "and min <= max (max 0: unbounded)", m->name, s->min_duration, s->max_duration);
    if ((st = check_count(m->name, "trajopt.n_path", s->n_path, s->path, 0, msg, len)) != HES_OK)
        return st;
    for (int q = 0; q < s->n_path; q++) {
        const hes_path_constraint *pc = &s->path[q];
        if (pc->mode < 0 || pc->mode >= m->n_modes)
            BAD("model '%s': trajopt.path[%d].mode = %d is not a mode (0 to %d)", m->name, q,
                pc->mode, m->n_modes - 1);
        if (pc->n < 1 || pc->n > MAX_DIM || !pc->fn)
            BAD("model '%s': trajopt.path[%d] needs n >= 1 values (n = %d) and a function fn",
                m->name, q, pc->n);
        for (int i = 0; pc->names && i < pc->n; i++)
            if (!pc->names[i])
                BAD("model '%s': trajopt.path[%d].names[%d] is NULL", m->name, q, i);
            else if ((st = check_name(m->name, pc->names[i], msg, len, "trajopt.path[%d].names[%d]",
                                      q, i)) != HES_OK)
                return st;
    }
    for (int j = 0; s->virtual_events && j < o->n_sequence; j++)
        if (s->virtual_events[j] < 0 || s->virtual_events[j] > 64)
            BAD("model '%s': trajopt.virtual_events[%d] = %d must be from 0 to 64", m->name, j,
                s->virtual_events[j]);
    if (!isfinite(s->min_crossing_rate) || s->min_crossing_rate < 0)
        BAD("model '%s': trajopt.min_crossing_rate = %g must be a finite number >= 0", m->name,
            s->min_crossing_rate);
    return HES_OK;
}

hes_status hes_model_validate(const hes_model *m, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    hes_status st;
    if (msg && len)
        msg[0] = '\0';
    if (!m)
        BAD("model is NULL");
    if (m->abi != HES_MODEL_ABI)
        BAD("model '%s' was built for model ABI %d, this library has %d",
            m->name ? m->name : "?", m->abi, HES_MODEL_ABI);
    if (!m->name || !*m->name)
        BAD("model has no name");
    if ((st = check_name(NULL, m->name, msg, len, "name")) != HES_OK)
        return st;
    if (m->n_modes < 1)
        BAD("model '%s' has no modes (n_modes = %d)", m->name, m->n_modes);
    if ((st = check_count(m->name, "n_modes", m->n_modes, m->modes, 1, msg, len)) != HES_OK)
        return st;
    for (int i = 0; i < m->n_modes; i++) {
        const hes_mode *md = &m->modes[i];
        if (!md->name || !*md->name)
            BAD("model '%s': modes[%d] has no name", m->name, i);
        if ((st = check_name(m->name, md->name, msg, len, "modes[%d].name", i)) != HES_OK)
            return st;
        if (md->dim < 1 || md->dim > MAX_DIM)
            BAD("model '%s': modes[%d] ('%s'): dim = %d must be from 1 to %d", m->name, i,
                md->name, md->dim, MAX_DIM);
        if (!md->field)
            BAD("model '%s': modes[%d] ('%s') has no vector field (field is NULL)", m->name, i,
                md->name);
        for (int j = 0; md->state_names && j < md->dim; j++)
            if (!md->state_names[j])
                BAD("model '%s': modes[%d] ('%s'): state_names[%d] is NULL", m->name, i,
                    md->name, j);
            else if ((st = check_name(m->name, md->state_names[j], msg, len,
                                      "modes[%d] ('%s'): state_names[%d]", i, md->name, j)) !=
                     HES_OK)
                return st;
        const char *dup;
        int d = hes__duplicate_name(md->state_names, md->dim, &dup);
        if (d < 0)
            return hes__say(msg, len, HES_ENOMEM, "out of memory");
        if (d > 0)
            BAD("model '%s': modes[%d] ('%s'): state name '%s' appears twice", m->name, i,
                md->name, dup);
        if ((st = check_tangent(m, i, msg, len)) != HES_OK)
            return st;
        for (int j = 0; j < i; j++)
            if (strcmp(m->modes[j].name, md->name) == 0)
                BAD("model '%s': mode name '%s' appears twice (modes[%d] and modes[%d])",
                    m->name, md->name, j, i);
        if (md->field_dx == hes_mech_field_dx && md->field != hes_mech_field)
            BAD("model '%s': modes[%d] ('%s'): field_dx is hes_mech_field_dx but field is not "
                "hes_mech_field", m->name, i, md->name);
        if (md->field == hes_mech_field) {
            char where[96];
            snprintf(where, sizeof where, "modes[%d] ('%s', hes_mech_field)", i, md->name);
            const hes_mech_mode *mm = md->data ? md->data : m->data;
            if ((st = check_mech_mode(m->name, where, mm, md->dim, msg, len)) != HES_OK)
                return st;
            int manifold = hes__mech_kq(mm) != mm->k || (mm->held && mm->n_active > 0);
            if (manifold && (md->tdim != hes_mech_mode_tdim(mm) || !md->retract))
                BAD("model '%s': %s: a state with quaternions or held constraints needs the "
                    "tangent space of dimension %d (hes_mech_mode_tdim) and its chart "
                    "(hes_mech_retract, hes_mech_local, hes_mech_tangent)", m->name, where,
                    hes_mech_mode_tdim(mm));
        }
    }
    if ((st = check_count(m->name, "n_transitions", m->n_transitions, m->transitions, 0, msg,
                          len)) != HES_OK)
        return st;
    for (int k = 0; k < m->n_transitions; k++) {
        const hes_transition *tr = &m->transitions[k];
        if (!tr->name || !*tr->name)
            BAD("model '%s': transitions[%d] has no name", m->name, k);
        if ((st = check_name(m->name, tr->name, msg, len, "transitions[%d].name", k)) != HES_OK)
            return st;
        if (!tr->guard)
            BAD("model '%s': transition '%s' has no guard (guard is NULL)", m->name, tr->name);
        if (tr->from < 0 || tr->from >= m->n_modes || tr->to < 0 || tr->to >= m->n_modes)
            BAD("model '%s': transition '%s' refers to a mode that does not exist (from = %d, "
                "to = %d; modes 0 to %d)", m->name, tr->name, tr->from, tr->to, m->n_modes - 1);
        if (!tr->reset && m->modes[tr->from].dim != m->modes[tr->to].dim)
            BAD("model '%s': transition '%s' changes dimension %d -> %d but has no reset map",
                m->name, tr->name, m->modes[tr->from].dim, m->modes[tr->to].dim);
        if (tr->direction != HES_DOWN && tr->direction != HES_UP && tr->direction != HES_ANY)
            BAD("model '%s': transition '%s': direction = %d must be HES_DOWN (-1), HES_UP (1) "
                "or HES_ANY (0)", m->name, tr->name, tr->direction);
        if ((tr->guard == hes_mech_guard || tr->reset == hes_mech_reset) &&
            (st = check_mech_transition(m, k, msg, len)) != HES_OK)
            return st;
    }
    if ((st = check_params(m, msg, len)) != HES_OK)
        return st;
    if (!hes_integrator_name(m->integrator))
        BAD("model '%s': integrator = %d must be HES_ADAMS (0), HES_BDF (1), HES_RK8 (2) or "
            "HES_DOPRI5 (3)",
            m->name, (int)m->integrator);
    if (!isfinite(m->max_phase_time) || m->max_phase_time < 0)
        BAD("model '%s': max_phase_time = %g must be a finite number >= 0 (0: the default 100)",
            m->name, m->max_phase_time);
    if (m->orbit.guess && (st = check_orbit(m, msg, len)) != HES_OK)
        return st;
    if (m->trajopt && (st = check_trajopt(m, msg, len)) != HES_OK)
        return st;
    return HES_OK;
}

#undef BAD

int hes_model_param_index(const hes_model *m, const char *name)
{
    for (int i = 0; name && i < m->n_params; i++)
        if (strcmp(m->params[i].name, name) == 0)
            return i;
    return -1;
}

int hes_model_mode_index(const hes_model *m, const char *name)
{
    for (int i = 0; name && i < m->n_modes; i++)
        if (strcmp(m->modes[i].name, name) == 0)
            return i;
    return -1;
}

int hes_model_transition_index(const hes_model *m, const char *name)
{
    for (int i = 0; name && i < m->n_transitions; i++)
        if (strcmp(m->transitions[i].name, name) == 0)
            return i;
    return -1;
}

double hes__time_after(const hes_model *m, int tr, double tm)
{
    return m->transitions[tr].clock_reset ? 0.0 : tm;
}

/* ------------------------------------------------ bound model functions */


int hes__bound_call(void *ctx, double t, const double *x, double *out)
{
    const hes__bound_fn *b = ctx;
    if (b->identity) {
        memcpy(out, x, (size_t)b->n_out * sizeof *out);
        return 0;
    }
    return b->fn(t, x, b->p, out, b->data);
}

void *hes__mode_data(const hes_model *m, int mode)
{
    return m->modes[mode].data ? m->modes[mode].data : m->data;
}

void *hes__tr_data(const hes_model *m, int tr)
{
    return m->transitions[tr].data ? m->transitions[tr].data : m->data;
}

int hes__mode_tdim(const hes_model *m, int mode)
{
    const hes_mode *md = &m->modes[mode];
    return md->tdim > 0 ? md->tdim : md->dim;
}

int hes__mode_has_chart(const hes_model *m, int mode)
{
    return m->modes[mode].retract != NULL;
}

static const char *const integrator_names[] = { "adams", "bdf", "rk8", "dopri5" };

const char *hes_integrator_name(hes_integrator integrator)
{
    return integrator >= HES_ADAMS && integrator <= HES_DOPRI5 ? integrator_names[integrator]
                                                                : NULL;
}

hes_status hes_integrator_from_name(const char *name, hes_integrator *integrator)
{
    int i = hes__name_index(integrator_names, 4, name);
    if (i < 0 || !integrator)
        return HES_EINVAL;
    *integrator = (hes_integrator)i;
    return HES_OK;
}

const char *hes_direction_name(int direction)
{
    return direction == HES_DOWN ? "down" : direction == HES_UP ? "up" : "any";
}

void hes_model_destroy(hes_model *model)
{
    if (model && model->release)
        model->release(model);
}
