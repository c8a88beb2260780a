/*
 * ess.h - the event-selected integrator's internals, shared by the files
 * of lib/ess/ and by hybrid/ess_orbit.c: the run's state (struct hes_ess)
 * and the helpers each file gives the others.
 */
#ifndef HES_ESS_H
#define HES_ESS_H

#include "base/base.h"
#include "ode/cvodes.h"

struct hes_ess {
    const hes_ess_model *model;
    int n, m;
    double *p;                /* n_params values */
    SUNContext ctx;
    hes__ode ode;
    /* what the CVODES callbacks see during an integration step */
    int *s;                   /* m: the sign pattern, fixed within a step */
    int *watch;               /* 2m root slots: 0 off; slot i: h_i + eps rising
                                 (band entry), slot m + i: h_i = 0 (sign change) */
    double eps;
    hes_status cb_status;     /* first failure inside a callback */
    long n_rhs;
    /* workspaces, sized at creation */
    double *h, *hp, *Dh, *Dh2, *G, *Fp, *DG, *fdwork, *xs, *xp, *row, *tmpn, *Jtmp, *A;
    double *x, *J, *w;        /* the run's state, dx/dx0 and dt/dx0 */
    int *pool, *hit, *roots;   /* m, m, 2m */
    int *late;                /* m: candidates in their band watched at h_i = 0 by
                                 the integration step: those whose projection the
                                 second-order test refused, and (options.near_miss)
                                 those that are not live */
    int near_miss;            /* the run's options.near_miss */
    long n_refused;           /* projections refused by the second-order test */
    int dh2_valid;            /* Dh2 holds Dh(xp) (ess_project.c) */
    double *xdh;              /* n: the state at which Dh was evaluated, */
    int dh_valid;             /* if dh_valid (hes__ess_Dh_at) */
    double zero_tol;          /* |h_i| at or below which a guard is at its zero: the
                                 largest |h_j| a projection of this chain landed at
                                 (0 after an integration step; rounding is added per
                                 guard, hes__ess_at_zero) */
    double deadline;          /* the run's end of max_wall_time (CLOCK_MONOTONIC, s) */
    /* DOPRI5 (ess_dopri.c), allocated on first use: stages, step end,
       trial state, continuous extension (14 nn) and the state (nn), of the
       integrated dimension nn (n, or n (n + 1) with the sensitivities),
       dp_cap doubles in all; event values at the step's start and end, the
       bracket's ends (4m) and its trial point (m); the proposed step size
       (0: none yet in this run); the slots crossed over a step (2m) */
    double *dp_k, *dp_y, *dp_h0, *dp_hm, *dp_ev, dp_step;
    int *dp_cand;
    size_t dp_cap;
    /* The guards evaluated (ess_active.c): act[0 .. n_act-1] (all of them
       unless sparse: an active set kept), is_act (m flags); near (m): h_near's answer; lo, hi
       (n): a box */
    int *act, n_act, *is_act, *near, sparse;
    double *tmpm, *tmpmn, *lo, *hi;
    /* Energy bookkeeping (ess_energy.c): on, E(x0), W, the error estimates'
       sum, the work |P| dt summed, the energy scale, the steps, a state */
    int en_on;
    double en_E0, en_W, en_slack, en_work, en_scale, *en_y, *en_f, *en_d;
    long en_steps;
    int n_pool;               /* candidates in the pool */
    int sums_on;              /* the model's sums in use: sums (n_sums) follow s */
    double *sums;
    char msg[512];
    char cvode_msg[256];
};

