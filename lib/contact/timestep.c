/*
 * timestep.c - one step of velocity-level time stepping with rigid
 * contacts (hes_timestep_ap; hes.h states the model): the free velocity
 * v_f = v + dt M^-1 force, the LCP of Anitescu and Potra (ap_lcp.c) at
 * v_f with the normal rows' constant raised by gap / dt, and
 * v+ = v_f + M^-1 (J_n^T p_n + D^T beta).  The solution is checked, as the
 * impact laws' are: no contact passes its surface by more than the
 * tolerance of the laws (1e-8 of the velocities' scale) at the step's end.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"

static hes_status check(const hes_timestep_problem *pb, char *msg, size_t len)
{
    if (!pb)
        return hes__say(msg, len, HES_EINVAL, "timestep: the problem is NULL");
    int n = pb->n, k = pb->k, t = pb->tangents;
    if (n < 1 || k < 0 || (t != 1 && t != 2))
        return hes__say(msg, len, HES_EINVAL, "timestep: n = %d must be >= 1, k = %d >= 0 and "
                        "tangents = %d 1 or 2", n, k, t);
    if (!pb->M || !pb->v || !pb->force || (k > 0 && (!pb->Jn || !pb->Jt || !pb->mu || !pb->gap)))
        return hes__say(msg, len, HES_EINVAL, "timestep: M, v and force (and with contacts "
                        "J_n, J_t, mu and gap) are needed");
    if (!(pb->dt > 0) || !isfinite(pb->dt))
        return hes__say(msg, len, HES_EINVAL, "timestep: dt = %g must be finite and > 0",
                        pb->dt);
    if (!hes__all_finite(pb->M, n * n) || !hes__all_finite(pb->v, n) ||
        !hes__all_finite(pb->force, n) ||
        (k > 0 && (!hes__all_finite(pb->Jn, k * n) || !hes__all_finite(pb->Jt, t * k * n) ||
                   !hes__all_finite(pb->gap, k))))
        return hes__say(msg, len, HES_EINVAL, "timestep: M, v, force, J_n, J_t or gap is not "
                        "finite");
    for (int i = 0; i < k; i++)
        if (!(pb->mu[i] >= 0) || !(pb->mu[i] <= HES_IMPACT_MU_MAX))
            return hes__say(msg, len, HES_EINVAL, "timestep: contact %d has friction mu = %g, "
                            "not within [0, %g] (the largest whose tangential impulse double "
                            "precision resolves)", i, pb->mu[i], HES_IMPACT_MU_MAX);
    return HES_OK;
}

hes_status hes_timestep_ap(const hes_timestep_problem *pb, double *v_plus, double *p,
                           hes_impact_info *info, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (info)
        memset(info, 0, sizeof *info);
    hes_status st = check(pb, msg, len);
    if (st != HES_OK)
        return st;
    if (!v_plus)
        return hes__say(msg, len, HES_EINVAL, "timestep: v_plus is NULL");
    int n = pb->n, k = pb->k, t = pb->tangents, nz = (2 + 2 * t) * k;
    size_t need = (size_t)n * n + (size_t)n * (1 + t) * (k > 0 ? k : 1) + (size_t)nz * nz +
                  3 * (size_t)nz + 2 * (size_t)n;
    double *L = malloc(sizeof(double) * need);
    if (!L)
        return hes__say(msg, len, HES_ENOMEM, "out of memory for the time step");
    double *WG = L + (size_t)n * n, *A = WG + (size_t)n * (1 + t) * (k > 0 ? k : 1),
           *q = A + (size_t)nz * nz, *z = q + nz, *w = z + nz, *vf = w + nz, *dv = vf + n;
    if (k == 0) {    /* no contact: the free velocity, by M's factor */
        memcpy(L, pb->M, sizeof(double) * (size_t)n * n);
        if (hes__chol(L, n) != 0) {
            free(L);
            return hes__say(msg, len, HES_EINVAL, "timestep: the mass matrix is not positive "
                            "definite");
        }
    } else if (hes__ap_matrix(n, k, t, pb->M, pb->Jn, pb->Jt, pb->mu, A, nz, WG, L) != HES_OK) {
        free(L);
        return hes__say(msg, len, HES_EINVAL, "timestep: the mass matrix is not positive "
                        "definite");
    }
    memcpy(vf, pb->force, sizeof(double) * (size_t)n);
    hes__chol_solve(L, n, vf, 1);
    for (int j = 0; j < n; j++)
        vf[j] = pb->v[j] + pb->dt * vf[j];
    if (k == 0) {
        memcpy(v_plus, vf, sizeof(double) * (size_t)n);
        free(L);
        return HES_OK;
    }
    hes__ap_q(n, k, t, pb->Jn, pb->Jt, vf, q);
    double scale = 1;
    for (int i = 0; i < (1 + 2 * t) * k; i++)
        scale = fmax(scale, fabs(q[i]));
    for (int i = 0; i < k; i++)
        q[i] += pb->gap[i] / pb->dt;
    hes_lcp_info li;
    st = hes_lcp_solve(nz, A, q, 1e-9, z, w, &li, err);
    if (info) {
        info->lcps = 1;
        info->pivots = li.pivots;
        info->residual = li.residual;
        info->solver = li.solver;
    }
    if (st == HES_OK) {
        hes__ap_dv(n, k, t, WG, z, dv);
        for (int j = 0; j < n; j++)
            v_plus[j] = vf[j] + dv[j];
        if (!hes__all_finite(v_plus, n))
            st = hes__say(msg, len, HES_ESOLVER, "timestep: the velocity after the step is not "
                          "finite");
        for (int i = 0; st == HES_OK && i < k; i++) {
            double un = pb->gap[i] / pb->dt;
            for (int j = 0; j < n; j++)
                un += pb->Jn[i + (size_t)j * k] * v_plus[j];
            if (un < -1e-8 * scale)
                st = hes__say(msg, len, HES_ESOLVER, "timestep: contact %d passes its surface "
                              "(J_n v+ + gap / dt = %.3g < 0): the LCP's solution is not a "
                              "physical step", i, un);
        }
    }
    if (st == HES_OK && p) {
        for (int i = 0; i < k; i++) {
            p[i] = z[i];
            for (int d = 0; d < t; d++)
                p[k + d * k + i] = z[k + d * k + i] - z[k + (t + d) * k + i];
        }
    }
    if (info && st == HES_OK) {
        info->energy_before = hes__impact_kinetic(n, pb->M, pb->v);
        info->energy_after = hes__impact_kinetic(n, pb->M, v_plus);
    }
    free(L);
    return st;
}
