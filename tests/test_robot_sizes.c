/*
 * test_robot_sizes.c - robots of any size load and make hybrid models:
 * generated planar chains (root slides along x and z, then a chain of
 * hinges about y, every other hinge limited, sites spread along the
 * chain) of 50 coordinates and 12 contacts, and of 12 coordinates and 10
 * contacts.  What the generator knows (the numbers of contacts and limits,
 * each limit's joint and range) is checked against what the robot lists,
 * and every constraint's callbacks against hes_robot_dynamics_at's heights
 * and rows, which read MuJoCo without them.  The 50-coordinate chain
 * pinned on a contact is a hybrid model whose field Jacobian matches
 * central differences and which simulates.  An orbit of a large model
 * against a closed form: the rimless wheel (share/robots/rimless_wheel.xml)
 * with a chain of 40 light, stiff, damped hinges hanging from its hub (43
 * coordinates, 20 constraints) keeps the wheel's multiplier
 * ((I + m l^2 cos 2a) / (I + m l^2))^2.  Skipped without MuJoCo.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hes.h"
#include "testutil.h"

/* The chain's MJCF: 2 + nh coordinates, ns sites (link i * nh / ns each),
 * hinge i limited to [-0.5 - i / 100, 0.7 + i / 100] when i is even.
 * Written to a temporary file (name); the number of limited hinges. */
static int write_chain(int nh, int ns, char *name, size_t len)
{
    size_t cap = 4096 + (size_t)nh * 512;
    char *text = malloc(cap);
    ck_assert(text != NULL);
    size_t at = 0;
    int limited = 0;
#define ADD(...) (at += (size_t)snprintf(text + at, cap - at, __VA_ARGS__), ck_assert(at < cap))
    ADD("<mujoco model='chain'><compiler angle='radian'/><worldbody>"
        "<body name='root' pos='0 0 1'>"
        "<joint name='x' type='slide' axis='1 0 0'/><joint name='z' type='slide' axis='0 0 1'/>"
        "<geom type='sphere' size='0.05' mass='1'/>");
    for (int i = 0; i < nh; i++) {
        ADD("<body name='l%d' pos='%s'>", i, i ? "0.1 0 0" : "0 0 0");
        if (i % 2 == 0) {
            ADD("<joint name='h%d' type='hinge' axis='0 1 0' limited='true' range='%g %g'/>", i,
                -0.5 - i / 100.0, 0.7 + i / 100.0);
            limited++;
        } else {
            ADD("<joint name='h%d' type='hinge' axis='0 1 0'/>", i);
        }
        ADD("<geom type='capsule' fromto='0 0 0 0.1 0 0' size='0.01' mass='0.1'/>");
        for (int s = 0; s < ns; s++)
            if (s * nh / ns == i)
                ADD("<site name='s%d' pos='0.1 0 0'/>", s);
    }
    for (int i = 0; i < nh; i++)
        ADD("</body>");
    ADD("</body></worldbody></mujoco>");
#undef ADD
    const char *dir = getenv("TMPDIR");
    snprintf(name, len, "%s/hes-test-chain-%s.xml", dir && *dir ? dir : "/tmp", "XXXXXX");
    int fd = mkstemps(name, 4);
    ck_assert(fd >= 0);
    ck_assert(write(fd, text, at) == (ssize_t)at);
    close(fd);
    free(text);
    return limited;
}

/* The chain of nh hinges and ns sites, loaded (NULL: no MuJoCo) from
 * the file `name` (the caller removes it: a copy reads it again); its
 * number of limited hinges in *limited. */
static hes_robot *chain(int nh, int ns, int *limited, char *name, size_t len)
{
    *limited = write_chain(nh, ns, name, len);
    hes_robot *r = NULL;
    hes_error msg;
    hes_status st = hes_robot_read(name, NULL, 0, &r, &msg);
    if (st == HES_ESOLVER) {
        unlink(name);
        printf("test_robot_sizes: %s: skipped\n", msg.message);
        return NULL;
    }
    ck_assert_msg(st == HES_OK, "%s", msg.message);
    return r;
}

