/*
 * io/json_input.c - a JSON document from an input file: robot model
 * descriptions (json_robot.c) and gait files (gait_json.c).  Read by
 * hes_input_read (regular files only, bounded: lib/base/input.c) and parsed
 * with Jansson's JSON_REJECT_DUPLICATES, so that a key given twice in an
 * object is an error rather than "the last one wins".  Only the public API
 * is used, so that the fuzz targets can compile this file in.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>

#include "io/io.h"
#include "base/base.h"

json_t *hes__json_load_input(const char *path, hes_status *status, char *msg, size_t len)
{
    char *text;
    size_t n;
    hes_error e;
    hes_status st = hes__err_pass(hes_input_read(path, 0, &text, &n, &e), &e, msg, len);
    if (st != HES_OK) {
        if (status)
            *status = st == HES_ENOMEM ? HES_ENOMEM : HES_EINVAL;
        return NULL;
    }
    json_error_t err;
    json_t *doc = json_loadb(text, n, JSON_REJECT_DUPLICATES, &err);
    free(text);
    if (!doc) {
        if (status)
            *status = HES_EINVAL;
        if (msg && len)
            snprintf(msg, len, "%s: line %d: %s", path, err.line, err.text);
    }
    return doc;
}
