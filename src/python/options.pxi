# options.pxi - the keyword options of the module's commands checked as the
# program checks its command-line options: integers and numbers within the
# program's ranges, names, paths and mappings of NAME to a value, each
# refusal an InvalidArgument naming the option and what it expects.

import math as _math
import numbers as _numbers
import operator as _operator
import os as _os

# The program's limits of its options (src/cli.h).
CLI_MAX_POINTS = 10000000
CLI_MAX_TRIALS = 100000
CLI_MAX_STEPS = 100000
CLI_MAX_TRIAL_STEPS = 10000000
CLI_MAX_STARTS = 1000
CLI_MAX_EVALS = 100000


cdef object _int_option(value, what, lo, hi):
    """value as an int in [lo, hi] (hi None: no upper limit), or
    InvalidArgument "what = value: expected an integer from lo to hi"."""
    if isinstance(value, bool) or isinstance(value, float):
        v = None
    else:
        try:
            v = _operator.index(value)
        except TypeError:
            v = None
    if v is None or v < lo or (hi is not None and v > hi):
        to = f" to {hi}" if hi is not None else " or more"
        raise InvalidArgument(f"{what} = {value!r}: expected an integer from {lo}{to}")
    return v


cdef double _float_option(value, what, double lo=-_math.inf, bint lo_open=False,
                          double hi=_math.inf) except? -1.5:
    """value as a finite float >= lo (> lo with lo_open) and <= hi, or
    InvalidArgument naming what."""
    if isinstance(value, bool) or not isinstance(value, (_numbers.Real, np.floating,
                                                          np.integer)):
        raise InvalidArgument(f"{what} = {value!r}: expected a number")
    cdef double v = float(value)
    if not _math.isfinite(v):
        raise InvalidArgument(f"{what} = {value!r}: expected a finite number")
    if v < lo or (lo_open and v == lo) or v > hi:
        if hi < _math.inf:
            rng = f"in ({lo:g}, {hi:g}]" if lo_open else f"in [{lo:g}, {hi:g}]"
        else:
            rng = f"> {lo:g}" if lo_open else f">= {lo:g}"
        raise InvalidArgument(f"{what} = {value!r}: expected a finite number {rng}")
    return v


cdef object _seed_option(value, what):
    """A seed: an integer from 0 to the largest unsigned long."""
    return _int_option(value, what, 0, 2 ** 64 - 1)


cdef bytes _path_option(value, what):
    """A file's path (str, bytes or os.PathLike) as bytes for the library."""
    try:
        p = _os.fspath(value)
    except TypeError:
        raise InvalidArgument(f"{what}: expected a file's path, not "
                              f"{type(value).__name__}") from None
    if isinstance(p, bytes):
        p = p.decode("utf-8", "surrogateescape")
    if not p:
        raise InvalidArgument(f"{what}: the path is empty")
    if "\0" in p:
        raise InvalidArgument(f"{what}: the path contains a NUL character")
    return p.encode("utf-8", "surrogateescape")


cdef dict _mapping_option(value, what):
    """A mapping NAME -> value given as a dict or as (NAME, value) pairs."""
    if value is None:
        return {}
    if hasattr(value, "items"):
        items = list(value.items())
    else:
        try:
            items = [tuple(x) for x in value]
        except TypeError:
            raise InvalidArgument(f"{what}: expected a dict of NAME: value") from None
        if any(len(x) != 2 for x in items):
            raise InvalidArgument(f"{what}: expected a dict of NAME: value, or (NAME, value) "
                                  "pairs")
    out = {}
    for k, v in items:
        if isinstance(k, bytes):
            k = k.decode("utf-8", "replace")
        if not isinstance(k, str) or not k:
            raise InvalidArgument(f"{what}: {k!r} is not a name")
        if k in out:
            raise InvalidArgument(f"{what}: {k} given twice")
        out[k] = v
    return out


cdef tuple _range_option(value, what, bint strict=False):
    """(lo, hi) of finite numbers with lo <= hi (lo < hi with strict)."""
    try:
        lo, hi = value
    except (TypeError, ValueError):
        raise InvalidArgument(f"{what} = {value!r}: expected (LO, HI)") from None
    lo = _float_option(lo, f"{what} LO")
    hi = _float_option(hi, f"{what} HI")
    if lo > hi or (strict and lo == hi):
        raise InvalidArgument(f"{what} = ({lo!r}, {hi!r}): expected LO {'<' if strict else '<='} "
                              "HI")
    return (lo, hi)


cdef int _param_index(System s, name, what) except -2:
    """The index of parameter `name` of s, or NotFoundError naming what."""
    cdef hes_system *sys = s._sys()
    b = _name(name, what)
    for i in range(hes_system_n_params(sys)):
        if hes_system_param_info(sys, i).name == b:
            return i
    raise NotFoundError(f"{what}: problem '{s.name}' has no parameter '{name}' (its "
                        f"parameters: {', '.join(s.param_names)})", HES_ENOTFOUND)


cdef int _check_params(System s) except -1:
    """The model's own check of the parameter values together (validate),
    as the program makes it once every -p is set; after _begin (no
    exception of an earlier computation left to refuse it)."""
    s._begin()
    cdef hes_status st = hes_system_check_params(s._sys())
    if st != HES_OK:
        s._raise(st)
    return 0


cdef int _reraise_model(System s) except -1:
    """The exception a Python-written model's callback raised, if one did."""
    if isinstance(s.owner, _PyModelBase):
        (<_PyModelBase>s.owner).reraise()
    return 0


cdef object _readonly(a):
    """a (a NumPy array) made read-only: the results' arrays are theirs."""
    a.setflags(write=False)
    return a