static unsigned long long rng = 39;
static double uniform(double lo, double hi)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

/* The robot lists what the generator wrote: nh + 2 coordinates, ns
 * contacts (2 constraints each, named after the sites), then two limits
 * per limited hinge, in the joints' order, with the ranges written. */
static void check_listing(hes_robot *r, int nh, int ns, int limited)
{
    const hes_mech *m = hes_robot_mech(r);
    int nq = -1, nv = -1;
    ck_assert_int_eq(hes_robot_dims(r, &nq, &nv), HES_OK);
    ck_assert_int_eq(nq, nh + 2);
    ck_assert_int_eq(nv, nh + 2);
    ck_assert_int_eq(m->d, nh + 2);
    ck_assert_int_eq(hes_robot_contact_count(r), ns);
    ck_assert_int_eq(m->n_constraints, 2 * ns + 2 * limited);
    for (int c = 0; c < ns; c++) {
        char want[32];
        snprintf(want, sizeof want, "s%d", c);
        ck_assert_str_eq(hes_robot_contact_name(r, c), want);
        ck_assert_str_eq(m->constraints[2 * c].name, want);
        snprintf(want, sizeof want, "s%d_tangential", c);
        ck_assert_str_eq(m->constraints[2 * c + 1].name, want);
        ck_assert(m->constraints[2 * c].unilateral && !m->constraints[2 * c + 1].unilateral);
    }
    double *q = malloc(sizeof(double) * (size_t)nv), *row = malloc(sizeof(double) * (size_t)nv);
    ck_assert(q && row);
    for (int i = 0; i < nv; i++)
        q[i] = uniform(-0.4, 0.4);
    for (int h = 0, l = 2 * ns; h < nh; h += 2, l += 2) {
        double lo = -0.5 - h / 100.0, hi = 0.7 + h / 100.0, a;
        char want[32];
        for (int side = 0; side < 2; side++) {
            const hes_mech_constraint *c = &m->constraints[l + side];
            snprintf(want, sizeof want, "h%d_%s", h, side ? "upper" : "lower");
            ck_assert_str_eq(c->name, want);
            ck_assert(c->unilateral && c->mu == 0 && !c->Jt);
            ck_assert(c->a(q, NULL, &a, hes_mech_constraint_data(m, c)) == 0);
            ck_assert_double_eq_tol(a, side ? hi - q[2 + h] : q[2 + h] - lo, 1e-15);
            ck_assert(c->Da(q, NULL, row, hes_mech_constraint_data(m, c)) == 0);
            for (int j = 0; j < nv; j++)
                ck_assert(row[j] == (j == 2 + h ? (side ? -1 : 1) : 0));
        }
    }
    free(q), free(row);
}

/* Every contact's callbacks (height, normal row, tangent row, x position
 * and its row) against hes_robot_dynamics_at's heights and rows at random
 * states: rows = nc (1 + tangents), the normals first, then the x rows. */
