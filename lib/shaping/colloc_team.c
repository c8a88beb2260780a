/*
 * colloc_team.c - the workspaces of psi's factors (with the memo of the
 * vector field and its Jacobian at the last points evaluated), and a team
 * of threads that a hes_colloc keeps for psi's
 * gradient (hes_colloc_options.jobs): the gradient differentiates every
 * factor of the monodromy in the variables it depends on, independently of
 * the others, so the factors are dealt out to the members.  The threads
 * live as long as the hes_colloc and wait between evaluations, so an
 * evaluation starts none and allocates nothing (the NLP evaluates the
 * gradient hundreds of times a second).  Each member has its own
 * workspace on its own copy of the system: evaluating a factor writes the
 * node's inputs into the system's parameters.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "shaping/colloc_internal.h"

/* A workspace: scratch of the hes_colloc's sizes and an empty memo. */
hes_status hes__colloc_ws_init(const hes_colloc *c, hes_system *sys, hes__colloc_ws *w)
{
    int nm = sys->nmax, np = sys->model->n_params;
    size_t mm = (size_t)nm * nm, per = 3 * (size_t)nm + (size_t)np + mm;
    memset(w, 0, sizeof *w);
    w->sys = sys;
    w->work = malloc(sizeof(double) * c->work_len);
    w->ework = malloc(sizeof(double) * c->ework_len);
    w->zz = malloc(sizeof(double) * (size_t)c->nv_max);
    w->dG = malloc(sizeof(double) * (10 * mm + 2 * (size_t)nm));
    w->memo_buf = malloc(sizeof(double) * per * HES__COLLOC_MEMO);
    w->gpert = malloc(sizeof(double) * mm * (size_t)c->nfac);
    w->sub = calloc((size_t)c->nfac, sizeof *w->sub);
    w->chain = malloc(sizeof(double) * (2 * mm + (size_t)nm));
    if (!w->work || !w->ework || !w->zz || !w->dG || !w->memo_buf || !w->gpert || !w->sub ||
        !w->chain || hes__stability_alloc(&w->stab, c->dim[0]) != HES_OK)
        return HES_ENOMEM;
    for (int e = 0; e < HES__COLLOC_MEMO; e++) {
        double *b = w->memo_buf + per * (size_t)e;
        w->memo[e].mode = -1;
        w->memo[e].x = b;
        w->memo[e].p = b + nm;
        w->memo[e].f = b + nm + np;
        w->memo[e].J = b + 2 * nm + np;
    }
    return HES_OK;
}

hes_status hes__colloc_field_ws(hes__colloc_ws *w, int mode, double t, const double *x,
                                double *f, double *J)
{
    hes_system *sys = w->sys;
    int n = sys->model->modes[mode].dim, np = sys->model->n_params, e;
    size_t xs = sizeof(double) * (size_t)n, ps = sizeof(double) * (size_t)np;
    hes__colloc_memo *m = w->memo;
    hes_status st;
    for (e = 0; e < HES__COLLOC_MEMO; e++) {
        if (m[e].mode == mode && !memcmp(&m[e].t, &t, sizeof t) && !memcmp(m[e].x, x, xs) &&
            !memcmp(m[e].p, sys->p, ps))
            break;
    }
    if (e == HES__COLLOC_MEMO) { /* a new point, in the oldest entry */
        e = w->memo_next;
        w->memo_next = (e + 1) % HES__COLLOC_MEMO;
        m[e].mode = -1;
        m[e].has_f = m[e].has_J = 0;
        m[e].t = t;
        memcpy(m[e].x, x, xs);
        memcpy(m[e].p, sys->p, ps);
    }
    if (f && !m[e].has_f) {
        if ((st = hes__field(sys, mode, t, x, m[e].f)) != HES_OK)
            return st;
        m[e].has_f = 1;
    }
    if (J && !m[e].has_J) {
        if ((st = hes__field_dx(sys, mode, t, x, m[e].J)) != HES_OK)
            return st;
        m[e].has_J = 1;
    }
    m[e].mode = mode;
    if (f)
        memcpy(f, m[e].f, xs);
    if (J)
        memcpy(J, m[e].J, xs * (size_t)n);
    return HES_OK;
}

hes_status hes__colloc_field(hes_colloc *c, int mode, double t, const double *x, double *f,
                             double *J)
{
    return hes__colloc_field_ws(&c->ws, mode, t, x, f, J);
}

void hes__colloc_memo_clear(hes__colloc_ws *w)
{
    for (int e = 0; e < HES__COLLOC_MEMO; e++)
        w->memo[e].mode = -1;
}

void hes__colloc_ws_free(hes__colloc_ws *w)
{
    free(w->work);
    free(w->ework);
    free(w->zz);
    free(w->dG);
    free(w->memo_buf);
    free(w->gpert);
    free(w->sub);
    free(w->chain);
    hes_stability_free(&w->stab);
    memset(w, 0, sizeof *w);
}

typedef struct {
    struct hes__colloc_team *team;
    int member;
    hes__colloc_ws ws;
    pthread_t tid;
} team_member;

struct hes__colloc_team {
    hes_colloc *c;
    int size;                    /* members, the caller's thread included */
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned long round;         /* incremented by every hes__colloc_team_run */
    int pending, quit;
    hes__colloc_team_fn fn;
    void *arg;
    team_member *m;              /* size - 1 */
};

