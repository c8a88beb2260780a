/*
 * cmd_info.c - `hes info PROBLEM [--json]`: what a built-in problem is made
 * of: its modes (dimension, state names), transitions (from -> to, guard
 * crossing direction, clock reset), parameters (default, unit, flags, valid
 * range, default search bounds of shape parameters for `hes shape`,
 * description) and the orbit spec the orbit solver uses (section,
 * sequence, autonomous or period parameter, unknowns and residual).
 *
 * --json prints the same as one JSON object, hes_model_json():
 *   {"name", "description",
 *    "modes": [{"name", "dim", "states": [...]}],
 *    "transitions": [{"name", "from", "to", "direction": "down"|"up"|"any",
 *                     "clock_reset": bool}],
 *    "params": [{"name", "default", "unit", "description", "shape", "solved",
 *                "positive", "min", "max",           (null: unbounded)
 *                "search": [lo, hi]}],               (null: none given)
 *    "orbit": {"mode", "section", "sequence": [...], "autonomous": bool,
 *              "period_param": name|null, "free_states": [...],
 *              "free_params": [...], "residual": [...]}}
 *
 * An event-selected system (`hes list` marks them [ess]) is described by
 * its states, event functions and parameters; --json prints
 * hes_ess_model_json().
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cmd_info_usage(FILE *out)
{
    fputs("Usage: hes info PROBLEM [--json]\n"
          "       hes info --robot FILE.xml|FILE.urdf\n"
          "Describe a built-in problem: modes, transitions, parameters and the\n"
          "periodic orbit the solver looks for; for an event-selected system (marked\n"
          "[ess] by 'hes list'): states, event functions and parameters.\n"
          "\n"
          "      --json   print one JSON object instead of text\n"
          "      --robot FILE  describe a robot file loaded by MuJoCo instead: its\n"
          "               coordinates, contacts (every site, friction 1), inputs, and M(q)\n"
          "               and the applied force at its reference configuration\n"
          "  -h, --help   show this help\n", out);
}

static const char *mode_name(const hes_model *m, int i)
{
    return i >= 0 && i < m->n_modes ? m->modes[i].name : "?";
}

static const char *transition_name(const hes_model *m, int i)
{
    return i >= 0 && i < m->n_transitions ? m->transitions[i].name : "?";
}

/* State `i` of mode `mode` for people: its name, or "x[i]". */
static void format_state(char *buf, size_t len, const hes_model *m, int mode, int i)
{
    const char *name = cli_state_name(m, mode, i);

    if (name)
        snprintf(buf, len, "%s", name);
    else
        snprintf(buf, len, "x[%d]", i);
}

static void format_range(char *buf, size_t len, const hes_param *p)
{
    int lo = isfinite(p->min), hi = isfinite(p->max);
    int strict = (p->flags & HES_PARAM_POSITIVE) && !(p->min > 0);

    if (strict && !hi)
        snprintf(buf, len, "> 0");
    else if (strict)
        snprintf(buf, len, "(0, %g]", p->max);
    else if (!lo && !hi)
        snprintf(buf, len, "any");
    else if (!hi)
        snprintf(buf, len, ">= %g", p->min);
    else if (!lo)
        snprintf(buf, len, "<= %g", p->max);
    else
        snprintf(buf, len, "[%g, %g]", p->min, p->max);
}

/* The default search bounds of a shape parameter (`hes shape`); both 0
 * means the model gives none. */
static int has_search(const hes_param *p)
{
    return (p->flags & HES_PARAM_SHAPE) && !(p->search_lo == 0 && p->search_hi == 0);
}

static void format_search(char *buf, size_t len, const hes_param *p)
{
    if (has_search(p))
        snprintf(buf, len, "[%g, %g]", p->search_lo, p->search_hi);
    else
        snprintf(buf, len, "-");
}

static void format_flags(char *buf, size_t len, unsigned flags)
{
    buf[0] = '\0';
    if (flags & HES_PARAM_SHAPE)
        strncat(buf, "shape,", len - strlen(buf) - 1);
    if (flags & HES_PARAM_SOLVED)
        strncat(buf, "solved,", len - strlen(buf) - 1);
    if (flags & HES_PARAM_POSITIVE)
        strncat(buf, "positive,", len - strlen(buf) - 1);
    if (buf[0])
        buf[strlen(buf) - 1] = '\0';
    else
        snprintf(buf, len, "-");
}