static void check_contacts(hes_robot *r)
{
    const hes_mech *m = hes_robot_mech(r);
    int nv = m->d, nc = hes_robot_contact_count(r);
    double *q = malloc(sizeof(double) * (size_t)nv), *v = malloc(sizeof(double) * (size_t)nv);
    double *row = malloc(sizeof(double) * (size_t)nv);
    ck_assert(q && v && row);
    for (int trial = 0; trial < 3; trial++) {
        for (int i = 0; i < nv; i++)
            q[i] = uniform(-0.4, 0.4), v[i] = uniform(-1, 1);
        hes_robot_dynamics dy;
        hes_error msg;
        ck_assert_msg(hes_robot_dynamics_at(r, q, v, &dy, &msg) == HES_OK, "%s", msg.message);
        ck_assert_int_eq(dy.nc, nc);
        ck_assert_int_eq(dy.tangents, 1);   /* the chain moves in the x-z plane */
        ck_assert_int_eq(dy.nv, nv);
        int rows = nc * (1 + dy.tangents);
        for (int c = 0; c < nc; c++) {
            const hes_mech_constraint *n = &m->constraints[2 * c], *t = n + 1;
            double a, x;
            ck_assert(n->a(q, NULL, &a, hes_mech_constraint_data(m, n)) == 0);
            ck_assert_double_eq_tol(a, dy.phi[c], 1e-14);
            ck_assert(n->Da(q, NULL, row, hes_mech_constraint_data(m, n)) == 0);
            for (int j = 0; j < nv; j++)
                ck_assert_double_eq_tol(row[j], dy.J[c + (size_t)j * rows], 1e-14);
            ck_assert(n->Jt(q, NULL, row, hes_mech_constraint_data(m, n)) == 0);
            for (int j = 0; j < nv; j++)
                ck_assert_double_eq_tol(row[j], dy.J[nc + c + (size_t)j * rows], 1e-14);
            /* the tangential constraint: the x position, whose row is J_x */
            ck_assert(t->a(q, NULL, &x, hes_mech_constraint_data(m, t)) == 0);
            ck_assert(t->Da(q, NULL, row, hes_mech_constraint_data(m, t)) == 0);
            for (int j = 0; j < nv; j++)
                ck_assert_double_eq_tol(row[j], dy.J[nc + c + (size_t)j * rows], 1e-14);
            ck_assert(isfinite(x));
        }
    }
    free(q), free(v), free(row);
}

START_TEST(test_fifty_coordinates_twelve_contacts)
{
    int limited;
    char name[4096];
    hes_robot *r = chain(48, 12, &limited, name, sizeof name);
    if (!r)
        return;
    ck_assert_int_eq(limited, 24);
    check_listing(r, 48, 12, limited);
    check_contacts(r);
    /* a copy keeps every contact's friction, the twelfth's too */
    ck_assert_int_eq(hes_robot_set_friction(r, 11, 0.25), HES_OK);
    hes_robot *c;
    hes_error msg;
    ck_assert_msg(hes_robot_copy(r, &c, &msg) == HES_OK, "%s", msg.message);
    ck_assert(hes_robot_mech(c)->constraints[22].mu == 0.25);
    ck_assert(hes_robot_mech(c)->constraints[20].mu == 1);
    hes_robot_destroy(c);
    /* pinned on its first contact: 48 coordinates left, two held */
    hes_mech_mode mode;
    ck_assert_msg(hes_robot_pinned_mode(r, 0, &mode, &msg) == HES_OK, "%s", msg.message);
    ck_assert_int_eq(mode.k, 48);
    ck_assert_int_eq(mode.n_active, 2);
    hes_robot_destroy(r);
    unlink(name);
}
END_TEST

/* Inverse dynamics of the 50-coordinate chain in the air, along a motion
 * that the forward dynamics gives with its 48 hinge motors idle: three
 * nodes of (q, q', q'' = M^-1 (f - c)), no contact in stance (every site
 * ~1 m up).  The motors it finds are zero: the forward pass of the
 * mechanical layer and the inverse one of hes_invdyn_trajectory agree. */
