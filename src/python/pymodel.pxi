# pymodel.pxi - a hybrid model written in Python (hes.model): its modes,
# transitions, parameters and orbit as the library's plain data, its
# callbacks as C functions that call the Python ones (with the GIL), or
# compiled functions called directly (cmodel.pxi: no GIL at all).
#
# A callback is f(t, x, p) returning its output as numbers (a scalar for a
# guard, a vector for a field or a reset, a matrix (rows, cols) for a
# Jacobian); x and p are fresh float64 arrays.  An exception in a callback
# makes the C function report failure (nonzero) to the library, which stops
# the computation; every later call fails at once without calling Python;
# and the System method re-raises the exception when the library returns.

from cpython.ref cimport PyObject
from cpython.pythread cimport PyThread_get_thread_ident
import sys as _sys

cdef struct _cb:
    PyObject *model     # the _PyModelBase (borrowed: it outlives its systems)
    int index           # the mode's or transition's index

cdef extern from "model_failure.h" nogil:
    void hes_py_failure_set(const char *text, size_t len)
    const char *hes_py_failure_get()

cdef struct _model_ctx:
    PyObject *model     # the _PyModelBase (borrowed)
    double *guess       # a guess given as numbers: its values (or NULL)
    int n_guess

# what a trampoline returns to the library: success, a failure the
# computation stops at (an exception, re-raised later), or a failure the
# model reports as its C callbacks report one (hes.ModelFailure)
# (codes a compiled callback is unlikely to return itself)
cdef enum:
    CB_OK = 0
    CB_STOP = 1001
    CB_FAILURE = 1002


class ModelFailure(Exception):
    """Raised by a Python model's callback where a C model's returns
    nonzero: the state is outside what the model describes (the body hit
    the ground, the leg has zero length).  The library handles it as a
    failure of the model (it may try another step, or fail with
    hes.ModelError carrying this message); every other exception stops the
    computation and is re-raised."""

# which callback of a mode or transition a trampoline serves
cdef enum:
    CB_FIELD, CB_FIELD_DX, CB_GUARD, CB_GUARD_DX, CB_GUARD_DT, CB_RESET, CB_RESET_DX, CB_RESET_DT