static void print_state_list(const hes_model *m, int mode, const int *idx, int n)
{
    char buf[64];
    int i;

    for (i = 0; i < n; i++) {
        format_state(buf, sizeof buf, m, mode, idx[i]);
        printf("%s%s", i ? ", " : "", buf);
    }
}

/* Lists constraint indices of a mechanical system by name. */
static void print_constraints(const hes_mech *ms, int n, const int *idx)
{
    if (n == 0)
        printf("none");
    for (int i = 0; i < n; i++)
        printf("%s%s", i ? ", " : "", ms->constraints[idx[i]].name);
}

/* For models built with the mechanical layer: the systems, their
 * constraints, what each mode holds and how each transition is derived. */
static void print_mechanics(const hes_model *m)
{
    int n_seen = 0;
    for (int i = 0; i < m->n_modes; i++)
        if (m->modes[i].field != hes_mech_field || !m->modes[i].data)
            return;
    /* each mode and transition may have its own system */
    const hes_mech **seen = malloc(sizeof *seen * (size_t)(m->n_modes + m->n_transitions));
    if (!seen) {
        printf("\nmechanical systems: (out of memory to list them)\n");
        return;
    }
    printf("\nmechanical systems (vector fields, guards and resets derived by the library):\n");
    for (int pass = 0; pass < m->n_modes + m->n_transitions; pass++) {
        const hes_mech *ms;
        if (pass < m->n_modes)
            ms = ((const hes_mech_mode *)m->modes[pass].data)->mech;
        else {
            const hes_transition *t = &m->transitions[pass - m->n_modes];
            const hes_mech_transition *mt = t->data;
            if (t->guard != hes_mech_guard || !mt)
                continue;
            ms = mt->mech ? mt->mech : mt->from->mech;
        }
        int known = 0;
        for (int k = 0; k < n_seen; k++)
            known |= seen[k] == ms;
        if (known)
            continue;
        seen[n_seen++] = ms;
        printf("  %s: %d coordinates, %d inputs; constraints:\n", ms->name ? ms->name : "(unnamed)",
               ms->d, ms->m);
        for (int c = 0; c < ms->n_constraints; c++)
            printf("    %-20s %s, restitution %g\n", ms->constraints[c].name,
                   ms->constraints[c].unilateral ? "unilateral" : "bilateral",
                   ms->constraints[c].restitution);
    }
    free(seen);
    printf("  modes:\n");
    for (int i = 0; i < m->n_modes; i++) {
        const hes_mech_mode *mm = m->modes[i].data;
        printf("    %-16s %s, holds ", m->modes[i].name, mm->mech->name ? mm->mech->name : "");
        print_constraints(mm->mech, mm->n_active, mm->active);
        printf(", %s\n", mm->chart ? "in a chart of the held constraints" : "in its own coordinates");
    }
    printf("  transitions:\n");
    for (int i = 0; i < m->n_transitions; i++) {
        const hes_transition *t = &m->transitions[i];
        const hes_mech_transition *mt = t->data;
        if (t->guard != hes_mech_guard || !mt) {
            printf("    %-16s (not mechanical)\n", t->name);
            continue;
        }
        const hes_mech *ms = mt->mech ? mt->mech : mt->from->mech;
        if (mt->kind == HES_MECH_RELEASE) {
            printf("    %-16s release of %s (its force crosses zero), no impulse\n", t->name,
                   mt->from->mech->constraints[mt->constraint].name);
            continue;
        }
        printf("    %-16s activation of %s in %s%s; impact enforces ", t->name,
               ms->constraints[mt->constraint].name, ms->name ? ms->name : "",
               mt->lift ? " (lifted)" : "");
        print_constraints(ms, mt->n_after, mt->after);
        if (mt->n_separate > 0) {
            printf("; must separate: ");
            print_constraints(ms, mt->n_separate, mt->separate);
        }
        printf("%s\n", mt->to_chart ? "; then new coordinates" : "");
    }
}

static void print_param_table(const hes_param *params, int n)
{
    char range[64], flags[40], search[64];
    int i, w = 4;

    for (i = 0; i < n; i++)
        if ((int)strlen(params[i].name) > w)
            w = (int)strlen(params[i].name);
    printf("  %-*s %12s %-8s %-15s %-20s %-14s %s\n", w, "name", "default", "unit",
           "flags", "range", "search", "description");
    for (i = 0; i < n; i++) {
        const hes_param *p = &params[i];

        format_range(range, sizeof range, p);
        format_flags(flags, sizeof flags, p->flags);
        format_search(search, sizeof search, p);
        printf("  %-*s %12g %-8s %-15s %-20s %-14s %s\n", w, p->name, p->value,
               p->unit && p->unit[0] ? p->unit : "-", flags, range, search,
               p->description ? p->description : "");
    }
}