START_TEST(test_fifty_coordinates_inverse_dynamics)
{
    int limited;
    char name[4096];
    hes_robot *r = chain(48, 12, &limited, name, sizeof name);
    if (!r)
        return;
    enum { NH = 48, D = NH + 2, NODES = 3 };
    const char *motors[NH];
    char mnames[NH][8];
    for (int i = 0; i < NH; i++) {
        snprintf(mnames[i], sizeof mnames[i], "h%d", i);
        motors[i] = mnames[i];
    }
    hes_error msg;
    ck_assert_msg(hes_robot_set_motors(r, motors, NH, &msg) == HES_OK, "%s", msg.message);
    const hes_mech *m = hes_robot_mech(r);
    static double q[NODES * D], v[NODES * D], a[NODES * D], M[D * D], t[NODES];
    for (int k = 0; k < NODES; k++) {
        double *qk = q + k * D, *vk = v + k * D, *ak = a + k * D;
        t[k] = 0.01 * k;
        qk[0] = 0.1 * k, qk[1] = 1.0;
        for (int i = 2; i < D; i++)
            qk[i] = uniform(-0.02, 0.02);
        for (int i = 0; i < D; i++)
            vk[i] = uniform(-0.5, 0.5);
        /* M a = f - c with the motors idle */
        ck_assert_int_eq(m->mass(qk, NULL, M, m->data), 0);
        ck_assert_int_eq(m->net_force(qk, vk, NULL, NULL, ak, m->data), 0);
        /* Gaussian elimination with partial pivoting (M is symmetric positive definite) */
        for (int c = 0; c < D; c++) {
            int pr = c;
            for (int i = c + 1; i < D; i++)
                if (fabs(M[i + c * D]) > fabs(M[pr + c * D]))
                    pr = i;
            for (int j = 0; j < D; j++) {
                double tmp = M[c + j * D];
                M[c + j * D] = M[pr + j * D], M[pr + j * D] = tmp;
            }
            double tb = ak[c];
            ak[c] = ak[pr], ak[pr] = tb;
            for (int i = c + 1; i < D; i++) {
                double f = M[i + c * D] / M[c + c * D];
                for (int j = c; j < D; j++)
                    M[i + j * D] -= f * M[c + j * D];
                ak[i] -= f * ak[c];
            }
        }
        for (int c = D - 1; c >= 0; c--) {
            for (int j = c + 1; j < D; j++)
                ak[c] -= M[c + j * D] * ak[j];
            ak[c] /= M[c + c * D];
        }
    }
    hes_invdyn_run run;
    ck_assert_msg(hes_invdyn_trajectory(r, NODES, t, q, v, a, NULL, NULL, &run, &msg) == HES_OK,
                  "%s", msg.message);
    ck_assert_int_eq(run.failed, 0);
    double worst = 0;
    for (int k = 0; k < NODES; k++) {
        for (int c = 0; c < run.nc; c++)
            ck_assert_int_eq(run.stance[k * run.nc + c], 0);
        for (int i = 0; i < run.nu; i++)
            worst = fmax(worst, fabs(run.tau[k * run.nu + i]));
    }
    printf("test_robot_sizes: inverse dynamics of the 50-coordinate chain in the air: "
           "largest motor %.1e N m where the forward pass had them idle\n", worst);
    /* the chain's gravity torques are tens of N m: 1e-7 is 1e-9 of them */
    ck_assert_msg(worst < 1e-7, "motors %g where none act", worst);
    hes_invdyn_run_free(&run);
    hes_robot_destroy(r);
    unlink(name);
}
END_TEST

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The 50-coordinate chain (72 constraints: 12 contacts, 24 limited
 * hinges) pinned on its first contact as a hybrid model of one mode (96
 * states): its field Jacobian (hes_mech_field_dx) against fourth-order
 * differences of its field, the held contact's forces, and a simulation
 * of 0.05 s.  The step is 1e-3: the reduced mass matrix of 48 hinges is
 * ill-conditioned, the field carries rounding of ~1e-8, and differences
 * with hes_model_check_derivatives' step (~6e-6) see 3e-3 of noise; the
 * discrepancy falls tenfold per tenfold step, to 3e-5 at 1e-3, where the
 * truncation is still below it. */
