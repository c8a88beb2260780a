/*
 * cli_problem.c - the PROBLEM argument of a command: a built-in model by
 * name, the model of --model PATH or --robot DESC.json (which stands in the
 * argument list as a placeholder, never as its name), or the derived model
 * of a gait file (--orbit FILE).
 */
#include <string.h>

#include "cli.h"

/* The model of --model PATH (a hybrid model or an ESS model) or --robot
 * DESC.json, set once at start-up by cli_take_model_option or
 * cli_take_robot_option (program state, not the library's). */
static const hes_model *plugin_model;
static const hes_ess_model *plugin_ess_model;
/* The option that gave it ("--model ", "--robot ") and its path. */
static const char *plugin_option = "";
static const char *plugin_path = "";

/* What stands in the argument list, in the place of PROBLEM, for that
 * model: a string of this program, recognised by its address and never by
 * its text.  The model's own name never enters the argument list, where
 * getopt would read "--help" or "-p" as an option. */
static char loaded_model_arg[] = "(the model of --model or --robot)";

int cli_is_loaded_model(const char *arg)
{
    return arg == loaded_model_arg;
}

const char *cli_problem_name(const char *arg)
{
    if (arg == loaded_model_arg)
        return plugin_model ? plugin_model->name : plugin_ess_model ? plugin_ess_model->name : arg;
    return arg;
}

void cli_problem_words(const char *arg, const char **option, const char **word)
{
    int loaded = arg == loaded_model_arg;
    *option = loaded ? plugin_option : "";
    *word = loaded ? plugin_path : arg;
}

const hes_ess_model *cli_find_ess_problem(const char *name)
{
    if (name == loaded_model_arg)
        return plugin_ess_model;
    if (plugin_ess_model && strcmp(name, plugin_ess_model->name) == 0)
        return plugin_ess_model;
    if (plugin_model && strcmp(name, plugin_model->name) == 0)
        return NULL;   /* the plugin hides a built-in of its name */
    return hes_ess_problem_find(name);
}

const hes_model *cli_find_problem(const char *arg)
{
    const char *name = cli_problem_name(arg);
    if (plugin_model && (arg == loaded_model_arg || strcmp(name, plugin_model->name) == 0))
        return plugin_model;
    const hes_model *model = cli_find_ess_problem(arg) ? NULL : hes_problem_find(name);

    if (!model && cli_find_ess_problem(name))
        fprintf(stderr, "hes: '%s' is an event-selected system: 'hes info', 'hes "
                "simulate --integrator ess', 'hes analyze' and 'hes sweep' take it\n", name);
    else if (!model && hes_impact_problem_find(name))
        fprintf(stderr, "hes: '%s' is an impact problem: 'hes impact %s' and 'hes plot "
                "impact-set %s' take it\n", name, name, name);
    else if (!model)
        fprintf(stderr, "hes: unknown problem '%s' (try 'hes list')\n", name);
    return model;
}

const hes_model *cli_model_for(const char *problem, const char *orbit_file, cli_orbit *o,
                               int *exit_code)
{
    char name[128];
    hes_error msg;
    memset(o, 0, sizeof *o);
    *exit_code = CLI_EXIT_USAGE;
    if (!orbit_file)
        return cli_find_problem(problem);
    problem = problem ? cli_problem_name(problem) : NULL;
    if (hes_gait_problem(orbit_file, name, sizeof name, &msg) != HES_OK) {
        fprintf(stderr, "hes: --orbit %s: %s\n", orbit_file, msg.message);
        return NULL;
    }
    if (problem && strcmp(problem, name) != 0) {
        fprintf(stderr, "hes: --orbit %s is a gait of '%s', not of '%s'\n", orbit_file, name,
                problem);
        return NULL;
    }
    if (!(plugin_model && strcmp(name, plugin_model->name) == 0) && !hes_problem_find(name)) {
        fprintf(stderr, "hes: --orbit %s is a gait of model '%s', which is not built in%s: "
                "give the plugin or robot that defines it (--model PATH.so, --robot "
                "DESC.json)\n", orbit_file, name, plugin_model ? " nor the one loaded" : "");
        return NULL;
    }
    const hes_model *base = cli_find_problem(name);
    if (!base)
        return NULL;
    if (hes_gait_read(orbit_file, base, &o->gait, &msg) != HES_OK) {
        fprintf(stderr, "hes: --orbit %s: %s\n", orbit_file, msg.message);
        return NULL;
    }
    if (hes_gait_model(&o->gait, base, &o->model, &msg) != HES_OK) {
        fprintf(stderr, "hes: --orbit %s: %s\n", orbit_file, msg.message);
        hes_gait_free(&o->gait);
        return NULL;
    }
    *exit_code = CLI_EXIT_OK;
    return o->model;
}

void cli_orbit_free(cli_orbit *o)
{
    hes_model_destroy(o->model);
    hes_gait_free(&o->gait);
    memset(o, 0, sizeof *o);
}

/* A model given by an option (--model, --robot DESC.json) becomes the
 * program's plugin model, loaded_model_arg in place of the option's `used`
 * arguments at argv[i] (where PROBLEM goes). */
