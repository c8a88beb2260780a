/*
 * testutil.h - what every Check suite shares: running a suite and turning
 * its result into the exit status the test driver reads.
 */
#ifndef HES_TESTUTIL_H
#define HES_TESTUTIL_H

#include <check.h>

#include "hes.h"

/* Runs every test of s (then frees it); EXIT_SUCCESS when all passed. */
int test_run_suite(Suite *s);

/* A new system of the built-in problem `name` (asserted to exist). */
hes_system *test_system(const char *name);
/* A system of model m, or NULL (an invalid model, no memory). */
hes_system *test_system_of(const hes_model *m);

/* The saltation matrix of event ev (of an orbit of sys) against central
 * differences of the full nonlinear flow across that one event: the flow
 * from d before the event to d after it, with every guard armed, must have
 * the Jacobian A_post(d) Xi A_pre(d).  Returns the relative difference
 * max|lin - fd| / max(1, max|fd|) (dimensions up to 16). */
double test_saltation_vs_flow(hes_system *sys, const hes_event *ev, double d);

/* Solves the n x n system A x = b (column-major) by Gaussian elimination
 * with partial pivoting: A and b are overwritten, b by x.  0 when a pivot
 * is below 1e-14 in modulus (singular), else 1. */
int test_solve(int n, double *A, double *b);

/* 1 when hes was built with Siconos numerics (hes_lcp_solve works); else
 * prints "SUITE: <the library's message naming the Debian package>:
 * skipped" and returns 0. */
int test_have_lcp(const char *suite);

/* The path of share/robots/NAME under $top_srcdir (or .), in buf. */
const char *test_robot_file(char *buf, size_t len, const char *name);

#endif