START_TEST(test_fifty_coordinate_pinned_model_checks_and_simulates)
{
    int limited;
    char name[4096];
    hes_robot *r = chain(48, 12, &limited, name, sizeof name);
    if (!r)
        return;
    ck_assert_int_eq(hes_robot_mech(r)->n_constraints, 72);
    hes_robot_mode_spec ms = { "pinned", 0, 0, NULL, 0, NULL, 0, NULL };
    hes_robot_model_spec spec = { .name = "chain50", .description = "a 50-coordinate chain",
                                  .n_modes = 1, .modes = &ms };
    hes_model *m;
    hes_error msg;
    ck_assert_msg(hes_robot_model_new(r, &spec, &m, &msg) == HES_OK, "%s", msg.message);
    const hes_mode *md = &m->modes[0];
    enum { n = 96 };
    ck_assert_int_eq(md->dim, n);
    ck_assert(md->field_dx == hes_mech_field_dx);
    ck_assert_int_eq(m->n_params, 0);
    const double none[1] = { 0 };   /* the model has no parameters */
    double x[n], *J = malloc(sizeof(double) * n * n), f[4][n], worst = 0;
    ck_assert(J != NULL);
    for (int i = 0; i < n; i++)
        x[i] = uniform(-0.3, 0.3);
    double t0 = seconds();
    ck_assert_int_eq(md->field_dx(0, x, none, J, md->data), 0);
    for (int j = 0; j < n; j++) {
        const double h = 1e-3, off[4] = { h, -h, 2 * h, -2 * h }, xj = x[j];
        for (int s = 0; s < 4; s++) {
            x[j] = xj + off[s];
            ck_assert_int_eq(md->field(0, x, none, f[s], md->data), 0);
        }
        x[j] = xj;
        for (int i = 0; i < n; i++) {
            double d = (8 * (f[0][i] - f[1][i]) - (f[2][i] - f[3][i])) / (12 * h);
            worst = fmax(worst, fabs(J[i + j * n] - d) / fmax(1, fabs(d)));
        }
    }
    ck_assert_msg(worst < 1e-4, "field Jacobian vs differences: %g", worst);
    free(J);
    /* the held contact's normal and no-slip forces */
    double lambda[2], kinetic;
    ck_assert_int_eq(hes_mech_mode_state(md->data, 0, x, none, NULL, NULL, lambda, &kinetic),
                     HES_OK);
    ck_assert(isfinite(lambda[0]) && isfinite(lambda[1]) && kinetic > 0);
    hes_system *sys;
    ck_assert_msg(hes_system_new(m, &sys, &msg) == HES_OK, "%s", msg.message);
    hes_sim_options o;
    hes_sim_options_init(&o);
    o.t_end = 0.05;
    hes_traj tr;
    ck_assert_msg(hes_simulate(sys, 0, 0, 0, x, &o, &tr) == HES_OK, "%s",
                  hes_system_errmsg(sys));
    ck_assert_int_eq(tr.n_phases, 1);
    ck_assert_double_eq_tol(tr.phases[0].t1, 0.05, 1e-12);
    for (int i = 0; i < n; i++)
        ck_assert(isfinite(tr.phases[0].x1[i]));
    printf("test_robot_sizes: 50-coordinate chain pinned (96 states, 72 constraints): field "
           "Jacobian vs differences %.1e, 0.05 s simulated, %.2f s\n", worst,
           seconds() - t0);
    hes_traj_free(&tr);
    hes_system_destroy(sys);
    hes_model_destroy(m);
    unlink(name);   /* the model's copies of the robot read the file */
}
END_TEST

/* share/robots/rimless_wheel.xml (hub of mass 1 and inertia 0.1, spokes of
 * length 1 and 2a = 0.6 rad apart, slope 0.08) with nh hinges hanging from
 * the hub: links of 0.05, mass 1e-9, armature 1e-3, stiffness 10, damping
 * 0.2 (critically damped: rate 100 / s), a site at the end of the first ns
 * links.  Its description (the wheel's, every coordinate kept by the
 * relabel, every state free) into dir/wheel_chain.json. */
