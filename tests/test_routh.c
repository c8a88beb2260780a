/*
 * test_routh.c - the paper's impulse-stepping model and post-impact sets
 * (lib/contact/impact_routh.c, impact_set.c; built-in problems in
 * problems/) against independent computations:
 *   - one contact: Routh's graphical method in closed form (sliding
 *     throughout, sliding then sticking: exact for any caps; sliding that
 *     reverses: first-order convergence in the step size);
 *   - every sample of the four built-in sets: complementarity to 1e-9 and
 *     no kinetic energy gained (paper Theorem 7);
 *   - the rocking block (Sec. 5.4.1): Anitescu-Potra at rest, the two
 *     sequential outcomes (pivot on either corner) are limits of the
 *     model's outcomes (caps of one corner -> 0, error O(eps)) and sampled
 *     ones approach them;
 *   - the compass gait (Sec. 5.4.2): Anitescu-Potra has the leading foot
 *     stick; the set has the trailing foot slide, stick and lift off;
 *   - the box and wall (Sec. 5.4.3): the set holds the rest outcome and the
 *     slide-and-lift outcome;
 *   - the disk stack (Sec. 5.4.5): Anitescu-Potra at rest; in the set the
 *     tower falls apart, the top disk always keeps one of its contacts;
 *   - contact Jacobians from the constraint functions against differences;
 *   - threads give the same set; bad input refused.
 * Skipped with a message without Siconos numerics or GSL.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"
#include "testutil.h"

static int have_solvers(void)
{
    hes_error msg;
    if (!test_have_lcp("test_routh"))
        return 0;
    const double Mc[1] = { 1 }, Jn[1] = { 1 }, Jt[1] = { 0 }, mu[1] = { 0 }, v[1] = { -1 };
    hes_contact_set c = { 1, 1, Mc, Jn, Jt, mu };
    hes_impact_set_options o = { 1, { 1, 1, 0, 0 }, 0, 1, 0, 0 };
    hes_impact_set S;
    if (hes_impact_set_sample(&c, v, &o, &S, &msg) == HES_ESOLVER) {
        printf("test_routh: %s: skipped\n", msg.message);
        return 0;
    }
    hes_impact_set_free(&S);
    return 1;
}

static unsigned long long rng = 20261123ULL;
static double uniform(double lo, double hi)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

/* x = M^-1 b (n <= 6) */
static void spd_solve(int n, const double *M, const double *b, double *x)
{
    double A[36];
    memcpy(A, M, sizeof(double) * n * n);
    memcpy(x, b, sizeof(double) * n);
    ck_assert(test_solve(n, A, x));
}

enum { SLIDE, STICK, REVERSE, JAM };

/* Routh's graphical method for one contact with inverse inertia K = [a b;
 * b c] in (normal, tangent) and pre-impact contact velocity (un < 0, ut):
 * the total impulse (Pn, Pt) at the end of compression (u_n = 0).  Phase 1
 * slides with dP_t = -mu s dP_n (s = sign ut); if u_t reaches 0 first, the
 * contact sticks (|b/c| <= mu: dP_t = -(b/c) dP_n) or slides back (s2 =
 * sign b). */
static int routh_closed_form(double a, double b, double c, double mu, double un, double ut,
                             double *Pn, double *Pt)
{
    double s = ut > 0 ? 1 : -1, dn = a - mu * s * b, dt = b - mu * s * c;
    if (!(dn > 0))
        return JAM;
    double pend = -un / dn, pstick = dt * s < 0 ? -ut / dt : INFINITY;
    if (pstick >= pend) {
        *Pn = pend;
        *Pt = -mu * s * pend;
        return SLIDE;
    }
    double un1 = un + dn * pstick;
    if (fabs(b / c) <= mu) {
        double dn2 = a - b * b / c;
        *Pn = pstick - un1 / dn2;
        *Pt = -mu * s * pstick - (b / c) * (*Pn - pstick);
        return STICK;
    }
    double s2 = b > 0 ? 1 : -1, dn2 = a - mu * s2 * b;
    if (!(dn2 > 0))
        return JAM;
    *Pn = pstick - un1 / dn2;
    *Pt = -mu * s * pstick - mu * s2 * (*Pn - pstick);
    return REVERSE;
}

