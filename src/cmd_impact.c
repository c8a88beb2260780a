/*
 * cmd_impact.c - `hes impact PROBLEM`: a simultaneous impact with friction
 * resolved by every outcome the paper's impulse-stepping model allows (its
 * sampled set, Halm & Posa Algorithm 2), by Anitescu and Potra's
 * simultaneous LCP, and by sequential impacts, with the set's summary,
 * extremes and where the single-valued outcomes lie in it.  --law picks one
 * law alone.  Text, --json (hes_impact_json) or --csv (one row per sample).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define CMD "hes impact"
#define MAX_SAMPLES 4194304   /* 2^22: the paper's sets are 2^14 to 2^20 */

void cmd_impact_usage(FILE *out)
{
    fputs("Usage: hes impact PROBLEM [options]\n"
          "       hes impact --robot FILE.xml|FILE.urdf --q Q1,... --v V1,...\n"
          "                  [--contacts NAME:MU,...] [options]\n"
          "Resolve a simultaneous impact with friction: the set of post-impact\n"
          "velocities of the impulse-stepping model (Halm & Posa, Algorithm 2), the\n"
          "Anitescu-Potra outcome and the sequential ones, located in the set.\n"
          "PROBLEM: rocking-block, compass-gait-impact, box-wall, disk-stack; or a robot\n"
          "file (MuJoCo) at a pre-impact state, its contacts at sites or links against\n"
          "the ground z = 0 (default: every site, friction 1).\n"
          "\n"
          "  --samples N     samples of the set (1 to " STR(MAX_SAMPLES) "; default: the problem's)\n"
          "  --step H        impulse step size h (default: the paper's)\n"
          "  --steps N       step limit per sample (default: the paper's)\n"
          "  --seed S        randomise the low-discrepancy caps (0: the sequence itself)\n"
          "  --select MODE   the solution of a step's LCP when it has several:\n"
          "                  random (default: Lemke's or enumeration's from a random\n"
          "                  start, per step) or lemke (Lemke's method's always)\n"
          "  --threads T     threads for the samples (default 1)\n"
          "  --law LAW       routh (the set, default), anitescu-potra, or\n"
          "                  sequential:A,B,... (contact names in order)\n"
          "  --json          the document of hes_impact_json (--samples-out adds every sample)\n"
          "  --samples-out   with --json: every sample\n"
          "  --csv           one row per sample\n"
          "  --robot FILE    an MJCF or URDF file (needs MuJoCo) instead of PROBLEM\n"
          "  --q, --v        its coordinates and velocities before the impact\n"
          "  --contacts L    its contacts: sites or links with their friction, NAME:MU,...\n"
          "                  (each must touch the ground; of the default, every site,\n"
          "                  those that do not are left out)\n"
          "  --gap-tol H     a contact touches when its height is within H m (default 1e-6)\n"
          "                  (default h: half the largest Anitescu-Potra normal impulse)\n"
          "  -h, --help      show this help\n", out);
}

static const char *contact_name(const hes_impact_problem *pb, int i)
{
    return pb->mech->constraints[pb->contacts[i]].name;
}

/* "sequential:A,B" into order (k names, each once; room for max);
 * CLI_EXIT_USAGE after a message */
