/*
 * cmd_invdyn.c - `hes invdyn ROBOT`: joint torques and contact forces of a
 * robot's motion by inverse dynamics with rigid contact (Zapolsky &
 * Drumwright; hes_invdyn_trajectory), along a trajectory read from a CSV
 * file (--trajectory), at one state (--q, --v, --a), or along a gait of a
 * robot model (--orbit GAIT --robot DESC.json; hes_invdyn_gait).  Per node: the
 * status, torques, contact forces, friction ratios and the smallest
 * friction coefficient that holds the motion; then the trajectory's
 * smallest friction coefficient.  Text, or --csv (one row per node).
 * This file reads the command line (one argp table) into the library's
 * hes_invdyn_run_options and runs it; the motion (a trajectory file or one
 * state) is read in invdyn_motion.c, the output printed in invdyn_print.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cmd_invdyn.h"

#define CMD "hes invdyn"

enum { O_TRAJ = 256, O_Q, O_V, O_A, O_CONTACTS, O_MU, O_METHOD, O_DT, O_NO_DRIFT,
       O_STANCE_TOL, O_COLD, O_CSV, O_SLIP_TOL, O_MOTORS, O_ORBIT, O_EOM_TOL };

static const struct argp_option options[] = {
    {"trajectory", O_TRAJ, "F", 0, "the motion, a CSV file (at least 3 nodes, up to "
     STR(INVDYN_MAX_NODES) ")", 0},
    {"orbit", O_ORBIT, "GAIT", 0, "or a gait of a robot model (written by 'hes trajopt --robot "
     "DESC.json -o GAIT'): its exact motion at every node, the stance contact each mode pins, "
     "the gait's slope; joints a mode locks at a limit get the stop's torque as a motor's", 0},
    {"q", O_Q, "Q1,...", 0, "or one state: its coordinates (with --v and --a)", 0},
    {"v", O_V, "V1,...", 0, "the velocities of the state of --q", 0},
    {"a", O_A, "A1,...", 0, "the desired accelerations of the state of --q", 0},
    {"contacts", O_CONTACTS, "L", 0, "the contacts, NAME:MU,... (default: every site, "
     "friction 1)", 0},
    {"mu", O_MU, "MU", 0, "one friction coefficient for every contact", 0},
    {"motors", O_MOTORS, "J,...", 0, "unit motors on these joints instead of the file's "
     "actuators (a URDF's transmissions are not read)", 0},
    {"csv", O_CSV, NULL, 0, "one row per node", 0},
    {NULL, 0, NULL, 0, "The contact model:", 1},
    {"method", O_METHOD, "M", 0, "none, no-slip (default), coulomb, convex, convex-no-slip", 1},
    {"dt", O_DT, "DT", 0, "the control period of the discretised contact model (default "
     "0.001 s)", 1},
    {"no-drift", O_NO_DRIFT, NULL, 0, "hold the contact Jacobians constant over dt (the "
     "paper's model) instead of adding their drift J' v", 1},
    {"stance-tol", O_STANCE_TOL, "H", 0, "stance by height: at most H (default 1e-4)", 1},
    {"cold", O_COLD, NULL, 0, "no-slip: no warm start (the paper's Algorithm 2 start)", 1},
    {"slip-tol", O_SLIP_TOL, "E", 0, "a stance contact slides when its tangential acceleration "
     "exceeds E times the scale of the contact accelerations (default 1e-3: the differences "
     "of sampled motions are consistent to O(h^2) only; 1e-6 with --q --v --a)", 1},
    {"eom-tol", O_EOM_TOL, "E|off", 0, "the whole equation of motion with the desired "
     "acceleration, the unmotored (base) coordinates too, must hold to E times the size of "
     "its terms, else the node is infeasible (default 1e-3 for a trajectory, 1e-6 with --q "
     "--v --a); off: only the motored coordinates are asked to follow (the paper's setting)",
     1},
    {NULL, 0, NULL, 0, NULL, 0}
};

/* What the command line asks for: the library's run options, set as the
 * options come, and the motion, contacts and motors. */