/* |v+ (stepping, h, caps) - v+ (closed form)|_inf */
static double stepping_error(const hes_contact_set *cs, const double *v, const double *Wn,
                             const double *Wt, double Pn, double Pt, double h, int steps,
                             const double *caps)
{
    double vp[6];
    hes_routh_options o = { h, steps, 0, 0 };
    hes_impact_info info;
    hes_error msg;
    ck_assert_msg(hes_impact_routh(cs, v, &o, caps, vp, NULL, NULL, NULL, &info, &msg) == HES_OK, "%s", msg.message);
    ck_assert(info.residual <= 1e-9);
    ck_assert(info.energy_after <= info.energy_before * (1 + 1e-12));
    double e = 0;
    for (int j = 0; j < cs->n; j++)
        e = fmax(e, fabs(vp[j] - (v[j] + Wn[j] * Pn + Wt[j] * Pt)));
    return e;
}

START_TEST(test_one_contact_is_rouths_method)
{
    if (!have_solvers())
        return;
    int seen[3] = { 0, 0, 0 };
    double worst_exact = 0, worst_ratio = 0;
    for (int rep = 0; rep < 4000 && (seen[0] < 20 || seen[1] < 20 || seen[2] < 20); rep++) {
        int n = 3;
        double M[9], B[9], Jn[3], Jt[3], v[3], Wn[3], Wt[3], mu = uniform(0.1, 1.5);
        for (int i = 0; i < 9; i++)
            B[i] = uniform(-1, 1);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double s = i == j;
                for (int k = 0; k < 3; k++)
                    s += B[i + 3 * k] * B[j + 3 * k];
                M[i + 3 * j] = s;
            }
        for (int j = 0; j < n; j++) {
            Jn[j] = uniform(-1, 1);
            Jt[j] = uniform(-1, 1);
            v[j] = uniform(-1, 1);
        }
        spd_solve(n, M, Jn, Wn);
        spd_solve(n, M, Jt, Wt);
        double a = 0, b = 0, c = 0, un = 0, ut = 0;
        for (int j = 0; j < n; j++) {
            a += Jn[j] * Wn[j];
            b += Jn[j] * Wt[j];
            c += Jt[j] * Wt[j];
            un += Jn[j] * v[j];
            ut += Jt[j] * v[j];
        }
        if (un > -0.1)
            continue;
        double Pn, Pt;
        int kind = routh_closed_form(a, b, c, mu, un, ut, &Pn, &Pt);
        if (kind == JAM || seen[kind] >= 20)
            continue;
        seen[kind]++;
        hes_contact_set cs = { n, 1, M, Jn, Jt, &mu };
        double caps[64];
        for (int s = 0; s < 64; s++)
            caps[s] = uniform(0.05, 1);
        if (kind != REVERSE) {
            /* any caps: one step or many, uniform or not */
            worst_exact = fmax(worst_exact, stepping_error(&cs, v, Wn, Wt, Pn, Pt, 2 * Pn, 64,
                                                           caps));
            worst_exact = fmax(worst_exact, stepping_error(&cs, v, Wn, Wt, Pn, Pt, Pn / 5, 64,
                                                           caps));
        } else {
            /* the step in which the slip reverses takes its whole
               tangential impulse in one direction: at most 2 mu h too much
               tangential impulse, which the normal impulse compensates
               by b / a of it, so |dv| <= 2 mu h (|W t| + |W n| |b| / a) */
            static double ones[4096];
            for (int s = 0; s < 4096; s++)
                ones[s] = 1;
            double wt = 0, wn = 0;
            for (int j = 0; j < n; j++) {
                wt = fmax(wt, fabs(Wt[j]));
                wn = fmax(wn, fabs(Wn[j]));
            }
            for (double h = Pn / 4.3; h > Pn / 1000; h /= 4) {
                double e = stepping_error(&cs, v, Wn, Wt, Pn, Pt, h, 4096, ones);
                worst_ratio = fmax(worst_ratio, e / (2 * mu * h * (wt + wn * fabs(b) / a)));
            }
        }
    }
    ck_assert_msg(seen[0] >= 20 && seen[1] >= 20 && seen[2] >= 20, "cases %d %d %d", seen[0],
                  seen[1], seen[2]);
    ck_assert_msg(worst_exact < 1e-10, "slide / stick: |v+ - Routh| = %g", worst_exact);
    printf("test_routh: reversing slides: error / bound <= %.3f\n", worst_ratio);
    ck_assert_msg(worst_ratio <= 1, "reversing slide: error %g times the bound", worst_ratio);
}
END_TEST

