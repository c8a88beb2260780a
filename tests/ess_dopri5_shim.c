/*
 * ess_dopri5_shim.c - the suites test_ess, test_ess_orbit and test_plate
 * again with the ESS integrator's DOPRI5 method: their sources are compiled
 * a second time with -Dhes_ess_options_init=hes_test_ess_options_dopri5
 * (Makefile.am: tests/test_ess_dopri5 and the others), so that every run
 * they make takes the library's defaults with method HES_ESS_DOPRI5.
 */
/* the real one here: the suites' sources see the macro */
#undef hes_ess_options_init
#include "hes.h"

void hes_test_ess_options_dopri5(hes_ess_options *o);

void hes_test_ess_options_dopri5(hes_ess_options *o)
{
    hes_ess_options_init(o);
    o->method = HES_ESS_DOPRI5;
}
