/*
 * sweep_order.c - sweep rows delivered in the order of their points
 * (hes_sweep_order), and the branch-jump test between neighbouring points
 * (hes_sweep_branch_jump).  Threads (and MPI ranks) finish points in any
 * order; a reader of a sweep, and the neighbour test, want them in index
 * order.  Rows that arrive early wait in a min-heap on their index; the
 * rows delivered last along each stride are kept in a ring for the test.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"

/* Lines longer than this (twice the stride, in rows kept) are not tested:
 * the ring would hold more than about 100 MB. */
#define ORDER_MAX_RING 65536

struct hes_sweep_order {
    int n_points, n_params;
    const double *values;
    const unsigned char *skip;
    int n_strides, strides[8];
    int next;                    /* the next index to deliver */
    hes_sweep_row *heap;         /* rows that arrived before their turn */
    int n_heap, cap_heap;
    hes_sweep_row *ring;         /* the last ring_size indices delivered */
    unsigned char *ring_ok;      /* ring slot holds that index's row */
    int ring_size;
};

/* p_c - p_b = p_b - p_a != 0 in every component, to 1e-9 of the values. */
static int equally_spaced(int n, const double *pa, const double *pb, const double *pc)
{
    int moves = 0;
    for (int j = 0; j < n; j++) {
        double h1 = pb[j] - pa[j], h2 = pc[j] - pb[j];
        double s = fmax(fmax(fabs(pa[j]), fabs(pb[j])), fabs(pc[j]));
        if (!(fabs(h2 - h1) <= 1e-9 * fmax(s, 1e-300)))
            return 0;
        moves |= fabs(h1) > 1e-9 * s;
    }
    return moves;
}

/* |q_c - q_b| > 3 |q_b - q_a| + 1e-6 max(1, |q_a|, |q_b|, |q_c|) (hes.h). */
static int quantity_jumps(double qa, double qb, double qc)
{
    double s = fmax(1.0, fmax(fmax(fabs(qa), fabs(qb)), fabs(qc)));
    return fabs(qc - qb) > 3.0 * fabs(qb - qa) + 1e-6 * s;
}

int hes_sweep_branch_jump(int n_params, const double *point_a, const double *point_b,
                          const double *point_c, const hes_sweep_row *a, const hes_sweep_row *b,
                          const hes_sweep_row *c)
{
    if (!point_a || !point_b || !point_c || !a || !b || !c || n_params < 1)
        return 0;
    if (a->status != HES_OK || b->status != HES_OK || c->status != HES_OK)
        return 0;
    if (a->n_x0 != b->n_x0 || b->n_x0 != c->n_x0)
        return 1; /* another mode or section: another orbit */
    if (!equally_spaced(n_params, point_a, point_b, point_c))
        return 0;
    if (quantity_jumps(a->period, b->period, c->period))
        return 1;
    for (int i = 0; i < c->n_x0 && i < HES_SWEEP_MAX_STATE; i++)
        if (quantity_jumps(a->x0[i], b->x0[i], c->x0[i]))
            return 1;
    return 0;
}

hes_sweep_order *hes_sweep_order_new(int n_points, int n_params, const double *values,
                                     const unsigned char *skip, int n_strides, const int *strides)
{
    if (n_points < 0 || n_params < 0 || (n_points > 0 && n_params > 0 && !values) ||
        n_strides < 0 || (n_strides > 0 && !strides))
        return NULL;
    hes_sweep_order *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->n_points = n_points;
    o->n_params = n_params;
    o->values = values;
    o->skip = skip;
    int longest = 1;
    if (n_strides == 0)
        o->strides[o->n_strides++] = 1;
    for (int k = 0; k < n_strides && o->n_strides < 8; k++)
        if (strides[k] >= 1 && strides[k] <= ORDER_MAX_RING / 2)
            o->strides[o->n_strides++] = strides[k];
    for (int k = 0; k < o->n_strides; k++)
        if (o->strides[k] > longest)
            longest = o->strides[k];
    o->ring_size = 2 * longest;
    o->ring = calloc((size_t)o->ring_size, sizeof *o->ring);
    o->ring_ok = calloc((size_t)o->ring_size, 1);
    if (!o->ring || !o->ring_ok) {
        hes_sweep_order_destroy(o);
        return NULL;
    }
    while (o->next < n_points && skip && skip[o->next])
        o->next++;
    return o;
}

