/*
 * testutil.h - what every Check suite shares: running a suite and turning
 * its result into the exit status the test driver reads.
 */
#ifndef HES_TESTUTIL_H
#define HES_TESTUTIL_H

#include <check.h>

/* Runs every test of s (then frees it); EXIT_SUCCESS when all passed. */
int test_run_suite(Suite *s);

#endif
