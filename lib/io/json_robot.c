/*
 * json_robot.c - a robot model's description (hes_robot_model_read): the
 * robot file, its contacts, modes, transitions and orbit as a small JSON
 * document, read into a hes_robot_model_spec (lib/model/robot_model.c).
 * Everything is named, nothing is numbered: constraints by their names in
 * hes_robot_mech (a contact's name is its normal, "NAME_tangential" its
 * no-slip row, "JOINT_lower" / "JOINT_upper" a joint limit), coordinates
 * by their joints' names, states by the mode's state names.  Unknown keys
 * are errors, so that a misspelt key is not silently ignored, and so are
 * keys given twice (json_input.c), a relabel that leaves out a coordinate
 * and a joint limit of the file that some mode neither locks nor activates
 * (unless listed in "unenforced_limits"): each would otherwise change the
 * model without a word.
 *
 * {
 *   "name": "knee-biped-mjcf", "description": "...",
 *   "robot": "knee_biped.xml",          (relative to this file's folder)
 *   "contacts": {"foot1": 1.0, ...},    (friction per site; default: every site, 1;
 *                                        "no-slip": held, it sticks whatever its force)
 *   "motors": ["hip", ...],             (optional: unit motors on these joints instead of
 *                                        the file's actuators; a URDF has none)
 *   "slope": 0.0504,                    (optional: a parameter turning gravity)
 *   "max_phase_time": 10,
 *   "modes": [{"name": "unlocked", "pinned": "foot1", "locked": ["knee1_upper"]}, ...],
 *                                       (or "holds": ["foot1", "knee1_upper", ...]:
 *                                        contacts and limits held by their forces, no
 *                                        chart, any robot)
 *   "transitions": [{"name": "heelstrike", "from": "locked", "to": "unlocked",
 *                    "activate": "foot2" | "release": "foot1" | "slip": "foot1" |
 *                    "stick": "foot1",
 *                    "after": [...], "separate": [...],
 *                    "relabel": {"th1": {"th1": 1, "hip": 1, "const": 0}, ...}}, ...],
 *                                       (every coordinate of the target mode)
 *   "unenforced_limits": ["knee2_lower"], (joint limits of the file a mode may pass;
 *                                        every other limit is locked or activated in
 *                                        every mode)
 *   "orbit": {"mode": "unlocked", "section": "heelstrike", "sequence": [...],
 *             "guess": [..] | {"th1": .., ...}, "free": [...] | "auto", "residual": [...],
 *             "symmetries": ["x", "y", "yaw"]},
 *                                       ("auto": every direction but the symmetries',
 *                                        the default of a mode on a manifold; symmetries:
 *                                        of a floating base on level ground)
 *   "trajopt": {"inputs": {"hip_torque": [-10, 10]}, "x0": {"th1": [0.25, 0.25]},
 *               "duration": [0.005, 2], "virtual_events": [5, 2], "min_crossing_rate": 0.05,
 *               "path": [{"name": "ahead", "mode": "locked", "linear": {"hip": 1},
 *                         "at_end": true}]}
 * }
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/base.h"
#include "io/json_robot.h"

static int parse_modes(ctx *c, json_t *modes, store *s)
{
    static const char *const keys[] = { "name", "pinned", "locked", "holds", "slides", NULL };
    if (!json_is_array(modes) || json_array_size(modes) < 1 ||
        json_array_size(modes) > HES_RDESC_MAX_LIST)
        return hes__rdesc_bad(c, "\"modes\" must be a list of 1 to %d modes", HES_RDESC_MAX_LIST);
    if (!(s->modes = hes__rdesc_alloc(c, s, json_array_size(modes), sizeof *s->modes)))
        return 1;
    for (size_t i = 0; i < json_array_size(modes); i++) {
        hes_robot_mode_spec *ms = &s->modes[i];
        char where[96];
        json_t *m = hes__rdesc_named_entry(c, modes, i, "modes", keys, &ms->name, where, sizeof where);
        if (!m)
            return 1;
        json_t *p = json_object_get(m, "pinned");
        ms->pinned = -1;
        if (p) {
            int k = hes__rdesc_constraint(c, p, where);
            if (k < 0)
                return 1;
            if (k % 2 || k >= 2 * hes_robot_contact_count(c->robot))
                return hes__rdesc_bad(c, "%s: \"pinned\" must name a contact, not '%s'", where,
                           json_string_value(p));
            ms->pinned = k / 2;
        }
        json_t *l = json_object_get(m, "locked");
        int *locked = NULL;
        ms->n_locked = l ? hes__rdesc_constraint_list(c, s, l, where, &locked) : 0;
        if (ms->n_locked < 0)
            return 1;
        ms->locked = locked;
        /* "holds": contacts held by their forces */
        json_t *h = json_object_get(m, "holds");
        int *holds = NULL;
        ms->n_holds = h ? hes__rdesc_constraint_list(c, s, h, where, &holds) : 0;
        if (ms->n_holds < 0)
            return 1;
        for (int j = 0; j < ms->n_holds; j++)
            if (holds[j] < 2 * hes_robot_contact_count(c->robot) && holds[j] % 2)
                return hes__rdesc_bad(c, "%s: \"holds\" names contacts and joint limits, not "
                                      "'%s' (a contact holds its no-slip constraints)", where,
                                      json_string_value(json_array_get(h, (size_t)j)));
        ms->holds = holds;
        /* "slides": of the held contacts, those that slide */
        json_t *sl = json_object_get(m, "slides");
        int *slides = NULL;
        ms->n_slides = sl ? hes__rdesc_constraint_list(c, s, sl, where, &slides) : 0;
        if (ms->n_slides < 0)
            return 1;
        ms->slides = slides;
    }
    return 0;
}

