/*
 * cmd_invdyn.c - `hes invdyn ROBOT`: joint torques and contact forces of a
 * robot's motion by inverse dynamics with rigid contact (Zapolsky &
 * Drumwright; hes_invdyn_trajectory), along a trajectory read from a CSV
 * file (--trajectory), at one state (--q, --v, --a), or along a gait of a
 * robot model (--orbit GAIT --robot DESC.json; hes_invdyn_gait).  Per node: the
 * status, torques, contact forces, friction ratios and the smallest
 * friction coefficient that holds the motion; then the trajectory's
 * smallest friction coefficient.  Text, or --csv (one row per node).
 *
 * The trajectory file: a header naming the columns, t and every coordinate
 * of the robot (its joint names, in any order), optionally a column
 * "stance:SITE" (1 in stance, 0 not) per contact; then one row per node.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "base/csv_line.h"

#define CMD "hes invdyn"
#define MAX_NODES 1000000

void cmd_invdyn_usage(FILE *out)
{
    fputs("Usage: hes invdyn ROBOT.xml|ROBOT.urdf --trajectory FILE.csv [options]\n"
          "       hes invdyn ROBOT.xml|ROBOT.urdf --q Q1,... --v V1,... --a A1,... [options]\n"
          "       hes invdyn --robot DESC.json --orbit GAIT.json [options]\n"
          "Joint torques and contact forces together for a desired motion: inverse\n"
          "dynamics with rigid contact and friction (Zapolsky & Drumwright), per node\n"
          "the torques, the contact forces, the friction ratios |f_t|/f_n and the\n"
          "smallest friction coefficient that holds the motion, then the largest of\n"
          "those over the trajectory.  The robot is loaded by MuJoCo; its contacts are\n"
          "sites (or links) against the ground z = 0.\n"
          "FILE.csv: a header with t and every coordinate's name (any order), and\n"
          "optionally stance:SITE columns (1/0); one row per node.  Velocities and\n"
          "accelerations are the derivatives of the quadratic through each node and\n"
          "its neighbours, made consistent with each node's stance (the nearest, in\n"
          "kinetic energy, that keeps the stance contacts in place); without stance\n"
          "columns a contact is in stance when its height is at most --stance-tol.\n"
          "Friction is the pyramid |f_x| + |f_y| <= mu f_n throughout (ratios, checks,\n"
          "the smallest friction).\n"
          "\n"
          "  --trajectory F  the motion, a CSV file (at least 3 nodes, up to " STR(MAX_NODES) ")\n"
          "  --orbit GAIT    or a gait of a robot model (written by 'hes trajopt --robot\n"
          "                  DESC.json -o GAIT'): its exact motion at every node, the\n"
          "                  stance contact each mode pins, the gait's slope; joints a\n"
          "                  mode locks at a limit get the stop's torque as a motor's\n"
          "  --q, --v, --a   or one state: coordinates, velocities, desired accelerations\n"
          "  --contacts L    the contacts, NAME:MU,... (default: every site, friction 1)\n"
          "  --mu MU         one friction coefficient for every contact\n"
          "  --motors J,...  unit motors on these joints instead of the file's actuators\n"
          "                  (a URDF's transmissions are not read)\n"
          "  --method M      none, no-slip (default), coulomb, convex, convex-no-slip\n"
          "  --dt DT         the control period of the discretised contact model\n"
          "                  (default 0.001 s)\n"
          "  --no-drift      hold the contact Jacobians constant over dt (the paper's\n"
          "                  model) instead of adding their drift J' v\n"
          "  --stance-tol H  stance by height: at most H (default 1e-4)\n"
          "  --cold          no-slip: no warm start (the paper's Algorithm 2 start)\n"
          "  --slip-tol E    a stance contact slides when its tangential acceleration\n"
          "                  exceeds E times the scale of the contact accelerations\n"
          "                  (default 1e-3: the differences of sampled motions are\n"
          "                  consistent to O(h^2) only; 1e-6 with --q --v --a)\n"
          "  --eom-tol E     the whole equation of motion with the desired acceleration,\n"
          "                  the unmotored (base) coordinates too, must hold to E times\n"
          "                  the size of its terms, else the node is infeasible\n"
          "                  (default 1e-3 for a trajectory, 1e-6 with --q --v --a)\n"
          "  --csv           one row per node\n"
          "  -h, --help      show this help\n"
          "Exit status 1 when a node is infeasible or fails (the others are printed).\n",
          out);
}

typedef struct {
    hes_robot *robot;
    int nodes, nv, nc;
    double *t, *q;
    int *stance;            /* nodes x nc, or NULL */
    double *v, *a;          /* one state only */
} invdyn_input;

