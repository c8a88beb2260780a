/*
 * cli_common.c - helpers shared by the subcommands of the hes program:
 * problem lookup, strict number parsing, the -p NAME=VALUE assignments, and
 * the mapping of a library status to a message and an exit status.
 *
 * All messages go to stderr and start with "hes: "; stdout is reserved for
 * the command's result (one JSON object with --json).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The model of --model PATH (a hybrid model or an ESS model) or --robot
 * DESC.json, set once at start-up by cli_take_model_option or
 * cli_take_robot_option (program state, not the library's). */
static const hes_model *plugin_model;
static const hes_ess_model *plugin_ess_model;

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

/* strtod/strtol skip leading blanks and accept an empty string as 0; a
 * command-line number must be exactly a number. */
static int number_text_plausible(const char *text)
{
    return text && text[0] != '\0' && !isspace((unsigned char)text[0]);
}

int cli_parse_double(const char *text, double *value)
{
    char *end;
    double v;

    if (!number_text_plausible(text))
        return -1;
    errno = 0;
    v = strtod(text, &end);
    if (end == text || *end != '\0')
        return -1;
    if (!isfinite(v))
        return -2; /* "nan", "inf", or an overflow to HUGE_VAL */
    *value = v;
    return 0;
}

int cli_parse_int(const char *text, int *value)
{
    char *end;
    long v;

    if (!number_text_plausible(text))
        return -1;
    errno = 0;
    v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || v < INT_MIN || v > INT_MAX)
        return -1;
    *value = (int)v;
    return 0;
}

int cli_parse_ulong(const char *text, unsigned long *value)
{
    char *end;
    unsigned long v;

    /* strtoul accepts "-1" and wraps it around; a seed is never negative. */
    if (!number_text_plausible(text) || text[0] == '-')
        return -1;
    errno = 0;
    v = strtoul(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE)
        return -1;
    *value = v;
    return 0;
}

void cli_assignments_init(cli_assignments *a)
{
    a->n = 0;
    a->cap = 0;
    a->items = NULL;
    a->no_check_derivatives = 0;
}

int cli_assignments_add(cli_assignments *a, const char *item)
{
    if (a->n == a->cap) {
        int cap = a->cap ? 2 * a->cap : 8;
        const char **items = realloc(a->items, (size_t)cap * sizeof *items);

        if (!items) {
            fprintf(stderr, "hes: out of memory\n");
            return -1;
        }
        a->items = items;
        a->cap = cap;
    }
    a->items[a->n++] = item;
    return 0;
}

void cli_assignments_free(cli_assignments *a)
{
    free(a->items);
    cli_assignments_init(a);
}

/* What -p NAME=VALUE assigns to: a hybrid system or an ESS integrator. */
typedef struct {
    const char *problem;
    const hes_param *params;
    int n_params;
    hes_status (*set)(void *obj, const char *name, double value);
    const char *(*errmsg)(const void *obj);
    void *obj;
} param_target;

static void print_valid_params(FILE *out, const param_target *t)
{
    int i;

    if (t->n_params == 0) {
        fprintf(out, "hes: problem '%s' has no parameters\n", t->problem);
        return;
    }
    fprintf(out, "hes: valid parameters of '%s':", t->problem);
    for (i = 0; i < t->n_params; i++)
        fprintf(out, "%s %s", i ? "," : "", t->params[i].name);
    fputc('\n', out);
}

static int param_known(const param_target *t, const char *name)
{
    for (int i = 0; i < t->n_params; i++)
        if (strcmp(t->params[i].name, name) == 0)
            return 1;
    return 0;
}

