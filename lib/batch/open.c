/*
 * open.c - one way from what a user names to a system: a built-in model
 * of either kind by its name, or a plugin file of either kind
 * (hes_system_open), and one catalog of everything built in with its kind
 * (hes_catalog_count, hes_catalog_entry): the hybrid models, the
 * event-selected systems and the impact problems (which are not systems:
 * `hes impact` takes them).
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"

/* A name is a file (a plugin) when it has a '/' or ends in ".so". */
static int is_path(const char *name)
{
    size_t n = strlen(name);
    return strchr(name, '/') != NULL || (n > 3 && strcmp(name + n - 3, ".so") == 0);
}

hes_status hes_system_open(const char *name, hes_system **out, hes_plugin **plugin, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (out)
        *out = NULL;
    if (plugin)
        *plugin = NULL;
    if (!name || !out || !plugin)
        return hes__say(msg, len, HES_EINVAL, "hes_system_open: needs a name, and somewhere "
                        "to put the system and the plugin");
    const hes_model *m = NULL;
    const hes_ess_model *em = NULL;
    if (is_path(name)) {
        hes_status st = hes_plugin_open_any(name, plugin, &m, &em, err);
        if (st != HES_OK)
            return st;
    } else if (!(m = hes_problem_find(name)) && !(em = hes_ess_problem_find(name))) {
        if (hes_impact_problem_find(name))
            return hes__say(msg, len, HES_EINVAL, "'%s' is an impact problem, not a system "
                            "with an orbit (hes impact %s)", name, name);
        return hes__say(msg, len, HES_ENOTFOUND, "unknown problem '%s' (hes list names "
                        "them; a plugin is a path: ./model.so)", name);
    }
    hes_status st = m ? hes_system_new(m, out, err) : hes_system_new_ess(em, out, err);
    if (st != HES_OK) {
        hes_plugin_destroy(*plugin);
        *plugin = NULL;
    }
    return st;
}

int hes_catalog_count(void)
{
    return hes_problem_count() + hes_ess_problem_count() + hes_impact_problem_count();
}

hes_status hes_catalog_entry(int i, const char **name, const char **kind,
                             const char **description)
{
    int nh = hes_problem_count(), ne = hes_ess_problem_count();
    const char *n, *k, *d;
    if (i < 0 || i >= hes_catalog_count())
        return HES_EINVAL;
    if (i < nh) {
        const hes_model *m = hes_problem_get(i);
        n = m->name, k = hes_kind_name(HES_KIND_HYBRID), d = m->description;
    } else if (i < nh + ne) {
        const hes_ess_model *m = hes_ess_problem_get(i - nh);
        n = m->name, k = hes_kind_name(HES_KIND_ESS), d = m->description;
    } else {
        const hes_impact_problem *p = hes_impact_problem_get(i - nh - ne);
        n = p->name, k = "impact", d = p->description;
    }
    if (name)
        *name = n;
    if (kind)
        *kind = k;
    if (description)
        *description = d ? d : "";
    return HES_OK;
}