static void input_free(invdyn_input *in)
{
    hes_robot_free(in->robot);
    free(in->t), free(in->q), free(in->stance), free(in->v), free(in->a);
}

/* The column of each header field: coordinate i, stance of contact c
 * (-2 - c), or t (-1).  Returns 0, or CLI_EXIT_USAGE after a message. */
static int read_header(const char *file, char **fields, int nf, const invdyn_input *in, int *col,
                       int *has_stance)
{
    int seen_t = 0, *seen = calloc((size_t)in->nv, sizeof(int));
    if (!seen)
        return CLI_EXIT_FAILURE;
    *has_stance = 0;
    for (int f = 0; f < nf; f++) {
        char *name = hes__csv_trim(fields[f]);
        col[f] = -100;
        if (strcmp(name, "t") == 0)
            col[f] = -1, seen_t++;
        for (int i = 0; i < in->nv && col[f] == -100; i++) {
            const char *cn = hes_robot_coordinate(in->robot, i);
            if (cn && strcmp(cn, name) == 0)
                col[f] = i, seen[i]++;
        }
        if (col[f] == -100 && strncmp(name, "stance:", 7) == 0)
            for (int c = 0; c < in->nc; c++)
                if (strcmp(hes_robot_contact_name(in->robot, c), name + 7) == 0)
                    col[f] = -2 - c, *has_stance = 1;
        if (col[f] == -100) {
            fprintf(stderr, "%s: %s: column '%s' is neither t, a coordinate of the robot nor "
                    "stance:CONTACT\n", CMD, file, name);
            free(seen);
            return CLI_EXIT_USAGE;
        }
    }
    int missing = seen_t != 1 ? -1 : -2;
    for (int i = 0; i < in->nv && missing == -2; i++)
        if (seen[i] != 1)
            missing = i;
    free(seen);
    if (missing != -2) {
        fprintf(stderr, "%s: %s: the header needs t and every coordinate once; %s%s\n", CMD,
                file, missing == -1 ? "t" : hes_robot_coordinate(in->robot, missing),
                " is missing or repeated");
        return CLI_EXIT_USAGE;
    }
    return 0;
}

