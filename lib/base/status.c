/*
 * status.c - names of hes_status values and their mapping to the program's
 * exit codes (lib/README.md, section 5: 0 success, 1 computation failed, 2 bad input),
 * the name-table lookup behind the enums' from-name functions, and the
 * message of a failure into a caller's buffer (hes__say).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"

const char *hes_strerror(hes_status status)
{
    switch (status) {
    case HES_OK: return "success";
    case HES_EINVAL: return "invalid input";
    case HES_ENOMEM: return "out of memory";
    case HES_ESOLVER: return "solver failure";
    case HES_EGRAZING: return "grazing event";
    case HES_EZENO: return "Zeno execution";
    case HES_ENOEVENT: return "no event before the time limit";
    case HES_ENONFINITE: return "non-finite value";
    case HES_EMODEL: return "model failure";
    case HES_ENOORBIT: return "no periodic orbit";
    case HES_EMAXITER: return "iteration limit reached";
    case HES_EDEFECTIVE: return "defective eigenvalue problem";
    case HES_ENOTFOUND: return "not found";
    case HES_EDIVERGED: return "diverged";
    case HES_EIO: return "input/output error";
    case HES_ELCP: return "complementarity problem unsolved";
    case HES_EINFEASIBLE: return "infeasible request";
    }
    return "unknown status";
}

int hes_status_exit_code(hes_status status)
{
    if (status == HES_OK)
        return 0;
    if (status == HES_EINVAL || status == HES_ENOTFOUND)
        return 2;
    return 1;
}

int hes__name_index(const char *const *names, int n, const char *name)
{
    for (int i = 0; name && i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

hes_status hes__say(char *msg, size_t len, hes_status status, const char *fmt, ...)
{
    if (msg && len > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, len, fmt, ap);
        va_end(ap);
    }
    return status;
}