/* "relabel": {"TARGET": {"SOURCE": coef, ..., "const": c}, ...} over the
 * target mode's coordinates, every one of them named: a coordinate left out
 * would keep its old value without a word, so it is refused (write
 * "X": {"X": 1} to keep X). */
static int parse_relabel(ctx *c, store *s, json_t *r, const char *where,
                         const char *const *target_names, int k, double **out)
{
    int d = c->d;
    double *R = hes__rdesc_alloc(c, s, (size_t)k * (size_t)(d + 1), sizeof(double));
    if (!R)
        return 1;
    *out = R;
    if (!json_is_object(r))
        return hes__rdesc_bad(c, "%s: \"relabel\" must map the target's coordinates to objects of "
                   "coefficients", where);
    const char *key;
    json_t *v;
    json_object_foreach(r, key, v) {
        int i = -1;
        for (int t = 0; t < k; t++)
            if (strcmp(target_names[t], key) == 0)
                i = t;
        if (i < 0)
            return hes__rdesc_bad(c, "%s: relabel: '%s' is not a coordinate of the target mode", where, key);
        if (!json_is_object(v))
            return hes__rdesc_bad(c, "%s: relabel of '%s' must be an object {\"JOINT\": coefficient, ..., "
                       "\"const\": c}", where, key);
    }
    for (int i = 0; i < k; i++) {
        json_t *row = json_object_get(r, target_names[i]);
        if (!row)
            return hes__rdesc_bad(c, "%s: relabel leaves out the target's '%s': give every coordinate "
                       "of the target mode (\"%s\": {\"%s\": 1} keeps its value)", where,
                       target_names[i], target_names[i], target_names[i]);
        const char *src;
        json_t *coef;
        json_object_foreach(row, src, coef) {
            int j = strcmp(src, "const") == 0 ? d : hes__rdesc_coordinate_index(c, src);
            if (j < 0)
                return hes__rdesc_bad(c, "%s: relabel of '%s': '%s' is not a joint of the robot", where,
                           target_names[i], src);
            if (!json_is_number(coef) || !isfinite(json_number_value(coef)))
                return hes__rdesc_bad(c, "%s: relabel of '%s': the coefficient of '%s' must be a finite "
                           "number", where, target_names[i], src);
            R[(size_t)i * (d + 1) + j] = json_number_value(coef);
        }
    }
    return 0;
}

