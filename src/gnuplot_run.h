/*
 * gnuplot_run.h - running gnuplot on a picture so that no data becomes
 * code (gnuplot_run.c).  Everything a plot shows from outside the program
 * (numbers, names from tables, models and robot descriptions, paths)
 * reaches gnuplot as data: numbers and curve names in data files of a
 * private temporary directory (names as the files' column headers, read
 * by columnheader()), and the few other strings (titles, axis labels, the
 * directory itself) as the script's arguments, ARGV[1] to ARGV[8] of
 * `gnuplot -c SCRIPT ARGS...`, which gnuplot holds as string values and
 * never parses.  The script is a constant of the program.  gnuplot is
 * started directly (posix_spawnp), no shell in between.
 */
#ifndef HES_GNUPLOT_RUN_H
#define HES_GNUPLOT_RUN_H

#include <stdio.h>

/* gnuplot -c takes at most 9 arguments: the directory and 8 strings. */
#define GP_MAX_ARGS 8

typedef struct {
    char dir[512];              /* the private directory (mkdtemp) */
    char pic[600];              /* dir/picture.png|svg: what gnuplot draws into */
    char *args[GP_MAX_ARGS];    /* ARGV[2] ... */
    int n_args;
    int n_files;
    char files[16][64];         /* the data files made, to remove */
} gp_run;

/* A private directory in tmpdir for a picture of out's kind (.png or .svg).
 * Returns 0, or the exit status after saying why. */
int gp_begin(gp_run *r, const char *tmpdir, const char *out);
/* The data file dir/name, open for writing; NULL after saying why. */
FILE *gp_data(gp_run *r, const char *name);
/* Closes a data file, every write checked: 0, or the exit status after
 * saying why. */
int gp_data_close(gp_run *r, FILE *f, const char *name);
/* The next string argument (ARGV[2], ARGV[3], ...), printf-style: 0, or the
 * exit status after saying why. */
int gp_arg(gp_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Runs gnuplot (HES_GNUPLOT: another program) on the script (a constant
 * text that starts after the terminal and output lines this function
 * writes: `d` names the directory and the data are d.'/NAME'), checks that
 * it exited 0 and drew a complete picture, and copies the picture to out
 * with every write checked.  Returns the exit status. */
int gp_draw(gp_run *r, const char *script, const char *out);
/* Removes the directory and what is in it; frees the arguments. */
void gp_end(gp_run *r);

/* Puts a picture's data into the run's files and its string arguments:
 * 0, or the exit status after saying why. */
typedef int (*gp_writer)(gp_run *r, void *ctx);
/* A whole picture: the run begun, write(r, ctx), gnuplot drawn with the
 * script, the run ended.  Returns the exit status. */
int gp_picture(const char *tmpdir, const char *out, gp_writer write, void *ctx,
               const char *script);
/* A number of a data file, NaN where it is not finite, then `after`. */
void gp_number(FILE *g, double v, const char *after);

#endif