/* a problem's set with its setup (sel: the selection seed) */
static void sample(const char *name, int samples, unsigned long sel, int threads,
                   hes_impact_setup *s, hes_impact_set *S)
{
    const hes_impact_problem *pb = hes_impact_problem_find(name);
    ck_assert_msg(pb, "%s", name);
    hes_error msg;
    ck_assert_msg(hes_impact_problem_setup(pb, s, &msg) == HES_OK, "%s", msg.message);
    hes_impact_set_options o = { samples, { pb->h, pb->steps, 0, sel }, 0, threads, 0, 0 };
    ck_assert_msg(hes_impact_set_sample(&s->contacts, s->v, &o, S, &msg) == HES_OK,
                  "%s", msg.message);
}

START_TEST(test_every_sample_complements_and_dissipates)
{
    if (!have_solvers())
        return;
    for (int p = 0; p < hes_impact_problem_count(); p++) {
        const hes_impact_problem *pb = hes_impact_problem_get(p);
        hes_impact_setup s;
        hes_impact_set S;
        sample(pb->name, 512, p == 1 ? 7 : 0, 1, &s, &S);
        ck_assert_msg(S.max_residual <= 1e-9, "%s: residual %g", pb->name, S.max_residual);
        ck_assert_msg(S.max_energy_gain <= 1e-12, "%s: energy gain %g", pb->name,
                      S.max_energy_gain);
        for (int i = 0; i < S.samples; i++)
            ck_assert(S.dissipated[i] >= -1e-12);
        ck_assert_msg(S.n_finished >= S.samples * 95 / 100, "%s: %d of %d finished", pb->name,
                      S.n_finished, S.samples);
        /* the stored contact velocities are J v of the stored velocities */
        double u[32];
        hes_contact_velocities(&s.contacts, S.v + (size_t)(S.samples - 1) * s.d, u);
        for (int d = 0; d < 2 * s.k; d++)
            ck_assert_double_eq_tol(u[d], S.u[(size_t)(S.samples - 1) * 2 * s.k + d], 1e-15);
        hes_impact_set_free(&S);
        hes_impact_setup_free(&s);
    }
}
END_TEST

/* contact velocities of the outcome of a law */
static void ap_outcome(hes_impact_setup *s, double *u, hes_contact_mode *modes)
{
    double *vp = malloc(sizeof(double) * (size_t)s->d);
    hes_error msg;
    ck_assert_msg(hes_impact_anitescu_potra(&s->contacts, s->v, vp, NULL, NULL, NULL, &msg) == HES_OK, "%s", msg.message);
    hes_contact_velocities(&s->contacts, vp, u);
    hes_contact_modes(&s->contacts, vp, 0, modes);
    free(vp);
}

static void sequential_outcome(hes_impact_setup *s, int first, double *u,
                               hes_contact_mode *modes)
{
    double *vp = malloc(sizeof(double) * (size_t)s->d);
    int order[2] = { first, 1 - first };
    hes_error msg;
    ck_assert_msg(hes_impact_sequential(&s->contacts, order, 2, 50, s->v, vp, NULL, NULL, NULL,
                                        &msg) == HES_OK, "%s", msg.message);
    hes_contact_velocities(&s->contacts, vp, u);
    hes_contact_modes(&s->contacts, vp, 0, modes);
    free(vp);
}

/* Anitescu-Potra brings the body to rest (all contact velocities 0), and
 * that outcome is a sample of the set (inside its normal hull too if
 * need_inside) */
static void expect_rest_in_set(hes_impact_setup *s, const hes_impact_set *S, int need_inside)
{
    double u[4], rel;
    hes_contact_mode m[2];
    int nearest, inside;
    ap_outcome(s, u, m);
    for (int d = 0; d < 4; d++)
        ck_assert_double_eq_tol(u[d], 0, 1e-12);
    ck_assert_int_eq(hes_impact_set_locate(S, u, &rel, &nearest, &inside), HES_OK);
    ck_assert_msg(rel < 1e-9 && (inside || !need_inside), "rest: %g from the set", rel);
}

