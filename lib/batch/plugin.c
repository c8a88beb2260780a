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
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
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

struct hes_plugin {
    lt_dlhandle handle;
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
        hes_status st = why_not_loaded(path, lt_dlerror(), msg, len);
        lt_dlexit();
        return st;
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

void hes_plugin_destroy(hes_plugin *p)
{
    if (!p)
        return;
    lt_dlclose(p->handle);
    lt_dlexit();
    free(p);
}
