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
 * checked like a built-in one (hes_model_validate).  A path that cannot be
 * loaded is refused with what it is instead (a directory, an empty file, not
 * a shared library, or the dynamic loader's own reason).
 *
 * An event-selected system is a plugin too: it exports instead
 *
 *     const hes_ess_model *hes_plugin_ess_model(int *abi);
 *
 * which sets *abi to the HES_ESS_MODEL_ABI it was compiled with (the
 * hes_ess_model struct has no abi field), checked before its model is
 * validated (hes_ess_validate).  ABI 1 (before the optional per-guard and
 * sums callbacks) and 2 (before release) are still loaded: the model is
 * copied into the plugin handle with the later fields absent.  A module exporting both is refused.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ltdl.h>
#if defined HAVE_DLFCN_H && defined HAVE_DLOPEN
#include <dlfcn.h>
#endif

#include "hes.h"
#include "base/base.h"

struct hes_plugin {
    lt_dlhandle handle;
    hes_ess_model ess_old;   /* an ESS model of an earlier ABI, copied into this layout */
};

/* Why lt_dlopen could not load path (its own message, "file not found",
 * says the same for most causes). */
static hes_status why_not_loaded(const char *path, const char *ltdl_error, char *msg, size_t len)
{
    struct stat sb;
    unsigned char magic[4];
    if (stat(path, &sb) != 0) {
        snprintf(msg, len, "cannot load plugin %s: %s", path, strerror(errno));
        return errno == ENOENT ? HES_ENOTFOUND : HES_EINVAL;
    }
    if (S_ISDIR(sb.st_mode)) {
        snprintf(msg, len, "%s is a directory, not a plugin (a shared library such as "
                 "./model.so)", path);
        return HES_EINVAL;
    }
    if (!S_ISREG(sb.st_mode)) {
        snprintf(msg, len, "%s is not a regular file (a device, pipe or socket), not a plugin "
                 "(a shared library such as ./model.so)", path);
        return HES_EINVAL;
    }
    if (sb.st_size == 0) {
        snprintf(msg, len, "%s is an empty file, not a plugin (a shared library)", path);
        return HES_EINVAL;
    }
    int fd = open(path, O_RDONLY);
    ssize_t got = fd >= 0 ? read(fd, magic, sizeof magic) : -1;
    int err = errno;
    if (fd >= 0)
        close(fd);
    if (got < 0) {
        snprintf(msg, len, "cannot read plugin %s: %s", path, strerror(err));
        return HES_EINVAL;
    }
#ifdef __ELF__
    if (got < 4 || memcmp(magic, "\177ELF", 4) != 0) {
        snprintf(msg, len, "%s is not a shared library (no ELF header: a text or data file?); "
                 "build the plugin with cc -shared -fPIC", path);
        return HES_EINVAL;
    }
#endif
#if defined HAVE_DLFCN_H && defined HAVE_DLOPEN
    /* the dynamic loader's reason (wrong architecture, an executable, an
     * undefined symbol, ...) */
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(msg, len, "cannot load plugin %s: %s", path, e ? e : "unknown error");
        return HES_EINVAL;
    }
    dlclose(h);
#endif
    snprintf(msg, len, "cannot load plugin %s: %s", path, ltdl_error ? ltdl_error : "unknown error");
    return HES_EINVAL;
}

/* Loads path and takes the model of whichever entry it exports: the hybrid
 * model (want 1), the ESS model (want 2) or either (want 3). */