static void put_model(int *argc, char **argv, int i, int used, const hes_model *m,
                      const hes_ess_model *em, const char *what, const char *option,
                      const char *path)
{
    const char *name = m ? m->name : em->name;
    if (hes_problem_find(name) || hes_ess_problem_find(name))
        fprintf(stderr, "hes: note: %s '%s' hides the built-in problem of that name\n", what,
                name);
    plugin_model = m;
    plugin_ess_model = em;
    plugin_option = option;
    plugin_path = path;
    argv[i] = loaded_model_arg;
    for (int k = i + 1; k + used - 1 < *argc; k++)
        argv[k] = argv[k + used - 1];
    *argc -= used - 1;
}

int cli_take_model_option(int *argc, char **argv, hes_plugin **plugin)
{
    *plugin = NULL;
    for (int i = 1; i < *argc; i++) {
        const char *path = NULL;
        int used = 0;
        if (strcmp(argv[i], "--model") == 0) {
            if (i + 1 >= *argc) {
                fprintf(stderr, "hes: --model needs PATH (a plugin, e.g. ./model.so)\n");
                return CLI_EXIT_USAGE;
            }
            path = argv[i + 1];
            used = 2;
        } else if (strncmp(argv[i], "--model=", 8) == 0) {
            path = argv[i] + 8;
            used = 1;
        } else if (strcmp(argv[i], "--") == 0) {
            break;
        }
        if (!path)
            continue;
        for (int k = i + used; k < *argc && strcmp(argv[k], "--") != 0; k++)
            if (strcmp(argv[k], "--model") == 0 || strncmp(argv[k], "--model=", 8) == 0) {
                fprintf(stderr, "hes: --model given twice (one plugin only)\n");
                return CLI_EXIT_USAGE;
            }
        hes_error msg;
        const hes_model *m;
        const hes_ess_model *em;
        hes_status st = hes_plugin_open_any(path, plugin, &m, &em, &msg);
        if (st != HES_OK) {
            fprintf(stderr, "hes: --model: %s\n", msg.message);
            return CLI_EXIT_USAGE;
        }
        put_model(argc, argv, i, used, m, em, "plugin model", "--model ", path);
        return CLI_EXIT_OK;
    }
    return CLI_EXIT_OK;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

/* --robot DESC.json or --robot=DESC.json at argv[i]: the arguments it
 * takes (0: not one) and the path. */
static int robot_desc_at(int argc, char **argv, int i, const char **path)
{
    if (strcmp(argv[i], "--robot") == 0 && i + 1 < argc && ends_with(argv[i + 1], ".json")) {
        *path = argv[i + 1];
        return 2;
    }
    if (strncmp(argv[i], "--robot=", 8) == 0 && ends_with(argv[i], ".json")) {
        *path = argv[i] + 8;
        return 1;
    }
    return 0;
}

/* --robot with a robot file (not DESC.json) for a command that takes only
 * descriptions: what a description is and where one is. */
static int robot_file_refused(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "hes info") == 0 || strcmp(argv[1], "hes impact") == 0)
        return 0;
    for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *file = strcmp(argv[i], "--robot") == 0 && i + 1 < argc ? argv[i + 1]
                         : strncmp(argv[i], "--robot=", 8) == 0 ? argv[i] + 8 : NULL;
        if (file && !ends_with(file, ".json")) {
            fprintf(stderr, "%s: --robot takes a robot model's description, DESC.json: the "
                    "robot file it names with its modes, transitions and orbit (for example "
                    "share/robots/knee_biped.json of knee_biped.xml); a robot file alone "
                    "(.xml, .urdf) has no modes to analyse: 'hes info --robot FILE' lists "
                    "what it has\n", argv[1]);
            return CLI_EXIT_USAGE;
        }
    }
    return 0;
}

int cli_take_robot_option(int *argc, char **argv, hes_model **model)
{
    *model = NULL;
    int refused = robot_file_refused(*argc, argv);
    if (refused)
        return refused;
    for (int i = 1; i < *argc && strcmp(argv[i], "--") != 0; i++) {
        const char *path, *other;
        int used = robot_desc_at(*argc, argv, i, &path);
        if (!used)
            continue;
        if (plugin_model || plugin_ess_model) {
            fprintf(stderr, "hes: --model and --robot DESC.json both give the model (one "
                    "only)\n");
            return CLI_EXIT_USAGE;
        }
        for (int k = i + used; k < *argc && strcmp(argv[k], "--") != 0; k++)
            if (robot_desc_at(*argc, argv, k, &other)) {
                fprintf(stderr, "hes: --robot DESC.json given twice (one model only)\n");
                return CLI_EXIT_USAGE;
            }
        hes_error msg;
        hes_status st = hes_robot_model_read(path, model, &msg);
        if (st != HES_OK) {
            fprintf(stderr, "hes: --robot: %s\n", msg.message);
            return st == HES_ESOLVER ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
        }
        put_model(argc, argv, i, used, *model, NULL, "robot model", "--robot ", path);
        return CLI_EXIT_OK;
    }
    return CLI_EXIT_OK;
}