START_TEST(test_rocking_block_set_holds_rest_and_both_pivots)
{
    if (!have_solvers())
        return;
    hes_impact_setup s;
    hes_impact_set S;
    sample("rocking-block", 16384, 0, 2, &s, &S);
    double u[4], rel;
    hes_contact_mode m[2];
    int nearest, inside;
    expect_rest_in_set(&s, &S, 1);
    for (int first = 0; first < 2; first++) {
        /* A first: the block pivots on B (A lifts at 0.21 v0) */
        sequential_outcome(&s, first, u, m);
        ck_assert_int_eq(m[first], HES_CONTACT_LIFT);
        ck_assert_int_eq(m[1 - first], HES_CONTACT_STICK);
        ck_assert_double_eq_tol(u[first], 0.21 * -s.v[1], 1e-12);
        /* the model's outcome with the other corner's caps eps: within
           O(eps) of the sequential one */
        double caps[20], vp[3], un[4], err[2];
        for (int e = 0; e < 2; e++) {
            /* the first corner's impulse (0.85 v0 = 0.376) in two steps
               of 0.3 while the other's caps are eps, then both free */
            for (int st = 0; st < 10; st++) {
                caps[2 * st + first] = 1;
                caps[2 * st + 1 - first] = st >= 2 ? 1 : e ? 1e-6 : 1e-3;
            }
            hes_routh_options o = { 0.3, 10, 0, 0 };
            hes_error msg;
            ck_assert_msg(hes_impact_routh(&s.contacts, s.v, &o, caps, vp, NULL, NULL, NULL,
                                           NULL, &msg) == HES_OK, "%s", msg.message);
            hes_contact_velocities(&s.contacts, vp, un);
            err[e] = 0;
            for (int d = 0; d < 4; d++)
                err[e] = fmax(err[e], fabs(un[d] - u[d]));
        }
        ck_assert_msg(err[1] < 2e-3 * err[0] + 1e-12 && err[1] < 1e-5 * -s.v[1],
                      "errors %g %g", err[0], err[1]);
        /* the samples come within 2 % of the set's extent (1.0 % at 65536,
           4.2 % at 4096: the corner's caps must all be small) */
        ck_assert_int_eq(hes_impact_set_locate(&S, u, &rel, &nearest, &inside), HES_OK);
        ck_assert_msg(rel < 0.02, "order %d: nearest sample %g of the extent", first, rel);
        ck_assert_int_eq(S.modes[(size_t)nearest * 2 + first], HES_CONTACT_LIFT);
    }
    hes_impact_set_free(&S);
    hes_impact_setup_free(&s);
}
END_TEST

/* how many finished samples have contact c in mode m */
static int count_mode(const hes_impact_set *S, int c, hes_contact_mode m)
{
    int n = 0;
    for (int i = 0; i < S->samples; i++)
        n += S->finished[i] && S->modes[(size_t)i * S->k + c] == m;
    return n;
}

START_TEST(test_compass_gait_set_has_the_trailing_foot_slide_stick_and_lift)
{
    if (!have_solvers())
        return;
    hes_impact_setup s;
    hes_impact_set S;
    double u[4];
    hes_contact_mode m[2];
    sample("compass-gait-impact", 2048, 1, 2, &s, &S);
    ap_outcome(&s, u, m);
    ck_assert_int_eq(m[0], HES_CONTACT_STICK);      /* the leading foot A */
    /* Remy's three Anitescu-Potra solutions (paper Sec. 2): the trailing
       foot B lifts, slides or sticks; all in the set */
    int lift = count_mode(&S, 1, HES_CONTACT_LIFT), slide = count_mode(&S, 1, HES_CONTACT_SLIDE),
        stick = count_mode(&S, 1, HES_CONTACT_STICK);
    ck_assert_msg(lift > 0 && slide > 0 && stick > 0, "B: lift %d slide %d stick %d", lift,
                  slide, stick);
    /* with Lemke's choice at every step B never slides on the ground: the
       step LCPs have several solutions (the paper's Assumption 6 fails
       here), so the selection matters */
    hes_impact_set L;
    hes_impact_setup_free(&s);
    sample("compass-gait-impact", 2048, 0, 2, &s, &L);
    ck_assert_int_eq(count_mode(&L, 1, HES_CONTACT_SLIDE), 0);
    hes_impact_set_free(&L);
    hes_impact_set_free(&S);
    hes_impact_setup_free(&s);
}
END_TEST

