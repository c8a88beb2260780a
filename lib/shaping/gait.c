/*
 * gait.c - a gait (hes_gait: phases with durations, states and inputs at
 * the nodes, virtual events) as a model of its own, so that the library's
 * independent shooting analysis, simulation and perturbation trials apply
 * to it unchanged: mode i of the derived model is phase i of the gait (the
 * base mode's vector field with the inputs set from the gait's schedule),
 * transition i ends phase i (the base guard, plus the offset of a virtual
 * event; the base reset, or the identity for a virtual event).  Every
 * transition restarts the clock, so the model time seen by the derived
 * callbacks is the time since the phase started, which is what the inputs
 * are functions of (linear between the nodes, and after the last node the
 * last segment continued, so that an event a little later than nominal sees
 * a smooth input).  The base callbacks receive the base model's time: the phase time
 * plus the nominal durations of the earlier phases since the last physical
 * clock reset (exact for autonomous base models and on the nominal orbit).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaping/shaping.h"

#define GAIT_MAX_PARAMS 256

typedef struct gait_model gait_model;

typedef struct {
    const gait_model *gm;
    int i;                       /* phase */
    double tbase0;               /* base model time at the phase start */
} gait_phase_data;

struct gait_model {
    hes_model model;             /* first: its release casts back */
    const hes_gait *g;
    const hes_model *base;
    hes_mode *modes;
    hes_transition *transitions;
    hes_param *params;
    gait_phase_data *pd;
    int *sequence;
    char *names;                 /* storage of mode and transition names */
};

double hes__gait_input(const hes_gait *g, int phase, int r, double t)
{
    const hes_gait_phase *ph = &g->phases[phase];
    if (ph->u_rows <= 1)
        return ph->u[r];
    double s = ph->duration > 0 ? t / ph->duration * (ph->nodes - 1) : 0;
    s = s < 0 ? 0 : s; /* past the nominal end: the last segment continues */
    int k = (int)s < ph->nodes - 2 ? (int)s : ph->nodes - 2;
    double w = s - k;
    const double *u = ph->u + (size_t)k * g->n_inputs + r;
    return (1 - w) * u[0] + w * u[g->n_inputs];
}

/* Base parameters with the phase's inputs at time t since its start. */
static void phase_params(const gait_phase_data *pd, double t, const double *p, double *q)
{
    const hes_gait *g = pd->gm->g;
    memcpy(q, p, sizeof(double) * (size_t)g->n_params);
    for (int r = 0; r < g->n_inputs; r++)
        q[g->inputs[r]] = hes__gait_input(g, pd->i, r, t);
}

static void *base_mode_data(const gait_phase_data *pd)
{
    const hes_model *b = pd->gm->base;
    const hes_mode *m = &b->modes[pd->gm->g->phases[pd->i].mode];
    return m->data ? m->data : b->data;
}

static const hes_transition *base_transition(const gait_phase_data *pd)
{
    return &pd->gm->base->transitions[pd->gm->g->phases[pd->i].transition];
}

static void *base_transition_data(const gait_phase_data *pd)
{
    const hes_transition *t = base_transition(pd);
    return t->data ? t->data : pd->gm->base->data;
}

/* A function of the base mode of phase pd->i, at the base model's time and
 * with the parameters the gait's inputs set. */
static int base_mode_call(hes_fn fn, const gait_phase_data *pd, double t, const double *x,
                          const double *p, double *out)
{
    double q[GAIT_MAX_PARAMS];
    phase_params(pd, t, p, q);
    return fn(t + pd->tbase0, x, q, out, base_mode_data(pd));
}

static int gait_field(double t, const double *x, const double *p, double *out, void *data)
{
    const gait_phase_data *pd = data;
    return base_mode_call(pd->gm->base->modes[pd->gm->g->phases[pd->i].mode].field, pd, t, x,
                          p, out);
}

static int gait_field_dx(double t, const double *x, const double *p, double *out, void *data)
{
    const gait_phase_data *pd = data;
    return base_mode_call(pd->gm->base->modes[pd->gm->g->phases[pd->i].mode].field_dx, pd, t,
                          x, p, out);
}

static int gait_guard(double t, const double *x, const double *p, double *out, void *data)
{
    const gait_phase_data *pd = data;
    double q[GAIT_MAX_PARAMS];
    phase_params(pd, t, p, q);
    int rc = base_transition(pd)->guard(t + pd->tbase0, x, q, out, base_transition_data(pd));
    if (rc == 0 && pd->gm->g->phases[pd->i].is_virtual)
        out[0] += pd->gm->g->phases[pd->i].offset;
    return rc;
}