/* The first failure is kept with its message; returns status. */
hes_status hes__ess_fail(hes_ess *e, hes_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Model callbacks with checks (model failure, non-finite output). */
hes_status hes__ess_f(hes_ess *e, const double *x, const int *s, double *out);
hes_status hes__ess_f_dx(hes_ess *e, const double *x, const int *s, double *out);
/* h and Dh (m x n) of every guard, and of the guards idx[0..k-1] (out: k,
 * k x n) */
hes_status hes__ess_h_all(hes_ess *e, const double *x, double *out);
hes_status hes__ess_Dh_all(hes_ess *e, const double *x, double *out);
hes_status hes__ess_h_some(hes_ess *e, const double *x, int k, const int *idx, double *out);
hes_status hes__ess_Dh_some(hes_ess *e, const double *x, int k, const int *idx, double *out);
/* s_i = v, the sums updated (the model's sums_flip) if it changes */
hes_status hes__ess_set_sign(hes_ess *e, int i, int v);
/* the sums from the whole pattern e->s */
hes_status hes__ess_sums_init(hes_ess *e);

/* The active guards (ess_active.c).  h and Dh of the active guards into
 * out (m, m x n: the rows of the others untouched). */
hes_status hes__ess_h(hes_ess *e, const double *x, double *out);
hes_status hes__ess_Dh(hes_ess *e, const double *x, double *out);
/* Whether this run keeps an active set (the model's h_near and DOPRI5) */
int hes__ess_sparse(const hes_ess *e, const hes_ess_options *o);
/* Every guard active, no active set kept */
void hes__ess_all_active(hes_ess *e);
/* An active set from e->h holding every guard at the current state: the
 * guards within eps of a level (and the watched and hit ones) */
hes_status hes__ess_start_active(hes_ess *e);
/* Drops from the active set the guards (e->h current) more than eps beyond
 * their levels, neither watched nor hit */
void hes__ess_shrink(hes_ess *e);
/* The box lo <= x <= hi of the path ahead, from x: the guards that may
 * meet a level in it (the model's h_near) made active, their h (and Dh
 * rows, if Dout) at x written to hout (Dout) and their watch flags set;
 * *n_new of them */
hes_status hes__ess_activate(hes_ess *e, const double *lo, const double *hi, const double *x,
                             double *hout, double *Dout, int *n_new);
/* the root slots of guard i watched (ess.c's rule; empty: pool empty) */
void hes__ess_set_watch(hes_ess *e, int i, int empty);
/* dst[i] = src[i] for the active guards */
void hes__ess_copy_active(const hes_ess *e, double *dst, const double *src);
/* e->Dh = Dh(x), evaluated unless it (or Dh2 at xp) already holds it. */
hes_status hes__ess_Dh_at(hes_ess *e, const double *x);
/* Guard i is at its zero at x (e->h and e->Dh at x, xinf = max |x_k|):
 * |h_i| <= max(1e3 DBL_EPSILON (1 + |Dh_i|_1 xinf), e->zero_tol). */
int hes__ess_at_zero(const hes_ess *e, int i, double xinf);
/* The rounding of guard i's value at a state of largest component xinf
 * with event Jacobian D (m x n): 1e3 DBL_EPSILON (1 + |D_i|_1 xinf). */
double hes__ess_rounding(const hes_ess *e, const double *D, int i, double xinf);
/* The name of event i for messages ("touchdown" or "h[3]"), in buf. */
const char *hes__ess_event_name(const hes_ess *e, int i, char *buf, size_t len);

/* Energy bookkeeping (ess_energy.c): whether this run keeps it (the
 * model's energy and DOPRI5); its start at x0; a step of length dt from y0
 * to y1 (ym its middle on the continuous extension, or NULL for a
 * projection along a constant field) with the pattern of the step; the
 * check at x (HES_ESOLVER with the message when off) */
int hes__ess_energy_on(const hes_ess *e, const hes_ess_options *o);
hes_status hes__ess_energy_start(hes_ess *e, const double *x);
hes_status hes__ess_energy_step(hes_ess *e, const double *y0, const double *ym,
                                const double *y1, double dt);
hes_status hes__ess_energy_check(hes_ess *e, const double *x, double t, double rtol);

/* One integration step with DOPRI5 (ess_dopri.c), the contract of ess.c's
 * CVODES step: from (*t, e->x) with e->s and e->watch, to the first root
 * (e->roots, *ended the first slot) or t_end (*ended = -1), filling the
 * output times passed. */
hes_status hes__ess_dopri(hes_ess *e, const hes_ess_options *o, double *t, double t_end,
                          hes_ess_result *res, int *k_out, int *ended);

/* The projection step (ess_project.c) from (t, x) with sign pattern s
 * (e->h must hold h(x))
 * (updated: s_j = +1) across the first candidate j of the band set
 * inband (m flags), or up to t_stop if it comes first (*j = -1).  Candidates
 * whose projection fails the second-order test, and with e->near_miss
 * those that are not live, are marked in e->late and left out; if none
 * is left, nothing moves and *j = -2.  With
 * J != NULL also J <- DP J, w <- w + Ddt J (J n x n, w n).  j and the
 * time moved are returned; *j = m + i when the step stopped first at the
 * zero of a guard i not in the pool (a sign change, s_i follows). */
hes_status hes__ess_project(hes_ess *e, double *t, double *x, int *s, const int *inband,
                            double live_tol, double t_stop, double *J, double *w, int *j,
                            double *dt);

#endif
