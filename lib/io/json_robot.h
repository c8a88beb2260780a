/*
 * io/json_robot.h - what the reader of a robot model's description
 * (json_robot.c) shares with its parts: the reading context, the storage
 * of the spec's arrays, the helpers that name what is wrong
 * (json_robot_util.c) and the "trajopt" section's reader
 * (json_robot_trajopt.c).
 */
#ifndef HES_IO_JSON_ROBOT_H
#define HES_IO_JSON_ROBOT_H

#include <jansson.h>

#include "io/io.h"
#include "model/robot_internal.h"

/* the most modes and transitions (hes_robot_model_new's), and the most
 * events of an orbit's sequence */
#define HES_RDESC_MAX_LIST 1000

typedef struct {
    const char *path;         /* every message starts with it */
    char *msg;
    size_t len;
    const hes_mech *mech;
    hes_robot *robot;
    int d;
} ctx;

/* The spec's arrays, each sized by what the description gives
 * (hes__rdesc_alloc) and freed with the store (hes__rdesc_store_free). */
typedef struct {
    hes_robot_mode_spec *modes;
    hes_robot_transition_spec *trs;
    int *seq, *free_states, *residual;
    double *guess;
    hes_trajopt_spec trajopt;
    const char **inputs;
    double *input_lo, *input_hi, *x0_lo, *x0_hi;
    int *virtual_events;
    hes_robot_linear_path *lpaths;
    void **kept;              /* every allocation above and of the entries' lists */
    size_t n_kept, cap_kept;
} store;

/* n zeroed items of `size` bytes (n 0: one), freed with the store; NULL
 * with the message "out of memory". */
void *hes__rdesc_alloc(ctx *c, store *s, size_t n, size_t size);
/* Every array of the store. */
void hes__rdesc_store_free(store *s);
/* A failure: "PATH: " and the message into c->msg; returns -1. */
int hes__rdesc_bad(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* -1 (with the message) when obj (at `where`) has a key not in keys
 * (NULL-terminated). */
int hes__rdesc_only_keys(ctx *c, json_t *obj, const char *where, const char *const *keys);
/* The index of a constraint or a coordinate of the robot by name, or -1. */
int hes__rdesc_constraint_index(ctx *c, const char *name);
int hes__rdesc_coordinate_index(ctx *c, const char *name);
/* The robot's constraint names, comma-separated, into buf (for messages). */
void hes__rdesc_list_constraints(ctx *c, char *buf, size_t n);
/* A constraint named by the string v, or a list of them into *out (an
 * array of the store): the index / the count, or -1 with the message. */
int hes__rdesc_constraint(ctx *c, json_t *v, const char *where);
int hes__rdesc_constraint_list(ctx *c, store *s, json_t *a, const char *where, int **out);
/* The index of the first entry of the array names_of whose `key` is name,
 * or -1. */
int hes__rdesc_name_index(json_t *names_of, const char *key, const char *name);
/* Entry i of list, an object with a unique "name" (into *name) and only
 * the keys given; NULL with the message. */
json_t *hes__rdesc_named_entry(ctx *c, json_t *list, size_t i, const char *kind,
                               const char *const *keys, const char **name, char *where,
                               size_t wl);
/* The index of name among names[0..k-1], or -1. */
int hes__rdesc_state_index(const char *const *names, int k, const char *name);
/* The names of a mode's coordinates into *names (an array of the store):
 * the robot's less those its pinned contact and locked joints fix, from
 * the mode view the model will make (hes__robot_mode_view); their number,
 * or -1 (the reason in the message) if there is none. */
int hes__rdesc_free_names(ctx *c, store *s, const hes_robot_mode_spec *ms, const char ***names);
/* The names of a mode's states into *full (an array of the store): its
 * coordinates and then their rates NAMEdot, or for a robot with
 * quaternions (free and ball joints) every coordinate and then the
 * velocities (a hinge's NAMEdot); their number, or -1 with the message. */
int hes__rdesc_state_names(ctx *c, store *s, const hes_robot_mode_spec *ms, const char ***full);
/* The "trajopt" section into s and sp (json_robot_trajopt.c). */
int hes__rdesc_parse_trajopt(ctx *c, json_t *o, store *s, hes_robot_model_spec *sp);

#endif