static int read_trajectory(const char *file, invdyn_input *in)
{
    char *data;
    int orc;
    FILE *f = cli_input_open(CMD, "--trajectory", file, &data, &orc);
    if (!f)
        return orc;
    csv_line l;
    hes__csv_line_init(&l);
    int maxf = in->nv + in->nc + 2, rc = CLI_EXIT_USAGE, nf = 0, has_stance = 0, cap = 0;
    char **fields = malloc(sizeof(char *) * (size_t)(maxf + 1));
    int *col = malloc(sizeof(int) * (size_t)(maxf + 1));
    if (!fields || !col) {
        rc = CLI_EXIT_FAILURE;
        goto done;
    }
    if (hes__csv_line_read(f, &l) != 1 || l.too_long || l.has_nul) {
        fprintf(stderr, "%s: %s: no header line\n", CMD, file);
        goto done;
    }
    nf = hes__csv_split(l.text, fields, maxf);
    if (nf > maxf) {
        fprintf(stderr, "%s: %s: more columns than t, %d coordinates and %d stance columns\n",
                CMD, file, in->nv, in->nc);
        goto done;
    }
    if ((rc = read_header(file, fields, nf, in, col, &has_stance)) != 0)
        goto done;
    rc = CLI_EXIT_USAGE;
    for (;;) {
        int r = hes__csv_line_read(f, &l);
        if (r == 0)
            break;
        if (r < 0 || l.too_long || l.has_nul) {
            fprintf(stderr, "%s: %s: line %d cannot be read\n", CMD, file, l.number);
            goto done;
        }
        if (hes__csv_trim(l.text)[0] == '\0' || l.text[0] == '#')
            continue;
        if (in->nodes == MAX_NODES) {
            fprintf(stderr, "%s: %s: more than " STR(MAX_NODES) " nodes\n", CMD, file);
            goto done;
        }
        if (in->nodes == cap) {
            cap = cap ? 2 * cap : 64;
            double *t = realloc(in->t, sizeof(double) * (size_t)cap);
            if (t)
                in->t = t;
            double *q = realloc(in->q, sizeof(double) * (size_t)cap * (size_t)in->nv);
            if (q)
                in->q = q;
            int *s = realloc(in->stance, sizeof(int) * ((size_t)cap * (size_t)in->nc + 1));
            if (s)
                in->stance = s;
            if (!t || !q || !s) {
                rc = CLI_EXIT_FAILURE;
                goto done;
            }
        }
        /* contacts without a stance column are not in stance */
        memset(in->stance + (size_t)in->nodes * in->nc, 0, sizeof(int) * (size_t)in->nc);
        int n = hes__csv_split(l.text, fields, maxf);
        if (n != nf) {
            fprintf(stderr, "%s: %s: line %d has %d fields, the header %d\n", CMD, file,
                    l.number, n > maxf ? maxf + 1 : n, nf);
            goto done;
        }
        for (int k = 0; k < nf; k++) {
            double x;
            if (hes__csv_parse_double(hes__csv_trim(fields[k]), &x)) {
                fprintf(stderr, "%s: %s: line %d, field %d: '%s' is not a number\n", CMD, file,
                        l.number, k + 1, fields[k]);
                goto done;
            }
            if (col[k] == -1)
                in->t[in->nodes] = x;
            else if (col[k] >= 0)
                in->q[(size_t)in->nodes * in->nv + col[k]] = x;
            else if (x != 0 && x != 1) {
                fprintf(stderr, "%s: %s: line %d: a stance column holds 0 or 1, not %s\n", CMD,
                        file, l.number, fields[k]);
                goto done;
            } else
                in->stance[(size_t)in->nodes * in->nc + (-2 - col[k])] = (int)x;
        }
        if (in->nodes > 0 && !(in->t[in->nodes] > in->t[in->nodes - 1])) {
            fprintf(stderr, "%s: %s: line %d: the times must increase\n", CMD, file, l.number);
            goto done;
        }
        in->nodes++;
    }
    if (in->nodes < 3) {
        fprintf(stderr, "%s: %s: %d nodes; the derivatives need at least 3\n", CMD, file,
                in->nodes);
        goto done;
    }
    if (!has_stance) {
        free(in->stance);
        in->stance = NULL;
    }
    rc = 0;
done:
    hes__csv_line_free(&l);
    free(fields), free(col);
    cli_input_close(f, data);
    return rc;
}

