/*
 * plugin.c - user models loaded at run time (`hes ... --model PATH.so`)
 * with libltdl, the Autotools way: a plugin is a shared module compiled
 * against hes.h that exports
 *
 *     const hes_model *hes_plugin_model(void);
 *
 * returning its model description.  The model's abi field must equal this
 * library's HES_MODEL_ABI (the layout of hes_model and of everything it
 * points to); a plugin built against another version is refused with a
 * message naming both, before any of its callbacks runs.  The model is then
 * checked like a built-in one (hes_model_validate).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltdl.h>

#include "hes.h"

struct hes_plugin {
    lt_dlhandle handle;
};

hes_status hes_plugin_load(const char *path, hes_plugin **out, const hes_model **model,
                           char *msg, size_t len)
{
    *out = NULL;
    *model = NULL;
    if (!path || !*path) {
        snprintf(msg, len, "no plugin path");
        return HES_EINVAL;
    }
    if (lt_dlinit() != 0) {
        snprintf(msg, len, "libltdl: %s", lt_dlerror());
        return HES_EINVAL;
    }
    lt_dlhandle h = lt_dlopen(path);
    if (!h) {
        const char *e = lt_dlerror();
        snprintf(msg, len, "cannot load plugin %s: %s", path, e ? e : "unknown error");
        lt_dlexit();
        return HES_ENOTFOUND;
    }
    union {
        void *p;
        const hes_model *(*fn)(void);
    } entry;
    entry.p = lt_dlsym(h, HES_PLUGIN_ENTRY);
    const hes_model *m = entry.p ? entry.fn() : NULL;
    hes_status st = HES_OK;
    if (!entry.p) {
        snprintf(msg, len, "%s is not a hes plugin: it exports no %s()", path, HES_PLUGIN_ENTRY);
        st = HES_EINVAL;
    } else if (!m) {
        snprintf(msg, len, "plugin %s returned no model", path);
        st = HES_EINVAL;
    } else if (m->abi != HES_MODEL_ABI) {
        snprintf(msg, len, "plugin %s was built for model ABI %d, this hes uses ABI %d: "
                 "rebuild it against this version's hes.h", path, m->abi, HES_MODEL_ABI);
        st = HES_EINVAL;
    } else {
        char why[256];
        if (hes_model_validate(m, why, sizeof why) != HES_OK) {
            snprintf(msg, len, "plugin %s: %s", path, why);
            st = HES_EINVAL;
        }
    }
    hes_plugin *p = st == HES_OK ? malloc(sizeof *p) : NULL;
    if (st == HES_OK && !p) {
        snprintf(msg, len, "out of memory");
        st = HES_ENOMEM;
    }
    if (st != HES_OK) {
        lt_dlclose(h);
        lt_dlexit();
        return st;
    }
    p->handle = h;
    *out = p;
    *model = m;
    return HES_OK;
}

void hes_plugin_close(hes_plugin *p)
{
    if (!p)
        return;
    lt_dlclose(p->handle);
    lt_dlexit();
    free(p);
}
