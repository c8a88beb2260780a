/*
 * impact_set.c - the post-impact velocity set of a simultaneous impact
 * (Halm & Posa, set-valued simultaneous impacts, Sec. 5.3,
 * Algorithm 2, Theorem 9), and where other outcomes lie relative to it.
 *
 * Algorithm 2 runs the impulse-stepping model (impact_routh.c) once per
 * point of a low-discrepancy sequence in [0, 1]^(k N): point r gives the
 * caps of every step (p_si = x_r[s k + i]).  Under the paper's Assumption
 * 6 the outcome is a Lipschitz function of the caps, so the images of an
 * eps-net of the box are a (L eps)-net of the reachable set (Lemma 1,
 * Lemma 10), and a low-discrepancy sequence fills the box with the fewest
 * points.  The authors use MATLAB's Sobol set; we use GSL's Sobol
 * generator (gsl_qrng_sobol, at most 40 dimensions) and above 40 its
 * reverse Halton generator (at most 1229), dropping the sequence's first
 * point (at or near the origin: caps of zero make no progress).  A seed
 * > 0 adds a random shift modulo 1 (Cranley and Patterson 1976).
 *
 * The samples are independent, so threads take them in chunks: the points
 * are generated in order by the calling thread (the sequence is
 * sequential), then each thread resolves every T-th sample of the chunk
 * into preallocated rows.  Nothing is shared but read-only inputs.
 *
 * Summaries: the planar convex hull of the samples projected on two
 * contact-velocity coordinates (Andrew's monotone chain with an
 * orientation test against its own rounding; a set on one line to
 * rounding is its segment), and the distance of an outcome
 * (Anitescu-Potra, sequential) to the nearest sample.
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_GSL
#include <gsl/gsl_qrng.h>
#endif

#include "contact/contact.h"

void hes_impact_set_options_init(hes_impact_set_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->samples = 1;
    hes_routh_options_init(&o->routh);
    o->threads = 1;
}

#define CHUNK 2048

typedef struct {
    const hes_contact_set *c;
    const double *v_minus;
    const hes_impact_set_options *o;
    hes_impact_set *set;
    const double *caps;       /* the chunk's caps, dim per sample */
    int dim, first, count, threads;
    double e_minus;
    double deadline;          /* no sample starts past it (monotonic clock) */
    /* per thread: the first failure (sample index, status, message) */
    struct worker_out {
        hes_status st;
        int sample;
        long pivots;
        char msg[256];
    } *out;
} job;

typedef struct {
    job *j;
    int t;
} worker_arg;

static void *worker(void *arg)
{
    worker_arg *wa = arg;
    job *j = wa->j;
    struct worker_out *out = &j->out[wa->t];
    hes_impact_set *S = j->set;
    int n = S->n, k = S->k;
    for (int r = wa->t; r < j->count && out->st == HES_OK; r += j->threads) {
        int i = j->first + r;
        if (!(hes__monotonic_seconds() < j->deadline)) {
            out->st = HES_ESOLVER;
            out->sample = i;
            snprintf(out->msg, sizeof out->msg, "the set used its budget of %g s "
                     "(hes_impact_set_options.max_wall_time) before this sample",
                     j->o->max_wall_time > 0 ? j->o->max_wall_time : 600.0);
            break;
        }
        double *v = S->v + (size_t)i * n;
        hes_impact_info info;
        hes_error msg;
        hes_routh_options ro = j->o->routh;
        if (ro.select)
            ro.select += (unsigned long)i;
        hes_status st = hes_impact_routh(j->c, j->v_minus, &ro,
                                         j->caps + (size_t)r * j->dim, v, NULL, NULL, NULL,
                                         &info, &msg);
        out->pivots += info.pivots;
        if (st != HES_OK && st != HES_EMAXITER) {
            out->st = st;
            out->sample = i;
            snprintf(out->msg, sizeof out->msg, "%.*s", (int)sizeof out->msg - 1, msg.message);
            break;
        }
        S->finished[i] = st == HES_OK;
        S->lcps[i] = info.lcps;
        S->residual[i] = info.residual;
        S->dissipated[i] = info.energy_before - info.energy_after;
        hes_contact_velocities(j->c, v, S->u + (size_t)i * 2 * k);
        hes_contact_modes(j->c, v, 0, S->modes + (size_t)i * k);
    }
    return NULL;
}