static void print_text(const hes_model *m)
{
    const hes_orbit_spec *o = &m->orbit;
    int i, j;

    printf("%s: %s\n", m->name, m->description ? m->description : "");

    printf("\nmodes:\n");
    for (i = 0; i < m->n_modes; i++) {
        const hes_mode *md = &m->modes[i];

        printf("  %-16s dim %d", md->name, md->dim);
        if (md->state_names) {
            printf("  states: ");
            for (j = 0; j < md->dim; j++)
                printf("%s%s", j ? ", " : "", md->state_names[j]);
        }
        printf("\n");
    }

    printf("\ntransitions:\n");
    for (i = 0; i < m->n_transitions; i++) {
        const hes_transition *t = &m->transitions[i];

        printf("  %-16s %s -> %s, guard crossing %s%s\n", t->name,
               mode_name(m, t->from), mode_name(m, t->to),
               hes_direction_name(t->direction),
               t->clock_reset ? ", resets the clock" : "");
    }

    print_mechanics(m);

    printf("\nparameters:\n");
    print_param_table(m->params, m->n_params);

    if (!o->guess) {
        printf("\norbit: none declared (simulation only; see hes simulate --sweep)\n");
    } else {
        printf("\norbit:\n");
        printf("  starts in mode %s just after transition %s\n",
               mode_name(m, o->mode), transition_name(m, o->section));
        printf("  sequence: ");
        for (i = 0; i < o->n_sequence; i++)
            printf("%s%s", i ? " -> " : "", transition_name(m, o->sequence[i]));
        printf("\n");
        if (o->period_param)
            printf("  non-autonomous: period given by parameter %s (stroboscopic map)\n",
                   o->period_param);
        else
            printf("  autonomous: a period ends at the next %s event\n",
                   transition_name(m, o->section));
        printf("  unknowns: ");
        if (o->n_free_states > 0) {
            printf("states ");
            print_state_list(m, o->mode, o->free_states, o->n_free_states);
        }
        if (o->n_free_params > 0) {
            printf("%sparameters ", o->n_free_states > 0 ? "; " : "");
            for (i = 0; i < o->n_free_params; i++)
                printf("%s%s", i ? ", " : "", o->free_params[i]);
        }
        if (o->n_free_states + o->n_free_params == 0)
            printf("none");
        printf("\n  residual: x_return - x0 in ");
        print_state_list(m, o->mode, o->residual, o->n_residual);
        printf("\n");
    }
    if (m->integrator == HES_RK8)
        printf("\nintegrator: rk8 (explicit Runge-Kutta, Fehlberg 7(8)) with the variational "
               "equations; rootfinding on the guards of the current mode\n");
    else
        printf("\nintegrator: CVODES %s with forward sensitivities; rootfinding on the "
               "guards of the current mode\n", m->integrator == HES_BDF ? "BDF" : "Adams");
}

static void print_names(const char *const *names, int n, const char *prefix)
{
    for (int i = 0; i < n; i++) {
        if (names)
            printf("%s%s", i ? ", " : "", names[i]);
        else
            printf("%s%s[%d]", i ? ", " : "", prefix, i);
    }
    printf("\n");
}

static void print_ess_text(const hes_ess_model *m)
{
    printf("%s: %s\n", m->name, m->description ? m->description : "");
    printf("\nevent-selected system: the vector field f(x, s) depends on the state and on\n"
           "the sign pattern s of the event functions h(x) (s_i = +1 where h_i >= 0); a\n"
           "guard is crossed from h_i < 0 to h_i >= 0\n");
    printf("\nstates (%d): ", m->n);
    print_names(m->state_names, m->n, "x");
    printf("event functions (%d): ", m->m);
    print_names(m->event_names, m->m, "h");
    printf("\nparameters:\n");
    print_param_table(m->params, m->n_params);
    printf("\nintegrator: ESS (hes simulate %s --integrator ess --eps E --time T --x0 ...):\n"
           "CVODES Adams steps stopped at the eps-band of the next guard, projection steps\n"
           "across it; --jacobian adds d x(T) / d x0\n", m->name);
    if (m->orbit_x0) {
        printf("\nperiodic orbit guess (hes analyze %s): x0 = ", m->name);
        cli_print_vector(stdout, m->orbit_x0, m->n, "%.10g");
        printf(", period %.10g, section ", m->orbit_period);
        if (m->state_names)
            printf("%s\n", m->state_names[m->orbit_section]);
        else
            printf("x[%d]\n", m->orbit_section);
    }
}