static void write_wheel_chain(const char *dir, int nh, int ns, char *json, size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/wheel_chain.xml", dir);
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    fprintf(f, "<mujoco model='rimless-wheel-chain'><compiler angle='radian' "
            "inertiafromgeom='false'/><option gravity='0.78396314783758414 0 "
            "-9.7786247388286966'/><worldbody><body name='hub'>"
            "<joint name='x' type='slide' axis='1 0 0'/>"
            "<joint name='z' type='slide' axis='0 0 1'/>"
            "<joint name='phi' type='hinge' axis='0 -1 0'/>"
            "<inertial pos='0 0 0' mass='1' diaginertia='0.1 0.1 0.1'/>"
            "<site name='s0' pos='0 0 -1'/>"
            "<site name='s1' pos='0.56464247339503537 0 -0.82533561490967833'/>");
    for (int i = 0; i < nh; i++) {
        fprintf(f, "<body name='c%d' pos='0 0 %s'><joint name='h%d' type='hinge' "
                "axis='0 -1 0' stiffness='10' damping='0.2' armature='0.001'/><inertial "
                "pos='0 0 -0.025' mass='1e-9' diaginertia='1e-12 1e-12 1e-12'/>", i,
                i ? "-0.05" : "0", i);
        if (i < ns)
            fprintf(f, "<site name='t%d' pos='0 0 -0.05'/>", i);
    }
    for (int i = 0; i < nh; i++)
        fprintf(f, "</body>");
    fprintf(f, "</body></worldbody></mujoco>\n");
    ck_assert(fclose(f) == 0);
    snprintf(json, len, "%s/wheel_chain.json", dir);
    f = fopen(json, "w");
    ck_assert(f != NULL);
    fprintf(f, "{\"name\": \"rimless-wheel-chain\", \"robot\": \"wheel_chain.xml\",\n"
            " \"contacts\": {\"s0\": 1.0, \"s1\": 1.0");
    for (int i = 0; i < ns; i++)
        fprintf(f, ", \"t%d\": 1.0", i);
    fprintf(f, "},\n \"modes\": [{\"name\": \"stance\", \"pinned\": \"s0\"}],\n"
            " \"transitions\": [{\"name\": \"heelstrike\", \"from\": \"stance\", "
            "\"to\": \"stance\", \"activate\": \"s1\", \"after\": [\"s1\", "
            "\"s1_tangential\"],\n  \"relabel\": {\"phi\": {\"phi\": 1, \"const\": 0.6}");
    for (int i = 0; i < nh; i++)
        fprintf(f, ", \"h%d\": {\"h%d\": 1}", i, i);
    fprintf(f, "}}],\n \"orbit\": {\"mode\": \"stance\", \"section\": \"heelstrike\", "
            "\"sequence\": [\"heelstrike\"],\n  \"guess\": {\"phi\": 0.3, \"phidot\": "
            "-1.0}}}\n");
    ck_assert(fclose(f) == 0);
}

/* The wheel with 40 hinges and 8 sites on them: 43 coordinates and 20
 * constraints.  The chain's links weigh 1e-9 and its armature does not
 * couple it to the hub, so the wheel moves as without it and the chain's
 * own modes die out within the step (rate 100 / s over 0.44 s): the
 * leading multiplier is the wheel's closed form, the others are below
 * 1e-6. */
