# interrupt.pxi - Ctrl-C during long calls (interrupt.h says how).

import threading

cdef extern from "interrupt.h" nogil:
    int hes_py_interrupt_install()
    void hes_py_interrupt_restore()
    int hes_py_interrupted()


cdef class _Interruptible:
    """with _Interruptible() as guard: a long call whose callbacks poll
    hes_py_interrupted(); KeyboardInterrupt after it when Ctrl-C came.
    Outside the main thread it changes nothing (Python takes signals there
    only)."""
    cdef bint installed

    def __enter__(self):
        self.installed = (threading.current_thread() is threading.main_thread()
                          and hes_py_interrupt_install() == 0)
        return self

    def __exit__(self, exc_type, exc, tb):
        cdef bint hit = self.installed and hes_py_interrupted()
        if self.installed:
            hes_py_interrupt_restore()
        if hit:
            raise KeyboardInterrupt
        return False
