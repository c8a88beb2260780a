/*
 * ess_method.c - the names of the two ways to integrate a trajectory
 * (`hes simulate --integrator NAME`): "event" (lib/hybrid's event-driven
 * pipeline) and "ess" (this layer's event-selected integrator); and of the
 * ESS integrator's two integration steps (`--ess-method NAME`): "cvodes"
 * and "dopri5".
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ess/ess.h"

static const char *const method_names[] = { "event", "ess" };

const char *hes_sim_method_name(hes_sim_method method)
{
    return method == HES_SIM_EVENT || method == HES_SIM_ESS ? method_names[method] : NULL;
}

hes_status hes_sim_method_from_name(const char *name, hes_sim_method *method)
{
    int i = hes__name_index(method_names, 2, name);
    if (i < 0 || !method)
        return HES_EINVAL;
    *method = (hes_sim_method)i;
    return HES_OK;
}

static const char *const step_names[] = { "cvodes", "dopri5" };

const char *hes_ess_method_name(hes_ess_method method)
{
    return method == HES_ESS_CVODES || method == HES_ESS_DOPRI5 ? step_names[method] : NULL;
}

hes_status hes_ess_method_from_name(const char *name, hes_ess_method *method)
{
    int i = hes__name_index(step_names, 2, name);
    if (i < 0 || !method)
        return HES_EINVAL;
    *method = (hes_ess_method)i;
    return HES_OK;
}
