/*
 * json_robot_util.c - the helpers of the robot-description reader
 * (json_robot.c): its messages ("PATH: ..."), the refusal of unknown keys,
 * constraints, coordinates, states and list entries found by name.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/json_robot.h"

int hes__rdesc_bad(ctx *c, const char *fmt, ...)
{
    if (c->msg && c->len) {
        int n = snprintf(c->msg, c->len, "%s: ", c->path);
        va_list ap;
        va_start(ap, fmt);
        if (n >= 0 && (size_t)n < c->len)
            vsnprintf(c->msg + n, c->len - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return 1;
}

/* Every key of obj must be one of keys (NULL-terminated). */
int hes__rdesc_only_keys(ctx *c, json_t *obj, const char *where, const char *const *keys)
{
    const char *k;
    json_t *v;
    if (!json_is_object(obj))
        return hes__rdesc_bad(c, "%s must be an object", where);
    json_object_foreach(obj, k, v) {
        int ok = 0;
        for (int i = 0; keys[i] && !ok; i++)
            ok = strcmp(k, keys[i]) == 0;
        if (!ok)
            return hes__rdesc_bad(c, "%s: unknown key \"%s\"", where, k);
    }
    return 0;
}

int hes__rdesc_constraint_index(ctx *c, const char *name)
{
    for (int i = 0; name && i < c->mech->n_constraints; i++)
        if (strcmp(c->mech->constraints[i].name, name) == 0)
            return i;
    return -1;
}

int hes__rdesc_coordinate_index(ctx *c, const char *name)
{
    for (int i = 0; name && i < c->d; i++) {
        const char *j = hes_robot_coordinate(c->robot, i);
        if (j && strcmp(j, name) == 0)
            return i;
    }
    return -1;
}

void hes__rdesc_list_constraints(ctx *c, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < c->mech->n_constraints && at < n; i++)
        at += (size_t)snprintf(buf + at, n - at, "%s%s", i ? ", " : "",
                               c->mech->constraints[i].name);
}

/* A constraint by name; -1 (message) if unknown. */
int hes__rdesc_constraint(ctx *c, json_t *v, const char *where)
{
    const char *s = json_string_value(v);
    int i = hes__rdesc_constraint_index(c, s);
    if (i < 0) {
        char all[1024];
        hes__rdesc_list_constraints(c, all, sizeof all);
        hes__rdesc_bad(c, "%s: '%s' is not a constraint of the robot (%s)", where, s ? s : "(not a string)",
            all);
    }
    return i;
}

/* A list of constraint names into *out; -1 on error. */
int hes__rdesc_constraint_list(ctx *c, store *s, json_t *a, const char *where, int **out)
{
    if (!json_is_array(a))
        return hes__rdesc_bad(c, "%s must be a list of constraint names", where), -1;
    size_t n = json_array_size(a);
    if (!(*out = hes__rdesc_alloc(c, s, n, sizeof **out)))
        return -1;
    for (size_t i = 0; i < n; i++)
        if (((*out)[i] = hes__rdesc_constraint(c, json_array_get(a, i), where)) < 0)
            return -1;
    return (int)n;
}

void *hes__rdesc_alloc(ctx *c, store *s, size_t n, size_t size)
{
    if (s->n_kept == s->cap_kept) {
        size_t cap = s->cap_kept ? 2 * s->cap_kept : 32;
        void **k = realloc(s->kept, sizeof *k * cap);
        if (!k)
            return hes__rdesc_bad(c, "out of memory"), NULL;
        s->kept = k;
        s->cap_kept = cap;
    }
    void *p = calloc(n ? n : 1, size);
    if (!p)
        return hes__rdesc_bad(c, "out of memory"), NULL;
    s->kept[s->n_kept++] = p;
    return p;
}

void hes__rdesc_store_free(store *s)
{
    for (size_t i = 0; i < s->n_kept; i++)
        free(s->kept[i]);
    free(s->kept);
}

int hes__rdesc_name_index(json_t *names_of, const char *key, const char *name)
{
    for (size_t i = 0; name && i < json_array_size(names_of); i++) {
        const char *s = json_string_value(json_object_get(json_array_get(names_of, i), key));
        if (s && strcmp(s, name) == 0)
            return (int)i;
    }
    return -1;
}