static int parse_transitions(ctx *c, json_t *trs, json_t *modes, store *s)
{
    static const char *const keys[] = { "name",  "from",  "to",       "activate", "release",
                                        "slip",  "stick", "after",    "separate", "relabel",
                                        NULL };
    if (!json_is_array(trs) || json_array_size(trs) > HES_RDESC_MAX_LIST)
        return hes__rdesc_bad(c, "\"transitions\" must be a list of at most %d transitions",
                              HES_RDESC_MAX_LIST);
    if (!(s->trs = hes__rdesc_alloc(c, s, json_array_size(trs), sizeof *s->trs)))
        return 1;
    for (size_t t = 0; t < json_array_size(trs); t++) {
        hes_robot_transition_spec *ts = &s->trs[t];
        char where[96];
        json_t *o = hes__rdesc_named_entry(c, trs, t, "transitions", keys, &ts->name, where, sizeof where);
        if (!o)
            return 1;
        const char *from = json_string_value(json_object_get(o, "from")),
                   *to = json_string_value(json_object_get(o, "to"));
        ts->from = hes__rdesc_name_index(modes, "name", from);
        ts->to = hes__rdesc_name_index(modes, "name", to);
        if (ts->from < 0 || ts->to < 0)
            return hes__rdesc_bad(c, "%s ('%s'): \"from\" and \"to\" must name modes ('%s', '%s')", where,
                       ts->name, from ? from : "", to ? to : "");
        json_t *act = json_object_get(o, "activate"), *rel = json_object_get(o, "release"),
               *slip = json_object_get(o, "slip"), *stick = json_object_get(o, "stick");
        if ((act != NULL) + (rel != NULL) + (slip != NULL) + (stick != NULL) != 1)
            return hes__rdesc_bad(c, "%s ('%s'): give one of \"activate\" (a contact or joint limit "
                       "reached), \"release\" (a held constraint's force reaching zero), "
                       "\"slip\" (a held contact's friction reaching its cone) and \"stick\" (a "
                       "sliding contact coming to rest)", where, ts->name);
        ts->kind = act ? HES_MECH_ACTIVATE : rel ? HES_MECH_RELEASE : slip ? HES_MECH_SLIP
                                                                        : HES_MECH_STICK;
        if ((ts->constraint = hes__rdesc_constraint(c, act ? act : rel ? rel : slip ? slip : stick,
                                                    where)) < 0)
            return 1;
        json_t *a = json_object_get(o, "after"), *sp = json_object_get(o, "separate");
        int *after = NULL, *separate = NULL;
        ts->n_after = a ? hes__rdesc_constraint_list(c, s, a, where, &after) : 0;
        if (ts->n_after < 0)
            return 1;
        ts->n_separate = sp ? hes__rdesc_constraint_list(c, s, sp, where, &separate) : -1;
        if (sp && ts->n_separate < 0)
            return 1;
        ts->after = after;
        ts->separate = separate;
        json_t *r = json_object_get(o, "relabel");
        if (r) {
            const char **names;
            double *R;
            int k = hes__rdesc_free_names(c, s, &s->modes[ts->to], &names);
            if (k < 0 || parse_relabel(c, s, r, where, names, k, &R))
                return 1;
            ts->relabel = R;
        }
    }
    return 0;
}

