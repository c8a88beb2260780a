# arrays.pxi - NumPy arrays in and out of the library's C arrays.
#
# The library's matrices are column-major (LAPACK's); NumPy's are shown in
# row and column, so a matrix comes out as a (rows, cols) array whatever its
# order in memory.

cdef cnp.ndarray _vector(const double *v, Py_ssize_t n):
    """A new float64 array with a copy of n values."""
    cdef cnp.ndarray out = np.empty(n, dtype=np.float64)
    if n > 0:
        memcpy(cnp.PyArray_DATA(out), v, n * sizeof(double))
    return out


cdef cnp.ndarray _matrix(const double *m, Py_ssize_t rows, Py_ssize_t cols):
    """A new (rows, cols) float64 array of a column-major matrix."""
    cdef cnp.ndarray out = np.empty((cols, rows), dtype=np.float64)
    if rows * cols > 0:
        memcpy(cnp.PyArray_DATA(out), m, rows * cols * sizeof(double))
    return out.T


cdef cnp.ndarray _as_vector(obj, Py_ssize_t n, what):
    """obj as a contiguous float64 vector of n finite values, or
    InvalidArgument naming what (n < 0: any length)."""
    try:
        a = np.ascontiguousarray(obj, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError) as e:
        raise InvalidArgument(f"{what}: not an array of numbers ({e})") from None
    if n >= 0 and a.shape[0] != n:
        raise InvalidArgument(f"{what} has {a.shape[0]} values, expected {n}")
    if not np.all(np.isfinite(a)):
        raise InvalidArgument(f"{what} has a value that is not finite")
    return a


cdef str _read_text(path, what):
    """The text of a file the module reads (a --list table, a trajectory)
    through the library's reader, as the program reads it (hes_input_read:
    a regular file only, never a FIFO or a device, at most HES_INPUT_MAX
    bytes); the status's exception naming `what` otherwise."""
    import os
    cdef bytes b = os.fsencode(os.fspath(path))
    if b"\0" in b:
        raise InvalidArgument(f"{what}: the path contains a NUL character")
    cdef const char *cpath = b
    cdef char *data = NULL
    cdef size_t size = 0
    cdef hes_error err
    cdef hes_status st
    with nogil:
        st = hes_input_read(cpath, 0, &data, &size, &err)
    if st != HES_OK:
        raise _error(<int>st, f"{what}: {_text(err.message)}")
    try:
        return data[:size].decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidArgument(f"{what} {os.fsdecode(b)}: not UTF-8 text ({e})") from None
    finally:
        free(data)