/* The base transition's optional derivative callbacks, by offset. */
#define GAIT_DELEGATE(fname, member)                                                   \
    static int fname(double t, const double *x, const double *p, double *out, void *data) \
    {                                                                                  \
        const gait_phase_data *pd = data;                                              \
        double q[GAIT_MAX_PARAMS];                                                     \
        phase_params(pd, t, p, q);                                                     \
        return base_transition(pd)->member(t + pd->tbase0, x, q, out,                 \
                                           base_transition_data(pd));                 \
    }
GAIT_DELEGATE(gait_guard_dx, guard_dx)
GAIT_DELEGATE(gait_guard_dt, guard_dt)
GAIT_DELEGATE(gait_reset, reset)
GAIT_DELEGATE(gait_reset_dx, reset_dx)
GAIT_DELEGATE(gait_reset_dt, reset_dt)

static int gait_guess(double *p, double *x0, void *data)
{
    const gait_model *gm = data;
    (void)p;
    const hes_gait_phase *ph = &gm->g->phases[0];
    memcpy(x0, ph->x, sizeof(double) * (size_t)gm->base->modes[ph->mode].dim);
    return 0;
}

/* The base's symmetries and their action at the gait's start, a state of
 * phase 0's mode of the base, with that mode's data (the gait's orbit
 * mode is phase 0, whose data is the phase's). */
static void *phase0_data(const void *data)
{
    const gait_phase_data *pd = data;
    return hes__mode_data(pd->gm->base, pd->gm->g->phases[0].mode);
}

static int gait_symmetries(const double *x, const double *p, double *out, void *data)
{
    const gait_phase_data *pd = data;
    return pd->gm->base->orbit.symmetries(x, p, out, phase0_data(data));
}

static int gait_symmetry_act(const double *x, const double *theta, const double *p,
                             double *out, void *data)
{
    const gait_phase_data *pd = data;
    return pd->gm->base->orbit.symmetry_act(x, theta, p, out, phase0_data(data));
}

static int gait_validate(const double *p, char *msg, size_t len, void *data)
{
    const gait_model *gm = data;
    return gm->base->validate ? gm->base->validate(p, msg, len, gm->base->data) : 0;
}

static const char *gait_describe_error(int code, void *data)
{
    const gait_model *gm = data;
    return gm->base->describe_error ? gm->base->describe_error(code, gm->base->data) : NULL;
}

/* The release of a gait's derived model (hes_model_destroy). */
static void gait_model_release(void *m)
{
    gait_model *gm = m;
    if (!gm)
        return;
    free(gm->modes);
    free(gm->transitions);
    free(gm->params);
    free(gm->pd);
    free(gm->sequence);
    free(gm->names);
    free(gm);
}

/* The gait's inputs: each a parameter of the base model, none listed twice. */
static hes_status check_inputs(const hes_gait *g, const hes_model *base, char *msg, size_t len)
{
    for (int r = 0; r < g->n_inputs; r++) {
        int dup = 0;
        for (int q = 0; q < r; q++)
            dup |= g->inputs[q] == g->inputs[r];
        if (g->inputs[r] < 0 || g->inputs[r] >= base->n_params || dup) {
            snprintf(msg, len, "gait input %d is parameter %d: not a parameter of model '%s' "
                     "(0 to %d) or listed twice", r + 1, g->inputs[r], base->name,
                     base->n_params - 1);
            return HES_EINVAL;
        }
    }
    return HES_OK;
}

/* Every phase: at least 2 nodes with their states, a finite duration >= 0,
 * and 1 or one per node rows of inputs. */
static hes_status check_phase_data(const hes_gait *g, char *msg, size_t len)
{
    for (int i = 0; i < g->n_phases; i++) {
        const hes_gait_phase *ph = &g->phases[i];
        if (ph->nodes < 2 || !ph->x || !(isfinite(ph->duration) && ph->duration >= 0) ||
            (g->n_inputs > 0 && (!ph->u || (ph->u_rows != 1 && ph->u_rows != ph->nodes)))) {
            snprintf(msg, len, "gait phase %d: needs nodes >= 2 (has %d) with their states, a "
                     "finite duration >= 0 (has %g) and 1 or nodes rows of inputs (has %d)",
                     i + 1, ph->nodes, ph->duration, g->n_inputs > 0 ? ph->u_rows : 0);
            return HES_EINVAL;
        }
    }
    return HES_OK;
}

/* The phases follow the orbit: each ends with an event that leaves its
 * mode, the physical ones (not virtual) are the orbit spec's event sequence
 * in order, and the first phase is in the orbit's start mode. */
