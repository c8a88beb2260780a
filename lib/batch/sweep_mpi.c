/*
 * sweep_mpi.c - a sweep shared by the ranks of MPI_COMM_WORLD
 * (hes_sweep_run_mpi; compiled when configure finds OpenMPI, else
 * sweep_mpi_none.c).
 *
 * Dynamic load balancing, every rank computing: the next point to hand out
 * is one integer in a window on rank 0, and a rank takes a block by an
 * atomic fetch-and-add on it (MPI_Fetch_and_op, passive target: rank 0
 * need not answer, so nobody waits on a rank that is computing; one
 * passive-target epoch for the whole sweep, so a block is one
 * fetch-and-add and a flush).  Rows go to rank 0 as small eager messages
 * (tag 1, about 1 kB: the sender does not wait for the receive); rank 0
 * puts every row, its own threads' and the other ranks', in index order
 * (hes_sweep_order), writes it to the file and passes it to the caller,
 * serving the other ranks between its own points and at the end, with the
 * "done" messages (tag 2) until every other rank is done.  Rank 0 alone
 * opens the file; with resume its kept points are broadcast as skipped.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid/hybrid.h"

typedef struct {
    const hes_sweep_options *o;     /* the caller's: its row callback (rank 0) */
    hes_sweep_file *file;        /* rank 0, or NULL */
    hes_sweep_order *order;      /* rank 0: every rank's rows in index order */
    int rank, size, done_ranks, failed;
    MPI_Win win;                 /* rank 0's counter of the next point to hand out */
} shared;

static int next_block(void *ctx, int block)
{
    shared *sh = ctx;
    int first;
    MPI_Fetch_and_op(&block, &first, MPI_INT, 0, 0, MPI_SUM, sh->win);
    MPI_Win_flush(0, sh->win); /* completes it: first is read */
    return first;
}

/* Rank 0: a row in its turn, to the file and the caller. */
static int emit(void *ctx, const hes_sweep_row *row)
{
    shared *sh = ctx;
    if (sh->failed || (sh->file && hes_sweep_file_put(sh->file, row) != HES_OK)) {
        sh->failed = 1;
        return -1;
    }
    return sh->o->row ? sh->o->row(sh->o->ctx, row) : 0;
}

/* Rank 0: the other ranks' rows and "done" messages that have come (wait:
 * until every other rank is done). */
static void serve(shared *sh, int wait)
{
    for (;;) {
        MPI_Status stat;
        int flag = 1;
        if (wait && sh->done_ranks >= sh->size - 1)
            return;
        if (wait)
            MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &stat);
        else
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &stat);
        if (!flag)
            return;
        if (stat.MPI_TAG == 1) {
            hes_sweep_row other;
            MPI_Recv(&other, (int)sizeof other, MPI_BYTE, stat.MPI_SOURCE, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            if (hes_sweep_order_put(sh->order, &other, emit, sh) != 0)
                sh->failed = 1;
        } else {
            MPI_Recv(NULL, 0, MPI_BYTE, stat.MPI_SOURCE, stat.MPI_TAG, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            if (stat.MPI_TAG == 2)
                sh->done_ranks++;
        }
    }
}

/* Every row of this process's threads: to rank 0, or (rank 0) in order. */
static int row_of_rank(void *ctx, const hes_sweep_row *row)
{
    shared *sh = ctx;
    if (sh->rank > 0) {
        MPI_Send(row, (int)sizeof *row, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        return 0;
    }
    int rc = hes_sweep_order_put(sh->order, row, emit, sh);
    if (rc == 0)
        serve(sh, 0); /* the other ranks' rows, between rank 0's own points */
    return rc != 0 || sh->failed ? -1 : 0;
}

int hes_sweep_mpi_rank(int *size)
{
    int init = 0, fin = 0, rank = 0, n = 1;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin) {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &n);
    }
    if (size)
        *size = n;
    return rank;
}

/* The worst status over the ranks (all the same afterwards). */
static hes_status agree(hes_status st)
{
    int v = (int)st;
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return (hes_status)v;
}

hes_status hes_sweep_run_mpi(const hes_system *proto, const hes_sweep_options *o,
                             const hes_sweep_file_options *fo, hes_sweep_file_report *rep,
                             hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    int size, rank = hes_sweep_mpi_rank(&size);
    if (size == 1)
        return fo ? hes_sweep_run_file(proto, o, fo, rep, err)
                  : hes_sweep_run_system(proto, o, err);
    if (rep)
        memset(rep, 0, sizeof *rep);
    if (!proto || !o || o->next_block || o->n_points < 0)
        return hes__say(msg, len, HES_EINVAL, "hes_sweep_run_mpi: needs a system and options "
                        "without next_block");
    shared sh = { o, NULL, NULL, rank, size, 0, 0, MPI_WIN_NULL };
    unsigned char *skip = calloc((size_t)(o->n_points > 0 ? o->n_points : 1), 1);
    hes_sweep_file_report own;
    hes_status st = skip ? HES_OK : hes__say(msg, len, HES_ENOMEM, "out of memory");
    if (st == HES_OK && o->skip)
        memcpy(skip, o->skip, (size_t)o->n_points);
    if (st == HES_OK && rank == 0) {
        if (fo)
            st = hes_sweep_file_open(proto, o, fo, skip, &sh.file, rep ? rep : &own, err);
        if (st == HES_OK && !(sh.order = hes_sweep_order_new(o->n_points, o->n_params,
                                                             o->values, skip, o->n_strides,
                                                             o->strides)))
            st = hes__say(msg, len, HES_ENOMEM, "out of memory (or bad strides)");
    }
    hes_status all = agree(st);
    if (all != HES_OK) {
        if (st == HES_OK)
            hes__say(msg, len, all, "another rank could not start the sweep (%s)",
                     hes_strerror(all));
        hes_sweep_file_close(sh.file, NULL);
        hes_sweep_order_destroy(sh.order);
        free(skip);
        return all;
    }
    MPI_Bcast(skip, o->n_points, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
    int *counter = NULL;
    MPI_Win_allocate(rank == 0 ? (MPI_Aint)sizeof(int) : 0, sizeof(int), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &counter, &sh.win);
    if (rank == 0)
        *counter = 0;
    MPI_Barrier(MPI_COMM_WORLD); /* the counter is set before anyone takes */
    MPI_Win_lock_all(MPI_MODE_NOCHECK, sh.win);
    hes_sweep_options run = *o;
    run.skip = skip;
    run.row = row_of_rank;
    run.ctx = &sh;
    run.next_block = next_block;
    st = hes_sweep_run_system(proto, &run, err);
    /* every rank says it is done, also after a failure, so that rank 0
       does not wait for it; then the window goes, on every rank */
    if (rank > 0)
        MPI_Send(NULL, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
    else
        serve(&sh, 1);
    MPI_Win_unlock_all(sh.win);
    MPI_Win_free(&sh.win);
    if (rank == 0 && sh.failed && sh.file)
        st = hes__say(msg, len, HES_EIO, "%s", hes_sweep_file_errmsg(sh.file));
    else if (rank == 0 && sh.failed)
        st = hes__say(msg, len, HES_EINVAL, "the sweep was stopped by its callback");
    if (rank == 0) {
        hes_status cs = hes_sweep_file_close(sh.file, st == HES_OK ? err : NULL);
        if (st == HES_OK)
            st = cs;
    }
    all = agree(st);
    if (all != HES_OK && st == HES_OK)
        hes__say(msg, len, all, "another rank's part of the sweep failed (%s)",
                 hes_strerror(all));
    hes_sweep_order_destroy(sh.order);
    free(skip);
    return all;
}
