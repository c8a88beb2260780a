/*
 * json_analysis.c - hes_analysis_json: the document of an analysis of
 * either kind (`hes analyze --json`): a hybrid system's (json.c) or an ESS
 * system's, which is its ESS orbit's (json_ess.c) with the analysis's
 * monodromy and stability and, after --check, "check": {"method",
 * "max_abs_diff"} (the monodromy against differences of full runs).
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
        json_t *doc = hes__ess_orbit_doc(hes__system_ess(sys), &o, &view);
        if (doc && res->have_check)   /* --check: against differences of full runs */
            json_object_set_new(doc, "check",
                                json_pack("{s:s, s:o}", "method", "finite-differences",
                                          "max_abs_diff",
                                          hes__json_number(res->check_max_abs_diff)));
        return doc ? hes__json_dump(doc) : NULL;
    }
    return hes__json_dump(hes__json_analysis_doc(sys, res));
}
