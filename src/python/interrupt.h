/*
 * interrupt.h - Ctrl-C during a long call of the Python module.
 *
 * A long call (a sweep, a continuation) runs with the GIL released, where
 * Python's own SIGINT handler cannot raise KeyboardInterrupt until the
 * call returns.  For the call's duration the module puts this handler in
 * its place (from the main thread only, where Python takes signals); the
 * call's callbacks poll hes_py_interrupted() and stop the computation, and
 * the module restores Python's handler and raises KeyboardInterrupt.
 */
#ifndef HES_PY_INTERRUPT_H
#define HES_PY_INTERRUPT_H

/* Installs the handler; returns 0, or -1 when it could not (then nothing
 * changed).  Nested installs are counted; the outermost restores. */
int hes_py_interrupt_install(void);
/* Restores the handler that hes_py_interrupt_install replaced. */
void hes_py_interrupt_restore(void);
/* Nonzero once SIGINT arrived since the outermost install (0 when none is
 * installed). */
int hes_py_interrupted(void);

#endif