/* Applies one "NAME=VALUE"; returns 0 or CLI_EXIT_USAGE after printing. */
static int apply_one(const param_target *t, const char *item)
{
    const char *eq = strchr(item, '=');
    char name[128];
    size_t len;
    double value;
    int rc;
    hes_status st;

    if (!eq || eq == item) {
        fprintf(stderr, "hes: -p expects NAME=VALUE, got '%s'\n", item);
        return CLI_EXIT_USAGE;
    }
    len = (size_t)(eq - item);
    if (len >= sizeof name) {
        fprintf(stderr, "hes: unknown parameter '%.*s'\n", (int)len, item);
        print_valid_params(stderr, t);
        return CLI_EXIT_USAGE;
    }
    memcpy(name, item, len);
    name[len] = '\0';

    if (!param_known(t, name)) {
        fprintf(stderr, "hes: unknown parameter '%s' for problem '%s'\n",
                name, t->problem);
        print_valid_params(stderr, t);
        return CLI_EXIT_USAGE;
    }
    rc = cli_parse_double(eq + 1, &value);
    if (rc == -2) {
        fprintf(stderr, "hes: parameter '%s': '%s' is not a finite number\n",
                name, eq + 1);
        return CLI_EXIT_USAGE;
    }
    if (rc != 0) {
        fprintf(stderr, "hes: parameter '%s': '%s' is not a number\n",
                name, eq + 1);
        return CLI_EXIT_USAGE;
    }
    st = t->set(t->obj, name, value);
    if (st != HES_OK) {
        const char *detail = t->errmsg(t->obj);

        fprintf(stderr, "hes: -p %s: %s\n", item,
                detail && detail[0] ? detail : hes_strerror(st));
        return CLI_EXIT_USAGE;
    }
    return 0;
}

/* Length of the NAME of "NAME=VALUE" (the whole item without '='). */
static size_t name_length(const char *item)
{
    const char *eq = strchr(item, '=');
    return eq ? (size_t)(eq - item) : strlen(item);
}

int cli_assignment_param(const hes_model *model, const char *item)
{
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)name_length(item), item);
    return hes_model_param_index(model, name);
}

static int apply_all(const param_target *t, const cli_assignments *a)
{
    int i, j, rc;

    /* a second value for a name would silently replace the first */
    for (i = 0; i < a->n; i++)
        for (j = 0; j < i; j++) {
            size_t len = name_length(a->items[i]);
            if (len > 0 && len == name_length(a->items[j]) &&
                strncmp(a->items[i], a->items[j], len) == 0) {
                fprintf(stderr, "hes: -p %.*s given twice ('%s' and '%s')\n", (int)len,
                        a->items[i], a->items[j], a->items[i]);
                return CLI_EXIT_USAGE;
            }
        }
    for (i = 0; i < a->n; i++) {
        rc = apply_one(t, a->items[i]);
        if (rc != 0)
            return rc;
    }
    return 0;
}

static hes_status system_set(void *obj, const char *name, double value)
{
    return hes_system_set_param(obj, name, value);
}

static const char *system_errmsg(const void *obj)
{
    return hes_system_errmsg(obj);
}

int cli_apply_params(hes_system *sys, const cli_assignments *a)
{
    const hes_model *m = hes_system_model(sys);
    param_target t = { hes_system_name(sys), hes_system_param_info(sys, 0),
                       hes_system_n_params(sys), system_set, system_errmsg, sys };
    int rc = apply_all(&t, a);
    /* a solved parameter's value is where Newton starts, not a setting: the
       orbit's own value replaces it, so the user is told */
    for (int i = 0; m && rc == 0 && i < a->n; i++) {
        int k = cli_assignment_param(m, a->items[i]);
        if (k >= 0 && (m->params[k].flags & HES_PARAM_SOLVED))
            fprintf(stderr, "hes: note: %s is solved for by the orbit search: the value given "
                    "is only where the search starts, and the orbit's own value replaces it "
                    "(hes info %s lists the solved parameters)\n", m->params[k].name, m->name);
    }
    return rc;
}

static hes_status ess_set(void *obj, const char *name, double value)
{
    return hes_ess_set_param(obj, name, value);
}

static const char *ess_errmsg(const void *obj)
{
    return hes_ess_errmsg(obj);
}

int cli_apply_ess_params(hes_ess *ess, const cli_assignments *a)
{
    const hes_ess_model *m = hes_ess_get_model(ess);
    param_target t = { m->name, m->params, m->n_params, ess_set, ess_errmsg, ess };
    return apply_all(&t, a);
}

