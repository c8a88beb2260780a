/*
 * json_analysis.c - hes_analysis_json: the document of an analysis of
 * either kind (`hes analyze --json`): a hybrid system's (json.c) or an ESS
 * system's, which is its ESS orbit's (json_ess.c) with the analysis's
 * monodromy and stability.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <jansson.h>

#include "io/io.h"
#include "hybrid/hybrid.h"

char *hes_analysis_json(const hes_system *sys, const hes_analysis *res)
{
    if (!sys || !res)
        return NULL;
    if (hes_system_kind(sys) == HES_KIND_ESS) { /* the ESS orbit's document */
        hes_ess_orbit_options o;
        if (!res->ess || hes_system_get_ess_options(sys, &o) != HES_OK)
            return NULL;
        hes_ess_orbit view = *res->ess;
        view.mono = res->mono;
        view.stab = res->stab;
        return hes_ess_orbit_json(hes__system_ess(sys), &o, &view);
    }
    return hes__json_dump(hes__json_analysis_doc(sys, res));
}