static hes_status check_sequence(const hes_gait *g, const hes_model *base, char *msg,
                                 size_t len)
{
    const hes_orbit_spec *o = &base->orbit;
    int seq = 0;
    for (int i = 0; i < g->n_phases; i++) {
        const hes_gait_phase *ph = &g->phases[i];
        if (ph->transition < 0 || ph->transition >= base->n_transitions ||
            base->transitions[ph->transition].from != ph->mode) {
            snprintf(msg, len, "gait phase %d: its end event does not leave its mode", i + 1);
            return HES_EINVAL;
        }
        if (!ph->is_virtual) {
            if (seq >= o->n_sequence || o->sequence[seq] != ph->transition) {
                snprintf(msg, len, "gait phase %d ends with '%s', but the orbit's event sequence "
                         "of model '%s' does not have it there", i + 1,
                         base->transitions[ph->transition].name, base->name);
                return HES_EINVAL;
            }
            seq++;
        }
    }
    if (seq != o->n_sequence || g->phases[0].mode != o->mode) {
        snprintf(msg, len, "the gait's phases do not follow the orbit of model '%s' (%d of %d "
                 "events, first mode %d)", base->name, seq, o->n_sequence, g->phases[0].mode);
        return HES_EINVAL;
    }
    return HES_OK;
}

/* The derived model's storage: P modes, transitions and phase data, the
 * base's parameters (valued as the gait's), the sequence 0 .. P-1 and room
 * for the names; NULL when out of memory. */
static gait_model *gait_model_alloc(const hes_gait *g, const hes_model *base)
{
    int P = g->n_phases;
    gait_model *gm = calloc(1, sizeof *gm);
    size_t names_len = 0;
    for (int i = 0; i < P; i++)
        names_len += strlen(base->modes[g->phases[i].mode].name) +
                     strlen(base->transitions[g->phases[i].transition].name) + 48;
    if (gm) {
        gm->modes = calloc((size_t)P, sizeof *gm->modes);
        gm->transitions = calloc((size_t)P, sizeof *gm->transitions);
        gm->params = malloc(sizeof *gm->params * (size_t)base->n_params);
        gm->pd = calloc((size_t)P, sizeof *gm->pd);
        gm->sequence = malloc(sizeof(int) * (size_t)P);
        gm->names = malloc(names_len);
    }
    if (!gm || !gm->modes || !gm->transitions || !gm->params || !gm->pd || !gm->sequence ||
        !gm->names) {
        gait_model_release(gm);
        return NULL;
    }
    gm->g = g;
    gm->base = base;
    memcpy(gm->params, base->params, sizeof *gm->params * (size_t)base->n_params);
    for (int j = 0; j < base->n_params; j++)
        gm->params[j].value = g->params[j];
    return gm;
}

/* Mode i and transition i of the derived model: phase i (base mode's
 * callbacks through the gait's inputs, named MODE or MODE.k when the base
 * mode recurs) and its end event (the base guard, the base reset unless
 * virtual, named virtual.k for the k-th virtual event; always restarting
 * the clock).  The names are written at *nm, which is moved past them;
 * tbase is the base model time at the phase start, the nominal durations
 * since the last physical clock reset. */
static void derive_phase(gait_model *gm, int i, double tbase, int *n_virtual, char **nm)
{
    const hes_gait *g = gm->g;
    const hes_model *base = gm->base;
    int P = g->n_phases;
    const hes_gait_phase *ph = &g->phases[i];
    const hes_mode *bm = &base->modes[ph->mode];
    const hes_transition *bt = &base->transitions[ph->transition];
    int same = 0, index = 0;
    for (int k = 0; k < P; k++) {
        same += g->phases[k].mode == ph->mode;
        index += k < i && g->phases[k].mode == ph->mode;
    }
    gm->pd[i] = (gait_phase_data){ gm, i, tbase };
    hes_mode *md = &gm->modes[i];
    *md = *bm;
    md->name = *nm;
    *nm += (same > 1 ? sprintf(*nm, "%s.%d", bm->name, index + 1)
                     : sprintf(*nm, "%s", bm->name)) + 1;
    md->field = gait_field;
    md->field_dx = bm->field_dx ? gait_field_dx : NULL;
    md->data = &gm->pd[i];
    hes_transition *tr = &gm->transitions[i];
    memset(tr, 0, sizeof *tr);
    tr->name = *nm;
    *nm += (ph->is_virtual ? sprintf(*nm, "virtual.%d", ++*n_virtual)
                           : sprintf(*nm, "%s", bt->name)) + 1;
    tr->from = i;
    tr->to = (i + 1) % P;
    tr->direction = ph->is_virtual ? ph->direction : bt->direction;
    tr->guard = gait_guard;
    tr->guard_dx = bt->guard_dx ? gait_guard_dx : NULL;
    tr->guard_dt = bt->guard_dt ? gait_guard_dt : NULL;
    if (!ph->is_virtual) {
        tr->reset = bt->reset ? gait_reset : NULL;
        tr->reset_dx = bt->reset_dx ? gait_reset_dx : NULL;
        tr->reset_dt = bt->reset_dt ? gait_reset_dt : NULL;
    }
    tr->clock_reset = 1;
    tr->data = &gm->pd[i];
    gm->sequence[i] = i;
}