int cli_once(const char *cmd, const struct option *longopts, int code, unsigned char *seen)
{
    const struct option *o;

    if (code < 0 || code >= CLI_OPTION_CODES)
        return 0;
    if (!seen[code]) {
        seen[code] = 1;
        return 0;
    }
    for (o = longopts; o->name; o++)
        if (o->val == code && !o->flag)
            break;
    if (o->name)
        fprintf(stderr, "%s: --%s given twice (one value only)\n", cmd, o->name);
    else
        fprintf(stderr, "%s: -%c given twice (one value only)\n", cmd, code);
    return CLI_EXIT_USAGE;
}

int cli_report_status(hes_status status, const hes_system *sys)
{
    const char *detail = sys ? hes_system_errmsg(sys) : NULL;

    if (detail && detail[0])
        fprintf(stderr, "hes: %s: %s\n", hes_strerror(status), detail);
    else
        fprintf(stderr, "hes: %s\n", hes_strerror(status));
    return hes_status_exit_code(status);
}

/* The -p assignments, --no-check-derivatives and the model's validate() on
 * a new system: sys, or NULL (destroyed) with *exit_code after a message. */
static hes_system *setup(hes_system *sys, const cli_assignments *a, int *exit_code)
{
    hes_status st;
    int rc = cli_apply_params(sys, a);
    if (rc == 0 && a->no_check_derivatives) {
        hes_settings set = hes_system_get_settings(sys);
        set.check_derivatives = 0;
        if ((st = hes_system_set_settings(sys, &set)) != HES_OK)
            rc = cli_report_status(st, sys);
    }
    if (rc != 0) {
        hes_system_destroy(sys);
        *exit_code = rc;
        return NULL;
    }
    /* Each value passed its own range check; the model's validate() judges
     * the combination. */
    st = hes_system_check_params(sys);
    if (st != HES_OK) {
        *exit_code = cli_report_status(st, sys);
        hes_system_destroy(sys);
        return NULL;
    }
    *exit_code = CLI_EXIT_OK;
    return sys;
}

/* A system just created (st, msg from its constructor), set up. */
static hes_system *created(hes_status st, hes_system *sys, const char *name, const char *msg,
                           const cli_assignments *a, int *exit_code)
{
    if (st != HES_OK) {
        fprintf(stderr, "hes: cannot create a system for problem '%s': %s\n", name, msg);
        *exit_code = hes_status_exit_code(st);
        return NULL;
    }
    return setup(sys, a, exit_code);
}

hes_system *cli_system_setup(const hes_model *model, const cli_assignments *a,
                             int *exit_code)
{
    hes_system *sys = NULL;
    char msg[512];
    hes_status st = hes_system_new(model, &sys, msg, sizeof msg);
    return created(st, sys, model->name, msg, a, exit_code);
}

hes_system *cli_system_setup_ess(const hes_ess_model *model, const cli_assignments *a,
                                 int *exit_code)
{
    hes_system *sys = NULL;
    char msg[512];
    hes_status st = hes_system_new_ess(model, &sys, msg, sizeof msg);
    return created(st, sys, model->name, msg, a, exit_code);
}

hes_system *cli_system_for(const char *arg, const cli_assignments *a, int *exit_code)
{
    const hes_ess_model *em = cli_find_ess_problem(arg);
    if (em)
        return cli_system_setup_ess(em, a, exit_code);
    const hes_model *m = cli_find_problem(arg);
    if (!m) {
        *exit_code = CLI_EXIT_USAGE;
        return NULL;
    }
    return cli_system_setup(m, a, exit_code);
}

int cli_parse_vector(const char *text, double **v, int *n)
{
    int count = 1, i = 0;
    const char *s;
    char item[128];

    *v = NULL;
    *n = 0;
    for (s = text; *s; s++)
        count += *s == ',';
    double *out = malloc(sizeof(double) * (size_t)count);
    if (!out)
        return -2;
    for (s = text; i < count; i++) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);

        if (len >= sizeof item)
            break;
        memcpy(item, s, len);
        item[len] = '\0';
        if (cli_parse_double(item, &out[i]) != 0)
            break;
        s += len + 1;
    }
    if (i < count) {
        free(out);
        return -1;
    }
    *v = out;
    *n = count;
    return 0;
}