START_TEST(test_box_wall_set_holds_rest_and_slide_and_lift)
{
    if (!have_solvers())
        return;
    hes_impact_setup s;
    hes_impact_set S;
    sample("box-wall", 2048, 0, 1, &s, &S);
    double u[4], rel;
    hes_contact_mode m[2];
    int nearest, inside;
    expect_rest_in_set(&s, &S, 0);
    /* sequential: A slides on, B lifts off; in the set */
    sequential_outcome(&s, 1, u, m);
    ck_assert_int_eq(m[0], HES_CONTACT_SLIDE);
    ck_assert_int_eq(m[1], HES_CONTACT_LIFT);
    ck_assert_int_eq(hes_impact_set_locate(&S, u, &rel, &nearest, &inside), HES_OK);
    ck_assert_msg(rel < 0.01, "slide and lift: %g from the set", rel);
    ck_assert_int_eq(S.modes[(size_t)nearest * 2], HES_CONTACT_SLIDE);
    ck_assert_int_eq(S.modes[(size_t)nearest * 2 + 1], HES_CONTACT_LIFT);
    hes_impact_set_free(&S);
    hes_impact_setup_free(&s);
}
END_TEST

START_TEST(test_disk_stack_falls_apart_keeping_contact)
{
    if (!have_solvers())
        return;
    hes_impact_setup s;
    hes_impact_set S;
    sample("disk-stack", 1024, 0, 2, &s, &S);
    double u[10];
    hes_contact_mode m[5];
    ap_outcome(&s, u, m);
    for (int c = 0; c < 5; c++)
        ck_assert_int_eq(m[c], HES_CONTACT_STICK);
    int apart = 0, top_free = 0;
    for (int i = 0; i < S.samples; i++) {
        if (!S.finished[i])
            continue;
        const hes_contact_mode *mi = S.modes + (size_t)i * 5;
        int lifted = 0;
        for (int c = 0; c < 5; c++)
            lifted |= mi[c] == HES_CONTACT_LIFT;
        apart += lifted;
        /* one bottom disk stays on the floor (paper Sec. 5.4.5) */
        ck_assert(mi[0] != HES_CONTACT_LIFT || mi[1] != HES_CONTACT_LIFT);
        /* the paper: the top disk keeps one of its two contacts; here a
           few samples (11 of 4095) separate it from both, slowly, as the
           bottom disks roll apart faster than it falls */
        top_free += mi[2] == HES_CONTACT_LIFT && mi[3] == HES_CONTACT_LIFT;
    }
    ck_assert_msg(apart > S.n_finished / 2, "%d of %d fall apart", apart, S.n_finished);
    ck_assert_msg(top_free * 100 < S.n_finished, "%d of %d free the top disk", top_free,
                  S.n_finished);
    hes_impact_set_free(&S);
    hes_impact_setup_free(&s);
}
END_TEST

START_TEST(test_threads_give_the_same_set)
{
    if (!have_solvers())
        return;
    hes_impact_setup s;
    hes_impact_set A, B;
    sample("compass-gait-impact", 700, 3, 1, &s, &A);
    hes_impact_setup_free(&s);
    sample("compass-gait-impact", 700, 3, 2, &s, &B);
    ck_assert_int_eq(A.n_finished, B.n_finished);
    ck_assert(memcmp(A.v, B.v, sizeof(double) * 700 * 4) == 0);
    ck_assert(memcmp(A.lcps, B.lcps, sizeof(int) * 700) == 0);
    hes_impact_set_free(&A);
    hes_impact_set_free(&B);
    hes_impact_setup_free(&s);
}
END_TEST

/* a corner (0.3, -0.7) of a planar body against the floor, without Da */
static int corner(const double *q, const double *p, double *out, void *data)
{
    (void)p, (void)data;
    out[0] = q[1] + 0.3 * sin(q[2]) - 0.7 * cos(q[2]);
    return 0;
}
static int corner_Jt(const double *q, const double *p, double *out, void *data)
{
    (void)p, (void)data;
    out[0] = 1;
    out[1] = 0;
    out[2] = -0.3 * sin(q[2]) - 0.7 * cos(q[2]);
    return 0;
}
static int unit_mass(const double *q, const double *p, double *out, void *data)
{
    (void)q, (void)p, (void)data;
    for (int i = 0; i < 9; i++)
        out[i] = i % 4 == 0;
    return 0;
}

