/*
 * main.c - entry point of the hes program: handles `hes --help` and
 * `hes --version` and dispatches `hes CMD ...` to the subcommand's cmd_*()
 * function (one file per subcommand, lib/README.md, section 2).  The subcommands
 * parse their own options with getopt_long.  Whatever a command printed,
 * standard output is flushed and closed here and a failed write (a full
 * disk, /dev/full, a closed descriptor) is exit status 1 with the reason.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"list", cmd_list, "list the built-in problems"},
    {"info", cmd_info, "describe a problem: modes, transitions, parameters, orbit"},
    {"analyze", cmd_analyze, "find the periodic orbit and its stability"},
    {"simulate", cmd_simulate, "perturb the orbit and watch the errors decay or grow"},
    {"shape", cmd_shape, "optimise the shape parameters to minimise psi"},
    {"trajopt", cmd_trajopt, "collocate the orbit and minimise its psi (direct collocation)"},
    {"sweep", cmd_sweep, "batch stability analysis over a grid, a list or a random sample"},
    {"continue", cmd_continue, "follow the orbit along a parameter: its stability and bifurcations"},
    {"impact", cmd_impact, "resolve a simultaneous impact with friction: its set of outcomes"},
    {"invdyn", cmd_invdyn, "joint torques and contact forces of a robot's motion (inverse dynamics)"},
    {"plot", cmd_plot, "stability maps, multipliers and convergence pictures (gnuplot)"},
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    size_t i;

    fputs("Usage: hes COMMAND [OPTION]... [ARG]...\n"
          "       hes --help | --version\n"
          "Stability of periodic orbits of hybrid systems (saltation matrices) and\n"
          "hybrid event shaping.\n"
          "\n"
          "Commands:\n", out);
    for (i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\n"
          "Run 'hes COMMAND --help' for the options of a command.  Every command that\n"
          "takes a PROBLEM also takes --model PATH.so, a user model built as a plugin,\n"
          "or --robot DESC.json, a robot file's modes and transitions (see hes(1)).\n"
          "Exit status: 0 success, 1 the computation failed, 2 bad usage or input.\n",
          out);
}

static void version(void)
{
#ifdef HAVE_MPI
    printf("hes %s (sweep: threads, MPI)\n", PACKAGE_VERSION);
#else
    printf("hes %s (sweep: threads)\n", PACKAGE_VERSION);
#endif
    printf("features: %s\n", hes_features());
}

#ifdef HAVE_OPENBLAS_SET_NUM_THREADS
void openblas_set_num_threads(int n);
#endif

/* Standard output written out and closed: the exit status rc, or 1 after
 * saying why when a write failed and the command itself succeeded (a
 * command that failed has said why already). */
static int close_stdout(int rc)
{
    int failed = ferror(stdout);
    errno = 0;
    if (fclose(stdout) != 0)
        failed = 1;
    else
        errno = failed ? EIO : 0;
    if (failed && rc == CLI_EXIT_OK) {
        fprintf(stderr, "hes: write error on standard output: %s\n", strerror(errno ? errno : EIO));
        rc = CLI_EXIT_FAILURE;
    }
    return rc;
}

static int run(int argc, char **argv)
{
    char display[64];
    size_t i;

#ifdef HAVE_OPENBLAS_SET_NUM_THREADS
    /* hes's matrices are tiny: BLAS threads only add synchronisation (the
     * SLIP trajopt takes 12.3 s with them on 2 cores, 3.7 s without) */
    openblas_set_num_threads(1);
#endif

    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (argc > 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
                     strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
        fprintf(stderr, "hes: %s takes no arguments (got '%s'); for a command's help: "
                "hes COMMAND --help\n", argv[1], argv[2]);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        version();
        return CLI_EXIT_OK;
    }
    if (argv[1][0] == '-') {
        fprintf(stderr, "hes: unknown option '%s'\n", argv[1]);
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    for (i = 0; i < N_COMMANDS; i++) {
        if (strcmp(argv[1], commands[i].name) == 0) {
            /* The command sees argv[0] = "hes CMD", which getopt prints in
             * its own messages. */
            snprintf(display, sizeof display, "hes %s", commands[i].name);
            argv[1] = display;
            hes_plugin *plugin;
            hes_model *robot = NULL;
            int rc = cli_take_model_option(&argc, argv, &plugin);
            if (rc == CLI_EXIT_OK)
                rc = cli_take_robot_option(&argc, argv, &robot);
            if (rc == CLI_EXIT_OK)
                rc = commands[i].run(argc - 1, argv + 1);
            hes_model_destroy(robot);
            hes_plugin_destroy(plugin);
            return rc;
        }
    }
    fprintf(stderr, "hes: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return CLI_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    return close_stdout(run(argc, argv));
}