static int parse_order(const hes_impact_problem *pb, const char *text, int *order, int max)
{
    if (pb->k > max) {
        fprintf(stderr, "%s: --law sequential: %d contacts, more than the %d the law takes\n",
                CMD, pb->k, max);
        return CLI_EXIT_USAGE;
    }
    char *buf = strdup(text);
    int n = 0, *used = calloc((size_t)(pb->k > 0 ? pb->k : 1), sizeof *used);
    if (!buf || !used) {
        free(buf), free(used);
        fprintf(stderr, "%s: out of memory\n", CMD);
        return CLI_EXIT_FAILURE;
    }
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        int found = -1;
        for (int i = 0; i < pb->k; i++)
            if (strcmp(tok, contact_name(pb, i)) == 0)
                found = i;
        if (found < 0 || used[found] || n >= pb->k) {
            fprintf(stderr, "%s: --law sequential: '%s' is not an unused contact of %s (", CMD,
                    tok, pb->name);
            for (int i = 0; i < pb->k; i++)
                fprintf(stderr, "%s%s", i ? ", " : "", contact_name(pb, i));
            fprintf(stderr, ")\n");
            free(buf), free(used);
            return CLI_EXIT_USAGE;
        }
        used[found] = 1;
        order[n++] = found;
    }
    free(buf), free(used);
    if (n != pb->k) {
        fprintf(stderr, "%s: --law sequential needs all %d contacts of %s in order\n", CMD, pb->k,
                pb->name);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

static void print_u(const double *u, int k)
{
    for (int i = 0; i < k; i++)
        printf(" %+.6f/%+.6f", u[i], u[k + i]);
}

static void print_modes(const hes_contact_mode *m, int k)
{
    for (int i = 0; i < k; i++)
        printf("%s%s", i ? "," : " ", hes_contact_mode_name(m[i]));
}

static void print_outcome(const hes_impact_problem *pb, const hes_impact_outcome *r, int k)
{
    char name[128] = "anitescu-potra";
    if (r->law == HES_LAW_SEQUENTIAL) {
        int at = snprintf(name, sizeof name, "sequential ");
        for (int i = 0; i < k && at < (int)sizeof name; i++)
            at += snprintf(name + at, sizeof name - (size_t)at, "%s%s", i ? "," : "",
                           contact_name(pb, r->order[i]));
    }
    printf("  %-22s", name);
    if (r->status != HES_OK) {
        printf(" does not end: contacts still approach after 100 passes\n");
        return;
    }
    print_u(r->u, k);
    print_modes(r->modes, k);
    if (r->relative >= 0)
        printf("   %.4f of the set's extent from a sample%s", r->relative,
               k >= 2 ? (r->inside_normals ? ", inside its normal hull" : ", outside its normal hull")
                      : "");
    printf("\n");
}

static void print_csv(const hes_impact_problem *pb, const hes_impact_set *S)
{
    int k = S->k, n = S->n;
    printf("sample,finished,lcps,dissipated,residual");
    for (int i = 0; i < k; i++)
        printf(",un_%s", contact_name(pb, i));
    for (int i = 0; i < k; i++)
        printf(",ut_%s", contact_name(pb, i));
    for (int i = 0; i < k; i++)
        printf(",mode_%s", contact_name(pb, i));
    for (int j = 0; j < n; j++)
        printf(",v%d", j);
    printf("\n");
    for (int s = 0; s < S->samples; s++) {
        printf("%d,%d,%d,%.10g,%.3g", s, S->finished[s], S->lcps[s], S->dissipated[s],
               S->residual[s]);
        for (int d = 0; d < 2 * k; d++)
            printf(",%.12g", S->u[(size_t)s * 2 * k + d]);
        for (int i = 0; i < k; i++)
            printf(",%s", hes_contact_mode_name(S->modes[(size_t)s * k + i]));
        for (int j = 0; j < n; j++)
            printf(",%.12g", S->v[(size_t)s * n + j]);
        printf("\n");
    }
}

/* An impact of a robot file (--robot FILE --q ... --v ... [--contacts
 * NAME:MU,...]): the robot and the problem made of it. */
typedef struct {
    hes_robot *robot;
    hes_impact_problem pb;
    int *idx;                /* k contacts' normals */
    double *q, *v;           /* d each */
    char name[256], description[512];
} robot_impact;

static int robot_problem(const char *file, const char *q_text, const char *v_text,
                         const char *contacts_text, double gap_tol, robot_impact *r)
{
    hes_robot_contact *c = NULL;
    char *buf = NULL, msg[512];
    int n = 0;
    if (contacts_text && (n = cli_parse_contacts(CMD, contacts_text, &c, &buf)) < 1)
        return n == -2 ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
    hes_status st = hes_robot_load(file, n ? c : NULL, n, &r->robot, msg, sizeof msg);
    free(c), free(buf);
    if (st != HES_OK) {
        fprintf(stderr, "%s: %s\n", CMD, msg);
        return st == HES_ESOLVER ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
    }
    const hes_mech *m = hes_robot_mech(r->robot);
    if (hes_robot_contact_count(r->robot) < 1) {
        fprintf(stderr, "%s: %s has no sites: name its contacts with --contacts NAME:MU,...\n",
                CMD, file);
        return CLI_EXIT_USAGE;
    }
    double *q = NULL, *v = NULL;
    int nq = 0, nv = 0;
    if (cli_parse_vector(q_text, &q, &nq) || cli_parse_vector(v_text, &v, &nv) || nq != m->d ||
        nv != m->d) {
        fprintf(stderr, "%s: --q and --v need %d numbers each (the robot's coordinates", CMD,
                m->d);
        for (int i = 0; i < m->d; i++)
            fprintf(stderr, "%s%s", i ? ", " : ": ", hes_robot_coordinate(r->robot, i)
                                                     ? hes_robot_coordinate(r->robot, i) : "?");
        fprintf(stderr, ")\n");
        free(q);
        free(v);
        return CLI_EXIT_USAGE;
    }
    r->q = q;
    r->v = v;
    if (!(r->idx = malloc(sizeof *r->idx * (size_t)hes_robot_contact_count(r->robot)))) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        return CLI_EXIT_FAILURE;
    }
    /* An impact is at contact: every contact named with --contacts must
       touch the ground (its height within gap_tol); of the default ones
       (every site) those that do not are left out with a note. */
    hes_robot_dynamics d;
    if ((st = hes_robot_dynamics_at(r->robot, r->q, r->v, &d, msg, sizeof msg)) != HES_OK) {
        fprintf(stderr, "%s: %s\n", CMD, msg);
        return hes_status_exit_code(st);
    }
    int k = 0;                                   /* each: normal 2 i, no-slip 2 i + 1 */
    for (int i = 0; i < hes_robot_contact_count(r->robot); i++) {
        const char *name = hes_robot_contact_name(r->robot, i);
        if (fabs(d.phi[i]) <= gap_tol) {
            r->idx[k++] = 2 * i;
            continue;
        }
        if (contacts_text) {
            fprintf(stderr, "%s: contact %s is %.6g m %s the ground at the given q (more than "
                    "--gap-tol %g): an impact needs its contacts touching\n", CMD, name,
                    fabs(d.phi[i]), d.phi[i] > 0 ? "above" : "into", gap_tol);
            return CLI_EXIT_USAGE;
        }
        fprintf(stderr, "%s: note: site %s is %.6g m %s the ground (more than --gap-tol %g): "
                "left out of the impact\n", CMD, name, fabs(d.phi[i]),
                d.phi[i] > 0 ? "above" : "into", gap_tol);
    }
    if (k == 0) {
        fprintf(stderr, "%s: no contact of %s touches the ground at the given q (within "
                "--gap-tol %g): there is no impact\n", CMD, file, gap_tol);
        return CLI_EXIT_USAGE;
    }
    snprintf(r->name, sizeof r->name, "%s", file);
    snprintf(r->description, sizeof r->description, "the robot of %s at the given q, v", file);
    r->pb = (hes_impact_problem){ r->name, r->description, m, k, r->idx, NULL, 0, 20, 4096 };
    return 0;
}