void hes_impact_set_free(hes_impact_set *S)
{
    if (!S)
        return;
    free(S->v);
    free(S->u);
    free(S->modes);
    free(S->lcps);
    free(S->finished);
    free(S->dissipated);
    free(S->residual);
    free(S->caps);
    memset(S, 0, sizeof *S);
}

#ifdef HAVE_GSL
/* Fill caps (count x dim) from the sequence, shifted modulo 1. */
static void next_points(gsl_qrng *g, int count, int dim, const double *shift, double *caps)
{
    for (int r = 0; r < count; r++) {
        double *x = caps + (size_t)r * dim;
        gsl_qrng_get(g, x);
        for (int d = 0; shift && d < dim; d++) {
            x[d] += shift[d];
            x[d] -= floor(x[d]);
        }
    }
}
#endif

hes_status hes_impact_set_sample(const hes_contact_set *c, const double *v_minus,
                                 const hes_impact_set_options *o, hes_impact_set *S, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (S)
        memset(S, 0, sizeof *S);
    hes_status st = hes__impact_check(c, v_minus, msg, len);
    if (st != HES_OK)
        return st;
    if (!o || !S || o->samples < 1 || o->routh.steps < 1 || !(o->routh.h > 0) ||
        o->threads < 0 || isnan(o->max_wall_time) || o->max_wall_time < 0)
        return hes__say(msg, len, HES_EINVAL, "impact set: needs samples >= 1, a step size h > 0, "
                        "a step limit >= 1 and threads >= 0");
#ifndef HAVE_GSL
    return hes__say(msg, len, HES_ESOLVER, "impact set: hes was built without GSL (install the "
                    "Debian package libgsl-dev for its low-discrepancy sequences)");
#else
    int n = c->n, k = c->k, M = o->samples, dim = k * o->routh.steps;
    const gsl_qrng_type *type = dim <= 40 ? gsl_qrng_sobol : gsl_qrng_reversehalton;
    if (dim > 1229)
        return hes__say(msg, len, HES_EINVAL, "impact set: %d contacts x %d steps = %d dimensions "
                        "of caps; the sequences go up to 1229", k, o->routh.steps, dim);
    int threads = o->threads > 0 ? o->threads : 1;
    if (threads > M)
        threads = M;
    S->n = n;
    S->k = k;
    S->samples = M;
    S->sequence = dim <= 40 ? "sobol" : "reverse-halton";
    S->dim = dim;
    S->u_scale = hes__impact_tolerance(c, v_minus, 1);
    if (o->keep_caps && !(S->caps = malloc(sizeof(double) * (size_t)M * dim)))
        return hes__say(msg, len, HES_ENOMEM, "out of memory for %d samples' caps", M);
    S->v = malloc(sizeof(double) * (size_t)M * n);
    S->u = malloc(sizeof(double) * (size_t)M * 2 * k);
    S->modes = malloc(sizeof(hes_contact_mode) * (size_t)M * k);
    S->lcps = malloc(sizeof(int) * (size_t)M);
    S->finished = malloc(sizeof(int) * (size_t)M);
    S->dissipated = malloc(sizeof(double) * (size_t)M);
    S->residual = malloc(sizeof(double) * (size_t)M);
    int chunk = M < CHUNK ? M : CHUNK;
    double *caps = malloc(sizeof(double) * ((size_t)chunk * dim + dim));
    struct worker_out *outs = calloc((size_t)threads, sizeof *outs);
    worker_arg *args = malloc(sizeof *args * (size_t)threads);
    gsl_qrng *g = gsl_qrng_alloc(type, (unsigned)dim);
    if (!S->v || !S->u || !S->modes || !S->lcps || !S->finished || !S->dissipated ||
        !S->residual || !caps || !outs || !args || !g) {
        free(caps);
        free(outs);
        free(args);
        if (g)
            gsl_qrng_free(g);
        hes_impact_set_free(S);
        return hes__say(msg, len, HES_ENOMEM, "out of memory for %d impact samples", M);
    }
    double *shift = NULL;
    if (o->seed) {
        shift = caps + (size_t)chunk * dim;
        unsigned long long s = o->seed;
        for (int d = 0; d < dim; d++)
            shift[d] = hes__rng_uniform(&s);
    }
    next_points(g, 1, dim, NULL, caps);     /* the first point: the origin */
    double t0 = hes__monotonic_seconds();
    job j = { c, v_minus, o, S, caps, dim, 0, 0, threads,
              hes__impact_kinetic(n, c->M, v_minus),
              t0 + (o->max_wall_time > 0 ? o->max_wall_time : 600.0), outs };
    for (int first = 0; first < M && st == HES_OK; first += chunk) {
        int count = M - first < chunk ? M - first : chunk;
        next_points(g, count, dim, shift, caps);
        if (S->caps)
            memcpy(S->caps + (size_t)first * dim, caps, sizeof(double) * (size_t)count * dim);
        j.first = first;
        j.count = count;
        for (int t = 0; t < threads; t++) {
            args[t].j = &j;
            args[t].t = t;
        }
        hes__run_parallel(threads, worker, args, sizeof *args);
        for (int t = 0; t < threads && st == HES_OK; t++)
            if (outs[t].st != HES_OK) {
                st = outs[t].st;
                hes__say(msg, len, st, "impact sample %d: %s", outs[t].sample, outs[t].msg);
            }
    }
    S->seconds = hes__monotonic_seconds() - t0;
    gsl_qrng_free(g);
    for (int t = 0; t < threads; t++)
        S->pivots += outs[t].pivots;
    free(caps);
    free(outs);
    free(args);
    if (st != HES_OK) {
        hes_impact_set_free(S);
        return st;
    }
    long lcps = 0;
    S->max_energy_gain = j.e_minus > 0 ? -INFINITY : 0;
    for (int i = 0; i < M; i++) {
        lcps += S->lcps[i];
        S->n_finished += S->finished[i];
        S->max_residual = fmax(S->max_residual, S->residual[i]);
        if (j.e_minus > 0)
            S->max_energy_gain = fmax(S->max_energy_gain, -S->dissipated[i] / j.e_minus);
    }
    S->mean_lcps = (double)lcps / M;
    return HES_OK;
#endif
}