static void print_csv(const hes_invdyn_run *r, const invdyn_input *in,
                      const hes_invdyn_options *o)
{
    printf("t,method,status");
    for (int k = 0; k < r->nu; k++)
        printf(",tau%d", k);
    const char *dir[3] = { "fn", "fx", "fy" };
    for (int d = 0; d <= r->tangents; d++)
        for (int c = 0; c < r->nc; c++)
            printf(",%s:%s", dir[d], hes_robot_contact_name(in->robot, c));
    for (int c = 0; c < r->nc; c++)
        printf(",ratio:%s", hes_robot_contact_name(in->robot, c));
    for (int c = 0; c < r->nc; c++)
        printf(",stance:%s", hes_robot_contact_name(in->robot, c));
    printf(",mu_min,slip\n");
    int rows = r->nc * (1 + r->tangents);
    for (int n = 0; n < r->nodes; n++) {
        printf("%.10g,%s,%s", r->t[n], hes_invdyn_method_name(o->method),
               r->status[n] == HES_OK ? "ok" : hes_strerror(r->status[n]));
        for (int k = 0; k < r->nu; k++)
            printf(",%.10g", r->tau[(size_t)n * r->nu + k]);
        for (int k = 0; k < rows; k++)
            printf(",%.10g", r->f[(size_t)n * rows + k]);
        for (int c = 0; c < r->nc; c++)
            printf(",%.10g", r->ratio[(size_t)n * r->nc + c]);
        for (int c = 0; c < r->nc; c++)
            printf(",%d", r->stance[(size_t)n * r->nc + c]);
        printf(",%.10g,%.10g\n", r->mu_min[n], r->slip[n]);
    }
}

static void print_text(const hes_invdyn_run *r, const invdyn_input *in, const char *file,
                       const hes_invdyn_options *o, double dt)
{
    int rows = r->nc * (1 + r->tangents);
    printf("robot: %s, %d node%s, method %s, dt %g\n", file, r->nodes, r->nodes > 1 ? "s" : "",
           hes_invdyn_method_name(o->method), dt);
    printf("friction model: the pyramid |f_x| + |f_y| <= mu f_n (ratios, checks and the "
           "smallest friction)\n");
    printf("torques:");
    for (int k = 0; k < r->nu; k++)
        printf(" tau%d %s%s", k, hes_robot_motor_joint(in->robot, k) ?
               hes_robot_motor_joint(in->robot, k) : "?", k + 1 < r->nu ? "," : "\n");
    printf("%12s  %-10s %10s", "t", "status", "max|tau|");
    for (int c = 0; c < r->nc; c++)
        printf("  %14s", hes_robot_contact_name(in->robot, c));
    printf("  %9s\n", "mu_min");
    printf("%12s  %-10s %10s", "", "", "");
    for (int c = 0; c < r->nc; c++)
        printf("  %14s", "f_n / ratio");
    printf("\n");
    for (int n = 0; n < r->nodes; n++) {
        double tm = 0;
        for (int k = 0; k < r->nu; k++)
            tm = fmax(tm, fabs(r->tau[(size_t)n * r->nu + k]));
        const char *sw = r->status[n] == HES_OK ? "ok"
                         : r->status[n] == HES_EINFEASIBLE ? "infeasible" : "failed";
        printf("%12.6g  %-10s %10.4g", r->t[n], sw, tm);
        for (int c = 0; c < r->nc; c++) {
            if (!r->stance[(size_t)n * r->nc + c])
                printf("  %14s", "-");
            else
                printf("  %7.3f/%6.4f", r->f[(size_t)n * rows + c],
                       r->ratio[(size_t)n * r->nc + c]);
        }
        if (r->mu_min[n] >= 0)
            printf("  %9.6f", r->mu_min[n]);
        printf("\n");
        if (r->status[n] != HES_OK)
            printf("%12s  %s\n", "", r->message[n]);
    }
    if (r->worst >= 0)
        printf("smallest friction coefficient that holds the motion: %.6f (at t = %g)\n",
               r->mu_required, r->t[r->worst]);
    printf("nodes infeasible or failed: %d of %d\n", r->failed, r->nodes);
}

static int invdyn_main(int argc, char **argv, invdyn_input *in);

