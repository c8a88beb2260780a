/*
 * test_robot_sizes.c - robots of any size load: generated planar chains
 * (root slides along x and z, then a chain of hinges about y, every other
 * hinge limited, sites spread along the chain) of 50 coordinates and 12
 * contacts, and of 12 coordinates and 10 contacts (more than the 8
 * contacts robots once took, few enough coordinates for hybrid models).
 * What the generator knows (the numbers of contacts and limits, each
 * limit's joint and range) is checked against what the robot lists, and
 * every constraint's callbacks against hes_robot_dynamics_at's heights and
 * rows, which read MuJoCo without them.  Skipped without MuJoCo.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    /* hybrid models take at most HES_MECH_MAX coordinates: refused there */
    hes_mech_mode mode;
    ck_assert_int_eq(hes_robot_pinned_mode(r, 0, &mode, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "a robot of 50 coordinates (hybrid models take at most"),
                  "%s", msg.message);
    hes_robot_destroy(r);
    unlink(name);
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
    tcase_add_test(tc, test_ten_contacts_pin);
    tcase_add_test(tc, test_missing_site_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(suite());
}
