/*
 * io/io.h - the io layer's internals: the Jansson helpers every JSON
 * document of the library shares (json.c).  Numbers are written with 17
 * significant digits so that they read back as the same doubles; JSON has
 * no NaN or infinity, so such values become null.
 */
#ifndef HES_IO_H
#define HES_IO_H

#include <jansson.h>

#include "hes.h"

#define DUMP_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))

/* Each returns a new reference, or NULL on allocation failure. */
json_t *hes__json_number(double v);                 /* a finite number, or null */
json_t *hes__json_vector(const double *v, int n);   /* [v0, v1, ...] */
/* [[row 0], [row 1], ...] of the n x n column-major matrix m. */
json_t *hes__json_matrix_rows(const double *m, int n);
/* [{"name", "default", "unit", "description", "shape", "solved",
 *   "positive", "min", "max", "search"}] of n parameter descriptions
 * (json_model.c). */
json_t *hes__json_param_list(const hes_param *params, int n);
/* The name of tangent coordinate i of a mode with a chart: its
 * tangent_names[i], its state name when tdim = dim, else "d[i]" (json.c). */
json_t *hes__json_tangent_name(const hes_model *m, int mode, int i);
/* [{"re", "im", "abs"}] of the nontrivial multipliers (json.c) */
json_t *hes__json_multipliers(const hes_stability *st);
/* Sets obj[key] = val (taking val, also on failure); nonzero on failure. */
int hes__json_put(json_t *obj, const char *key, json_t *val);
/* The text of doc with DUMP_FLAGS (malloc'd; NULL for a NULL doc or on
 * allocation failure); releases doc. */
char *hes__json_dump(json_t *doc);
/* The JSON document of an input file (json.c): read by hes_input_read
 * (regular files only, bounded) and parsed with JSON_REJECT_DUPLICATES (a
 * key given twice in an object is an error, not "the last one wins").
 * NULL after the reason in msg ("PATH: line N: ..."), with *status
 * HES_EINVAL (HES_ENOMEM out of memory); status may be NULL. */
json_t *hes__json_load_input(const char *path, hes_status *status, char *msg, size_t len);
/* the document of hes_analysis_json, to extend (json.c) */
json_t *hes__json_analysis_doc(const hes_system *sys, const hes_analysis *res);
/* The document of hes_ess_orbit_json, before it is written (NULL on bad
 * input or without memory). */
json_t *hes__ess_orbit_doc(const hes_ess *ess, const hes_ess_orbit_options *opts,
                           const hes_ess_orbit *o);

/* One pair of simultaneous events (hes_simultaneous) as an object. */
json_t *hes__json_simultaneous(const hes_model *model, const hes_simultaneous *s);

/* A reader's failure (gait files, continuation documents): its message
 * into msg, and -1, which hes__reader_status maps to HES_EINVAL; an
 * allocation failure's message and -2 (HES_ENOMEM) (json.c). */
int hes__reader_fail(char *msg, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int hes__reader_oom(char *msg, size_t len);
hes_status hes__reader_status(int rc);

#endif