void cli_print_verdict(const hes_stability *st)
{
    switch (st->verdict) {
    case HES_STABLE:
        printf("stable: psi = %.6g < 1\n", st->psi);
        break;
    case HES_UNSTABLE:
        printf("unstable: psi = %.6g > 1\n", st->psi);
        break;
    default:
        printf("marginal: psi = %.12g is within %.2g (its accuracy) of 1: neither stable nor "
               "unstable as far as this computation can tell\n", st->psi, st->psi_tol);
        break;
    }
}

void cli_print_matrix(FILE *out, const double *a, int n)
{
    for (int i = 0; i < n; i++) {
        fputc(' ', out);
        for (int j = 0; j < n; j++)
            fprintf(out, " % .10e", a[i + (size_t)j * n]);
        fputc('\n', out);
    }
}

void cli_print_vector(FILE *out, const double *v, int n, const char *fmt)
{
    int i;

    fputc('[', out);
    for (i = 0; i < n; i++) {
        if (i)
            fputs(", ", out);
        fprintf(out, fmt, v[i]);
    }
    fputc(']', out);
}

const char *cli_state_name(const hes_model *model, int mode, int i)
{
    const hes_mode *m;

    if (mode < 0 || mode >= model->n_modes)
        return NULL;
    m = &model->modes[mode];
    if (!m->state_names || i < 0 || i >= m->dim)
        return NULL;
    return m->state_names[i];
}

const hes_model *cli_model_for(const char *problem, const char *orbit_file, cli_orbit *o,
                               int *exit_code)
{
    char name[128], msg[512];
    memset(o, 0, sizeof *o);
    *exit_code = CLI_EXIT_USAGE;
    if (!orbit_file)
        return cli_find_problem(problem);
    problem = problem ? cli_problem_name(problem) : NULL;
    if (hes_gait_problem(orbit_file, name, sizeof name, msg, sizeof msg) != HES_OK) {
        fprintf(stderr, "hes: --orbit %s: %s\n", orbit_file, msg);
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
    if (hes_gait_read(orbit_file, base, &o->gait, msg, sizeof msg) != HES_OK) {
        fprintf(stderr, "hes: --orbit %s: %s\n", orbit_file, msg);
        return NULL;
    }
    if (hes_gait_model(&o->gait, base, &o->model, msg, sizeof msg) != HES_OK) {
        fprintf(stderr, "hes: --orbit %s: %s\n", orbit_file, msg);
        hes_gait_free(&o->gait);
        return NULL;
    }
    *exit_code = CLI_EXIT_OK;
    return o->model;
}

void cli_orbit_free(cli_orbit *o)
{
    hes_gait_model_destroy(o->model);
    hes_gait_free(&o->gait);
    memset(o, 0, sizeof *o);
}

/* A model given by an option (--model, --robot DESC.json) becomes the
 * program's plugin model, loaded_model_arg in place of the option's `used`
 * arguments at argv[i] (where PROBLEM goes). */
static void put_model(int *argc, char **argv, int i, int used, const hes_model *m,
                      const hes_ess_model *em, const char *what)
{
    const char *name = m ? m->name : em->name;
    if (hes_problem_find(name) || hes_ess_problem_find(name))
        fprintf(stderr, "hes: note: %s '%s' hides the built-in problem of that name\n", what,
                name);
    plugin_model = m;
    plugin_ess_model = em;
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
        char msg[512];
        const hes_model *m;
        const hes_ess_model *em;
        hes_status st = hes_plugin_load_any(path, plugin, &m, &em, msg, sizeof msg);
        if (st != HES_OK) {
            fprintf(stderr, "hes: --model: %s\n", msg);
            return CLI_EXIT_USAGE;
        }
        put_model(argc, argv, i, used, m, em, "plugin model");
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
        char msg[2048];
        hes_status st = hes_robot_model_load(path, model, msg, sizeof msg);
        if (st != HES_OK) {
            fprintf(stderr, "hes: --robot: %s\n", msg);
            return st == HES_ESOLVER ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
        }
        put_model(argc, argv, i, used, *model, NULL, "robot model");
        return CLI_EXIT_OK;
    }
    return CLI_EXIT_OK;
}

