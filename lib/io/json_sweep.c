/*
 * json_sweep.c - hes_sweep_row_json: one row of a parameter sweep as one
 * line of JSON (`hes sweep --json`), written as the rows come, so by hand
 * rather than through a Jansson document: numbers with %.17g, a failed
 * row's message with its quotes and backslashes turned into ' and its line
 * breaks into blanks.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>

#include "hes.h"

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
    for (int j = 0; j < n_swept; j++)
        fprintf(f, "%s\"%s\": %.17g", j ? ", " : "", hes_system_param_info(sys, swept[j])->name,
                point[j]);
    fprintf(f, "}, \"status\": \"%s\"", row->status == HES_OK ? "ok" : hes_strerror(row->status));
    if (row->status == HES_OK) {
        fprintf(f, ", \"psi\": %.17g, \"stable\": %s, \"verdict\": \"%s\", \"period\": %.17g, "
                "\"multipliers\": [", row->psi, row->stable ? "true" : "false",
                hes_verdict_name(row->verdict), row->period);
        for (int k = 0; k < row->n_mult && k < HES_SWEEP_MAX_MULT; k++)
            fprintf(f, "%s[%.17g, %.17g]", k ? ", " : "", row->re[k], row->im[k]);
        fprintf(f, "], \"branch_jump\": %s", row->branch_jump ? "true" : "false");
    } else {
        fputs(", \"message\": \"", f);
        for (size_t i = 0; i < sizeof row->message && row->message[i]; i++) {
            char c = row->message[i];
            fputc(c == '"' || c == '\\' ? '\'' : c == '\n' ? ' ' : c, f);
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
