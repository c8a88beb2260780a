/*
 * json_sweep.c - hes_sweep_row_json: one row of a parameter sweep as one
 * line of JSON (`hes sweep --json`), written as the rows come, so by hand
 * rather than through a Jansson document: numbers with %.17g (null for a
 * value that is not finite: JSON has no NaN or infinity), a failed row's
 * message with its quotes and backslashes turned into ' and its line breaks
 * and other control characters into blanks.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "hes.h"

/* v with 17 significant digits, or null where it is not finite. */
static void put_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.17g", v);
    else
        fputs("null", f);
}

char *hes_sweep_row_json(const hes_system *sys, int n_swept, const int *swept,
                         const double *point, const hes_sweep_row *row)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f;

    if (!sys || !row || n_swept < 0 || (n_swept > 0 && (!swept || !point)))
        return NULL;
    for (int j = 0; j < n_swept; j++)
        if (!hes_system_param_info(sys, swept[j]))
            return NULL;
    if (!(f = open_memstream(&text, &size)))
        return NULL;
    fprintf(f, "{\"index\": %d, \"params\": {", row->index);
    for (int j = 0; j < n_swept; j++) {
        fprintf(f, "%s\"%s\": ", j ? ", " : "", hes_system_param_info(sys, swept[j])->name);
        put_number(f, point[j]);
    }
    fprintf(f, "}, \"status\": \"%s\"", row->status == HES_OK ? "ok" : hes_strerror(row->status));
    if (row->status == HES_OK) {
        fputs(", \"psi\": ", f);
        put_number(f, row->psi);
        fprintf(f, ", \"stable\": %s, \"verdict\": \"%s\", \"period\": ",
                row->stable ? "true" : "false", hes_verdict_name(row->verdict));
        put_number(f, row->period);
        fputs(", \"multipliers\": [", f);
        for (int k = 0; k < row->n_mult && k < HES_SWEEP_MAX_MULT; k++) {
            fputs(k ? ", [" : "[", f);
            put_number(f, row->re[k]);
            fputs(", ", f);
            put_number(f, row->im[k]);
            fputc(']', f);
        }
        fprintf(f, "], \"branch_jump\": %s", row->branch_jump ? "true" : "false");
    } else {
        fputs(", \"message\": \"", f);
        for (size_t i = 0; i < sizeof row->message && row->message[i]; i++) {
            unsigned char c = (unsigned char)row->message[i];
            fputc(c == '"' || c == '\\' ? '\'' : c < 0x20 ? ' ' : c, f);
        }
        fputs("\"", f);
    }
    fputs("}", f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}