typedef struct {
    cli_args cli;
    hes_invdyn_run_options ro;
    const char *traj, *orbit, *qt, *vt, *at, *contacts, *motors;
    double mu;                   /* --mu; -1: the contacts' own */
    int csv;
} invdyn_opts;

/* "hes invdyn: OPTION expects EXPECTED, got 'ARG'": a refused value. */
static error_t refuse(const char *option, const char *arg, const char *expected)
{
    cli_bad_value(CMD, option, arg, expected);
    return CLI_ARG_REFUSED;
}

static error_t parse_option(int key, char *arg, struct argp_state *state)
{
    invdyn_opts *o = state->input;
    hes_invdyn_run_options *ro = &o->ro;
    double x;

    if (cli_arg_once(state, key))
        return CLI_ARG_REFUSED;
    switch (key) {
    case O_TRAJ:      o->traj = arg; return 0;
    case O_ORBIT:     o->orbit = arg; return 0;
    case O_Q:         o->qt = arg; return 0;
    case O_V:         o->vt = arg; return 0;
    case O_A:         o->at = arg; return 0;
    case O_CONTACTS:  o->contacts = arg; return 0;
    case O_MOTORS:    o->motors = arg; return 0;
    case O_CSV:       o->csv = 1; return 0;
    case O_NO_DRIFT:  ro->no_drift = 1; return 0;
    case O_COLD:      ro->solve.cold = 1; return 0;
    case O_MU:
        return cli_parse_double(arg, &o->mu) || !(o->mu >= 0)
               ? refuse("--mu", arg, "a number >= 0") : 0;
    case O_METHOD:
        return hes_invdyn_method_from_name(arg, &ro->solve.method) != HES_OK
               ? refuse("--method", arg, "none, no-slip, coulomb, convex or convex-no-slip") : 0;
    case O_DT:
        return cli_parse_double(arg, &ro->dt) || !(ro->dt > 0) || ro->dt > 1
               ? refuse("--dt", arg, "a period in (0, 1] s") : 0;
    case O_STANCE_TOL:
        return cli_parse_double(arg, &ro->stance_tol) || !(ro->stance_tol > 0)
               ? refuse("--stance-tol", arg, "a height > 0") : 0;
    case O_SLIP_TOL:
    case O_EOM_TOL:
        if (key == O_EOM_TOL && strcmp(arg, "off") == 0) {
            ro->solve.tol_eom = -1;   /* not checked: only B^T a_des is imposed */
            return 0;
        }
        if (cli_parse_double(arg, &x) || !(x > 0) || x >= 1)
            return refuse(key == O_SLIP_TOL ? "--slip-tol" : "--eom-tol", arg,
                          "a number in (0, 1)");
        *(key == O_SLIP_TOL ? &ro->solve.tol_slip : &ro->solve.tol_eom) = x;
        return 0;
    default:
        return ARGP_ERR_UNKNOWN;
    }
}

static const struct argp invdyn_argp = {
    options, parse_option,
    "ROBOT --trajectory FILE.csv\nROBOT --q Q1,... --v V1,... --a A1,...\n"
    "--robot DESC.json --orbit GAIT.json",
    "Joint torques and contact forces together for a desired motion: inverse dynamics with "
    "rigid contact and friction (Zapolsky & Drumwright), per node the torques, the contact "
    "forces, the friction ratios |f_t|/f_n and the smallest friction coefficient that holds "
    "the motion, then the largest of those over the trajectory.  The robot is loaded by "
    "MuJoCo; its contacts are sites (or links) against the ground z = 0.\v"
    "ROBOT: a robot file, ROBOT.xml (MJCF) or ROBOT.urdf.\n"
    "FILE.csv: a header with t and every coordinate's name (any order; a free or ball "
    "joint's quaternion J_qw, J_qx, J_qy, J_qz), and optionally "
    "stance:SITE columns (1/0); one row per node.  Velocities and accelerations are the "
    "derivatives of the quadratic through each node and its neighbours (a quaternion's in "
    "the rotations from the node's, its angular velocity in the body's frame), made "
    "consistent with "
    "each node's stance (the nearest, in kinetic energy, that keeps the stance contacts in "
    "place); without stance columns a contact is in stance when its height is at most "
    "--stance-tol.  Friction is the pyramid |f_x| + |f_y| <= mu f_n throughout (ratios, "
    "checks, the smallest friction).\n"
    "Exit status 1 when a node is infeasible or fails (the others are printed).",
    NULL, NULL, NULL
};

