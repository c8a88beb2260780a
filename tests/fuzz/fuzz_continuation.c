/*
 * fuzz_continuation.c - libFuzzer target of the reader of `hes continue
 * --json` documents (hes_continuation_from_json, what --resume reads): the
 * bytes read without a system (the document's own consistency), then,
 * when they read, against the paddle juggler's system (the seeds are its
 * documents: its problem, parameters, state names and transitions), and
 * the branch freed.
 * lib/io/json_continuation.c is compiled into the target with the
 * sanitizers; the rest comes from libhes.  Built by `make fuzz`; seeds in
 * tests/fuzz/corpus_continuation.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static hes_system *juggler; /* one system for every input (the harness's own state) */
    hes_continuation c;
    hes_error err;
    double from, to;
    if (!juggler && hes_system_new(hes_problem_find("paddle-juggler"), &juggler, &err) != HES_OK)
        abort();
    hes_status st = hes_continuation_from_json((const char *)data, size, NULL, &c, &from, &to,
                                               &err);
    if (st == HES_OK && (c.n_points < 1 || !c.points || c.n < 1 || !(from == from)))
        abort();
    hes_continuation_free(&c);
    if (st == HES_OK && hes_continuation_from_json((const char *)data, size, juggler, &c, NULL,
                                                   NULL, &err) == HES_OK) {
        for (int i = 0; i < c.n_points; i++)
            if (!c.points[i].x0 || (c.n_guards > 0 && !c.points[i].margins))
                abort();
        hes_continuation_free(&c);
    }
    if (strlen(err.message) >= sizeof err.message)
        abort();
    return 0;
}