/* ------------------------------------------------------------- summaries */

/* cross product of (b - a) and (c - a) */
static double cross(const double *a, const double *b, const double *c)
{
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

typedef struct {
    double x[2];
    int i;
} point;

static int by_xy(const void *pa, const void *pb)
{
    const point *a = pa, *b = pb;
    if (a->x[0] != b->x[0])
        return a->x[0] < b->x[0] ? -1 : 1;
    return a->x[1] < b->x[1] ? -1 : a->x[1] > b->x[1];
}

/* Whether c lies strictly to the left of the line from a to b: the cross
 * product against the bound on its rounding error.  The products
 * (b - a)_x (c - a)_y and (b - a)_y (c - a)_x each carry a relative error
 * of a few eps (the differences' rounding, then the product's), so a
 * cross product within 4 eps of their magnitudes has an uncertain sign:
 * not a left turn.  The tolerance is the arithmetic's, relative to the
 * three points themselves: a thin triangle (1e-15 wide, 0.1 tall) is a
 * left turn, whatever the set's extent. */
static int left_turn(const double *a, const double *b, const double *c)
{
    double p1 = (b[0] - a[0]) * (c[1] - a[1]), p2 = (b[1] - a[1]) * (c[0] - a[0]);
    return p1 - p2 > 4 * DBL_EPSILON * (fabs(p1) + fabs(p2));
}

int hes_impact_set_hull(const hes_impact_set *S, int a, int b, int *idx)
{
    if (!S || !idx || a < 0 || b < 0 || a >= 2 * S->k || b >= 2 * S->k)
        return 0;
    int m = 0;
    point *P = malloc(sizeof *P * (size_t)(S->n_finished > 0 ? S->n_finished : 1));
    point *H = malloc(sizeof *H * (size_t)(2 * S->n_finished + 1));
    if (!P || !H) {
        free(P);
        free(H);
        return 0;
    }
    for (int i = 0; i < S->samples; i++)
        if (S->finished[i]) {
            P[m].x[0] = S->u[(size_t)i * 2 * S->k + a];
            P[m].x[1] = S->u[(size_t)i * 2 * S->k + b];
            P[m].i = i;
            m++;
        }
    int h = 0;
    if (m > 0) {
        qsort(P, (size_t)m, sizeof *P, by_xy);
        /* A set on one line to rounding (outcomes that are zero carry 1e-17
           noise; box-wall's first normal is 0 in every sample) has the
           segment between its extreme points along the line as its hull:
           the points farthest apart in the projection on the line through
           P[0] and the point farthest from it, when every point lies within
           1e-12 of that length of the line. */
        int far = 0;
        double d2 = 0;
        for (int i = 1; i < m; i++) {
            double dx = P[i].x[0] - P[0].x[0], dy = P[i].x[1] - P[0].x[1];
            if (dx * dx + dy * dy > d2)
                d2 = dx * dx + dy * dy, far = i;
        }
        double L = sqrt(d2), ux = L > 0 ? (P[far].x[0] - P[0].x[0]) / L : 0,
               uy = L > 0 ? (P[far].x[1] - P[0].x[1]) / L : 0, off = 0;
        int lo = 0, hi = 0;
        double plo = INFINITY, phi = -INFINITY;
        for (int i = 0; i < m; i++) {
            double dx = P[i].x[0] - P[0].x[0], dy = P[i].x[1] - P[0].x[1];
            double along = dx * ux + dy * uy;
            off = fmax(off, fabs(dx * uy - dy * ux));
            if (along < plo)
                plo = along, lo = i;
            if (along > phi)
                phi = along, hi = i;
        }
        if (L == 0) {
            H[h++] = P[0];                      /* one point */
        } else if (off <= 1e-12 * L) {
            H[h++] = P[lo];                     /* a segment */
            H[h++] = P[hi];
        } else {
            /* Andrew's monotone chain: lower hull left to right, upper right
               to left, keeping a point only where the turn is certainly left
               (left_turn): collinear points are dropped, thin corners kept */
            for (int i = 0; i < m; i++) {
                while (h >= 2 && !left_turn(H[h - 2].x, H[h - 1].x, P[i].x))
                    h--;
                H[h++] = P[i];
            }
            for (int i = m - 2, lower = h + 1; i >= 0; i--) {
                while (h >= lower && !left_turn(H[h - 2].x, H[h - 1].x, P[i].x))
                    h--;
                H[h++] = P[i];
            }
            h--;                                /* the last point is the first */
        }
    }
    for (int i = 0; i < h; i++)
        idx[i] = H[i].i;
    free(P);
    free(H);
    return h;
}

/* distance from p to the segment ab */
static double segment_distance(const double *p, const double *a, const double *b)
{
    double dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy;
    double t = l2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

hes_status hes_impact_set_locate(const hes_impact_set *S, const double *u, double *relative,
                                 int *nearest, int *inside_normals)
{
    if (!S || !u || S->n_finished < 1)
        return HES_EINVAL;
    int k = S->k, best = -1;
    double extent = 0, dbest = INFINITY;
    for (int d = 0; d < 2 * k; d++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < S->samples; i++)
            if (S->finished[i]) {
                lo = fmin(lo, S->u[(size_t)i * 2 * k + d]);
                hi = fmax(hi, S->u[(size_t)i * 2 * k + d]);
            }
        extent = fmax(extent, hi - lo);
    }
    for (int i = 0; i < S->samples; i++) {
        if (!S->finished[i])
            continue;
        double s = 0;
        for (int d = 0; d < 2 * k; d++) {
            double e = u[d] - S->u[(size_t)i * 2 * k + d];
            s += e * e;
        }
        if (s < dbest) {
            dbest = s;
            best = i;
        }
    }
    dbest = sqrt(dbest);
    /* a set of one outcome has an extent of rounding (1e-16), and the laws
       end an approach to 1e-8 of the velocities' scale: measure against at
       least 1e-6 of that scale */
    extent = fmax(extent, 1e-6 * (S->u_scale > 0 ? S->u_scale : 1));
    if (relative)
        *relative = dbest / extent;
    if (nearest)
        *nearest = best;
    if (inside_normals) {
        *inside_normals = 0;
        if (k >= 2) {
            int *idx = malloc(sizeof(int) * (size_t)S->samples);
            if (!idx)
                return HES_ENOMEM;
            int h = hes_impact_set_hull(S, 0, 1, idx);
            double margin = fmax(1e-6 * extent, 1e-8 * S->u_scale), p[2] = { u[0], u[1] };
            int in = h >= 3;
            for (int e = 0; e < h && in; e++) {
                const double *a = S->u + (size_t)idx[e] * 2 * k,
                             *b = S->u + (size_t)idx[(e + 1) % h] * 2 * k;
                double ab = hypot(b[0] - a[0], b[1] - a[1]);
                in = cross(a, b, p) >= -margin * ab;
            }
            if (h > 0 && h < 3) {    /* a segment or a point */
                const double *a = S->u + (size_t)idx[0] * 2 * k,
                             *b = S->u + (size_t)idx[h - 1] * 2 * k;
                in = segment_distance(p, a, b) <= margin;
            }
            *inside_normals = in;
            free(idx);
        }
    }
    return HES_OK;
}

void hes_impact_set_extremes(const hes_impact_set *S, int *argmin, int *argmax, int *counts)
{
    if (!S)
        return;
    int k = S->k;
    for (int d = 0; d < 2 * k; d++) {
        if (argmin)
            argmin[d] = -1;
        if (argmax)
            argmax[d] = -1;
    }
    for (int i = 0; counts && i < 3 * k; i++)
        counts[i] = 0;
    for (int i = 0; i < S->samples; i++) {
        if (!S->finished[i])
            continue;
        const double *u = S->u + (size_t)i * 2 * k;
        for (int d = 0; d < 2 * k; d++) {
            if (argmin && (argmin[d] < 0 || u[d] < S->u[(size_t)argmin[d] * 2 * k + d]))
                argmin[d] = i;
            if (argmax && (argmax[d] < 0 || u[d] > S->u[(size_t)argmax[d] * 2 * k + d]))
                argmax[d] = i;
        }
        for (int c = 0; counts && c < k; c++)
            counts[3 * c + S->modes[(size_t)i * k + c]]++;
    }
}

hes_status hes_impact_outcome_init(hes_impact_outcome *out, hes_impact_law law, int n, int k)
{
    if (!out)
        return HES_EINVAL;
    memset(out, 0, sizeof *out);
    if (n < 1 || k < 1)
        return HES_EINVAL;
    out->law = law;
    out->order = calloc((size_t)k, sizeof *out->order);
    out->v = calloc((size_t)n, sizeof *out->v);
    out->u = calloc(2 * (size_t)k, sizeof *out->u);
    out->modes = calloc((size_t)k, sizeof *out->modes);
    if (!out->order || !out->v || !out->u || !out->modes) {
        hes_impact_outcome_free(out);
        return HES_ENOMEM;
    }
    return HES_OK;
}

void hes_impact_outcome_free(hes_impact_outcome *out)
{
    if (!out)
        return;
    free(out->order), free(out->v), free(out->u), free(out->modes);
    memset(out, 0, sizeof *out);
}

hes_status hes_impact_outcome_compute(const hes_contact_set *c, const double *v_minus,
                                      const hes_impact_set *S, hes_impact_outcome *out,
                                      hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (!c || !out || !out->order || !out->v || !out->u || !out->modes)
        return hes__say(msg, len, HES_EINVAL, "impact outcome: needs a contact set and an "
                        "outcome with its arrays (hes_impact_outcome_init)");
    hes_impact_info info;
    out->relative = -1;
    out->nearest = -1;
    out->inside_normals = 0;
    hes_status st = out->law == HES_LAW_ANITESCU_POTRA
        ? hes_impact_anitescu_potra(c, v_minus, out->v, NULL, NULL, &info, err)
        : hes_impact_sequential(c, out->order, c->k, 100, v_minus, out->v, NULL, NULL, &info,
                                err);
    out->status = st;
    if (st != HES_OK)
        return st;
    out->lcps = info.lcps;
    out->energy_before = info.energy_before;
    out->energy_after = info.energy_after;
    hes_contact_velocities(c, out->v, out->u);
    hes_contact_modes(c, out->v, 0, out->modes);
    if (S && S->n_finished > 0)
        return hes_impact_set_locate(S, out->u, &out->relative, &out->nearest,
                                     &out->inside_normals);
    return HES_OK;
}

hes_status hes_impact_default_step(const hes_contact_set *c, const double *v_minus, double *h,
                                   hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (!h)
        return hes__say(msg, len, HES_EINVAL, "impact step: h is NULL");
    hes_status st = hes__impact_check(c, v_minus, msg, len);
    if (st != HES_OK)
        return st;
    double *v = malloc(sizeof(double) * ((size_t)c->n + (size_t)c->k));
    if (!v)
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    double *pn = v + c->n, pmax = 0;
    st = hes_impact_anitescu_potra(c, v_minus, v, pn, NULL, NULL, err);
    for (int i = 0; st == HES_OK && i < c->k; i++)
        pmax = fmax(pmax, pn[i]);
    free(v);
    *h = pmax > 0 ? pmax / 2 : 1;
    return st;
}
