/*
 * parallel.c - a fixed team of threads over independent pieces of work:
 * fn(args[t]) for t = 0..threads-1, each on its own thread (t = 0 on the
 * calling one), all joined before the return.  A thread that cannot be
 * started runs its piece on the calling thread afterwards, so the work is
 * always done.  The pieces must share nothing writable.  Each thread asks
 * for 8 MB of stack, the main thread's usual size: the mechanical layer
 * keeps its small matrices on the stack (about 150 KB deep in a field
 * Jacobian), and a C library's default may be 128 KB.
 */
#include <pthread.h>
#include <stdlib.h>

#include "base/base.h"

void hes__run_parallel(int threads, void *(*fn)(void *), void *args, size_t size)
{
    char *a = args;
    pthread_t *tid = threads > 1 ? malloc(sizeof *tid * (size_t)threads) : NULL;
    pthread_attr_t attr;
    int started = 0, have_attr = tid && pthread_attr_init(&attr) == 0;
    if (have_attr && pthread_attr_setstacksize(&attr, (size_t)8 << 20) != 0) {
        pthread_attr_destroy(&attr);
        have_attr = 0;
    }
    for (int t = 1; tid && t < threads; t++)
        if (pthread_create(&tid[t], have_attr ? &attr : NULL, fn, a + (size_t)t * size) == 0)
            started = t;
        else
            break;
    if (have_attr)
        pthread_attr_destroy(&attr);
    fn(a);
    for (int t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
    for (int t = started + 1; t < threads; t++)
        fn(a + (size_t)t * size);
    free(tid);
}