/* The index of name among the n names, or -1. */
static int name_in(const char *const *names, int n, const char *name)
{
    for (int i = 0; name && i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

static int parse_orbit(ctx *c, json_t *o, json_t *modes, json_t *trs, store *s,
                       hes_robot_model_spec *sp)
{
    static const char *const keys[] = { "mode", "section", "sequence", "guess", "free",
                                        "residual", "symmetries", NULL };
    if (hes__rdesc_only_keys(c, o, "\"orbit\"", keys))
        return 1;
    const char *mode = json_string_value(json_object_get(o, "mode")),
               *sec = json_string_value(json_object_get(o, "section"));
    hes_orbit_spec *ob = &sp->orbit;
    ob->mode = hes__rdesc_name_index(modes, "name", mode);
    ob->section = hes__rdesc_name_index(trs, "name", sec);
    if (ob->mode < 0 || ob->section < 0)
        return hes__rdesc_bad(c, "orbit: \"mode\" must name a mode and \"section\" a transition ('%s', "
                   "'%s')", mode ? mode : "", sec ? sec : "");
    json_t *seq = json_object_get(o, "sequence");
    if (!json_is_array(seq) || json_array_size(seq) < 1 ||
        json_array_size(seq) > HES_RDESC_MAX_LIST)
        return hes__rdesc_bad(c, "orbit: \"sequence\" must list the transitions of one period");
    if (!(s->seq = hes__rdesc_alloc(c, s, json_array_size(seq), sizeof *s->seq)))
        return 1;
    for (size_t i = 0; i < json_array_size(seq); i++) {
        const char *n = json_string_value(json_array_get(seq, i));
        if ((s->seq[i] = hes__rdesc_name_index(trs, "name", n)) < 0)
            return hes__rdesc_bad(c, "orbit: sequence[%zu] '%s' is not a transition", i, n ? n : "");
    }
    ob->n_sequence = (int)json_array_size(seq);
    ob->sequence = s->seq;
    const char **names;
    int ns = hes__rdesc_state_names(c, s, &s->modes[ob->mode], &names);
    if (ns < 0)
        return 1;
    s->guess = hes__rdesc_alloc(c, s, (size_t)ns, sizeof *s->guess);
    s->free_states = hes__rdesc_alloc(c, s, (size_t)ns, sizeof *s->free_states);
    s->residual = hes__rdesc_alloc(c, s, (size_t)ns, sizeof *s->residual);
    if (!s->guess || !s->free_states || !s->residual)
        return 1;
    int nq, nv;
    hes_robot_dims(c->robot, &nq, &nv);
    if (nq != nv && hes_robot_reference(c->robot, s->guess) != HES_OK)
        return hes__rdesc_bad(c, "orbit: the robot's reference configuration failed");
    json_t *g = json_object_get(o, "guess");
    if (json_is_array(g)) {
        if ((int)json_array_size(g) != ns)
            return hes__rdesc_bad(c, "orbit: \"guess\" has %zu values for the %d states of mode '%s'",
                       json_array_size(g), ns, mode);
        for (int i = 0; i < ns; i++) {
            json_t *v = json_array_get(g, (size_t)i);
            if (!json_is_number(v))
                return hes__rdesc_bad(c, "orbit: guess[%d] is not a number", i);
            s->guess[i] = json_number_value(v);
        }
    } else if (json_is_object(g)) {
        const char *key;
        json_t *v;
        json_object_foreach(g, key, v) {
            int i = name_in(names, ns, key);
            if (i < 0)
                return hes__rdesc_bad(c, "orbit: guess: '%s' is not a state of mode '%s'", key, mode);
            if (!json_is_number(v))
                return hes__rdesc_bad(c, "orbit: guess of '%s' is not a number", key);
            s->guess[i] = json_number_value(v);
        }
    } else {
        return hes__rdesc_bad(c, "orbit: \"guess\" must be the list of the %d states of mode '%s', or an "
                   "object of state names (the others 0; a robot with free or ball joints: its "
                   "coordinates the file's reference)", ns, mode);
    }
    sp->guess = s->guess;
    sp->n_guess = ns;
    json_t *sy = json_object_get(o, "symmetries");
    if (sy) {
        if (!json_is_array(sy) || json_array_size(sy) > 3)
            return hes__rdesc_bad(c, "orbit: \"symmetries\" must list some of \"x\", \"y\" and "
                                  "\"yaw\"");
        const char **sn = hes__rdesc_alloc(c, s, json_array_size(sy) + 1, sizeof *sn);
        if (!sn)
            return 1;
        for (size_t i = 0; i < json_array_size(sy); i++)
            if (!(sn[i] = json_string_value(json_array_get(sy, i))))
                return hes__rdesc_bad(c, "orbit: symmetries[%zu] is not a name", i);
        ob->n_symmetries = (int)json_array_size(sy);
        ob->symmetry_names = sn;
    }
    json_t *fr = json_object_get(o, "free");
    if (json_is_string(fr)) {
        if (strcmp(json_string_value(fr), "auto") != 0 || json_object_get(o, "residual"))
            return hes__rdesc_bad(c, "orbit: \"free\" is a list of states (with \"residual\"), "
                                  "or \"auto\" (without it): every direction but the "
                                  "symmetries'");
        ob->free_quotient = 1;
        return 0;
    }
    if ((fr || json_object_get(o, "residual")) && (nq != nv || s->modes[ob->mode].n_holds > 0))
        return hes__rdesc_bad(c, "orbit: mode '%s' is a state on a manifold (free or ball "
                              "joints, or contacts held by forces) whose tangent directions "
                              "are not its states: give \"free\": \"auto\" (or leave "
                              "\"free\" and \"residual\" out)", mode);
    const char *lists[2] = { "free", "residual" };
    int *outs[2] = { s->free_states, s->residual }, *counts[2] = { &ob->n_free_states,
                                                                   &ob->n_residual };
    for (int l = 0; l < 2; l++) {
        json_t *a = json_object_get(o, lists[l]);
        if (!a)
            continue;
        if (!json_is_array(a) || (int)json_array_size(a) > ns)
            return hes__rdesc_bad(c, "orbit: \"%s\" must list state names of mode '%s'", lists[l], mode);
        for (size_t i = 0; i < json_array_size(a); i++) {
            const char *n = json_string_value(json_array_get(a, i));
            if ((outs[l][i] = name_in(names, ns, n)) < 0)
                return hes__rdesc_bad(c, "orbit: %s: '%s' is not a state of mode '%s'", lists[l],
                           n ? n : "", mode);
        }
        *counts[l] = (int)json_array_size(a);
        if (l == 0)
            ob->free_states = outs[0];
        else
            ob->residual = outs[1];
    }
    return 0;
}

/* [lo, hi] into lo, hi (lo <= hi, finite unless allow_inf) */
static char *robot_path(const char *desc, const char *file)
{
    const char *slash = strrchr(desc, '/');
    size_t dl = file[0] == '/' || !slash ? 0 : (size_t)(slash - desc + 1);
    char *p = malloc(dl + strlen(file) + 1);
    if (p) {
        memcpy(p, desc, dl);
        strcpy(p + dl, file);
    }
    return p;
}

/* "motors": ["JOINT", ...]: unit torques (or forces) on the named joints
 * instead of the file's actuators (a URDF has none in MuJoCo). */
static int parse_motors(ctx *c, store *s, json_t *m)
{
    size_t n = json_is_array(m) ? json_array_size(m) : 0;
    if (n < 1 || n > (size_t)c->d)
        return hes__rdesc_bad(c, "\"motors\" must list 1 to %d joints that motors drive (the "
                              "robot's coordinates)", c->d);
    const char **names = hes__rdesc_alloc(c, s, n, sizeof *names);
    if (!names)
        return 1;
    for (size_t i = 0; i < n; i++)
        if (!(names[i] = json_string_value(json_array_get(m, i))))
            return hes__rdesc_bad(c, "\"motors\" must list joint names");
    hes_error why;
    if (hes_robot_set_motors(c->robot, names, (int)n, &why) != HES_OK)
        return hes__rdesc_bad(c, "\"motors\": %s", why.message);
    return 0;
}

/* "control": {"period": T, "kp": .., "kd": .., "reference": {"JOINT": [a0,
 * a1, b1, ..]}}: joint feedback about a Fourier series per motor joint
 * (the motors not named are not tracked). */
static int parse_control(ctx *c, store *s, json_t *o, hes_robot_control *ctl)
{
    static const char *const keys[] = { "period", "kp", "kd", "reference", NULL };
    if (!json_is_object(o) || hes__rdesc_only_keys(c, o, "\"control\"", keys))
        return json_is_object(o) ? 1 : hes__rdesc_bad(c, "\"control\" must be an object");
    json_t *T = json_object_get(o, "period"), *kp = json_object_get(o, "kp"),
           *kd = json_object_get(o, "kd"), *ref = json_object_get(o, "reference");
    if (!json_is_number(T) || !json_is_number(kp) || !json_is_number(kd) ||
        !json_is_object(ref))
        return hes__rdesc_bad(c, "\"control\" needs the numbers \"period\", \"kp\" and "
                              "\"kd\" and a \"reference\" of joints' coefficients");
    int nu = hes_robot_motor_count(c->robot), K = 0;
    const char *key;
    json_t *v;
    json_object_foreach(ref, key, v) {
        size_t n = json_is_array(v) ? json_array_size(v) : 0;
        if (n % 2 != 1 || n > 129)
            return hes__rdesc_bad(c, "control: the reference of '%s' must list a0, a1, b1, .. "
                                  "(an odd count, at most 129)", key);
        K = (int)n / 2 > K ? (int)n / 2 : K;
    }
    double *coef = hes__rdesc_alloc(c, s, (size_t)(nu > 0 ? nu : 1) * (2 * K + 1), sizeof *coef);
    int *tracked = hes__rdesc_alloc(c, s, (size_t)(nu > 0 ? nu : 1), sizeof *tracked);
    if (!coef || !tracked)
        return 1;
    json_object_foreach(ref, key, v) {
        int a = -1;
        for (int b = 0; b < nu && a < 0; b++)
            if (hes_robot_motor_joint(c->robot, b) &&
                strcmp(hes_robot_motor_joint(c->robot, b), key) == 0)
                a = b;
        if (a < 0)
            return hes__rdesc_bad(c, "control: reference: '%s' is not a joint a motor drives", key);
        tracked[a] = 1;
        for (size_t i = 0; i < json_array_size(v); i++) {
            json_t *x = json_array_get(v, i);
            if (!json_is_number(x))
                return hes__rdesc_bad(c, "control: reference of '%s': entry %zu is not a number",
                                      key, i);
            coef[(size_t)a * (2 * K + 1) + i] = json_number_value(x);
        }
    }
    *ctl = (hes_robot_control){ .period = json_number_value(T), .kp = json_number_value(kp),
                                .kd = json_number_value(kd), .n_harmonics = K,
                                .reference = coef, .tracked = tracked };
    return 0;
}

/* The joint of limit constraint k ("JOINT_lower", "JOINT_upper") is locked
 * in mode ms: it holds either of that joint's limits. */
static int joint_locked(const hes_mech *m, const hes_robot_mode_spec *ms, int k)
{
    const char *name = m->constraints[k].name;
    size_t jl = strlen(name) - 6;   /* without "_lower" / "_upper" */
    for (int i = 0; i < ms->n_locked; i++) {
        const char *o = m->constraints[ms->locked[i]].name;
        if (strlen(o) == jl + 6 && strncmp(o, name, jl) == 0)
            return 1;
    }
    return 0;
}

/* Every joint limit of the robot file holds in every mode: the mode locks
 * the joint, or one of its transitions activates the limit, or the
 * description lists the limit in "unenforced_limits" (the motion may pass
 * it).  Otherwise the limit would be ignored without a word: refused. */
static int check_limits(ctx *c, json_t *unenforced, json_t *modes,
                        const hes_robot_model_spec *sp)
{
    const hes_mech *m = c->mech;
    int first = 2 * hes_robot_contact_count(c->robot),
        end = first + hes_robot_limit_count(c->robot);   /* the limits; then y rows */
    if (unenforced) {
        if (!json_is_array(unenforced))
            return hes__rdesc_bad(c, "\"unenforced_limits\" must list joint limits (\"JOINT_lower\", "
                       "\"JOINT_upper\")");
        for (size_t i = 0; i < json_array_size(unenforced); i++) {
            int k = hes__rdesc_constraint(c, json_array_get(unenforced, i), "unenforced_limits");
            if (k < 0)
                return 1;
            if (k < first || k >= end)
                return hes__rdesc_bad(c, "unenforced_limits: '%s' is a contact, not a joint limit",
                           m->constraints[k].name);
        }
    }
    for (int k = first; k < end; k++) {
        int listed = 0;
        for (size_t i = 0; unenforced && i < json_array_size(unenforced); i++)
            listed |= strcmp(json_string_value(json_array_get(unenforced, i)),
                             m->constraints[k].name) == 0;
        if (listed)
            continue;
        for (int i = 0; i < sp->n_modes; i++) {
            const hes_robot_mode_spec *ms = &sp->modes[i];
            int held = joint_locked(m, ms, k);
            for (int j = 0; !held && j < ms->n_holds; j++)
                held = ms->holds[j] == k;
            for (int t = 0; !held && t < sp->n_transitions; t++)
                held = sp->transitions[t].from == i && sp->transitions[t].kind ==
                       HES_MECH_ACTIVATE && sp->transitions[t].constraint == k;
            if (!held)
                return hes__rdesc_bad(c, "the robot file limits a joint (%s), but mode '%s' neither "
                           "locks that joint nor has a transition that activates '%s': add "
                           "one, or list \"%s\" in \"unenforced_limits\" to let the motion "
                           "pass the file's limit", m->constraints[k].name,
                           json_string_value(json_object_get(json_array_get(modes, (size_t)i),
                                                             "name")),
                           m->constraints[k].name, m->constraints[k].name);
        }
    }
    return 0;
}

hes_status hes_robot_model_read(const char *path, hes_model **out, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    static const char *const keys[] = { "name", "description", "robot", "contacts", "motors",
                                        "slope", "max_phase_time", "modes", "transitions",
                                        "unenforced_limits", "orbit", "trajopt", "control",
                                        NULL };
    ctx c = { path, msg, len, NULL, NULL, 0 };
    if (out)
        *out = NULL;
    if (!path || !out)
        return hes__say(msg, len, HES_EINVAL, "robot model: needs a file and somewhere to put "
                        "the model");
    hes_status lst;
    json_t *doc = hes__json_load_input(path, &lst, msg, len);
    if (!doc)
        return lst;
    hes_status st = HES_EINVAL;
    hes_robot *robot = NULL;
    store *s = calloc(1, sizeof *s);
    char *file = NULL;
    hes_robot_contact *contacts = NULL;
    int nc = 0;
    if (!s) {
        st = hes__say(msg, len, HES_ENOMEM, "out of memory");
        goto done;
    }
    if (hes__rdesc_only_keys(&c, doc, "the description", keys))
        goto done;
    const char *rf = json_string_value(json_object_get(doc, "robot"));
    if (!rf || !rf[0]) {
        hes__rdesc_bad(&c, "\"robot\" must name the robot file (MJCF or URDF)");
        goto done;
    }
    json_t *cj = json_object_get(doc, "contacts");
    if (cj) {
        const char *k;
        json_t *v;
        if (!json_is_object(cj) || json_object_size(cj) < 1) {
            hes__rdesc_bad(&c, "\"contacts\" must map sites (at least one) to their friction "
                           "coefficients");
            goto done;
        }
        if (!(contacts = hes__rdesc_alloc(&c, s, json_object_size(cj), sizeof *contacts)))
            goto done;
        json_object_foreach(cj, k, v) {
            int no_slip = json_is_string(v) && !strcmp(json_string_value(v), "no-slip");
            if (!json_is_number(v) && !no_slip) {
                hes__rdesc_bad(&c, "contacts: the friction of '%s' must be a number or "
                               "\"no-slip\"", k);
                goto done;
            }
            contacts[nc++] = (hes_robot_contact){ k, no_slip ? INFINITY : json_number_value(v) };
        }
    }
    if (!(file = robot_path(path, rf))) {
        st = hes__say(msg, len, HES_ENOMEM, "out of memory");
        goto done;
    }
    hes_error why;
    if ((st = hes_robot_read(file, nc ? contacts : NULL, nc, &robot, &why)) != HES_OK) {
        hes__say(msg, len, st, "%s: %s", path, why.message);
        goto done;
    }
    st = HES_EINVAL;
    c.robot = robot;
    c.mech = hes_robot_mech(robot);
    c.d = c.mech->d;
    json_t *mj = json_object_get(doc, "motors");
    if (mj && parse_motors(&c, s, mj))
        goto done;
    hes_robot_model_spec sp = { 0 };
    sp.name = json_string_value(json_object_get(doc, "name"));
    sp.description = json_string_value(json_object_get(doc, "description"));
    if (!sp.name || !sp.name[0]) {
        hes__rdesc_bad(&c, "\"name\" must be the model's name");
        goto done;
    }
    json_t *slope = json_object_get(doc, "slope"), *mpt = json_object_get(doc, "max_phase_time");
    if ((slope && !json_is_number(slope)) || (mpt && !json_is_number(mpt))) {
        hes__rdesc_bad(&c, "\"slope\" and \"max_phase_time\" must be numbers");
        goto done;
    }
    sp.slope = slope != NULL;
    sp.slope_value = slope ? json_number_value(slope) : 0;
    sp.max_phase_time = mpt ? json_number_value(mpt) : 0;
    json_t *modes = json_object_get(doc, "modes"), *trs = json_object_get(doc, "transitions");
    if (parse_modes(&c, modes, s))
        goto done;
    sp.n_modes = (int)json_array_size(modes);
    sp.modes = s->modes;
    if (trs && parse_transitions(&c, trs, modes, s))
        goto done;
    sp.n_transitions = (int)json_array_size(trs);
    sp.transitions = s->trs;
    if (check_limits(&c, json_object_get(doc, "unenforced_limits"), modes, &sp))
        goto done;
    json_t *orbit = json_object_get(doc, "orbit");
    if (orbit && parse_orbit(&c, orbit, modes, trs, s, &sp))
        goto done;
    hes_robot_control control;
    json_t *ctlj = json_object_get(doc, "control");
    if (ctlj && parse_control(&c, s, ctlj, &control))
        goto done;
    sp.control = ctlj ? &control : NULL;
    json_t *to = json_object_get(doc, "trajopt");
    if (to && hes__rdesc_parse_trajopt(&c, to, s, &sp))
        goto done;
    st = hes_robot_model_new(robot, &sp, out, &why);
    robot = NULL;             /* the model's now, or freed */
    if (st != HES_OK)
        hes__say(msg, len, st, "%s: %s", path, why.message);
done:
    hes_robot_destroy(robot);
    if (s)
        hes__rdesc_store_free(s);
    free(s);
    free(file);
    json_decref(doc);
    return st;
}
