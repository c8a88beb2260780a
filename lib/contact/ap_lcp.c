/*
 * ap_lcp.c - the linear complementarity problem of Anitescu and Potra
 * ("Formulating dynamic multi-rigid-body contact problems with friction as
 * solvable linear complementarity problems", 1997; Stewart and Trinkle
 * 1996), eq. 31 of the set-valued impacts paper, for k contacts with t = 1
 * (planar) or 2 (spatial) tangent directions each.  One implementation for
 * the impact laws (impact.c, t = 1) and the rigid time step (timestep.c).
 *
 * The friction pyramid of contact i is spanned by the 2t edges +-T_d,i
 * (d < t) of its tangent rows; its impulse is the normal c_i along J_n,i
 * and beta_e,i >= 0 along each edge e (direction d = e mod t, sign + for
 * e < t, - else).  With W = M^-1, D the edges' rows and E summing a
 * contact's edges, z = (c, beta, lambda) ((2 + 2t) k) and
 *
 *       [ N W N^T   N W D^T   0 ]       [ N v  ]
 *   A = [ D W N^T   D W D^T   E ],  q = [ D v  ],   z >= 0, A z + q >= 0,
 *       [ mu       -E^T       0 ]       [ 0    ]   z^T (A z + q) = 0,
 *
 * the velocity after is v + W (N^T c + D^T beta): no contact approaches
 * (N v+ >= 0, complementary to c), a contact that slides has its impulse
 * on the pyramid's edge opposing its tangential velocity (lambda its
 * magnitude), and one that sticks has it inside (mu c >= E^T beta).  Rows
 * are laid out as normals (k), then edge e's k rows for e = 0 .. 2t-1,
 * then lambda (k): for t = 1, (c, beta+, beta-, lambda).  The tangent rows
 * Jt are t k x n, row d k + i the d-th tangent of contact i.
 */
#include <assert.h>
#include <string.h>

#include "contact/contact.h"

/* edge e of 2t: its tangent direction and sign */
static int edge_dir(int e, int t) { return e % t; }
static double edge_sign(int e, int t) { return e < t ? 1.0 : -1.0; }

hes_status hes__ap_matrix(int n, int k, int t, const double *M, const double *Jn,
                          const double *Jt, const double *mu, double *A, int lda, double *WG,
                          double *L)
{
    int tk = t * k, nz = (2 + 2 * t) * k;
    assert(n >= 1 && k >= 0 && (t == 1 || t == 2) && lda >= nz);
    memcpy(L, M, sizeof(double) * (size_t)n * n);
    for (int i = 0; i < k; i++)
        for (int j = 0; j < n; j++)
            WG[j + (size_t)i * n] = Jn[i + (size_t)j * k];
    for (int r = 0; r < tk; r++)
        for (int j = 0; j < n; j++)
            WG[j + (size_t)(k + r) * n] = Jt[r + (size_t)j * tk];
    if (hes__chol(L, n) != 0)         /* base/dense.c: thread-count independent */
        return HES_EINVAL;
    hes__chol_solve(L, n, WG, (1 + t) * k);
    /* the velocity blocks: row a (a normal, or an edge with its sign) times
       W times column b */
    int nb = (1 + 2 * t) * k;
    for (int a = 0; a < nb; a++) {
        const double *row;
        int ra, ld;
        double sa = 1;
        if (a < k) {
            row = Jn, ra = a, ld = k;
        } else {
            int e = (a - k) / k;
            row = Jt, ra = edge_dir(e, t) * k + (a - k) % k, ld = tk;
            sa = edge_sign(e, t);
        }
        for (int b = 0; b < nb; b++) {
            int cb = b < k ? b : k + edge_dir((b - k) / k, t) * k + (b - k) % k;
            double sb = b < k ? 1 : edge_sign((b - k) / k, t), s = 0;
            for (int j = 0; j < n; j++)
                s += row[ra + (size_t)j * ld] * WG[j + (size_t)cb * n];
            A[a + (size_t)b * lda] = sa * sb * s;
        }
    }
    for (int i = 0; i < k; i++) {
        int li = nb + i;
        for (int b = 0; b < nz; b++)
            A[li + (size_t)b * lda] = 0;
        for (int a = 0; a < nb; a++)
            A[a + (size_t)li * lda] = 0;
        A[li + (size_t)i * lda] = mu[i];                       /* mu c - E^T beta */
        for (int e = 0; e < 2 * t; e++) {
            A[(k + e * k + i) + (size_t)li * lda] = 1;         /* E lambda in the edge rows */
            A[li + (size_t)(k + e * k + i) * lda] = -1;
        }
    }
    return HES_OK;
}

void hes__ap_q(int n, int k, int t, const double *Jn, const double *Jt, const double *v,
               double *q)
{
    int tk = t * k;
    for (int i = 0; i < k; i++) {
        double s = 0;
        for (int j = 0; j < n; j++)
            s += Jn[i + (size_t)j * k] * v[j];
        q[i] = s;
        for (int d = 0; d < t; d++) {
            double u = 0;
            for (int j = 0; j < n; j++)
                u += Jt[d * k + i + (size_t)j * tk] * v[j];
            q[k + d * k + i] = u;              /* edge d: +T_d */
            q[k + (t + d) * k + i] = -u;       /* edge t + d: -T_d */
        }
        q[(1 + 2 * t) * k + i] = 0;
    }
}

void hes__ap_dv(int n, int k, int t, const double *WG, const double *z, double *dv)
{
    for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < k; i++) {
            s += WG[j + (size_t)i * n] * z[i];
            for (int d = 0; d < t; d++)
                s += WG[j + (size_t)(k + d * k + i) * n] *
                     (z[k + d * k + i] - z[k + (t + d) * k + i]);
        }
        dv[j] = s;
    }
}
