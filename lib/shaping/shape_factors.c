/*
 * shape_factors.c - a shape context's event factors at the current
 * parameter values: the saltation matrix of an event from its pieces
 * (Dxg, Dtg, DxR, DtR) with the event's vector fields F_I and F_J kept from
 * the nominal orbit (shape parameters do not move them), or the section
 * matrix of the section event; and those fields themselves.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shaping/shape_internal.h"

/* Recomputes event factor k at the current parameters: the section
 * matrix, or the saltation matrix from the guard's and reset's derivatives
 * (its pieces, kept in sh->pieces when store != 0) with the event's vector
 * fields kept (sh->fields). */
/* The pieces of factor k at the current parameters into P. */
hes_status hes__shape_pieces_at(hes_shape *sh, int k, double *P)
{
    const hes_event *ev = &sh->res->orbit.traj.events[sh->event[k]];
    return hes__saltation_pieces(sh->sys, ev->transition, ev->tm, ev->x_minus, P);
}

hes_status hes__shape_event_factor(hes_shape *sh, int k, double *out, double *normal, int store)
{
    const hes_event *ev = &sh->res->orbit.traj.events[sh->event[k]];
    if (sh->autonomous && k == sh->nf - 1)
        return hes__section_matrix(sh->sys, ev->transition, ev->tm, ev->x_minus, out, normal);
    const double *F = sh->fields + (size_t)2 * sh->sys->nmax * k;
    /* scratch: sh->fd past the nmax^2 values a caller's out may use */
    double *P = store ? sh->pieces + (size_t)sh->plen * k
                      : sh->fd + (size_t)sh->sys->nmax * sh->sys->nmax;
    hes_status st = hes__shape_pieces_at(sh, k, P);
    return st != HES_OK ? st : hes__saltation_of_pieces(sh->sys, ev->transition, ev->tm, P, F,
                                                         F + sh->sys->nmax, out);
}

/* F_I at x_minus and F_J at the reset's image of every event factor. */
hes_status hes__shape_event_fields(hes_shape *sh)
{
    hes_system *sys = sh->sys;
    const hes_model *m = sys->model;
    int nm = sys->nmax;
    hes_status st = HES_OK;
    for (int k = 0; k < sh->nf && st == HES_OK; k++) {
        if (sh->event[k] < 0)
            continue;
        const hes_event *ev = &sh->res->orbit.traj.events[sh->event[k]];
        const hes_transition *T = &m->transitions[ev->transition];
        double *F = sh->fields + (size_t)2 * nm * k, *R = sh->fd;
        if ((st = hes__field(sys, T->from, ev->tm, ev->x_minus, F)) == HES_OK &&
            (st = hes__reset(sys, ev->transition, ev->tm, ev->x_minus, R)) == HES_OK)
            st = hes__field(sys, T->to, hes__time_after(m, ev->transition, ev->tm), R, F + nm);
    }
    return st;
}