/* --orbit GAIT.json with --robot DESC.json (the model is the positional
 * argument's placeholder, put there by cli_take_robot_option). */
static int invdyn_gait(invdyn_opts *o, invdyn_input *in)
{
    if (o->traj || o->qt || o->vt || o->at || o->contacts || o->motors || o->mu >= 0) {
        fprintf(stderr, "%s: --orbit takes the motion, contacts and motors from the gait and "
                "its robot model: no --trajectory, --q, --v, --a, --contacts, --mu or "
                "--motors\n", CMD);
        return CLI_EXIT_USAGE;
    }
    if (o->cli.n_args != 1) {
        fprintf(stderr, "%s: --orbit GAIT needs the gait's robot model: --robot DESC.json\n",
                CMD);
        return CLI_EXIT_USAGE;
    }
    const hes_model *model = cli_find_problem(o->cli.args[0]);
    if (!model)
        return CLI_EXIT_USAGE;
    if (!hes_robot_model_robot(model)) {
        fprintf(stderr, "%s: '%s' is not a robot model: inverse dynamics along a gait needs "
                "one (--robot DESC.json)\n", CMD, model->name);
        return CLI_EXIT_USAGE;
    }
    hes_gait g;
    hes_error msg;
    hes_status st = hes_gait_read(o->orbit, model, &g, &msg);
    if (st != HES_OK) {
        fprintf(stderr, "%s: --orbit %s: %s\n", CMD, o->orbit, msg.message);
        return hes_status_exit_code(st);
    }
    /* the motion is exact: the library's tolerances unless given */
    o->ro.solve.min_friction = o->ro.solve.method == HES_INVDYN_NO_SLIP;
    hes_invdyn_run run;
    st = hes_invdyn_gait(model, &g, &o->ro, &in->robot, &run, &msg);
    hes_gait_free(&g);
    if (st != HES_OK) {
        fprintf(stderr, "%s: %s\n", CMD, msg.message);
        return hes_status_exit_code(st);
    }
    char what[512];
    snprintf(what, sizeof what, "the gait %s of %s", o->orbit, model->name);
    return invdyn_report(&run, in, what, &o->ro, o->csv);
}

/* The robot of `file` with the contacts of --contacts and --mu and the
 * motors of --motors into in->robot: 0, or the exit status after a
 * message. */