void hes_sweep_order_destroy(hes_sweep_order *o)
{
    if (!o)
        return;
    free(o->heap);
    free(o->ring);
    free(o->ring_ok);
    free(o);
}

/* The delivered row of index i if the ring still holds it. */
static const hes_sweep_row *delivered(const hes_sweep_order *o, int i)
{
    if (i < 0)
        return NULL;
    int slot = i % o->ring_size;
    return o->ring_ok[slot] && o->ring[slot].index == i ? &o->ring[slot] : NULL;
}

static const double *point(const hes_sweep_order *o, int i)
{
    return o->values + (size_t)i * (size_t)o->n_params;
}

/* The row of index next, its branch flag set, to emit and into the ring. */
static int deliver(hes_sweep_order *o, hes_sweep_row *row,
                   int (*emit)(void *ctx, const hes_sweep_row *row), void *ctx)
{
    int c = row->index;
    /* rows leave in index order, each once */
    assert(c >= o->next && c < o->n_points);
    row->branch_jump = 0;
    for (int k = 0; k < o->n_strides && !row->branch_jump && o->n_params > 0; k++) {
        int s = o->strides[k];
        const hes_sweep_row *b = delivered(o, c - s), *a = delivered(o, c - 2 * s);
        if (a && b)
            row->branch_jump = hes_sweep_branch_jump(o->n_params, point(o, a->index),
                                                     point(o, b->index), point(o, c), a, b, row);
    }
    int rc = emit ? emit(ctx, row) : 0;
    int slot = c % o->ring_size;
    o->ring[slot] = *row;
    o->ring_ok[slot] = 1;
    o->next = c + 1;
    while (o->next < o->n_points && o->skip && o->skip[o->next])
        o->next++;
    return rc;
}

static void heap_swap(hes_sweep_row *h, int i, int j)
{
    hes_sweep_row t = h[i];
    h[i] = h[j];
    h[j] = t;
}

static int heap_push(hes_sweep_order *o, const hes_sweep_row *row)
{
    if (o->n_heap == o->cap_heap) {
        int cap = o->cap_heap ? 2 * o->cap_heap : 16;
        hes_sweep_row *h = realloc(o->heap, sizeof *h * (size_t)cap);
        if (!h)
            return -1;
        o->heap = h;
        o->cap_heap = cap;
    }
    int i = o->n_heap++;
    o->heap[i] = *row;
    while (i > 0 && o->heap[(i - 1) / 2].index > o->heap[i].index) {
        heap_swap(o->heap, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    return 0;
}

static void heap_pop(hes_sweep_order *o, hes_sweep_row *out)
{
    assert(o->n_heap > 0 && o->n_heap <= o->cap_heap);
    *out = o->heap[0];
    o->heap[0] = o->heap[--o->n_heap];
    for (int i = 0;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < o->n_heap && o->heap[l].index < o->heap[m].index)
            m = l;
        if (r < o->n_heap && o->heap[r].index < o->heap[m].index)
            m = r;
        if (m == i)
            break;
        heap_swap(o->heap, i, m);
        i = m;
    }
}

int hes_sweep_order_put(hes_sweep_order *o, const hes_sweep_row *row,
                        int (*emit)(void *ctx, const hes_sweep_row *row), void *ctx)
{
    if (!o || !row || row->index < o->next || row->index >= o->n_points)
        return -1;
    if (row->index != o->next)
        return heap_push(o, row);
    hes_sweep_row r = *row;
    int rc = deliver(o, &r, emit, ctx);
    while (rc == 0 && o->n_heap > 0 && o->heap[0].index == o->next) {
        heap_pop(o, &r);
        rc = deliver(o, &r, emit, ctx);
    }
    return rc;
}
