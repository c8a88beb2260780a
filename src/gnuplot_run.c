/*
 * gnuplot_run.c - gnuplot on a picture, no data becoming code (see
 * gnuplot_run.h): a private directory with the data files, the script (a
 * constant of the program, after the terminal and output lines written
 * here), `gnuplot -c SCRIPT DIR ARGS...` started without a shell, and the
 * picture checked to be complete before it is copied to its place with
 * every write checked (gnuplot itself exits 0 when it cannot write).
 */
#define _GNU_SOURCE /* vasprintf */
#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "gnuplot_run.h"

extern char **environ;

/* The terminal for out's extension (a constant), or NULL. */
static const char *terminal(const char *out)
{
    const char *dot = strrchr(out, '.');
    if (dot && strcmp(dot, ".png") == 0)
        return "pngcairo size 900,650 font 'sans,11'";
    if (dot && strcmp(dot, ".svg") == 0)
        return "svg size 900,650 font 'sans,11'";
    return NULL;
}

int gp_begin(gp_run *r, const char *tmpdir, const char *out)
{
    memset(r, 0, sizeof *r);
    if (!terminal(out)) {
        fprintf(stderr, "hes plot: -o OUT.png or OUT.svg is required\n");
        return CLI_EXIT_USAGE;
    }
    snprintf(r->dir, sizeof r->dir, "%s/hes-plot-XXXXXX", tmpdir);
    if (!mkdtemp(r->dir)) {
        fprintf(stderr, "hes plot: cannot create a directory in %s: %s\n", tmpdir,
                strerror(errno));
        r->dir[0] = '\0';
        return CLI_EXIT_FAILURE;
    }
    snprintf(r->pic, sizeof r->pic, "%s/picture%s", r->dir, strrchr(out, '.'));
    return CLI_EXIT_OK;
}

FILE *gp_data(gp_run *r, const char *name)
{
    char path[600];
    if (r->n_files == (int)(sizeof r->files / sizeof r->files[0])) {
        fprintf(stderr, "hes plot: too many data files\n");
        return NULL;
    }
    snprintf(r->files[r->n_files++], sizeof r->files[0], "%s", name);
    snprintf(path, sizeof path, "%s/%s", r->dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "hes plot: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

int gp_data_close(gp_run *r, FILE *f, const char *name)
{
    int bad = ferror(f);
    errno = 0;
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "hes plot: cannot write %s/%s: %s\n", r->dir, name,
                strerror(errno ? errno : EIO));
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

int gp_arg(gp_run *r, const char *fmt, ...)
{
    va_list ap;
    char *s = NULL;
    if (r->n_args == GP_MAX_ARGS) {
        fprintf(stderr, "hes plot: too many strings for gnuplot\n");
        return CLI_EXIT_FAILURE;
    }
    va_start(ap, fmt);
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0) {
        fprintf(stderr, "hes plot: out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    r->args[r->n_args++] = s;
    return CLI_EXIT_OK;
}

/* gnuplot's picture is complete: a PNG ends with its IEND chunk, an SVG
 * with </svg>.  -1: there is none at all. */
static int complete_picture(const char *pic)
{
    static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    unsigned char tail[64];
    FILE *f = fopen(pic, "rb");
    if (!f)
        return -1;
    long n = fseek(f, -(long)sizeof tail, SEEK_END) == 0 ? (long)sizeof tail : 0;
    if (n == 0)
        rewind(f);
    n = (long)fread(tail, 1, sizeof tail, f);
    fclose(f);
    if (n == 0)
        return -1;
    const char *dot = strrchr(pic, '.');
    if (dot && strcmp(dot, ".png") == 0)
        return n >= 12 && memcmp(tail + n - 12, iend, 12) == 0;
    for (long i = 0; i + 6 <= n; i++)
        if (memcmp(tail + i, "</svg>", 6) == 0)
            return 1;
    return 0;
}

/* Copies the picture pic to out, every write checked; on failure says why
 * and removes a regular out rather than leave it cut. */
static int deliver(const char *pic, const char *out)
{
    char buf[65536];
    struct stat st;
    int err = 0, regular = 0;
    FILE *in = fopen(pic, "rb"), *o = in ? fopen(out, "wb") : NULL;
    if (!in || !o) {
        int e = errno;
        if (in)
            fclose(in);
        fprintf(stderr, "hes plot: cannot write %s: %s\n", in ? out : pic, strerror(e));
        return CLI_EXIT_FAILURE;
    }
    regular = fstat(fileno(o), &st) == 0 && S_ISREG(st.st_mode);
    for (size_t n; !err && (n = fread(buf, 1, sizeof buf, in)) > 0;)
        if (fwrite(buf, 1, n, o) != n)
            err = errno ? errno : EIO;
    if (!err && ferror(in))
        err = EIO;
    if (!err && fflush(o) != 0)
        err = errno ? errno : EIO;
    errno = 0;
    if (fclose(o) != 0 && !err)
        err = errno ? errno : EIO;
    fclose(in);
    if (!err)
        return CLI_EXIT_OK;
    int removed = regular && remove(out) == 0;
    fprintf(stderr, "hes plot: cannot write %s: %s%s\n", out, strerror(err),
            removed ? " (the incomplete file is removed)" : "");
    return CLI_EXIT_FAILURE;
}

/* The script: the terminal and output, then the plot's own text. */
static int write_script(gp_run *r, const char *path, const char *script, const char *out)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "hes plot: cannot write %s: %s\n", path, strerror(errno));
        return CLI_EXIT_FAILURE;
    }
    fprintf(f, "set terminal %s\nset termoption noenhanced\nd = ARGV[1]\n"
               "set output d.'/picture%s'\n%s", terminal(out), strrchr(out, '.'), script);
    (void)r;
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "hes plot: cannot write %s\n", path);
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

