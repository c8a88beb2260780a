/*
 * base/features.c - what this libhes was built with, for programs and
 * tests that must know whether a feature exists without trying it (a
 * probe that runs a computation can fail for other reasons, and then
 * hides them as "not built").
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "base/base.h"

const char *hes_features(void)
{
    return "base"
#ifdef HAVE_MUJOCO
           " mujoco"
#endif
#ifdef HAVE_SICONOS
           " siconos"
#endif
#ifdef HAVE_GSL
           " gsl"
#endif
#ifdef HAVE_IPOPT
           " ipopt"
#endif
        ;
}
