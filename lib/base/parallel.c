/*
 * parallel.c - a fixed team of threads over independent pieces of work:
 * fn(args[t]) for t = 0..threads-1, each on its own thread (t = 0 on the
 * calling one), all joined before the return.  A thread that cannot be
 * started runs its piece on the calling thread afterwards, so the work is
 * always done.  The pieces must share nothing writable.
 */
#include <pthread.h>
#include <stdlib.h>

#include "base/base.h"

void hes__run_parallel(int threads, void *(*fn)(void *), void *args, size_t size)
{
    char *a = args;
    pthread_t *tid = threads > 1 ? malloc(sizeof *tid * (size_t)threads) : NULL;
    int started = 0;
    for (int t = 1; tid && t < threads; t++)
        if (pthread_create(&tid[t], NULL, fn, a + (size_t)t * size) == 0)
            started = t;
        else
            break;
    fn(a);
    for (int t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
    for (int t = started + 1; t < threads; t++)
        fn(a + (size_t)t * size);
    free(tid);
}
