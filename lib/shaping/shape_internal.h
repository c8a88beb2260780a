/*
 * shaping/shape_internal.h - a shape context's layout (struct hes_shape),
 * shared by the files of hybrid event shaping: shape.c (creation and
 * evaluation), shape_factors.c (the event factors at the current
 * parameters) and shape_property.c (the shape property and which factors
 * each parameter moves).
 */
#ifndef HES_SHAPE_INTERNAL_H
#define HES_SHAPE_INTERNAL_H

#include "shaping/shaping.h"

struct hes_shape {
    hes_system *sys;         /* the context's own copy of the caller's system */
    hes_system *caller;      /* the caller's: its parameters are never written */
    const hes_analysis *res;
    int n;                   /* shape parameters */
    int *pidx;
    int n0, autonomous;
    int nf;                  /* factors G_1..G_nf */
    hes_factor *G;
    int *event;              /* event index of factor k, or -1 for a phase */
    unsigned char *dep;      /* dep[k + nf j]: G_k depends on h_j */
    double *fields;          /* per factor k: F_I and F_J at its event (2 nmax), which
                                shape parameters do not move (verify_property) */
    int *dep_first, *dep_k; /* the factors h_j moves: dep_k[dep_first[j] ..
                                dep_first[j + 1] - 1] (from dep) */
    unsigned char *moves;    /* per factor: some h_j moves it */
    int plen;                /* room for one factor's saltation pieces */
    double *pieces;          /* per factor k: its pieces (Dxg, Dtg, DxR, DtR) at h */
    double **slope;          /* slope[k + nf j]: d pieces / dh_j where the pieces are
                                affine in h (find_slopes), else NULL */
    double **dG;             /* dG[k + nf j]: dG_k/dh_j, for dependent pairs */
    double *M, *normal, *tmp;
    hes_stability st;          /* storage for n0 x n0, filled by refresh */
    /* gradient workspaces */
    double *dpsi, *dabs;
    double *sens;              /* 4 nf nmax: the sweeps of hes__eig_sens */
    double *h;
    /* evaluation workspaces, so that hes_shape_eval does not allocate */
    double *fd;                /* 2 nmax^2: the two sides of a difference */
    double *eigbuf;            /* 4 n0: hes__eig_repeated */
};

/* The pieces (Dxg, Dtg, DxR, DtR) of event factor k at the current
 * parameters into P (shape_factors.c). */
hes_status hes__shape_pieces_at(hes_shape *sh, int k, double *P);
/* Event factor k at the current parameters into out: the section matrix
 * (its normal into normal, may be NULL), or the saltation matrix from its
 * pieces (kept in sh->pieces when store != 0) with the event's fields. */
hes_status hes__shape_event_factor(hes_shape *sh, int k, double *out, double *normal,
                                   int store);
/* F_I at x_minus and F_J at the reset's image of every event factor, into
 * sh->fields. */
hes_status hes__shape_event_fields(hes_shape *sh);

/* The shape property of parameter j (shape_property.c): it neither
 * defines the orbit nor moves what the orbit is (the resets' images and
 * the events' fields), probed by steps; HES_EINVAL naming what it moves. */
hes_status hes__shape_verify_property(hes_shape *sh, int j);
/* Which factors each parameter moves (sh->dep), by probing each event
 * factor at a step of each parameter. */
hes_status hes__shape_find_dependencies(hes_shape *sh);
/* Where a factor's pieces are affine in a parameter, their slope
 * (sh->slope), so that an evaluation needs no callback for them. */
hes_status hes__shape_find_slopes(hes_shape *sh);
/* sh->dep as lists: the factors each parameter moves, and whether any
 * parameter moves a factor. */
hes_status hes__shape_dependency_lists(hes_shape *sh);

#endif
