/*
 * ess_orbit_options.c - the defaults of an ESS periodic-orbit search
 * (hes_ess_orbit_options, hes/orbit.h): the integrator's defaults, section
 * 0, tol 1e-9, 40 iterations, the check of eps, a budget of 60 s.  Here, in
 * the ESS layer, so that a system (lib/hybrid/system.c) and the search
 * (lib/hybrid/ess_orbit.c) both start from them.
 */
#include <string.h>

#include "ess/ess.h"

void hes_ess_orbit_options_init(hes_ess_orbit_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    hes_ess_options_init(&o->ess);
    o->section = 0;
    o->tol = 1e-9;
    o->max_iter = 40;
    o->check_eps = 1;
    o->max_wall_time = 60;
}
