/*
 * name.c - what a name in a model may be (hes_name_check): the names of
 * models, modes, states, transitions, parameters, path constraints,
 * mechanical constraints and ESS events are printed in messages and tables,
 * written into CSV headers (p.NAME, fn:NAME), JSON documents and plot
 * labels, and looked up from the command line (-p NAME=VALUE, --grid
 * NAME=...).  A name that is a valid label everywhere is 1 to HES_NAME_MAX
 * bytes of printable ASCII, without a blank at either end, not starting
 * with '-' (a command line would read it as an option), and without the
 * characters that separate or quote fields there: ',' (CSV fields), '"'
 * and '\' (CSV and JSON quoting), '=' (NAME=VALUE).  Checked when a model
 * is created (hes_model_validate, hes_ess_validate, robot files and
 * descriptions), so no later reader meets another.
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"

/* name as it can be shown in a message: printable ASCII as itself (a
 * quote as \'), anything else as \xNN, cut with "..." after 40 bytes. */
static void shown(const char *name, char *out, size_t len)
{
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)name; *p && k + 8 < len; p++) {
        if (p - (const unsigned char *)name == 40) {
            k += (size_t)snprintf(out + k, len - k, "...");
            break;
        }
        if (*p >= 0x20 && *p < 0x7f && *p != '\'' && *p != '\\')
            out[k++] = (char)*p;
        else
            k += (size_t)snprintf(out + k, len - k, "\\x%02x", *p);
    }
    out[k] = '\0';
}

hes_status hes_name_check(const char *field, const char *name, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    char why[96] = "";
    size_t n = name ? strlen(name) : 0;
    if (!field)
        field = "name";
    if (!name || n == 0)
        return hes__say(msg, len, HES_EINVAL, "%s: the name is empty or missing", field);
    for (size_t i = 0; i < n && !why[0]; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c < 0x20 || c >= 0x7f)
            snprintf(why, sizeof why, "%s (\\x%02x)", c == '\n' ? "a newline"
                     : c < 0x20 || c == 0x7f ? "a control character" : "a byte outside ASCII", c);
        else if (strchr(",\"\\=", c))
            snprintf(why, sizeof why, "'%c'", c);
    }
    if (!why[0] && n > HES_NAME_MAX)
        snprintf(why, sizeof why, "more than %d characters", HES_NAME_MAX);
    else if (!why[0] && name[0] == '-')
        snprintf(why, sizeof why, "a leading '-' (a command line would read it as an option)");
    else if (!why[0] && (name[0] == ' ' || name[n - 1] == ' '))
        snprintf(why, sizeof why, "a blank at its start or end");
    if (!why[0])
        return HES_OK;
    char show[200];
    shown(name, show, sizeof show);
    return hes__say(msg, len, HES_EINVAL, "%s: the name '%s' has %s (names label tables, JSON, "
                    "plots and command lines: 1 to %d printable ASCII characters without , \" "
                    "\\ or = and not starting with '-')", field, show, why, HES_NAME_MAX);
}
