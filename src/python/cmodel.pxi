# cmodel.pxi - a model's callback given as a compiled function instead of
# a Python callable: a numba @cfunc (its .address), a ctypes function
# pointer, or an address as an int.  The library calls it directly, with
# no Python and no GIL, so sweeps of such a model run in parallel.  Its C
# signature is hes_fn's:
#
#     int f(double t, const double *x, const double *p, double *out, void *data)
#
# (numba: int32(float64, CPointer(float64), CPointer(float64),
# CPointer(float64), voidptr)); it returns 0, or nonzero for a failure;
# data is the module's and is to be ignored.  A model's validate may be
# compiled too, with hes_model.validate's signature
#
#     int validate(const double *p, char *msg, size_t len, void *data)
#
# writing the reason (NUL-terminated, at most len bytes) where it returns
# nonzero; the library checks the parameters often (at every step of an
# orbit search that solves for parameters), so a validate written in
# Python would take the GIL that often and keep a sweep's threads waiting
# on each other.

import ctypes as _ctypes


cdef size_t _address(obj, what) except? 0:
    """The address of obj if it is a compiled function, else 0."""
    cdef size_t addr
    if obj is None:
        return 0
    if hasattr(obj, "address") and hasattr(obj, "ctypes"):          # numba CFunc
        addr = obj.address
    elif isinstance(obj, _ctypes._CFuncPtr):
        addr = _ctypes.cast(obj, _ctypes.c_void_p).value or 0
    elif isinstance(obj, (int, np.integer)) and not isinstance(obj, bool):
        if obj <= 0:
            raise InvalidArgument(f"{what}: {obj} is not a function's address")
        addr = obj
    else:
        return 0
    if addr == 0:
        raise InvalidArgument(f"{what}: a compiled function with a NULL address")
    return addr


cdef hes_fn _compiled(obj, what) except? NULL:
    """The C function of obj if it is a compiled callback, else NULL."""
    return <hes_fn>_address(obj, what)