START_TEST(test_wheel_with_forty_hinge_chain_keeps_the_closed_form_multiplier)
{
    char dirbuf[1024], json[1100], path[1100];
    const char *tmp = getenv("TMPDIR");
    snprintf(dirbuf, sizeof dirbuf, "%s/hes-test-wheel-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert(mkdtemp(dirbuf) != NULL);
    write_wheel_chain(dirbuf, 40, 8, json, sizeof json);
    hes_model *m = NULL;
    hes_error msg;
    hes_status st = hes_robot_model_read(json, &m, &msg);
    snprintf(path, sizeof path, "%s/wheel_chain.xml", dirbuf);
    unlink(path);
    unlink(json);
    rmdir(dirbuf);
    if (st == HES_ESOLVER) {
        printf("test_robot_sizes: %s: skipped\n", msg.message);
        return;
    }
    ck_assert_msg(st == HES_OK, "%s", msg.message);
    const hes_mech *mech = hes_robot_mech(hes_robot_model_robot(m));
    ck_assert_int_eq(mech->d, 43);
    ck_assert_int_eq(mech->n_constraints, 20);
    ck_assert_int_eq(m->modes[0].dim, 82);
    hes_system *sys;
    ck_assert_msg(hes_system_new(m, &sys, &msg) == HES_OK, "%s", msg.message);
    hes_settings set = hes_system_get_settings(sys);
    set.max_search_time = 3600;   /* ~10 s natively; room for valgrind */
    ck_assert_int_eq(hes_system_set_settings(sys, &set), HES_OK);
    hes_analysis an;
    double t0 = seconds();
    ck_assert_msg(hes_analyze(sys, 0, &an) == HES_OK, "%s", hes_system_errmsg(sys));
    double took = seconds() - t0;
    const double I = 0.1, c = (I + cos(0.6)) / (I + 1), closed = c * c;
    ck_assert_int_ge(an.stab.n_mult, 2);
    ck_assert_msg(fabs(an.stab.psi - closed) < 1e-6, "psi %.12f, closed form %.12f",
                  an.stab.psi, closed);
    ck_assert_msg(an.stab.abs[1] < 1e-6, "the chain's largest multiplier %g", an.stab.abs[1]);
    printf("test_robot_sizes: rimless wheel with a 40-hinge chain (43 coordinates, 20 "
           "constraints, 82 states): psi %.12f, closed form %.12f (%.1e), next multiplier "
           "%.1e, period %.6f s, analysed in %.1f s\n", an.stab.psi, closed,
           fabs(an.stab.psi - closed), an.stab.abs[1], an.orbit.period, took);
    hes_analysis_free(&an);
    hes_system_destroy(sys);
    hes_model_destroy(m);
}
END_TEST

START_TEST(test_ten_contacts_pin)
{
    int limited;
    char name[4096];
    hes_robot *r = chain(10, 10, &limited, name, sizeof name);
    unlink(name);
    if (!r)
        return;
    ck_assert_int_eq(limited, 5);
    check_listing(r, 10, 10, limited);
    check_contacts(r);
    /* a mode pinned on the tenth contact: its two constraints held, the
       chart puts the site at the origin */
    hes_mech_mode mode, again;
    hes_error msg;
    ck_assert_msg(hes_robot_pinned_mode(r, 9, &mode, &msg) == HES_OK, "%s", msg.message);
    ck_assert_int_eq(mode.k, 10);
    ck_assert_int_eq(mode.n_active, 2);
    ck_assert_int_eq(mode.active[0], 18);
    ck_assert_int_eq(mode.active[1], 19);
    double z[10], q[12], a, x;
    for (int i = 0; i < 10; i++)
        z[i] = uniform(-0.4, 0.4);
    ck_assert(mode.chart(z, NULL, q, mode.mech->data) == 0);
    const hes_mech_constraint *n = &mode.mech->constraints[18], *t = n + 1;
    ck_assert(n->a(q, NULL, &a, hes_mech_constraint_data(mode.mech, n)) == 0);
    ck_assert(t->a(q, NULL, &x, hes_mech_constraint_data(mode.mech, t)) == 0);
    ck_assert_double_eq_tol(a, 0, 1e-12);
    ck_assert_double_eq_tol(x, 0, 1e-12);
    /* asked again, the same mode (its arrays stay valid) */
    ck_assert(hes_robot_pinned_mode(r, 9, &again, &msg) == HES_OK);
    ck_assert(again.active == mode.active);
    hes_robot_destroy(r);
}
END_TEST

START_TEST(test_missing_site_refused)
{
    int limited;
    char name[4096];
    limited = write_chain(20, 12, name, sizeof name);
    ck_assert_int_eq(limited, 10);
    hes_robot_contact cs[12];
    char names[12][16];
    for (int c = 0; c < 12; c++) {
        snprintf(names[c], sizeof names[c], "s%d", c == 11 ? 99 : c);
        cs[c] = (hes_robot_contact){ names[c], 1 };
    }
    hes_robot *r = NULL;
    hes_error msg;
    hes_status st = hes_robot_read(name, cs, 12, &r, &msg);
    unlink(name);
    if (st == HES_ESOLVER)
        return;
    ck_assert_int_eq(st, HES_EINVAL);
    ck_assert(r == NULL);
    ck_assert_msg(strstr(msg.message, "contact 11 (s99): no site or body of that name"), "%s",
                  msg.message);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("robot_sizes");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_fifty_coordinates_twelve_contacts);
    tcase_add_test(tc, test_fifty_coordinates_inverse_dynamics);
    tcase_add_test(tc, test_ten_contacts_pin);
    tcase_add_test(tc, test_missing_site_refused);
    tcase_add_test(tc, test_fifty_coordinate_pinned_model_checks_and_simulates);
    tcase_add_test(tc, test_wheel_with_forty_hinge_chain_keeps_the_closed_form_multiplier);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(suite());
}