int gp_draw(gp_run *r, const char *script, const char *out)
{
    const char *prog = getenv("HES_GNUPLOT");
    char path[600];
    if (!prog || !*prog)
        prog = "gnuplot";
    snprintf(path, sizeof path, "%s/plot.gp", r->dir);
    int rc = write_script(r, path, script, out);
    if (rc != CLI_EXIT_OK)
        return rc;
    char *argv[GP_MAX_ARGS + 5] = { (char *)prog, "-c", path, r->dir };
    for (int k = 0; k < r->n_args; k++)
        argv[4 + k] = r->args[k];
    argv[4 + r->n_args] = NULL;
    pid_t pid;
    int e = posix_spawnp(&pid, prog, NULL, NULL, argv, environ), status;
    if (e != 0) {
        fprintf(stderr, "hes plot: %s %s: install gnuplot (Debian: gnuplot-nox) or set "
                "HES_GNUPLOT\n", prog, e == ENOENT ? "not found" : strerror(e));
        return CLI_EXIT_FAILURE;
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            fprintf(stderr, "hes plot: waiting for %s: %s\n", prog, strerror(errno));
            return CLI_EXIT_FAILURE;
        }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "hes plot: gnuplot failed (its messages are above)\n");
        return CLI_EXIT_FAILURE;
    }
    int complete = complete_picture(r->pic);
    if (complete < 0) {
        fprintf(stderr, "hes plot: gnuplot stopped without drawing the picture\n");
        return CLI_EXIT_FAILURE;
    }
    if (complete == 0) {
        fprintf(stderr, "hes plot: gnuplot did not write a complete picture to %s (is the disk "
                "full?)\n", r->pic);
        return CLI_EXIT_FAILURE;
    }
    return deliver(r->pic, out);
}

void gp_end(gp_run *r)
{
    char path[700];
    if (r->dir[0]) {
        for (int k = 0; k < r->n_files; k++) {
            snprintf(path, sizeof path, "%s/%s", r->dir, r->files[k]);
            remove(path);
        }
        snprintf(path, sizeof path, "%s/plot.gp", r->dir);
        remove(path);
        remove(r->pic);
        rmdir(r->dir);
    }
    for (int k = 0; k < r->n_args; k++)
        free(r->args[k]);
    memset(r, 0, sizeof *r);
}

int gp_picture(const char *tmpdir, const char *out, gp_writer write, void *ctx,
               const char *script)
{
    gp_run r;
    int rc = gp_begin(&r, tmpdir, out);
    if (rc == CLI_EXIT_OK && (rc = write(&r, ctx)) == CLI_EXIT_OK)
        rc = gp_draw(&r, script, out);
    gp_end(&r);
    return rc;
}

void gp_number(FILE *g, double v, const char *after)
{
    if (isfinite(v))
        fprintf(g, "%.17g%s", v, after);
    else
        fprintf(g, "NaN%s", after);
}