static int impact_main(int argc, char **argv, robot_impact *rob);

int cmd_impact(int argc, char **argv)
{
    robot_impact rob;
    memset(&rob, 0, sizeof rob);
    int rc = impact_main(argc, argv, &rob);
    hes_robot_free(rob.robot);
    free(rob.idx), free(rob.q), free(rob.v);
    return rc;
}

static int impact_main(int argc, char **argv, robot_impact *rob)
{
    enum { O_SAMPLES = 256, O_STEP, O_STEPS, O_SEED, O_SELECT, O_THREADS, O_LAW, O_JSON,
           O_CSV, O_SAMPLES_OUT, O_ROBOT, O_Q, O_V, O_CONTACTS, O_GAP_TOL };
    static const struct option longopts[] = {
        {"robot", required_argument, NULL, O_ROBOT},
        {"q", required_argument, NULL, O_Q},
        {"v", required_argument, NULL, O_V},
        {"contacts", required_argument, NULL, O_CONTACTS},
        {"gap-tol", required_argument, NULL, O_GAP_TOL},
        {"samples", required_argument, NULL, O_SAMPLES},
        {"step", required_argument, NULL, O_STEP},
        {"steps", required_argument, NULL, O_STEPS},
        {"seed", required_argument, NULL, O_SEED},
        {"select", required_argument, NULL, O_SELECT},
        {"threads", required_argument, NULL, O_THREADS},
        {"law", required_argument, NULL, O_LAW},
        {"json", no_argument, NULL, O_JSON},
        {"samples-out", no_argument, NULL, O_SAMPLES_OUT},
        {"csv", no_argument, NULL, O_CSV},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    unsigned char seen[CLI_OPTION_CODES] = { 0 };
    int samples = 0, steps = 0, threads = 1, json = 0, csv = 0, samples_out = 0, rc, c;
    double step = 0, gap_tol = 1e-6;
    unsigned long seed = 0, select = 1;
    const char *law = "routh", *robot_file = NULL, *q_text = NULL, *v_text = NULL,
               *contacts_text = NULL;

    optind = 1;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        if (c != 'h' && c != '?' && (rc = cli_once(argv[0], longopts, c, seen)))
            return rc;
        switch (c) {
        case O_SAMPLES:
            if ((rc = cli_int_option(CMD, "--samples", optarg, 1, MAX_SAMPLES, &samples)))
                return rc;
            break;
        case O_STEP:
            if (cli_parse_double(optarg, &step) || !(step > 0))
                return cli_bad_value(CMD, "--step", optarg, "a positive number");
            break;
        case O_STEPS:
            if ((rc = cli_int_option(CMD, "--steps", optarg, 1, 10000, &steps)))
                return rc;
            break;
        case O_SEED:
            if (cli_parse_ulong(optarg, &seed))
                return cli_bad_value(CMD, "--seed", optarg, "a non-negative integer");
            break;
        case O_SELECT:
            if (strcmp(optarg, "random") == 0)
                select = 1;
            else if (strcmp(optarg, "lemke") == 0)
                select = 0;
            else
                return cli_bad_value(CMD, "--select", optarg, "random or lemke");
            break;
        case O_THREADS:
            if ((rc = cli_int_option(CMD, "--threads", optarg, 1, 256, &threads)))
                return rc;
            break;
        case O_LAW:
            law = optarg;
            break;
        case O_ROBOT:
            robot_file = optarg;
            break;
        case O_Q:
            q_text = optarg;
            break;
        case O_V:
            v_text = optarg;
            break;
        case O_CONTACTS:
            contacts_text = optarg;
            break;
        case O_GAP_TOL:
            if (cli_parse_double(optarg, &gap_tol) || !(gap_tol > 0) || !(gap_tol < 1))
                return cli_bad_value(CMD, "--gap-tol", optarg, "a height in (0, 1) m");
            break;
        case O_JSON:
            json = 1;
            break;
        case O_SAMPLES_OUT:
            samples_out = 1;
            break;
        case O_CSV:
            csv = 1;
            break;
        case 'h':
            cmd_impact_usage(stdout);
            return CLI_EXIT_OK;
        default:
            cmd_impact_usage(stderr);
            return CLI_EXIT_USAGE;
        }
    }
    if (robot_file ? optind != argc : optind != argc - 1) {
        fprintf(stderr, "%s: expected one PROBLEM, or --robot FILE without one\n", CMD);
        cmd_impact_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (!robot_file && (q_text || v_text || contacts_text || seen[O_GAP_TOL])) {
        fprintf(stderr, "%s: --q, --v, --contacts and --gap-tol go with --robot\n", CMD);
        return CLI_EXIT_USAGE;
    }
    if (robot_file && (!q_text || !v_text)) {
        fprintf(stderr, "%s: --robot needs the pre-impact state: --q and --v\n", CMD);
        return CLI_EXIT_USAGE;
    }
    if (json && csv) {
        fprintf(stderr, "%s: --json and --csv exclude each other\n", CMD);
        return CLI_EXIT_USAGE;
    }
    if (samples_out && !json) {
        fprintf(stderr, "%s: --samples-out goes with --json\n", CMD);
        return CLI_EXIT_USAGE;
    }
    if (robot_file && (rc = robot_problem(robot_file, q_text, v_text, contacts_text, gap_tol,
                                          rob)))
        return rc;
    const hes_impact_problem *pb = robot_file ? &rob->pb : hes_impact_problem_find(argv[optind]);
    if (!pb) {
        fprintf(stderr, "%s: unknown impact problem '%s' (", CMD, argv[optind]);
        for (int i = 0; i < hes_impact_problem_count(); i++)
            fprintf(stderr, "%s%s", i ? ", " : "", hes_impact_problem_get(i)->name);
        fprintf(stderr, ")\n");
        return CLI_EXIT_USAGE;
    }
    int single = strcmp(law, "routh") != 0;
    hes_impact_outcome one;
    memset(&one, 0, sizeof one);
    if (strcmp(law, "anitescu-potra") == 0)
        one.law = HES_LAW_ANITESCU_POTRA;
    else if (strncmp(law, "sequential:", 11) == 0) {
        one.law = HES_LAW_SEQUENTIAL;
        if ((rc = parse_order(pb, law + 11, one.order,
                              (int)(sizeof one.order / sizeof one.order[0]))))
            return rc;
    } else if (single)
        return cli_bad_value(CMD, "--law", law,
                             "routh, anitescu-potra or sequential:NAME,NAME,...");
    if (single && (csv || samples_out)) {
        fprintf(stderr, "%s: --csv and --samples-out need the set (--law routh)\n", CMD);
        return CLI_EXIT_USAGE;
    }

    hes_impact_setup s;
    char msg[512];
    hes_status st = robot_file
        ? hes_impact_setup_state(pb->mech, pb->k, pb->contacts, rob->q, rob->v, &s, msg, sizeof msg)
        : hes_impact_problem_setup(pb, &s, msg, sizeof msg);
    double h = step > 0 ? step : pb->h, h_ap = 0;
    /* the impact's own impulse scale: half the largest Anitescu-Potra
       normal impulse (the default step) */
    if (st == HES_OK && (!(h > 0) || (!single && step > 0)))
        st = hes_impact_default_step(&s.contacts, s.v, &h_ap, msg, sizeof msg);
    if (st != HES_OK) {         /* bad input (friction, a cone not pointed): 2 */
        fprintf(stderr, "%s: %s\n", CMD, msg);
        return hes_status_exit_code(st);
    }
    if (!(h > 0))
        h = h_ap;
    int n_steps = steps ? steps : pb->steps;
    /* N steps of h carry at most N h of normal impulse per contact: far
       below the impulse the impact needs, no sample can end */
    if (!single && step > 0 && n_steps * step < 1e-3 * 2 * h_ap) {
        fprintf(stderr, "%s: --step %g: %d steps of it carry at most %g of normal impulse, "
                "below 1e-3 of the %g the impact needs (Anitescu-Potra's largest): no sample "
                "could end; the default step is %g\n", CMD, step, n_steps, n_steps * step,
                2 * h_ap, h_ap);
        return CLI_EXIT_USAGE;
    }
    int k = s.k;
    hes_impact_set_options o = { samples ? samples : pb->samples,
                                 { h, n_steps, 0,
                                   select ? (seed ? seed : 1) : 0 },
                                 seed, threads, 0, 0 };
    hes_impact_set S;
    memset(&S, 0, sizeof S);
    if (!single) {
        st = hes_impact_set_sample(&s.contacts, s.v, &o, &S, msg, sizeof msg);
        if (st != HES_OK) {
            fprintf(stderr, "%s: %s\n", CMD, msg);
            return hes_status_exit_code(st);
        }
        if (S.n_finished == 0) {
            fprintf(stderr, "%s: none of the %d samples ended within %d steps of h = %g (contacts "
                    "still approach): there is no post-impact set to show; raise --step or "
                    "--steps\n", CMD, S.samples, o.routh.steps, o.routh.h);
            hes_impact_set_free(&S);
            return CLI_EXIT_FAILURE;
        }
    }
    /* the single-valued laws: the one asked for, or Anitescu-Potra and the
       contacts' order and its reverse */
    hes_impact_outcome outs[3];
    int n_outs = 0;
    if (single)
        outs[n_outs++] = one;
    else {
        memset(outs, 0, sizeof outs);
        outs[0].law = HES_LAW_ANITESCU_POTRA;
        for (int j = 1; j <= 2; j++) {
            outs[j].law = HES_LAW_SEQUENTIAL;
            for (int i = 0; i < k; i++)
                outs[j].order[i] = j == 1 ? i : k - 1 - i;
        }
        n_outs = 3;
    }
    for (int j = 0; j < n_outs; j++) {
        st = hes_impact_outcome_compute(&s.contacts, s.v, single ? NULL : &S, &outs[j], msg,
                                        sizeof msg);
        /* a sequence that does not end is an answer when comparing */
        if (st != HES_OK && !(st == HES_EMAXITER && !single)) {
            fprintf(stderr, "%s: %s\n", CMD, msg);
            hes_impact_set_free(&S);
            return st == HES_EMAXITER ? CLI_EXIT_FAILURE : hes_status_exit_code(st);
        }
    }
    if (json) {
        if (single) {
            /* the one outcome in the set's document, with an empty set */
            hes_impact_set empty;
            memset(&empty, 0, sizeof empty);
            empty.n = s.d;
            empty.k = k;
            empty.sequence = "none";
            o.samples = 0;
            rc = cli_print_document(CMD, hes_impact_json(pb, &s, &o, &empty, outs, n_outs, 0));
        } else
            rc = cli_print_document(CMD, hes_impact_json(pb, &s, &o, &S, outs, n_outs,
                                                         samples_out));
        hes_impact_set_free(&S);
        return rc;
    }
    if (csv) {
        print_csv(pb, &S);
        hes_impact_set_free(&S);
        return CLI_EXIT_OK;
    }

    double *um = malloc(sizeof *um * 2 * (size_t)k);
    if (!um) {
        hes_impact_set_free(&S);
        fprintf(stderr, "%s: out of memory\n", CMD);
        return CLI_EXIT_FAILURE;
    }
    hes_contact_velocities(&s.contacts, s.v, um);
    printf("problem: %s\n  %s\n", pb->name, pb->description);
    printf("contacts (normal/tangent velocity before the impact, mu):\n");
    for (int i = 0; i < k; i++)
        printf("  %-10s %+.6f/%+.6f  mu %g\n", contact_name(pb, i), um[i], um[k + i], s.mu[i]);
    free(um);
    printf("\noutcomes (contact velocities normal/tangent per contact, modes):\n");
    for (int j = 0; j < n_outs; j++)
        print_outcome(pb, &outs[j], k);
    if (!single) {
        long lcps = 0;
        for (int i = 0; i < S.samples; i++)
            lcps += S.lcps[i];
        printf("\nimpulse stepping (Halm & Posa Alg. 2): %d samples (%s sequence%s), h = %g, "
               "N = %d, LCP selection %s, %d thread%s\n", S.samples, S.sequence,
               seed ? ", shifted" : "", o.routh.h, o.routh.steps,
               select ? "random" : "lemke", threads, threads > 1 ? "s" : "");
        printf("  finished %d of %d; LCPs per sample %.3f; max complementarity residual %.2g; "
               "max energy gain %.2g\n", S.n_finished, S.samples, S.mean_lcps, S.max_residual,
               S.max_energy_gain);
        printf("  %.3f s: %.1f us per sample, %.1f us per LCP\n", S.seconds,
               1e6 * S.seconds / S.samples, lcps ? 1e6 * S.seconds / (double)lcps : 0.0);
        int *argmin = malloc(sizeof(int) * 7 * (size_t)k), *argmax = argmin + 2 * k,
            *cnt = argmax + 2 * k;
        if (!argmin) {
            hes_impact_set_free(&S);
            fprintf(stderr, "%s: out of memory\n", CMD);
            return CLI_EXIT_FAILURE;
        }
        hes_impact_set_extremes(&S, argmin, argmax, cnt);
        printf("  modes after impact (stick/slide/lift):");
        for (int i = 0; i < k; i++)
            printf("  %s %d/%d/%d", contact_name(pb, i), cnt[3 * i], cnt[3 * i + 1],
                   cnt[3 * i + 2]);
        printf("\n\nextreme outcomes:\n");
        for (int d = 0; d < 2 * k; d++)
            for (int e = 0; e < 2; e++) {
                int i = e ? argmax[d] : argmin[d];
                if (i < 0)
                    continue;
                printf("  %s u_%s %-8s (sample %7d):", e ? "max" : "min", d < k ? "n" : "t",
                       contact_name(pb, d % k), i);
                print_u(S.u + (size_t)i * 2 * k, k);
                print_modes(S.modes + (size_t)i * k, k);
                printf("\n");
            }
        free(argmin);
    }
    hes_impact_set_free(&S);
    return CLI_EXIT_OK;
}