/* Entry i of a list of named objects (modes, transitions, path
 * constraints): the object with only `keys`, its "name" present and
 * unique in the list; NULL (message) otherwise.  where: "KIND[i]". */
json_t *hes__rdesc_named_entry(ctx *c, json_t *list, size_t i, const char *kind,
                           const char *const *keys, const char **name, char *where, size_t wl)
{
    json_t *o = json_array_get(list, i);
    snprintf(where, wl, "%s[%zu]", kind, i);
    if (hes__rdesc_only_keys(c, o, where, keys))
        return NULL;
    *name = json_string_value(json_object_get(o, "name"));
    if (!*name || !(*name)[0] || hes__rdesc_name_index(list, "name", *name) != (int)i) {
        hes__rdesc_bad(c, "%s needs a \"name\", unique in the list", where);
        return NULL;
    }
    return o;
}


/* A mode's state index by name (coordinates, then "NAMEdot"). */
int hes__rdesc_state_index(const char *const *names, int k, const char *name)
{
    char buf[280];
    for (int i = 0; name && i < 2 * k; i++) {
        snprintf(buf, sizeof buf, "%s%s", names[i % k], i < k ? "" : "dot");
        if (strcmp(buf, name) == 0)
            return i;
    }
    return -1;
}

/* The names of a mode's coordinates: the robot's less those its pinned
 * contact and locked joints fix, from the mode view the model will make
 * (hes__robot_mode_view); -1 (the reason in the message) if there is none. */
int hes__rdesc_free_names(ctx *c, store *s, const hes_robot_mode_spec *ms, const char ***names)
{
    hes__robot_view v;
    char why[256];
    if (hes__robot_mode_view(c->robot, ms->pinned, ms->n_locked, ms->locked, &v, why,
                             sizeof why) != HES_OK)
        return hes__rdesc_bad(c, "mode '%s': %s", ms->name, why), -1;
    int k = v.k;
    if ((*names = hes__rdesc_alloc(c, s, (size_t)k, sizeof **names)))
        for (int i = 0; i < k; i++)
            (*names)[i] = hes_robot_coordinate(c->robot, v.free[i])
                          ? hes_robot_coordinate(c->robot, v.free[i]) : "?";
    hes__robot_view_free(&v);
    return *names ? k : -1;
}

/* name + suffix, kept by the store */
static const char *joined(ctx *c, store *s, const char *name, const char *suffix)
{
    size_t l = strlen(name) + strlen(suffix) + 1;
    char *out = hes__rdesc_alloc(c, s, l, 1);
    if (out)
        snprintf(out, l, "%s%s", name, suffix);
    return out;
}

int hes__rdesc_state_names(ctx *c, store *s, const hes_robot_mode_spec *ms, const char ***full)
{
    int nq, nv;
    hes_robot_dims(c->robot, &nq, &nv);
    if (nq == nv) {              /* the coordinates z of the mode, then "zdot" */
        const char **names;
        int k = hes__rdesc_free_names(c, s, ms, &names);
        if (k < 0 || !(*full = hes__rdesc_alloc(c, s, 2 * (size_t)k, sizeof **full)))
            return -1;
        for (int i = 0; i < 2 * k; i++)
            if (!((*full)[i] = i < k ? names[i] : joined(c, s, names[i - k], "dot")))
                return -1;
        return 2 * k;
    }
    /* quaternions: every coordinate, then the velocities (a hinge's "Jdot") */
    if (!(*full = hes__rdesc_alloc(c, s, (size_t)(nq + nv), sizeof **full)))
        return -1;
    for (int i = 0; i < nq; i++)
        (*full)[i] = hes_robot_coordinate(c->robot, i);
    for (int j = 0; j < nv; j++) {
        const char *vn = hes_robot_velocity_name(c->robot, j);
        int same = 0;
        for (int i = 0; i < nq && !same; i++)
            same = strcmp((*full)[i], vn) == 0;
        if (!((*full)[nq + j] = same ? joined(c, s, vn, "dot") : vn))
            return -1;
    }
    return nq + nv;
}