START_TEST(test_contact_rows_from_constraint_functions)
{
    const hes_mech_constraint cons[2] = { { "corner", corner, NULL, 0, 1, 0.5, corner_Jt, NULL, NULL, 0, 0, NULL },
                                          { "no tangent", corner, NULL, 0, 1, 0.5, NULL, NULL, NULL, 0, 0, NULL } };
    const hes_mech mech = { "body", 3, unit_mass, NULL, NULL, 0, 2, cons, NULL, NULL, NULL, NULL, 0, NULL };
    double q[3] = { 0.1, 0.2, 0.4 }, M[9], Jn[3], Jt[3], mu[1];
    int idx = 0;
    hes_error msg;
    ck_assert_msg(hes_mech_contacts(&mech, q, NULL, 1, &idx, M, Jn, Jt, mu, &msg) ==
                  HES_OK, "%s", msg.message);
    /* Da = (0, 1, 0.3 cos + 0.7 sin) by differences, to 1e-10 */
    ck_assert_double_eq_tol(Jn[0], 0, 1e-10);
    ck_assert_double_eq_tol(Jn[1], 1, 1e-10);
    ck_assert_double_eq_tol(Jn[2], 0.3 * cos(0.4) + 0.7 * sin(0.4), 1e-10);
    ck_assert_double_eq_tol(Jt[2], -0.3 * sin(0.4) - 0.7 * cos(0.4), 1e-15);
    ck_assert(mu[0] == 0.5);
    idx = 1;
    ck_assert_int_eq(hes_mech_contacts(&mech, q, NULL, 1, &idx, M, Jn, Jt, mu, &msg),
                     HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "no tangent row"), "%s", msg.message);
    idx = 2;
    ck_assert_int_eq(hes_mech_contacts(&mech, q, NULL, 1, &idx, M, Jn, Jt, mu, &msg),
                     HES_EINVAL);
}
END_TEST

START_TEST(test_bad_input_is_refused)
{
    if (!have_solvers())
        return;
    hes_impact_setup s;
    hes_error msg;
    ck_assert_int_eq(hes_impact_problem_setup(hes_impact_problem_find("box-wall"), &s, &msg), HES_OK);
    double caps[10] = { 0.5, 0.5, 0.5, 1.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5 }, vp[3];
    hes_routh_options o = { 1, 5, 0, 0 };
    ck_assert_int_eq(hes_impact_routh(&s.contacts, s.v, &o, caps, vp, NULL, NULL, NULL, NULL,
                                      &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "cap 1 of step 1 is 1.5"), "%s", msg.message);
    caps[3] = 0.5;
    o.h = 0;
    ck_assert_int_eq(hes_impact_routh(&s.contacts, s.v, &o, caps, vp, NULL, NULL, NULL, NULL,
                                      &msg), HES_EINVAL);
    /* too few steps of too small caps: flagged, with the last velocity */
    o.h = 1e-3;
    o.steps = 2;
    ck_assert_int_eq(hes_impact_routh(&s.contacts, s.v, &o, caps, vp, NULL, NULL, NULL, NULL,
                                      &msg), HES_EMAXITER);
    ck_assert_msg(strstr(msg.message, "after 2 steps"), "%s", msg.message);
    hes_impact_set_options so = { 0, { 1, 5, 0, 0 }, 0, 1, 0, 0 };
    hes_impact_set S;
    ck_assert_int_eq(hes_impact_set_sample(&s.contacts, s.v, &so, &S, &msg),
                     HES_EINVAL);
    /* the set's overall budget: none left, no sample starts, and it says so */
    so.samples = 64;
    so.routh.h = 1e-3;
    so.routh.steps = 20;
    so.max_wall_time = 1e-12;
    ck_assert_int_eq(hes_impact_set_sample(&s.contacts, s.v, &so, &S, &msg),
                     HES_ESOLVER);
    ck_assert_msg(strstr(msg.message, "used its budget of 1e-12 s"), "%s", msg.message);
    so.max_wall_time = -1;
    ck_assert_int_eq(hes_impact_set_sample(&s.contacts, s.v, &so, &S, &msg),
                     HES_EINVAL);
    so.max_wall_time = NAN;
    ck_assert_int_eq(hes_impact_set_sample(&s.contacts, s.v, &so, &S, &msg),
                     HES_EINVAL);
    ck_assert_ptr_null(hes_impact_problem_find("no-such-problem"));
    hes_impact_setup_free(&s);
}
END_TEST

/* The hull and the location of outcomes on a set made by hand: the corners
 * of a square, points inside it and on its edges (dropped: collinear), and
 * one unfinished sample outside (ignored). */