cdef class _PyModelBase:
    """What a System of a model written in Python owns: the model's C
    structures and the Python callables behind its callbacks."""
    cdef hes_model model
    cdef hes_mode *modes
    cdef hes_transition *transitions
    cdef hes_param *params
    cdef _cb *mode_cb
    cdef _cb *trans_cb
    cdef int *ints                 # the orbit's index arrays, in one block
    cdef const char **name_ptrs    # state names and free params, in one block
    cdef list keep                 # the bytes every char * points into
    cdef list fields, fields_dx, guards, guards_dx, guards_dt, resets, resets_dx, resets_dt
    cdef object guess_fn           # callable p -> x0 (or (x0, {param: value})), or None
    cdef object guess_x0           # a fixed x0 (float64 array), or None
    cdef object validate_fn        # callable p -> None or a reason, or None
    cdef _model_ctx ctx            # the model's data pointer
    cdef object pending            # the first exception a callback raised
    cdef dict active               # threads inside a Python callback: their depth

    def __dealloc__(self):
        free(self.modes)
        free(self.transitions)
        free(self.params)
        free(self.mode_cb)
        free(self.trans_cb)
        free(self.ints)
        free(self.name_ptrs)

    cdef int begin(self) except -1:
        """Before a computation: refused from inside this model's own
        callback (it would share the running computation's workspaces and
        parameters); no exception of an earlier one pending."""
        if self.active and PyThread_get_thread_ident() in self.active:
            raise InvalidArgument("a callback of this model called a computation of a System "
                                  "of the same model; compute with a model of its own")
        self.pending = None
        return 0

    cdef void enter(self, long tid):
        self.active[tid] = self.active.get(tid, 0) + 1

    cdef void leave(self, long tid):
        d = self.active.get(tid, 0) - 1
        if d > 0:
            self.active[tid] = d
        else:
            self.active.pop(tid, None)

    cdef int reraise(self) except -1:
        """Raises the exception a callback raised, if one did."""
        if self.pending is not None:
            e = self.pending
            self.pending = None
            raise e
        return 0

    # Each callback's body runs inside one guard: whatever escapes it (an
    # exception raised while handling another, a MemoryError) becomes the
    # pending exception and a failure reported to the library, never a
    # return of 0 (a Cython function without an except clause would print
    # the exception and return 0: "success" with its output unwritten).

    cdef int stop(self, e):
        """Keeps the first exception a callback raised; CB_STOP."""
        if self.pending is None:
            self.pending = e
        return CB_STOP

    cdef int call(self, int which, int index, double t, const double *x, const double *p,
                  double *out):
        """Calls the Python callable `which` of mode or transition `index`
        and writes its output: CB_OK, CB_FAILURE (hes.ModelFailure) or
        CB_STOP (any other exception, kept)."""
        if self.pending is not None:
            return CB_STOP
        cdef long tid = PyThread_get_thread_ident()
        self.enter(tid)
        try:
            try:
                self.call_body(which, index, t, x, p, out)
                return CB_OK
            except ModelFailure as e:
                return self.failure(e)
        except BaseException as e:
            return self.stop(e)
        finally:
            self.leave(tid)

    cdef int call_body(self, int which, int index, double t, const double *x, const double *p,
                       double *out) except -1:
        cdef int nin, nout, rows, cols
        if which == CB_FIELD or which == CB_FIELD_DX:
            nin = self.modes[index].dim
            fn = (self.fields if which == CB_FIELD else self.fields_dx)[index]
            rows, cols = nin, (1 if which == CB_FIELD else nin)
            what = (f"mode {_text(self.modes[index].name)}: "
                    + ("field" if which == CB_FIELD else "field_dx"))
        else:
            nin = self.modes[self.transitions[index].from_].dim
            nout = self.modes[self.transitions[index].to].dim
            lists = {CB_GUARD: (self.guards, 1, 1, "guard"),
                     CB_GUARD_DX: (self.guards_dx, 1, nin, "guard_dx"),
                     CB_GUARD_DT: (self.guards_dt, 1, 1, "guard_dt"),
                     CB_RESET: (self.resets, nout, 1, "reset"),
                     CB_RESET_DX: (self.resets_dx, nout, nin, "reset_dx"),
                     CB_RESET_DT: (self.resets_dt, nout, 1, "reset_dt")}
            l, rows, cols, name = lists[which]
            fn = l[index]
            what = f"transition {_text(self.transitions[index].name)}: {name}"
        r = fn(t, _vector(x, nin), _vector(p, self.model.n_params))
        _put(r, out, rows, cols, what)
        return 0

    cdef int failure(self, e):
        """A hes.ModelFailure: its message kept (in this thread's buffer) for
        describe_error; CB_FAILURE."""
        try:
            b = str(e).encode("utf-8", "replace")
        except BaseException:
            b = b"hes.ModelFailure (its message could not be read)"
        hes_py_failure_set(b, len(b))
        return CB_FAILURE

    cdef int call_guess(self, double *p, double *x0):
        if self.pending is not None:
            return CB_STOP
        cdef int n = self.modes[self.model.orbit.mode].dim
        cdef long tid = PyThread_get_thread_ident()
        self.enter(tid)
        try:
            try:
                r = self.guess_fn(_vector(p, self.model.n_params))
                updates = None
                if isinstance(r, tuple) and len(r) == 2 and isinstance(r[1], dict):
                    r, updates = r
                _put(r, x0, n, 1, "orbit guess")
                if updates:
                    for k, v in updates.items():
                        i = hes_model_param_index(&self.model, _name(k, "a parameter's name"))
                        if i < 0:
                            raise NotFoundError(f"orbit guess: no parameter '{k}'",
                                                HES_ENOTFOUND)
                        p[i] = float(v)
                return CB_OK
            except ModelFailure as e:
                return self.failure(e)
        except BaseException as e:
            return self.stop(e)
        finally:
            self.leave(tid)

    cdef int call_validate(self, const double *p, char *msg, size_t len_):
        """The model's validate(p): None or "" when p is valid, else the
        reason (written to msg); an exception is kept and refuses p."""
        if self.pending is not None:
            return CB_STOP
        b = b"validate raised an exception"
        cdef long tid = PyThread_get_thread_ident()
        self.enter(tid)
        try:
            r = self.validate_fn(_vector(p, self.model.n_params))
            if not r:
                return CB_OK
            b = str(r).encode("utf-8", "replace")
        except BaseException as e:
            self.stop(e)
            try:
                b = f"validate raised {type(e).__name__}: {e}".encode("utf-8", "replace")
            except BaseException:
                pass
        finally:
            self.leave(tid)
        b = b[:len_ - 1]
        memcpy(msg, <const char *>b, len(b))
        msg[len(b)] = 0
        return CB_STOP