/* Print a run and its exit status. */
static int report(hes_invdyn_run *run, const invdyn_input *in, const char *what,
                  const hes_invdyn_run_options *ro, int csv)
{
    if (csv)
        print_csv(run, in, &ro->solve);
    else
        print_text(run, in, what, &ro->solve, ro->dt);
    int rc = run->failed ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
    if (run->failed)
        fprintf(stderr, "%s: %d of %d nodes infeasible or failed\n", CMD, run->failed,
                run->nodes);
    hes_invdyn_run_free(run);
    return rc;
}

/* --orbit GAIT.json with --robot DESC.json (the model is the positional
 * argument's placeholder, put there by cli_take_robot_option). */
static int invdyn_gait(int argc, char **argv, const char *orbit, invdyn_input *in,
                       hes_invdyn_run_options *ro, double slip_tol, double eom_tol, int csv,
                       int conflicts)
{
    if (conflicts) {
        fprintf(stderr, "%s: --orbit takes the motion, contacts and motors from the gait and "
                "its robot model: no --trajectory, --q, --v, --a, --contacts, --mu or "
                "--motors\n", CMD);
        return CLI_EXIT_USAGE;
    }
    if (optind != argc - 1) {
        fprintf(stderr, "%s: --orbit GAIT needs the gait's robot model: --robot DESC.json\n",
                CMD);
        return CLI_EXIT_USAGE;
    }
    const hes_model *model = cli_find_problem(argv[optind]);
    if (!model)
        return CLI_EXIT_USAGE;
    if (!hes_robot_model_robot(model)) {
        fprintf(stderr, "%s: '%s' is not a robot model: inverse dynamics along a gait needs "
                "one (--robot DESC.json)\n", CMD, model->name);
        return CLI_EXIT_USAGE;
    }
    hes_gait g;
    char msg[512];
    hes_status st = hes_gait_read(orbit, model, &g, msg, sizeof msg);
    if (st != HES_OK) {
        fprintf(stderr, "%s: --orbit %s: %s\n", CMD, orbit, msg);
        return hes_status_exit_code(st);
    }
    ro->solve.tol_slip = slip_tol > 0 ? slip_tol : 1e-6;    /* the motion is exact */
    ro->solve.tol_eom = eom_tol > 0 ? eom_tol : 1e-6;
    ro->solve.min_friction = ro->solve.method == HES_INVDYN_NO_SLIP;
    hes_invdyn_run run;
    st = hes_invdyn_gait(model, &g, ro, &in->robot, &run, msg, sizeof msg);
    hes_gait_free(&g);
    if (st != HES_OK) {
        fprintf(stderr, "%s: %s\n", CMD, msg);
        return hes_status_exit_code(st);
    }
    char what[512];
    snprintf(what, sizeof what, "the gait %s of %s", orbit, model->name);
    return report(&run, in, what, ro, csv);
}

int cmd_invdyn(int argc, char **argv)
{
    invdyn_input in;
    memset(&in, 0, sizeof in);
    int rc = invdyn_main(argc, argv, &in);
    input_free(&in);
    return rc;
}