START_TEST(test_hull_and_location_on_a_square)
{
    enum { M = 10 };
    double u[M * 4] = { 0 };
    int finished[M], idx[M];
    const double pts[M][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 }, { 0.5, 0.5 },
                               { 0.5, 0 }, { 1, 0.25 }, { 0.2, 0.7 }, { 0, 0.5 }, { 3, 3 } };
    for (int i = 0; i < M; i++) {
        u[4 * i] = pts[i][0];
        u[4 * i + 1] = pts[i][1];
        finished[i] = i < M - 1;
    }
    hes_impact_set S;
    memset(&S, 0, sizeof S);
    S.n = 1;
    S.k = 2;
    S.samples = M;
    S.u = u;
    S.finished = finished;
    S.n_finished = M - 1;
    int h = hes_impact_set_hull(&S, 0, 1, idx);
    ck_assert_int_eq(h, 4);
    /* counter-clockwise from the lowest-leftmost: (0,0) (1,0) (1,1) (0,1) */
    ck_assert_int_eq(idx[0], 0);
    ck_assert_int_eq(idx[1], 1);
    ck_assert_int_eq(idx[2], 2);
    ck_assert_int_eq(idx[3], 3);
    double in[4] = { 0.3, 0.9, 0, 0 }, edge[4] = { 1, 0.6, 0, 0 }, outp[4] = { 1.2, 0.5, 0, 0 };
    double rel;
    int nearest, inside;
    ck_assert_int_eq(hes_impact_set_locate(&S, in, &rel, &nearest, &inside), HES_OK);
    ck_assert(inside);
    ck_assert_int_eq(nearest, 7);                       /* (0.2, 0.7) */
    ck_assert_double_eq_tol(rel, hypot(0.1, 0.2), 1e-15);  /* extent 1 */
    ck_assert_int_eq(hes_impact_set_locate(&S, edge, &rel, &nearest, &inside), HES_OK);
    ck_assert(inside);
    ck_assert_int_eq(hes_impact_set_locate(&S, outp, &rel, &nearest, &inside), HES_OK);
    ck_assert(!inside);
    int argmin[4], argmax[4], counts[6];
    hes_contact_mode modes[M * 2];
    for (int i = 0; i < M * 2; i++)
        modes[i] = i % 2 ? HES_CONTACT_LIFT : HES_CONTACT_STICK;
    S.modes = modes;
    hes_impact_set_extremes(&S, argmin, argmax, counts);
    ck_assert(u[4 * argmax[0]] == 1 && u[4 * argmin[1] + 1] == 0);
    ck_assert_int_eq(counts[0], M - 1);                /* contact 0 sticks in all */
    ck_assert_int_eq(counts[5], M - 1);                /* contact 1 lifts in all */
}
END_TEST

/* Jarvis's gift wrapping (an independent hull): from the lowest-leftmost
 * point, each next vertex the point with every other on its left (exact
 * cross products: the test's points are on a grid of 1/1024); returns the
 * vertex count, CCW, collinear points left out. */
static int gift_wrap(int m, const double (*p)[2], int *out)
{
    int start = 0, h = 0;
    for (int i = 1; i < m; i++)
        if (p[i][0] < p[start][0] || (p[i][0] == p[start][0] && p[i][1] < p[start][1]))
            start = i;
    int cur = start;
    do {
        out[h++] = cur;
        int next = cur == 0 ? 1 : 0;
        for (int i = 0; i < m; i++) {
            if (i == cur)
                continue;
            double c = (p[next][0] - p[cur][0]) * (p[i][1] - p[cur][1]) -
                       (p[next][1] - p[cur][1]) * (p[i][0] - p[cur][0]);
            double dn = hypot(p[next][0] - p[cur][0], p[next][1] - p[cur][1]),
                   di = hypot(p[i][0] - p[cur][0], p[i][1] - p[cur][1]);
            if (c < 0 || (c == 0 && di > dn))     /* i is right of cur->next, or farther */
                next = i;
        }
        cur = next;
    } while (cur != start && h <= m);
    return h;
}

