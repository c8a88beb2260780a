/**
 * \file
 * hes.h - public interface of libhes: stability of periodic hybrid orbits and
 * hybrid event shaping.
 *
 * The declarations follow the pipeline and the library's layers (lib/README.md):
 * base, model, hybrid, shaping, batch, io.  The pipeline:
 *
 *     model (plain data + callbacks)  ->  hes_system (model + parameter values
 *     + settings + workspaces)  ->  simulate across events (hes_traj)  ->
 *     periodic orbit by Newton shooting (hes_orbit)  ->  variational matrices
 *     A_i and saltation matrices Xi_i  ->  monodromy Phi = Xi_N A_N ... Xi_1 A_1
 *     ->  multipliers, psi = max |lambda| over the nontrivial multipliers.
 *
 * Conventions: matrices are double arrays in column-major order (LAPACK's)
 * with explicit dimensions; a saltation matrix of a transition I -> J is
 * n_J x n_I.  Every fallible call returns hes_status; hes_strerror() names the
 * status and hes_system_errmsg() gives the detail of the last failure.  The
 * library keeps no global mutable state: use one hes_system per thread.
 *
 * NULL pointers (the caller's contract; tests/test_api_null.c): a pointer
 * argument may be NULL only where its declaration says so (an optional
 * output, "may be NULL").  A required pointer given as NULL is HES_EINVAL,
 * with the reason in the system's message (hes_system_errmsg) when the
 * system itself is given, or in msg when the function takes one; nothing
 * crashes and outputs that can be are cleared first.  A msg buffer may
 * always be NULL (then len is ignored).  Every _free and _destroy of NULL
 * does nothing.  Accessors of a NULL object give NULL, 0 or -1 (a count 0,
 * an index -1, a NaN for a number); void functions given NULL for what they
 * read or write do nothing; a model callback of the mechanical layer with
 * NULL data, state or output reports failure.  Beyond NULL, pointers must
 * point to arrays of the documented sizes: the library cannot check that.
 */
#ifndef HES_H
#define HES_H

/* The areas, in the pipeline's order (each header includes the one before) */
#include <hes/base.h>
#include <hes/model.h>
#include <hes/mech.h>
#include <hes/robot.h>
#include <hes/ess.h>
#include <hes/contact.h>
#include <hes/invdyn.h>
#include <hes/problems.h>
#include <hes/hybrid.h>
#include <hes/orbit.h>
#include <hes/shaping.h>
#include <hes/trajopt.h>
#include <hes/batch.h>
#include <hes/continuation.h>
#include <hes/io.h>

#endif /* HES_H */
