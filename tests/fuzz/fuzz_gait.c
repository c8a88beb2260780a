/*
 * fuzz_gait.c - libFuzzer target of the gait file reader: the bytes as a
 * gait file (in a memfd, read through its /proc/self/fd path, as `hes
 * analyze --orbit FILE` reads one), its problem found (hes_gait_problem,
 * hes_problem_find), read (hes_gait_read) and, when it reads, its derived
 * model built and freed (hes_gait_model).  lib/io/gait_json.c and lib/shaping/gait.c
 * are compiled into the target with the sanitizers; the rest comes from
 * libhes.  Built by `make fuzz`; seeds in tests/fuzz/corpus_gait.
 */
#define _GNU_SOURCE /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1; /* one file for every input (the harness's own state) */
    static char path[64];
    char name[128];
    hes_error msg;
    if (fd < 0) {
        if ((fd = memfd_create("gait.json", 0)) < 0)
            abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || (size > 0 && pwrite(fd, data, size, 0) != (ssize_t)size))
        abort();
    if (hes_gait_problem(path, name, sizeof name, &msg) != 0)
        return 0;
    const hes_model *base = hes_problem_find(name);
    if (!base)
        return 0;
    hes_gait g;
    if (hes_gait_read(path, base, &g, &msg) != 0)
        return 0;
    hes_model *m;
    if (hes_gait_model(&g, base, &m, &msg) == HES_OK)
        hes_model_destroy(m);
    hes_gait_free(&g);
    return 0;
}
