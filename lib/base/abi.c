/*
 * abi.c - the library's binary-interface version, for programs and
 * bindings to check that the library they run with is the one whose
 * headers they were built against (hes/base.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "base/base.h"

int hes_abi_version(void)
{
    return HES_ABI_VERSION;
}

hes_status hes_abi_check(int built_with, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (built_with == HES_ABI_VERSION)
        return HES_OK;
    return hes__say(msg, len, HES_EINVAL, "libhes: this program was built against ABI "
                    "version %d of the hes headers, and the library it runs with has "
                    "version %d: rebuild it against the installed headers", built_with,
                    HES_ABI_VERSION);
}
