/*
 * fuzz_robot.c - libFuzzer target of the robot model description reader
 * (hes_robot_model_read, lib/io/json_robot.c): the bytes as a description
 * (DESC.json) in a folder that holds the robot files of share/robots, as
 * `hes analyze --robot DESC.json` reads one; the model, when it builds, is
 * freed.  lib/io/json_robot.c, lib/io/json_input.c and lib/model/robot_xml.c
 * are compiled into the target with the sanitizers; the rest of the library
 * comes from libhes.a (its internal functions are not exported by
 * libhes.so).  MuJoCo compiles the robot file at every input that gets that
 * far, so this target runs about a thousand inputs a second.  Built by
 * `make fuzz`; seeds in tests/fuzz/corpus_robot.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hes.h"

#ifndef FUZZ_ROBOTS_DIR
#define FUZZ_ROBOTS_DIR "share/robots"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], desc[96];   /* the harness's folder, made once */

static void copy(const char *from, const char *to)
{
    char *text;
    size_t n;
    if (hes_input_read(from, 0, &text, &n, NULL) != HES_OK)
        return;
    FILE *f = fopen(to, "wb");
    if (f) {
        fwrite(text, 1, n, f);
        fclose(f);
    }
    free(text);
}

static void cleanup(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[512];
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

static void setup(void)
{
    const char *src = getenv("HES_FUZZ_ROBOTS");
    if (!src)
        src = FUZZ_ROBOTS_DIR;
    snprintf(dir, sizeof dir, "/tmp/hes-fuzz-robot.XXXXXX");
    if (!mkdtemp(dir))
        abort();
    atexit(cleanup);
    DIR *d = opendir(src);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if ((l > 4 && strcmp(e->d_name + l - 4, ".xml") == 0) ||
            (l > 5 && strcmp(e->d_name + l - 5, ".urdf") == 0)) {
            char from[512], to[512];
            snprintf(from, sizeof from, "%s/%s", src, e->d_name);
            snprintf(to, sizeof to, "%s/%s", dir, e->d_name);
            copy(from, to);
        }
    }
    if (d)
        closedir(d);
    snprintf(desc, sizeof desc, "%s/desc.json", dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0])
        setup();
    int fd = open(desc, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || (size > 0 && write(fd, data, size) != (ssize_t)size))
        abort();
    close(fd);
    hes_error msg;
    hes_model *m = NULL;
    if (hes_robot_model_read(desc, &m, &msg) == HES_OK)
        hes_model_destroy(m);
    return 0;
}