static hes_status load(const char *path, int want, hes_plugin **out, const hes_model **model,
                       const hes_ess_model **ess, char *msg, size_t len)
{
    if (!msg)
        len = 0;
    if (out)
        *out = NULL;
    if (model)
        *model = NULL;
    if (ess)
        *ess = NULL;
    if (!out || ((want & 1) && !model) || ((want & 2) && !ess)) {
        snprintf(msg, len, "plugin: needs somewhere to put the plugin and its model (NULL)");
        return HES_EINVAL;
    }
    if (!path || !*path) {
        snprintf(msg, len, "no plugin path");
        return HES_EINVAL;
    }
    /* A plugin is a file: a name without '/' is one in the current
     * directory, as a shell user means it, never a library the dynamic
     * loader would look for in its search path. */
    char local[4096];
    if (!strchr(path, '/')) {
        if (strlen(path) + 3 > sizeof local) {
            snprintf(msg, len, "plugin path too long");
            return HES_EINVAL;
        }
        snprintf(local, sizeof local, "./%s", path);
        path = local;
    }
    /* a FIFO or device would block or never end in the loader's open(2): it
       must be a regular file, checked without blocking */
    int fd;
    hes_error not_file;
    hes_status ist = hes_input_open(path, 0, &fd, NULL, &not_file);
    if (ist != HES_OK) {
        snprintf(msg, len, "cannot load plugin: %s", not_file.message);
        return ist == HES_ENOTFOUND ? HES_ENOTFOUND : HES_EINVAL;
    }
    close(fd);
    if (lt_dlinit() != 0) {
        snprintf(msg, len, "libltdl: %s", lt_dlerror());
        return HES_EINVAL;
    }
    lt_dlhandle h = lt_dlopen(path);
    if (!h) {
        hes_status st = why_not_loaded(path, lt_dlerror(), msg, len);
        lt_dlexit();
        return st;
    }
    union {
        void *p;
        const hes_model *(*fn)(void);
    } entry;
    union {
        void *p;
        const hes_ess_model *(*fn)(int *abi);
    } ess_entry;
    entry.p = want & 1 ? lt_dlsym(h, HES_PLUGIN_ENTRY) : NULL;
    ess_entry.p = want & 2 ? lt_dlsym(h, HES_PLUGIN_ESS_ENTRY) : NULL;
    hes_status st = HES_OK;
    hes_error why;
    hes_ess_model ess_old;
    int old = 0;
    if (entry.p && ess_entry.p) {
        snprintf(msg, len, "plugin %s exports both %s() and %s(): one model per plugin", path,
                 HES_PLUGIN_ENTRY, HES_PLUGIN_ESS_ENTRY);
        st = HES_EINVAL;
    } else if (entry.p) {
        const hes_model *m = entry.fn();
        if (!m) {
            snprintf(msg, len, "plugin %s returned no model", path);
            st = HES_EINVAL;
        } else if (m->abi != HES_MODEL_ABI) {
            snprintf(msg, len, "plugin %s was built for model ABI %d, this hes uses ABI %d: "
                     "rebuild it against this version's hes.h", path, m->abi, HES_MODEL_ABI);
            st = HES_EINVAL;
        } else if (hes_model_validate(m, &why) != HES_OK) {
            snprintf(msg, len, "plugin %s: %s", path, why.message);
            st = HES_EINVAL;
        } else
            *model = m;
    } else if (ess_entry.p) {
        int abi = -1;
        const hes_ess_model *m = ess_entry.fn(&abi);
        if (!m) {
            snprintf(msg, len, "plugin %s returned no ESS model", path);
            st = HES_EINVAL;
        } else if (abi == 1 || abi == 2) {
            /* an earlier layout, a prefix of this one (ABI 1: before the
               per-guard and sums callbacks; 2: before release): the copy
               leaves the later fields absent */
            memset(&ess_old, 0, sizeof ess_old);
            memcpy(&ess_old, m, abi == 1 ? offsetof(hes_ess_model, h_some)
                                        : offsetof(hes_ess_model, release));
            if (hes_ess_validate(&ess_old, &why) != HES_OK) {
                snprintf(msg, len, "plugin %s: %s", path, why.message);
                st = HES_EINVAL;
            } else
                *ess = NULL;   /* set below, to the plugin's copy */
            old = 1;
        } else if (abi != HES_ESS_MODEL_ABI) {
            snprintf(msg, len, "plugin %s was built for ESS model ABI %d, this hes uses ABI "
                     "%d: rebuild it against this version's hes.h", path, abi,
                     HES_ESS_MODEL_ABI);
            st = HES_EINVAL;
        } else if (hes_ess_validate(m, &why) != HES_OK) {
            snprintf(msg, len, "plugin %s: %s", path, why.message);
            st = HES_EINVAL;
        } else
            *ess = m;
    } else {
        if (want == 3)
            snprintf(msg, len, "%s is not a hes plugin: it exports neither %s() nor %s()", path,
                     HES_PLUGIN_ENTRY, HES_PLUGIN_ESS_ENTRY);
        else
            snprintf(msg, len, "%s is not a hes plugin: it exports no %s()", path,
                     want == 1 ? HES_PLUGIN_ENTRY : HES_PLUGIN_ESS_ENTRY);
        st = HES_EINVAL;
    }
    hes_plugin *p = st == HES_OK ? malloc(sizeof *p) : NULL;
    if (st == HES_OK && !p) {
        snprintf(msg, len, "out of memory");
        st = HES_ENOMEM;
        if (model)
            *model = NULL;
        if (ess)
            *ess = NULL;
    }
    if (st != HES_OK) {
        lt_dlclose(h);
        lt_dlexit();
        return st;
    }
    p->handle = h;
    if (old) {
        p->ess_old = ess_old;
        *ess = &p->ess_old;
    }
    *out = p;
    return HES_OK;
}

hes_status hes_plugin_open(const char *path, hes_plugin **out, const hes_model **model,
                           hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    return load(path, 1, out, model, NULL, msg, len);
}

hes_status hes_plugin_open_ess(const char *path, hes_plugin **out, const hes_ess_model **model,
                               hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    return load(path, 2, out, NULL, model, msg, len);
}

hes_status hes_plugin_open_any(const char *path, hes_plugin **out, const hes_model **model,
                               const hes_ess_model **ess, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    return load(path, 3, out, model, ess, msg, len);
}

void hes_plugin_destroy(hes_plugin *p)
{
    if (!p)
        return;
    lt_dlclose(p->handle);
    lt_dlexit();
    free(p);
}
