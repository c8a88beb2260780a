# blas.pxi - OpenBLAS on one thread, as the program runs it (src/main.c):
# OpenBLAS chooses its kernels and splits its sums by its thread count, so
# a complementarity problem's pivots (Siconos's Lemke method calls BLAS),
# and with them an impact's outcomes or inverse dynamics' forces, came out
# other bits with two threads than the program's one; and at hes's matrix
# sizes the threads only add synchronisation.  It is the process's
# setting: NumPy's BLAS, where it is the same OpenBLAS, runs on one thread
# too after `import hes`.

cdef extern from *:
    """
    #ifdef HAVE_CONFIG_H
    #include "config.h"
    #endif
    #ifdef HAVE_OPENBLAS_SET_NUM_THREADS
    void openblas_set_num_threads(int n);
    static void hes_py_blas_one_thread(void) { openblas_set_num_threads(1); }
    #else
    static void hes_py_blas_one_thread(void) { }
    #endif
    """
    void hes_py_blas_one_thread()

hes_py_blas_one_thread()