cdef int _put(r, double *out, int rows, int cols, what) except -1:
    """r (a number, vector or (rows, cols) matrix) into out, column-major."""
    try:
        a = np.asarray(r, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise InvalidArgument(f"{what} returned {r!r}, not numbers ({e})") from None
    if a.size != rows * cols:
        shape = f"{rows} values" if cols == 1 else f"a {rows} x {cols} matrix"
        raise InvalidArgument(f"{what} returned {a.size} values, expected {shape}")
    if a.ndim == 2 and a.shape != (rows, cols):
        raise InvalidArgument(f"{what} returned a {a.shape[0]} x {a.shape[1]} matrix, "
                              f"expected {rows} x {cols}")
    if cols > 1:
        a = a.reshape(rows, cols).T     # column-major
    cdef cnp.ndarray c = np.ascontiguousarray(a, dtype=np.float64).reshape(-1)
    memcpy(out, cnp.PyArray_DATA(c), rows * cols * sizeof(double))
    return 0


# The C functions the library calls for a Python callable: one per kind of
# callback, the mode's or transition's _cb as data.
cdef inline int _tramp(int which, double t, const double *x, const double *p, double *out,
                       void *data) nogil:
    cdef _cb *cb = <_cb *>data
    with gil:
        return (<_PyModelBase>cb.model).call(which, cb.index, t, x, p, out)

cdef int _t_field(double t, const double *x, const double *p, double *out, void *d) nogil:
    return _tramp(CB_FIELD, t, x, p, out, d)
cdef int _t_field_dx(double t, const double *x, const double *p, double *out, void *d) nogil:
    return _tramp(CB_FIELD_DX, t, x, p, out, d)
cdef int _t_guard(double t, const double *x, const double *p, double *out, void *d) nogil:
    return _tramp(CB_GUARD, t, x, p, out, d)
cdef int _t_guard_dx(double t, const double *x, const double *p, double *out, void *d) nogil:
    return _tramp(CB_GUARD_DX, t, x, p, out, d)
cdef int _t_guard_dt(double t, const double *x, const double *p, double *out, void *d) nogil:
    return _tramp(CB_GUARD_DT, t, x, p, out, d)
cdef int _t_reset(double t, const double *x, const double *p, double *out, void *d) nogil:
    return _tramp(CB_RESET, t, x, p, out, d)
cdef int _t_reset_dx(double t, const double *x, const double *p, double *out, void *d) nogil:
    return _tramp(CB_RESET_DX, t, x, p, out, d)
cdef int _t_reset_dt(double t, const double *x, const double *p, double *out, void *d) nogil:
    return _tramp(CB_RESET_DT, t, x, p, out, d)

cdef int _t_guess(double *p, double *x0, void *data) nogil:
    cdef _model_ctx *ctx = <_model_ctx *>data
    with gil:
        return (<_PyModelBase>ctx.model).call_guess(p, x0)

cdef int _t_guess_fixed(double *p, double *x0, void *data) nogil:
    # a guess given as numbers: copied without Python
    cdef _model_ctx *ctx = <_model_ctx *>data
    memcpy(x0, ctx.guess, ctx.n_guess * sizeof(double))
    return 0

cdef int _t_validate(const double *p, char *msg, size_t len_, void *data) nogil:
    cdef _model_ctx *ctx = <_model_ctx *>data
    with gil:
        return (<_PyModelBase>ctx.model).call_validate(p, msg, len_)

cdef const char *_describe(int code, void *data) nogil:
    cdef const char *why = hes_py_failure_get()
    if code == CB_FAILURE and why[0] != 0:
        return why
    if code == CB_STOP:
        return "a Python callback raised an exception"
    return NULL