START_TEST(test_hull_is_gift_wrapping_and_holds_every_sample)
{
    /* random clouds on a grid (exact arithmetic): the same vertices as
     * gift wrapping, each sample located inside its own hull */
    enum { M = 60 };
    double u[M * 4], pts[M][2];
    int finished[M], idx[M], ref[M + 1];
    for (int rep = 0; rep < 200; rep++) {
        int m = 3 + rep % (M - 3);
        for (int i = 0; i < m; i++) {
            pts[i][0] = floor(uniform(0, 64)) / 1024;
            pts[i][1] = floor(uniform(0, 64)) / 1024;
            u[4 * i] = pts[i][0];
            u[4 * i + 1] = pts[i][1];
            u[4 * i + 2] = u[4 * i + 3] = 0;
            finished[i] = 1;
        }
        hes_impact_set S;
        memset(&S, 0, sizeof S);
        S.n = 1, S.k = 2, S.samples = m, S.u = u, S.finished = finished, S.n_finished = m,
        S.u_scale = 1;
        int h = hes_impact_set_hull(&S, 0, 1, idx), hr = gift_wrap(m, (const double (*)[2])pts,
                                                                   ref);
        if (hr < 3)
            continue;               /* collinear draws: the segment case, below */
        ck_assert_msg(h == hr, "rep %d: %d vertices, gift wrapping %d", rep, h, hr);
        int off = -1;               /* the same cycle, from the same start */
        for (int i = 0; i < h; i++)
            if (pts[idx[i]][0] == pts[ref[0]][0] && pts[idx[i]][1] == pts[ref[0]][1])
                off = i;
        ck_assert_int_ge(off, 0);
        for (int i = 0; i < h; i++)
            ck_assert(pts[idx[(off + i) % h]][0] == pts[ref[i]][0] &&
                      pts[idx[(off + i) % h]][1] == pts[ref[i]][1]);
        for (int i = 0; i < m; i++) {
            int inside;
            ck_assert_int_eq(hes_impact_set_locate(&S, u + 4 * i, NULL, NULL, &inside), HES_OK);
            ck_assert_msg(inside, "rep %d: sample %d outside its own hull", rep, i);
        }
    }
}
END_TEST

START_TEST(test_box_wall_normal_hull_reaches_the_highest_sample)
{
    if (!have_solvers())
        return;
    /* box-wall's first normal (the floor, A) is 0 in every sample up to
     * 1e-15, the second (the wall, B) spreads up to about 0.1055: the hull
     * of the normals is the segment from the lowest to the highest B, and
     * every sample lies on it */
    hes_impact_setup s;
    hes_impact_set S;
    sample("box-wall", 4096, 0, 1, &s, &S);
    int k = S.k, *idx = malloc(sizeof(int) * (size_t)S.samples), top = -1;
    ck_assert_ptr_nonnull(idx);
    double ymax = -INFINITY, xnoise = 0;
    for (int i = 0; i < S.samples; i++)
        if (S.finished[i]) {
            xnoise = fmax(xnoise, fabs(S.u[(size_t)i * 2 * k]));
            if (S.u[(size_t)i * 2 * k + 1] > ymax)
                ymax = S.u[(size_t)i * 2 * k + 1], top = i;
        }
    ck_assert_msg(xnoise < 1e-13 && ymax > 0.1, "A's normal %g, B's largest %g", xnoise, ymax);
    int h = hes_impact_set_hull(&S, 0, 1, idx);
    double hy = -INFINITY;
    for (int e = 0; e < h; e++)
        hy = fmax(hy, S.u[(size_t)idx[e] * 2 * k + 1]);
    ck_assert_msg(hy == ymax, "the hull reaches %.6f, the highest sample (%d) %.6f", hy, top,
                  ymax);
    for (int i = 0; i < S.samples; i++) {
        if (!S.finished[i])
            continue;
        int inside;
        ck_assert_int_eq(hes_impact_set_locate(&S, S.u + (size_t)i * 2 * k, NULL, NULL, &inside),
                         HES_OK);
        ck_assert_msg(inside, "sample %d (%g, %g) outside its own set's normal hull", i,
                      S.u[(size_t)i * 2 * k], S.u[(size_t)i * 2 * k + 1]);
    }
    free(idx);
    hes_impact_set_free(&S);
    hes_impact_setup_free(&s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("routh");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_one_contact_is_rouths_method);
    tcase_add_test(tc, test_every_sample_complements_and_dissipates);
    tcase_add_test(tc, test_rocking_block_set_holds_rest_and_both_pivots);
    tcase_add_test(tc, test_compass_gait_set_has_the_trailing_foot_slide_stick_and_lift);
    tcase_add_test(tc, test_box_wall_set_holds_rest_and_slide_and_lift);
    tcase_add_test(tc, test_disk_stack_falls_apart_keeping_contact);
    tcase_add_test(tc, test_threads_give_the_same_set);
    tcase_add_test(tc, test_contact_rows_from_constraint_functions);
    tcase_add_test(tc, test_bad_input_is_refused);
    tcase_add_test(tc, test_hull_and_location_on_a_square);
    tcase_add_test(tc, test_hull_is_gift_wrapping_and_holds_every_sample);
    tcase_add_test(tc, test_box_wall_normal_hull_reaches_the_highest_sample);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(suite());
}