/* The derived model itself: the base's name, parameters, integrator and
 * checks over the phases' modes and transitions, its orbit the base's
 * started in phase 0 with the sequence of every phase and the section at
 * the last one's event, the guess the gait's first state. */
static void fill_model(gait_model *gm)
{
    const hes_model *base = gm->base;
    int P = gm->g->n_phases;
    hes_model *m = &gm->model;
    m->abi = HES_MODEL_ABI;
    m->release = gait_model_release;
    m->name = base->name;
    m->description = base->description;
    m->n_modes = P;
    m->modes = gm->modes;
    m->n_transitions = P;
    m->transitions = gm->transitions;
    m->n_params = base->n_params;
    m->params = gm->params;
    m->orbit = base->orbit;
    m->orbit.mode = 0;
    m->orbit.section = P - 1;
    m->orbit.n_sequence = P;
    m->orbit.sequence = gm->sequence;
    m->orbit.any_order = NULL;
    m->orbit.guess = gait_guess;
    m->orbit.symmetries = base->orbit.symmetries ? gait_symmetries : NULL;
    m->orbit.symmetry_act = base->orbit.symmetry_act ? gait_symmetry_act : NULL;
    m->integrator = base->integrator;
    m->max_phase_time = base->max_phase_time;
    m->validate = gait_validate;
    m->data = gm;
    m->describe_error = gait_describe_error;
    m->trajopt = NULL;
}

hes_status hes_gait_model(const hes_gait *g, const hes_model *base, hes_model **out,
                          hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (out)
        *out = NULL;
    if (!g || !base || !out) {
        if (msg && len)
            snprintf(msg, len, "gait model: needs a gait, its base model and somewhere to put it");
        return HES_EINVAL;
    }
    const hes_orbit_spec *o = &base->orbit;
    int P = g->n_phases;
    *out = NULL;
    if (g->n_params != base->n_params || base->n_params > GAIT_MAX_PARAMS) {
        snprintf(msg, len, "the gait has %d parameters, model '%s' %d (at most %d)",
                 g->n_params, base->name, base->n_params, GAIT_MAX_PARAMS);
        return HES_EINVAL;
    }
    if (!o->guess || o->period_param || P < 1) {
        snprintf(msg, len, "gaits need an autonomous orbit spec (model '%s')", base->name);
        return HES_EINVAL;
    }
    /* a gait's phases carry their own data, which a chart's callbacks would
     * receive instead of the model's; and gaits come from collocation,
     * which does not support charts */
    for (int i = 0; i < base->n_modes; i++)
        if (hes__mode_has_chart(base, i)) {
            snprintf(msg, len, "gaits do not support modes with a tangent-space chart (mode "
                     "'%s' of model '%s': a state on a manifold)", base->modes[i].name,
                     base->name);
            return HES_EINVAL;
        }
    /* what the derived callbacks index with (a gait read from a file is
     * checked by the reader; one built by hand is checked here) */
    if (!g->params || !g->phases || g->n_inputs < 0 || g->n_inputs > base->n_params ||
        (g->n_inputs > 0 && !g->inputs)) {
        snprintf(msg, len, "the gait lacks its parameters, phases or inputs (%d inputs)",
                 g->n_inputs);
        return HES_EINVAL;
    }
    if (check_inputs(g, base, msg, len) != HES_OK || check_phase_data(g, msg, len) != HES_OK ||
        check_sequence(g, base, msg, len) != HES_OK)
        return HES_EINVAL;
    gait_model *gm = gait_model_alloc(g, base);
    if (!gm) {
        snprintf(msg, len, "out of memory");
        return HES_ENOMEM;
    }
    char *nm = gm->names;
    double tbase = 0;
    int n_virtual = 0;
    for (int i = 0; i < P; i++) {
        const hes_gait_phase *ph = &g->phases[i];
        derive_phase(gm, i, tbase, &n_virtual, &nm);
        tbase = !ph->is_virtual && base->transitions[ph->transition].clock_reset
                ? 0.0 : tbase + ph->duration;
    }
    fill_model(gm);
    hes_model *m = &gm->model;
    if (hes_model_validate(m, err) != HES_OK) {
        hes_model_destroy(m);
        return HES_EINVAL;
    }
    *out = m;
    return HES_OK;
}

void hes_gait_free(hes_gait *g)
{
    if (!g)
        return;
    for (int i = 0; g->phases && i < g->n_phases; i++) {
        free(g->phases[i].x);
        free(g->phases[i].u);
    }
    free(g->phases);
    free(g->problem);
    free(g->params);
    free(g->inputs);
    free(g->objective);
    memset(g, 0, sizeof *g);
}