static int invdyn_main(int argc, char **argv, invdyn_input *in)
{
    enum { O_TRAJ = 256, O_Q, O_V, O_A, O_CONTACTS, O_MU, O_METHOD, O_DT, O_NO_DRIFT,
           O_STANCE_TOL, O_COLD, O_CSV, O_SLIP_TOL, O_MOTORS, O_ORBIT, O_EOM_TOL };
    static const struct option longopts[] = {
        {"trajectory", required_argument, NULL, O_TRAJ},
        {"orbit", required_argument, NULL, O_ORBIT},
        {"q", required_argument, NULL, O_Q},
        {"v", required_argument, NULL, O_V},
        {"a", required_argument, NULL, O_A},
        {"contacts", required_argument, NULL, O_CONTACTS},
        {"mu", required_argument, NULL, O_MU},
        {"method", required_argument, NULL, O_METHOD},
        {"dt", required_argument, NULL, O_DT},
        {"no-drift", no_argument, NULL, O_NO_DRIFT},
        {"stance-tol", required_argument, NULL, O_STANCE_TOL},
        {"cold", no_argument, NULL, O_COLD},
        {"slip-tol", required_argument, NULL, O_SLIP_TOL},
        {"eom-tol", required_argument, NULL, O_EOM_TOL},
        {"motors", required_argument, NULL, O_MOTORS},
        {"csv", no_argument, NULL, O_CSV},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    unsigned char seen[CLI_OPTION_CODES] = { 0 };
    const char *traj = NULL, *qt = NULL, *vt = NULL, *at = NULL, *contacts = NULL,
               *motors = NULL, *orbit = NULL;
    double mu = -1, dt = 1e-3, stance_tol = 1e-4, slip_tol = 0, eom_tol = 0;
    int csv = 0, c, rc;
    hes_invdyn_run_options ro = { .solve = { .method = HES_INVDYN_NO_SLIP, .stage2 = 1, .min_friction = 1 } };
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        if ((rc = cli_once(CMD, longopts, c, seen)) != 0)
            return rc;
        switch (c) {
        case O_TRAJ: traj = optarg; break;
        case O_ORBIT: orbit = optarg; break;
        case O_Q: qt = optarg; break;
        case O_V: vt = optarg; break;
        case O_A: at = optarg; break;
        case O_CONTACTS: contacts = optarg; break;
        case O_MOTORS: motors = optarg; break;
        case O_MU:
            if (cli_parse_double(optarg, &mu) || !(mu >= 0)) {
                fprintf(stderr, "%s: --mu expects a number >= 0, got '%s'\n", CMD, optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case O_METHOD:
            if (hes_invdyn_method_from_name(optarg, &ro.solve.method) != HES_OK) {
                fprintf(stderr, "%s: --method expects none, no-slip, coulomb, convex or "
                        "convex-no-slip, got '%s'\n", CMD, optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case O_DT:
            if (cli_parse_double(optarg, &dt) || !(dt > 0) || dt > 1) {
                fprintf(stderr, "%s: --dt expects a period in (0, 1] s, got '%s'\n", CMD,
                        optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case O_NO_DRIFT: ro.no_drift = 1; break;
        case O_STANCE_TOL:
            if (cli_parse_double(optarg, &stance_tol) || !(stance_tol > 0)) {
                fprintf(stderr, "%s: --stance-tol expects a height > 0, got '%s'\n", CMD,
                        optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case O_COLD: ro.solve.cold = 1; break;
        case O_SLIP_TOL:
            if (cli_parse_double(optarg, &slip_tol) || !(slip_tol > 0) || slip_tol >= 1) {
                fprintf(stderr, "%s: --slip-tol expects a number in (0, 1), got '%s'\n", CMD,
                        optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case O_EOM_TOL:
            if (cli_parse_double(optarg, &eom_tol) || !(eom_tol > 0) || eom_tol >= 1) {
                fprintf(stderr, "%s: --eom-tol expects a number in (0, 1), got '%s'\n", CMD,
                        optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case O_CSV: csv = 1; break;
        case 'h': cmd_invdyn_usage(stdout); return CLI_EXIT_OK;
        default:
            fprintf(stderr, "%s: unknown or incomplete option '%s'\n", CMD, argv[optind - 1]);
            cmd_invdyn_usage(stderr);
            return CLI_EXIT_USAGE;
        }
    }
    ro.dt = dt;
    ro.stance_tol = stance_tol;
    if (orbit)
        return invdyn_gait(argc, argv, orbit, in, &ro, slip_tol, eom_tol, csv,
                           traj || qt || vt || at || contacts || motors || mu >= 0);
    if (optind != argc - 1) {
        fprintf(stderr, "%s: expects one robot file\n", CMD);
        cmd_invdyn_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *file = argv[optind];
    if (cli_is_loaded_model(file)) {
        fprintf(stderr, "%s: --robot DESC.json (or --model) goes with --orbit GAIT; without "
                "it give the robot file itself (ROBOT.xml or ROBOT.urdf)\n", CMD);
        return CLI_EXIT_USAGE;
    }
    int single = qt || vt || at;
    if (!!traj == single || (single && !(qt && vt && at))) {
        fprintf(stderr, "%s: give either --trajectory FILE or all of --q, --v and --a\n", CMD);
        return CLI_EXIT_USAGE;
    }
    hes_robot_contact *cs = NULL;
    char *buf = NULL, msg[512];
    int n = 0;
    if (contacts && (n = cli_parse_contacts(CMD, contacts, &cs, &buf)) < 1)
        return n == -2 ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
    for (int i = 0; mu >= 0 && i < n; i++)
        cs[i].mu = mu;
    hes_status st = hes_robot_load(file, n ? cs : NULL, n, &in->robot, msg, sizeof msg);
    free(cs), free(buf);
    if (st != HES_OK) {
        fprintf(stderr, "%s: %s\n", CMD, msg);
        return st == HES_ESOLVER ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
    }
    in->nv = hes_robot_mech(in->robot)->d;
    in->nc = hes_robot_contact_count(in->robot);
    if (in->nc < 1) {
        fprintf(stderr, "%s: %s has no sites: name its contacts with --contacts NAME:MU,...\n",
                CMD, file);
        return CLI_EXIT_USAGE;
    }
    if (mu >= 0 && n == 0)       /* every site, with the friction --mu */
        hes_robot_set_friction(in->robot, -1, mu);
    if (motors) {
        char mbuf[1024];
        const char *names[64];
        int nm = 0;
        snprintf(mbuf, sizeof mbuf, "%s", motors);
        for (char *tok = strtok(mbuf, ","); tok && nm < 64; tok = strtok(NULL, ","))
            names[nm++] = tok;
        if ((st = hes_robot_set_motors(in->robot, names, nm, msg, sizeof msg)) != HES_OK) {
            fprintf(stderr, "%s: --motors: %s\n", CMD, msg);
            return CLI_EXIT_USAGE;
        }
    }
    if (traj) {
        if ((rc = read_trajectory(traj, in)) != 0)
            return rc;
    } else {
        int k1 = 0, k2 = 0, k3 = 0;
        if (cli_parse_vector(qt, &in->q, &k1) || cli_parse_vector(vt, &in->v, &k2) ||
            cli_parse_vector(at, &in->a, &k3) || k1 != in->nv || k2 != in->nv || k3 != in->nv) {
            fprintf(stderr, "%s: --q, --v and --a need %d numbers each (the robot's "
                    "coordinates", CMD, in->nv);
            for (int i = 0; i < in->nv; i++)
                fprintf(stderr, "%s%s", i ? ", " : ": ", hes_robot_coordinate(in->robot, i)
                                                         ? hes_robot_coordinate(in->robot, i)
                                                         : "?");
            fprintf(stderr, ")\n");
            return CLI_EXIT_USAGE;
        }
        in->nodes = 1;
        in->t = calloc(1, sizeof(double));
        if (!in->t)
            return CLI_EXIT_FAILURE;
    }
    ro.solve.tol_slip = slip_tol > 0 ? slip_tol : traj ? 1e-3 : 1e-6;
    ro.solve.tol_eom = eom_tol > 0 ? eom_tol : traj ? 1e-3 : 1e-6;
    ro.solve.min_friction = ro.solve.method == HES_INVDYN_NO_SLIP;
    hes_invdyn_run run;
    st = hes_invdyn_trajectory(in->robot, in->nodes, in->t, in->q, in->v, in->a, in->stance, &ro,
                               &run, msg, sizeof msg);
    if (st != HES_OK) {
        fprintf(stderr, "%s: %s\n", CMD, msg);
        return hes_status_exit_code(st);
    }
    return report(&run, in, file, &ro, csv);
}