/* hes info --robot FILE */
static int robot_info(const char *file)
{
    hes_robot *r;
    char msg[512];
    hes_status st = hes_robot_load(file, NULL, 0, &r, msg, sizeof msg);
    if (st != HES_OK) {
        fprintf(stderr, "hes info: %s\n", msg);
        return st == HES_ESOLVER ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
    }
    const hes_mech *m = hes_robot_mech(r);
    size_t d = (size_t)m->d;
    double *q = calloc(d, sizeof *q), *qd = calloc(d, sizeof *qd),
           *M = calloc(d * d, sizeof *M), *f = calloc(d, sizeof *f);
    if (!q || !qd || !M || !f) {
        free(q), free(qd), free(M), free(f);
        hes_robot_free(r);
        fprintf(stderr, "hes info: out of memory for a robot of %zu coordinates\n", d);
        return CLI_EXIT_FAILURE;
    }
    hes_robot_reference(r, q);
    printf("robot: %s (loaded by MuJoCo)\n", file);
    printf("coordinates (%d), at the reference configuration:\n", m->d);
    for (int i = 0; i < m->d; i++)
        printf("  %-16s %12.6g\n", hes_robot_coordinate(r, i) ? hes_robot_coordinate(r, i) : "?",
               q[i]);
    int nc = hes_robot_contact_count(r);
    printf("contacts against the ground z = 0 (%d; constraints: normal, no-slip):\n", nc);
    for (int c = 0; c < nc; c++)
        printf("  %-16s constraints %d and %d, friction %g\n", m->constraints[2 * c].name, 2 * c,
               2 * c + 1, m->constraints[2 * c].mu);
    if (m->n_constraints > 2 * nc)
        printf("joint limits (unilateral constraints, for robot models):\n");
    for (int c = 2 * nc; c < m->n_constraints; c++)
        printf("  %-16s constraint %d\n", m->constraints[c].name, c);
    printf("inputs (joint motors): %d\n", m->m);
    if (m->mass(q, NULL, M, m->data) == 0 && m->force(q, qd, NULL, NULL, f, m->data) == 0) {
        printf("\nmass matrix M(q0):\n");
        cli_print_matrix(stdout, M, m->d);
        printf("applied force at q0, at rest (gravity): ");
        cli_print_vector(stdout, f, m->d, "%.6g");
        printf("\n");
    }
    free(q), free(qd), free(M), free(f);
    hes_robot_free(r);
    return CLI_EXIT_OK;
}

int cmd_info(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"robot", required_argument, NULL, 'r'},
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    const hes_model *model;
    const char *robot = NULL;
    int c, json = 0;

    unsigned char seen[CLI_OPTION_CODES] = { 0 };
    int rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        if (c != 'h' && c != '?' && (rc = cli_once("hes info", longopts, c, seen)))
            return rc;
        switch (c) {
        case 'j':
            json = 1;
            break;
        case 'r':
            robot = optarg;
            break;
        case 'h':
            cmd_info_usage(stdout);
            return CLI_EXIT_OK;
        default:
            cmd_info_usage(stderr);
            return CLI_EXIT_USAGE;
        }
    }
    if (robot) {
        if (argc != optind || json) {
            fprintf(stderr, "hes info: --robot FILE takes no PROBLEM and no --json\n");
            return CLI_EXIT_USAGE;
        }
        return robot_info(robot);
    }
    if (argc - optind != 1) {
        fprintf(stderr, "hes info: expected exactly one PROBLEM\n");
        cmd_info_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const hes_ess_model *ess = cli_find_ess_problem(argv[optind]);
    if (ess) {
        if (json)
            return cli_print_document("hes info", hes_ess_model_json(ess));
        print_ess_text(ess);
        return CLI_EXIT_OK;
    }
    model = cli_find_problem(argv[optind]);
    if (!model)
        return CLI_EXIT_USAGE;
    if (json)
        return cli_print_document("hes info", hes_model_json(model));
    print_text(model);
    return CLI_EXIT_OK;
}