static int load_robot(const invdyn_opts *o, const char *file, invdyn_input *in)
{
    hes_robot_contact *cs = NULL;
    char *buf = NULL;
    hes_error msg;
    int n = 0;
    if (o->contacts && (n = cli_parse_contacts(CMD, o->contacts, &cs, &buf)) < 1)
        return n == -2 ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
    for (int i = 0; o->mu >= 0 && i < n; i++)
        cs[i].mu = o->mu;
    hes_status st = hes_robot_read(file, n ? cs : NULL, n, &in->robot, &msg);
    free(cs), free(buf);
    if (st != HES_OK) {
        fprintf(stderr, "%s: %s\n", CMD, msg.message);
        return st == HES_ESOLVER ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
    }
    hes_robot_dims(in->robot, &in->nq, &in->nv);
    in->nc = hes_robot_contact_count(in->robot);
    if (in->nc < 1) {
        fprintf(stderr, "%s: %s has no sites: name its contacts with --contacts NAME:MU,...\n",
                CMD, file);
        return CLI_EXIT_USAGE;
    }
    if (o->mu >= 0 && n == 0)       /* every site, with the friction --mu */
        hes_robot_set_friction(in->robot, -1, o->mu);
    if (o->motors) {
        /* the joints of --motors, as many as it names */
        char *mbuf = strdup(o->motors);
        size_t cap = 1;
        for (const char *s = o->motors; *s; s++)
            cap += *s == ',';
        const char **names = malloc(sizeof *names * cap);
        if (!mbuf || !names) {
            free(mbuf), free(names);
            fprintf(stderr, "%s: out of memory\n", CMD);
            return CLI_EXIT_FAILURE;
        }
        int nm = 0;
        for (char *tok = strtok(mbuf, ","); tok; tok = strtok(NULL, ","))
            names[nm++] = tok;
        st = hes_robot_set_motors(in->robot, names, nm, &msg);
        free(mbuf), free(names);
        if (st != HES_OK) {
            fprintf(stderr, "%s: --motors: %s\n", CMD, msg.message);
            return CLI_EXIT_USAGE;
        }
    }
    return 0;
}

/* A robot file along the trajectory of --trajectory or at the state of
 * --q, --v, --a. */
static int invdyn_file(invdyn_opts *o, invdyn_input *in)
{
    int rc;

    if (o->cli.n_args != 1)
        return cli_usage_error(&o->cli, "expects one robot file");
    const char *file = o->cli.args[0];
    if (cli_is_loaded_model(file)) {
        fprintf(stderr, "%s: --robot DESC.json (or --model) goes with --orbit GAIT; without "
                "it give the robot file itself (ROBOT.xml or ROBOT.urdf)\n", CMD);
        return CLI_EXIT_USAGE;
    }
    int single = o->qt || o->vt || o->at;
    if (!!o->traj == single || (single && !(o->qt && o->vt && o->at))) {
        fprintf(stderr, "%s: give either --trajectory FILE or all of --q, --v and --a\n", CMD);
        return CLI_EXIT_USAGE;
    }
    if ((rc = load_robot(o, file, in)) != 0 ||
        (rc = o->traj ? invdyn_read_trajectory(o->traj, in)
                       : invdyn_read_state(o->qt, o->vt, o->at, in)) != 0)
        return rc;
    /* a sampled trajectory's differences are consistent to O(h^2) only:
       looser tolerances than the library's (for exact motions) unless given */
    hes_invdyn_options *so = &o->ro.solve;
    if (o->traj && so->tol_slip == 0)
        so->tol_slip = 1e-3;
    if (o->traj && so->tol_eom == 0)
        so->tol_eom = 1e-3;
    so->min_friction = so->method == HES_INVDYN_NO_SLIP;
    hes_invdyn_run run;
    hes_error msg;
    hes_status st = hes_invdyn_trajectory(in->robot, in->nodes, in->t, in->q, in->v, in->a,
                                          in->stance, &o->ro, &run, &msg);
    if (st != HES_OK) {
        fprintf(stderr, "%s: %s\n", CMD, msg.message);
        return hes_status_exit_code(st);
    }
    return invdyn_report(&run, in, file, &o->ro, o->csv);
}

int cmd_invdyn(int argc, char **argv)
{
    invdyn_opts o = { .mu = -1 };
    invdyn_input in;

    hes_invdyn_run_options_init(&o.ro);   /* the library's defaults, the period named */
    memset(&in, 0, sizeof in);
    int rc = cli_parse(&invdyn_argp, 0, argc, argv, &o.cli);
    if (rc == CLI_EXIT_OK && !o.cli.done)
        rc = o.orbit ? invdyn_gait(&o, &in) : invdyn_file(&o, &in);
    invdyn_input_free(&in);
    cli_args_free(&o.cli);
    return rc;
}
