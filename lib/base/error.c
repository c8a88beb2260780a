/*
 * error.c - hes_error (<hes/base.h>): the message of a call that has no
 * object of its own, and its use inside the library, where helpers report
 * through a (msg, len) pair.  Out of line on purpose: the compiler then
 * sees no constant buffer size through which to warn of truncations the
 * messages are allowed (a path of 4 kB in a 512-byte message).
 */
#include <string.h>

#include "base/base.h"

const char *hes_error_message(const hes_error *e)
{
    return e ? e->message : "";
}

char *hes__errbuf(hes_error *e)
{
    if (!e)
        return NULL;
    e->message[0] = '\0';
    return e->message;
}

size_t hes__errlen(const hes_error *e)
{
    return e ? sizeof e->message : 0;
}

hes_status hes__err_pass(hes_status st, const hes_error *e, char *msg, size_t len)
{
    if (st != HES_OK && msg && len) {
        size_t n = strnlen(e->message, len - 1);
        memcpy(msg, e->message, n);
        msg[n] = '\0';
    }
    return st;
}