static void *member_loop(void *arg)
{
    team_member *m = arg;
    struct hes__colloc_team *t = m->team;
    unsigned long seen = 0;
    for (;;) {
        pthread_mutex_lock(&t->mu);
        while (t->round == seen && !t->quit)
            pthread_cond_wait(&t->go, &t->mu);
        if (t->quit) {
            pthread_mutex_unlock(&t->mu);
            return NULL;
        }
        seen = t->round;
        pthread_mutex_unlock(&t->mu);
        t->fn(t->c, &m->ws, m->member, t->size, t->arg);
        pthread_mutex_lock(&t->mu);
        if (--t->pending == 0)
            pthread_cond_signal(&t->done);
        pthread_mutex_unlock(&t->mu);
    }
}

hes_status hes__colloc_team_start(hes_colloc *c, int jobs)
{
    hes_system *sys = c->sys;
    if (jobs <= 1)
        return HES_OK;
    if (jobs > HES_COLLOC_MAX_JOBS)
        return hes__fail(sys, HES_EINVAL, "at most %d jobs (threads), not %d",
                         HES_COLLOC_MAX_JOBS, jobs);
    struct hes__colloc_team *t = calloc(1, sizeof *t);
    if (!t || !(t->m = calloc((size_t)jobs - 1, sizeof *t->m))) {
        free(t);
        return hes__fail(sys, HES_ENOMEM, "out of memory");
    }
    t->c = c;
    t->size = 1;
    int mu = pthread_mutex_init(&t->mu, NULL) == 0, go = mu && pthread_cond_init(&t->go, NULL) == 0,
        done = go && pthread_cond_init(&t->done, NULL) == 0;
    if (!done) { /* no thread yet: undo what was made */
        if (go)
            pthread_cond_destroy(&t->go);
        if (mu)
            pthread_mutex_destroy(&t->mu);
        free(t->m);
        free(t);
        return hes__fail(sys, HES_ESOLVER, "could not make the team's lock (%d jobs)", jobs);
    }
    c->team = t;
    for (int i = 0; i < jobs - 1; i++) {
        team_member *m = &t->m[i];
        hes_system *copy = NULL;
        hes_system_new(sys->model, &copy, NULL);
        m->team = t;
        m->member = i + 1;
        if (!copy || hes__colloc_ws_init(c, copy, &m->ws) != HES_OK) {
            hes_system_destroy(copy);
            hes__colloc_ws_free(&m->ws);
            return hes__fail(sys, HES_ENOMEM, "out of memory (the team of %d jobs)", jobs);
        }
        /* the mechanical layer keeps its small matrices on the stack (about
         * 150 KB deep in a field Jacobian): ask for the main thread's 8 MB
         * rather than a C library's default, which may be 128 KB */
        pthread_attr_t attr;
        int have_attr = pthread_attr_init(&attr) == 0;
        int started = have_attr && pthread_attr_setstacksize(&attr, (size_t)8 << 20) == 0 &&
                      pthread_create(&m->tid, &attr, member_loop, m) == 0;
        if (have_attr)
            pthread_attr_destroy(&attr);
        if (!started) {
            hes_system_destroy(copy);
            hes__colloc_ws_free(&m->ws);
            return hes__fail(sys, HES_ESOLVER, "could not start thread %d of %d", i + 2, jobs);
        }
        t->size++;
    }
    return HES_OK;
}

void hes__colloc_team_stop(hes_colloc *c)
{
    struct hes__colloc_team *t = c->team;
    if (!t)
        return;
    pthread_mutex_lock(&t->mu);
    t->quit = 1;
    pthread_cond_broadcast(&t->go);
    pthread_mutex_unlock(&t->mu);
    for (int i = 0; i < t->size - 1; i++) {
        pthread_join(t->m[i].tid, NULL);
        hes_system_destroy(t->m[i].ws.sys);
        hes__colloc_ws_free(&t->m[i].ws);
    }
    pthread_cond_destroy(&t->go);
    pthread_cond_destroy(&t->done);
    pthread_mutex_destroy(&t->mu);
    free(t->m);
    free(t);
    c->team = NULL;
}

int hes__colloc_team_size(const hes_colloc *c)
{
    return c->team ? c->team->size : 1;
}

hes_system *hes__colloc_team_sys(const hes_colloc *c, int member)
{
    return member == 0 || !c->team ? c->sys : c->team->m[member - 1].ws.sys;
}

void hes__colloc_team_run(hes_colloc *c, hes__colloc_team_fn fn, void *arg)
{
    struct hes__colloc_team *t = c->team;
    if (!t || t->size == 1) {
        fn(c, &c->ws, 0, 1, arg);
        return;
    }
    hes_system *sys = c->sys;
    size_t ps = sizeof(double) * (size_t)sys->model->n_params;
    for (int i = 0; i < t->size - 1; i++) { /* the members are idle: no race */
        memcpy(t->m[i].ws.sys->p, sys->p, ps);
        t->m[i].ws.sys->set = sys->set;
        hes__colloc_memo_clear(&t->m[i].ws); /* as the caller's, at each evaluation */
    }
    pthread_mutex_lock(&t->mu);
    t->fn = fn;
    t->arg = arg;
    t->pending = t->size - 1;
    t->round++;
    pthread_cond_broadcast(&t->go);
    pthread_mutex_unlock(&t->mu);
    fn(c, &c->ws, 0, t->size, arg);
    pthread_mutex_lock(&t->mu);
    while (t->pending > 0)
        pthread_cond_wait(&t->done, &t->mu);
    pthread_mutex_unlock(&t->mu);
}