int cli_parse_contacts(const char *cmd, const char *text, hes_robot_contact **out, char **buf)
{
    *out = NULL;
    *buf = strdup(text);
    size_t commas = 1;
    for (const char *p = text; *p; p++)
        commas += *p == ',';
    hes_robot_contact *c = malloc(sizeof *c * commas);
    if (!*buf || !c) {
        free(*buf), free(c);
        *buf = NULL;
        fprintf(stderr, "%s: out of memory\n", cmd);
        return -2;
    }
    int n = 0;
    for (char *tok = strtok(*buf, ","); tok; tok = strtok(NULL, ",")) {
        char *colon = strrchr(tok, ':');
        double mu;
        if (!colon || colon == tok || cli_parse_double(colon + 1, &mu) || !(mu >= 0)) {
            fprintf(stderr, "%s: --contacts expects NAME:MU,... (mu >= 0), got '%s'\n", cmd,
                    text);
            free(*buf), free(c);
            *buf = NULL;
            return -1;
        }
        *colon = '\0';
        for (int i = 0; i < n; i++)
            if (strcmp(c[i].site, tok) == 0) {
                fprintf(stderr, "%s: --contacts names '%s' twice: give each contact once\n",
                        cmd, tok);
                free(*buf), free(c);
                *buf = NULL;
                return -1;
            }
        c[n].site = tok;
        c[n].mu = mu;
        n++;
    }
    if (n == 0) {
        fprintf(stderr, "%s: --contacts expects NAME:MU,... , got '%s'\n", cmd, text);
        free(*buf), free(c);
        *buf = NULL;
        return -1;
    }
    *out = c;
    return n;
}

void cli_print_simultaneous(const hes_model *m, const hes_simultaneous *list, int n)
{
    for (int k = 0; k < n; k++) {
        const hes_simultaneous *s = &list[k];
        printf("\nsimultaneous events: '%s' then '%s' (%.3g apart)\n",
               m->transitions[s->first].name, m->transitions[s->second].name, s->dt);
        if (!isnan(s->coupling))
            printf("  limb coupling (eq. 6, cosine in the M^-1 metric): %.3g%s\n", s->coupling,
                   s->decoupled ? " (decoupled)" : " (coupled)");
        if (s->alt_first < 0) {
            printf("  the model has no transitions for the other order: not compared\n");
            continue;
        }
        printf("  other order: '%s' then '%s'\n", m->transitions[s->alt_second].name,
               m->transitions[s->alt_first].name);
        if (isnan(s->outcome_gap)) {
            printf("  the orders end in different modes: not compared\n");
            continue;
        }
        printf("  outcomes %s (max difference %.3g)\n", s->continuous ? "agree" : "DIFFER",
               s->outcome_gap);
        if (s->differentiable)
            printf("  linearisations agree (relative difference %.3g): the monodromy is valid\n",
                   s->piece_gap);
        else
            printf("  linearisations differ (relative difference %.3g): the return map is only\n"
                   "  piecewise linear; this orbit's monodromy uses the order taken\n", s->piece_gap);
        if (!isnan(s->psi_other))
            printf("  psi with the order taken: %.12g; with the other order: %.12g\n",
                   s->psi_taken, s->psi_other);
    }
}

FILE *cli_input_open(const char *cmd, const char *what, const char *path, char **data, int *rc)
{
    char msg[768];
    size_t n;
    *data = NULL;
    hes_status st = hes_input_read(path, 0, data, &n, msg, sizeof msg);
    if (st != HES_OK) {
        fprintf(stderr, "%s: %s%s%s\n", cmd, what ? what : "", what ? ": " : "", msg);
        *rc = st == HES_ENOMEM || st == HES_EIO ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
        return NULL;
    }
    FILE *f = fmemopen(*data, n, "r");
    if (!f) {
        fprintf(stderr, "%s: %s: %s\n", cmd, path, strerror(errno));
        free(*data);
        *data = NULL;
        *rc = CLI_EXIT_FAILURE;
    }
    return f;
}

void cli_input_close(FILE *f, char *data)
{
    if (f)
        fclose(f);
    free(data);
}
