# sweep.pxi - hes.sweep(): the stability analysis at every point of a grid,
# a list or a Latin hypercube sample of parameter values, on threads
# (hes_sweep_run_system), optionally into the program's resumable CSV file
# (hes_sweep_run_file), as `hes sweep` (src/cmd_sweep.c, sweep_points.c,
# sweep_run.c) runs it.
#
# The whole run is one library call with the GIL released.  Its row
# callback, called once per point in index order and serialised by the
# library, copies the row into C arrays of the result (no Python, so the
# threads of a compiled model never wait for the GIL) and polls
# hes_py_interrupted(): Ctrl-C stops the sweep after the rows so far,
# which the file already holds.

from c_sweep cimport *
from libc.math cimport NAN
from libc.stdlib cimport realloc
from libc.string cimport strdup, strncpy

import warnings as _warnings

# The program's limit of swept parameters (src/point_list.h).
_SWEEP_MAX_SWEPT = 16
_SWEEP_NAME_MAX = 64


# ------------------------------------------------------------ the rows in C
cdef struct _rows:
    int n, cap          # rows stored, rows allocated
    int nv              # parameter values per row
    int sm, sx          # the row stride of the multipliers and of x0
    int *index
    int *status
    int *stable
    int *verdict
    int *jump
    int *n_mult
    int *n_x0
    double *psi
    double *period
    double *re
    double *im
    double *x0
    double *values
    char **message      # a failed row's message (malloc'd), else NULL
    int nomem           # an allocation failed: the sweep was stopped
    int interrupted     # Ctrl-C: the sweep was stopped


cdef void _rows_free(_rows *b) nogil:
    cdef int i
    if b.message != NULL:
        for i in range(b.n):
            free(b.message[i])
    free(b.index); free(b.status); free(b.stable); free(b.verdict); free(b.jump)
    free(b.n_mult); free(b.n_x0); free(b.psi); free(b.period); free(b.re); free(b.im)
    free(b.x0); free(b.values); free(b.message)
    memset(b, 0, sizeof(_rows))


cdef int _grow(void **p, size_t size) nogil:
    """realloc of *p to size bytes (at least 1): 0, or -1 leaving *p."""
    cdef void *q = realloc(p[0], size if size > 0 else 1)
    if q == NULL:
        return -1
    p[0] = q
    return 0


cdef int _rows_reserve(_rows *b) nogil:
    """Room for one more row: 0, or -1 out of memory."""
    if b.n < b.cap:
        return 0
    cdef size_t c = <size_t>(b.cap * 2 if b.cap > 0 else 64)
    if (_grow(<void **>&b.index, c * sizeof(int)) or _grow(<void **>&b.status, c * sizeof(int))
            or _grow(<void **>&b.stable, c * sizeof(int))
            or _grow(<void **>&b.verdict, c * sizeof(int))
            or _grow(<void **>&b.jump, c * sizeof(int))
            or _grow(<void **>&b.n_mult, c * sizeof(int))
            or _grow(<void **>&b.n_x0, c * sizeof(int))
            or _grow(<void **>&b.psi, c * sizeof(double))
            or _grow(<void **>&b.period, c * sizeof(double))
            or _grow(<void **>&b.re, c * b.sm * sizeof(double))
            or _grow(<void **>&b.im, c * b.sm * sizeof(double))
            or _grow(<void **>&b.x0, c * b.sx * sizeof(double))
            or _grow(<void **>&b.values, c * b.nv * sizeof(double))
            or _grow(<void **>&b.message, c * sizeof(char *))):
        return -1
    b.cap = <int>c
    return 0


cdef int _restride(double **a, int n, int cap, int old, int new) nogil:
    """The rows of a (n of them, cap allocated, old values each) with new
    values each (new > old; the added ones NaN): 0, or -1 out of memory."""
    cdef double *q = <double *>malloc(<size_t>(cap if cap > 0 else 1) * new * sizeof(double))
    cdef int i, k
    if q == NULL:
        return -1
    for i in range(n):
        for k in range(new):
            q[<size_t>i * new + k] = a[0][<size_t>i * old + k] if k < old else NAN
    free(a[0])
    a[0] = q
    return 0


cdef int _rows_put(_rows *b, const hes_sweep_row *r) nogil:
    """Appends a copy of row r: 0, or -1 out of memory."""
    cdef int nm = r.n_mult if r.n_mult < HES_SWEEP_MAX_MULT else HES_SWEEP_MAX_MULT
    cdef int nx = r.n_x0 if r.n_x0 < HES_SWEEP_MAX_STATE else HES_SWEEP_MAX_STATE
    cdef int nv = r.n_values if r.n_values < b.nv else b.nv
    cdef int i = b.n, k
    if nm > b.sm:
        if _restride(&b.re, b.n, b.cap, b.sm, nm) or _restride(&b.im, b.n, b.cap, b.sm, nm):
            return -1
        b.sm = nm
    if nx > b.sx:
        if _restride(&b.x0, b.n, b.cap, b.sx, nx):
            return -1
        b.sx = nx
    if _rows_reserve(b):
        return -1
    b.index[i] = r.index
    b.status[i] = <int>r.status
    b.stable[i] = r.stable
    b.verdict[i] = <int>r.verdict
    b.jump[i] = r.branch_jump
    b.n_mult[i] = nm
    b.n_x0[i] = nx
    b.psi[i] = r.psi
    b.period[i] = r.period
    for k in range(b.sm):
        b.re[<size_t>i * b.sm + k] = r.re[k] if k < nm else NAN
        b.im[<size_t>i * b.sm + k] = r.im[k] if k < nm else NAN
    for k in range(b.sx):
        b.x0[<size_t>i * b.sx + k] = r.x0[k] if k < nx else NAN
    for k in range(b.nv):
        b.values[<size_t>i * b.nv + k] = r.values[k] if k < nv else NAN
    b.message[i] = NULL
    if r.status != HES_OK:
        b.message[i] = strdup(r.message)
        if b.message[i] == NULL:
            return -1
    b.n += 1
    return 0


cdef void _rows_get(const _rows *b, int i, hes_sweep_row *r) nogil:
    """Row i as the library's row again (for its JSON line)."""
    cdef int k
    memset(r, 0, sizeof(hes_sweep_row))
    r.index = b.index[i]
    r.status = <hes_status>b.status[i]
    r.stable = b.stable[i]
    r.verdict = <hes_verdict>b.verdict[i]
    r.branch_jump = b.jump[i]
    r.psi = b.psi[i]
    r.period = b.period[i]
    r.n_mult = b.n_mult[i]
    for k in range(r.n_mult):
        r.re[k] = b.re[<size_t>i * b.sm + k]
        r.im[k] = b.im[<size_t>i * b.sm + k]
    r.n_x0 = b.n_x0[i]
    for k in range(r.n_x0):
        r.x0[k] = b.x0[<size_t>i * b.sx + k]
    r.n_values = b.nv
    for k in range(b.nv):
        r.values[k] = b.values[<size_t>i * b.nv + k]
    if b.message[i] != NULL:
        strncpy(r.message, b.message[i], sizeof(r.message) - 1)


cdef int _sweep_row(void *ctx, const hes_sweep_row *row) nogil:
    """The sweep's row callback (serialised by the library, in index order,
    on any of its threads): the row into the buffer; nonzero stops the
    sweep (Ctrl-C, or out of memory)."""
    cdef _rows *b = <_rows *>ctx
    if hes_py_interrupted():
        b.interrupted = 1
        return 1
    if _rows_put(b, row) != 0:
        b.nomem = 1
        return 1
    return 0


# ----------------------------------------------------------------- result
cdef class SweepResult:
    """The rows of a sweep (hes.sweep), one per point computed, in the
    order of the points' indices.

    names: the swept parameters; points: every point of the sweep (n_points
    x len(names)); index: each row's point; values: each row's swept values
    (rows x len(names)); status ("ok", or why the point failed, as
    hes_strerror names it), psi, stable, verdict ("" for a failed row),
    period, multipliers (complex, rows x at most 16, by modulus, NaN where
    a row has fewer), params (rows x every parameter after the analysis:
    solved ones solved, optimised ones optimised; param_names), x0 (the
    orbit's section state, NaN-padded), branch_jump, message (why a row
    failed, "" otherwise).  result["K"] is the column of a swept or any
    other parameter; rows the rows as dicts.

    With output=FILE and resume=True, kept is the number of rows the file
    already held (these points were not computed again and are not among
    the rows here); corrupted, duplicates and cut count the rows the resume
    dropped (hes_sweep_file_report), warning is the file's warning.
    to_json(): the lines `hes sweep --json` prints for the same sweep (one
    JSON object per row computed)."""
    cdef _rows b
    cdef readonly list names, param_names
    cdef readonly object points, index, values, status, psi, stable, verdict, period
    cdef readonly object multipliers, params, x0, branch_jump, message
    cdef readonly int kept, corrupted, duplicates, cut
    cdef readonly str warning
    cdef readonly object output
    cdef System _system
    cdef object _pidx        # the swept parameters' indices (int32 array)

    def __dealloc__(self):
        _rows_free(&self.b)

    def __len__(self):
        return self.b.n

    @property
    def n_points(self):
        return self.points.shape[0]

    def __getitem__(self, name):
        """The column of a swept parameter, or of any parameter (its value
        after each row's analysis; "p.NAME" as in the file's header)."""
        if isinstance(name, str):
            if name in self.names:
                return self.values[:, self.names.index(name)]
            key = name[2:] if name.startswith("p.") else name
            if key in self.param_names:
                return self.params[:, self.param_names.index(key)]
        raise KeyError(name)

    @property
    def rows(self):
        """Each row as a dict: index, point ({swept name: value}), status,
        psi, stable, verdict, period, multipliers, params ({name: value}),
        x0, branch_jump, message."""
        out = []
        for i in range(self.b.n):
            nm = self.b.n_mult[i]
            out.append({
                "index": int(self.index[i]),
                "point": dict(zip(self.names, self.values[i].tolist())),
                "status": self.status[i], "psi": float(self.psi[i]),
                "stable": bool(self.stable[i]), "verdict": self.verdict[i],
                "period": float(self.period[i]),
                "multipliers": self.multipliers[i, :nm].copy(),
                "params": dict(zip(self.param_names, self.params[i].tolist())),
                "x0": self.x0[i, :self.b.n_x0[i]].copy(),
                "branch_jump": bool(self.branch_jump[i]), "message": self.message[i]})
        return out

    def to_json(self):
        """The rows as `hes sweep --json` prints them: one JSON object per
        line (hes_sweep_row_json), each line ending with a newline."""
        cdef hes_sweep_row r
        cdef cnp.ndarray pidx = self._pidx
        cdef cnp.ndarray pts = self.points
        cdef int ns = len(self.names)
        cdef const hes_system *sys = self._system._sys()
        lines = []
        for i in range(self.b.n):
            _rows_get(&self.b, i, &r)
            lines.append(_take_json(hes_sweep_row_json(
                sys, ns, <const int *>cnp.PyArray_DATA(pidx),
                <const double *>cnp.PyArray_DATA(pts) + <size_t>r.index * ns, &r)))
            lines.append("\n")
        return "".join(lines)

    def __repr__(self):
        ok = int(np.sum(self.status == "ok")) if self.b.n else 0
        return (f"<hes.SweepResult {self.b.n} rows of {self.n_points} points over "
                f"{', '.join(self.names)}: {ok} ok>")


cdef int _finish(SweepResult r) except -1:
    """The result's NumPy columns from its C rows."""
    cdef _rows *b = &r.b
    cdef int n = b.n, i
    r.index = _readonly(np.array([b.index[i] for i in range(n)], dtype=np.int64))
    ns = len(r.names)
    r.values = _readonly(r.points[r.index, :] if n else np.empty((0, ns)))
    r.status = _readonly(np.array(["ok" if b.status[i] == HES_OK
                                   else _text(hes_strerror(<hes_status>b.status[i]))
                                   for i in range(n)], dtype=object))
    r.psi = _readonly(_vector(b.psi, n))
    r.period = _readonly(_vector(b.period, n))
    r.stable = _readonly(np.array([b.stable[i] != 0 for i in range(n)], dtype=bool))
    r.verdict = _readonly(np.array(["" if b.status[i] != HES_OK
                                    else _text(hes_verdict_name(<hes_verdict>b.verdict[i]))
                                    for i in range(n)], dtype=object))
    r.branch_jump = _readonly(np.array([b.jump[i] != 0 for i in range(n)], dtype=bool))
    r.message = _readonly(np.array([_text(b.message[i]) for i in range(n)], dtype=object))
    re = _vector(b.re, <Py_ssize_t>n * b.sm).reshape(n, b.sm)
    im = _vector(b.im, <Py_ssize_t>n * b.sm).reshape(n, b.sm)
    r.multipliers = _readonly(re + 1j * im)
    r.x0 = _readonly(_vector(b.x0, <Py_ssize_t>n * b.sx).reshape(n, b.sx))
    r.params = _readonly(_vector(b.values, <Py_ssize_t>n * b.nv).reshape(n, b.nv))


# ----------------------------------------------------------------- points
cdef object _linspace(double lo, double hi, int n):
    """hes_grid_linspace: n values from lo to hi, both ends exact."""
    cdef cnp.ndarray out = np.empty(n, dtype=np.float64)
    cdef hes_status st = hes_grid_linspace(lo, hi, n, <double *>cnp.PyArray_DATA(out))
    if st != HES_OK:
        raise InvalidArgument(f"a grid from {lo!r} to {hi!r} of {n} values: HI - LO must be a "
                              "finite number")
    return out


cdef str _fmt(double v):
    """hes_format_double: the shortest text that reads back as v (how the
    sweep file writes the numbers that define it)."""
    cdef char buf[32]
    hes_format_double(buf, sizeof(buf), v)
    return buf.decode()


cdef int _ndim(obj) except? -2:
    """The number of dimensions of obj as an array (-1: not an array)."""
    try:
        return np.ndim(obj)
    except (TypeError, ValueError):
        return -1


cdef tuple _grid_axis(name, spec):
    """A grid axis: its values, and its text "NAME=LO:HI:N" when they are
    the program's --grid NAME=LO:HI:N (else None).  spec: the values, or
    the text "LO:HI:N"."""
    what = f"grid {name}"
    if isinstance(spec, str):
        parts = spec.split(":")
        if len(parts) != 3:
            raise InvalidArgument(f"{what} = {spec!r}: expected the values, or 'LO:HI:N'")
        try:
            lo, hi = float(parts[0]), float(parts[1])
            n = int(parts[2])
        except ValueError:
            raise InvalidArgument(f"{what} = {spec!r}: expected 'LO:HI:N' with numbers LO <= HI "
                                  "and N >= 1") from None
        lo = _float_option(lo, f"{what} LO")
        hi = _float_option(hi, f"{what} HI")
        _int_option(n, f"{what} N", 1, 1000000)
        if not lo <= hi:
            raise InvalidArgument(f"{what} = {spec!r}: expected LO <= HI")
        return _linspace(lo, hi, n), f"{name}={_fmt(lo)}:{_fmt(hi)}:{n}"
    if _ndim(spec) != 1:
        raise InvalidArgument(f"{what}: expected a sequence of values or 'LO:HI:N'")
    cdef object v = _as_vector(spec, -1, what)
    if v.shape[0] == 0:
        raise InvalidArgument(f"{what} has no values")
    if v.shape[0] > 1000000:
        raise InvalidArgument(f"{what} has {v.shape[0]} values, at most 1000000")
    text = None
    lo, hi = v[0], v[v.shape[0] - 1]
    if lo <= hi and np.array_equal(_linspace(lo, hi, v.shape[0]), v):
        text = f"{name}={_fmt(lo)}:{_fmt(hi)}:{v.shape[0]}"
    return v.copy(), text


cdef tuple _read_list(path):
    """The points of a --list CSV file: a header of names, a row of
    numbers per point (blank lines skipped, blanks around fields allowed)."""
    import csv
    import io
    p = _path_option(path, "list").decode("utf-8", "surrogateescape")
    text = _read_text(p, "list")
    lines = [(k + 1, line) for k, line in enumerate(io.StringIO(text, newline=""))]
    rows = [(k, r) for k, r in ((k, next(csv.reader([l.rstrip("\r\n")]), []))
                                for k, l in lines) if any(x.strip() for x in r)]
    if not rows:
        raise InvalidArgument(f"list {p}: empty file (expected a header of parameter names, "
                              "then one row of numbers per point)")
    hk, header = rows[0]
    names = [h.strip() for h in header]
    for j, nm in enumerate(names):
        if not nm:
            raise InvalidArgument(f"list {p}: line {hk} (the header): column {j + 1} has no name")
        if nm in names[:j]:
            raise InvalidArgument(f"list {p}: line {hk} (the header): column '{nm}' appears "
                                  "twice")
    vals = []
    for k, r in rows[1:]:
        if len(r) != len(names):
            raise InvalidArgument(f"list {p}: line {k}: {len(r)} fields, the header has "
                                  f"{len(names)}")
        row = []
        for j, x in enumerate(r):
            try:
                v = float(x.strip()) if "_" not in x else _math.nan
            except ValueError:
                v = _math.nan
            if not _math.isfinite(v):
                raise InvalidArgument(f"list {p}: line {k}: field {j + 1} ({names[j]}): "
                                      f"'{x.strip()[:40]}' is not a finite number")
            row.append(v)
        vals.append(row)
    if not vals:
        raise InvalidArgument(f"list {p}: no points (a header and no rows of numbers)")
    return names, np.array(vals, dtype=np.float64)


cdef tuple _list_points(points):
    """The points of points=: a dict of columns {name: values}, or a
    sequence of dicts {name: value} with the same names."""
    if hasattr(points, "items"):
        cols = _mapping_option(points, "points")
        names = list(cols)
        if any(_ndim(cols[n]) != 1 for n in names):
            raise InvalidArgument("points: expected a sequence of values per parameter")
        arrays = [_as_vector(cols[n], -1, f"points {n}") for n in names]
        if names and any(a.shape[0] != arrays[0].shape[0] for a in arrays):
            raise InvalidArgument("points: the columns have different lengths ("
                                  + ", ".join(f"{n}: {a.shape[0]}" for n, a in zip(names, arrays))
                                  + ")")
        vals = np.column_stack(arrays) if names else np.empty((0, 0))
    else:
        try:
            seq = list(points)
        except TypeError:
            raise InvalidArgument("points: expected a dict of columns {NAME: values} or a list "
                                  "of dicts {NAME: value}") from None
        if not seq:
            raise InvalidArgument("points: no points")
        names = list(_mapping_option(seq[0], "points[0]"))
        rows = []
        for k, pt in enumerate(seq):
            d = _mapping_option(pt, f"points[{k}]")
            if list(d) != names:
                raise InvalidArgument(f"points[{k}] names {', '.join(d)}; points[0] names "
                                      f"{', '.join(names)}")
            rows.append(_as_vector([d[n] for n in names], -1, f"points[{k}]"))
        vals = np.array(rows, dtype=np.float64)
    if not names:
        raise InvalidArgument("points: no parameters")
    if vals.shape[0] == 0:
        raise InvalidArgument("points: no points")
    return names, np.ascontiguousarray(vals, dtype=np.float64)


# ------------------------------------------------------------------ sweep
def sweep(system, grid=None, points=None, list=None, random=None, bounds=None, seed=None,
          optimize=False, jobs=1, output=None, resume=False, **params):
    """The periodic orbit's analysis at every point of a parameter sweep,
    as `hes sweep` computes it: psi, verdict, period, multipliers and every
    parameter (solved ones solved) per point, a point that fails with its
    status and message.  Returns a hes.SweepResult.

    The points, exactly one kind (at most 10,000,000; each parameter swept
    once; the swept parameters are not ones the orbit search solves for):
      grid={"K": values, "thetadot": "0:1:11"}: the tensor grid of the axes
        (the first varies slowest); an axis is its values or the text
        'LO:HI:N' of the program's --grid NAME=LO:HI:N (N values evenly
        spaced, hes_grid_linspace)
      points={"K": [...], "thetadot": [...]} or [{"K": .., "thetadot": ..},
        ...]: a list of points (the program's --list); list=PATH: the
        program's --list FILE.csv itself
      random=N, bounds={"K": (lo, hi), ...}, seed=1: a Latin hypercube
        sample of N points in the box (hes_latin_hypercube; --random,
        --bounds, --seed)
    optimize: optimise the shape parameters at every point first; jobs:
    threads, 1 to 1024; output=PATH: the rows into the program's resumable
    CSV file as they come (-o), resume=True: keep the valid rows of that
    file (of the same sweep) and compute only the missing points
    (--resume).  Other keywords set parameters for every point (-p).
    Ctrl-C stops the sweep (KeyboardInterrupt) after the rows so far, which
    the file keeps for a resume.

    Every point starts from the system's parameter values (solved ones
    included, as an earlier analysis left them) and settings; the file
    names them, so the program resumes the module's file and the other
    way round when they are the same (a fresh system with the same -p).
    Threads run a model's compiled callbacks (built-in problems, plugins,
    robot models, numba functions) side by side; callbacks written in
    Python take the GIL in turn, and on several threads they wait for
    each other: give such a model jobs=1, or compiled callbacks."""
    cdef System s = _as_system(system, {})
    cdef hes_system *sys = s._sys()
    cdef const hes_model *m
    cdef const _ess_model_orbit *em
    kinds = (grid is not None) + (points is not None) + (list is not None) + (random is not None)
    if kinds != 1:
        raise InvalidArgument("sweep: give exactly one of grid, points, list and random")
    if (random is not None) != (bounds is not None):
        raise InvalidArgument("sweep: random and bounds go together")
    if seed is not None and random is None:
        raise InvalidArgument("sweep: seed only goes with random")
    if resume and output is None:
        raise InvalidArgument("sweep: resume needs output (the file to resume)")
    cdef int n_jobs = _int_option(jobs, "jobs", 1, 1024)
    cdef unsigned long c_seed = _seed_option(1 if seed is None else seed, "seed")
    cdef bytes path = _path_option(output, "output") if output is not None else None

    # the points and the text that names them in the file
    text = None
    strides = []
    if grid is not None:
        axes = _mapping_option(grid, "grid")
        if not axes:
            raise InvalidArgument("grid: no axes")
        names = [k for k in axes]
        cols, texts = [], []
        for k in names:
            v, t = _grid_axis(k, axes[k])
            cols.append(v)
            texts.append(t)
        total = 1
        for v in cols:
            total *= v.shape[0]
        if total > CLI_MAX_POINTS:
            raise InvalidArgument(f"grid: {total} points, more than {CLI_MAX_POINTS}")
        mesh = np.meshgrid(*cols, indexing="ij")
        pts = np.column_stack([g.reshape(-1) for g in mesh])
        if all(t is not None for t in texts):
            text = "grid " + " ".join(texts)
        # neighbours along each axis: the stride of axis j is the product of
        # the counts of the axes after it (the last varies fastest)
        st = 1
        for v in reversed(cols):
            strides.append(st)
            st *= v.shape[0]
    elif random is not None:
        n_random = _int_option(random, "random", 1, CLI_MAX_POINTS)
        box = _mapping_option(bounds, "bounds")
        if not box:
            raise InvalidArgument("bounds: no parameters")
        names = [k for k in box]
        ranges = [_range_option(box[k], f"bounds {k}") for k in names]
        pts = _latin(n_random, ranges, c_seed)
        text = f"random {n_random} seed={c_seed}" + "".join(
            f" {k}={_fmt(lo)}:{_fmt(hi)}" for k, (lo, hi) in zip(names, ranges))
    elif list is not None:
        names, pts = _read_list(list)
    else:
        names, pts = _list_points(points)
    if len(names) > _SWEEP_MAX_SWEPT:
        raise InvalidArgument(f"sweep: {len(names)} swept parameters, at most "
                              f"{_SWEEP_MAX_SWEPT}")
    if pts.shape[0] > CLI_MAX_POINTS:
        raise InvalidArgument(f"sweep: {pts.shape[0]} points, more than {CLI_MAX_POINTS}")
    for k in params:
        if k in names:
            raise InvalidArgument(f"sweep: {k} is swept; it cannot also be set for every point")

    # the system: an orbit to analyse, the swept parameters; then -p and
    # the model's check of the values together
    cdef int np_ = hes_system_n_params(sys)
    cdef int n_shape = 0
    for i in range(np_):
        if hes_system_param_info(sys, i).flags & HES_PARAM_SHAPE:
            n_shape += 1
    if hes_system_kind(sys) == HES_KIND_HYBRID:
        m = hes_system_model(sys)
        if m.orbit.guess == NULL:
            raise InvalidArgument(f"sweep: problem '{s.name}' has no periodic orbit to analyse")
    else:
        em = <const _ess_model_orbit *>hes_system_ess_model(sys)
        if em.orbit_x0 == NULL:
            raise InvalidArgument(f"sweep: '{s.name}' has no periodic orbit guess to start each "
                                  "point's search from")
    if np_ > HES_SWEEP_MAX_PARAMS:
        raise InvalidArgument(f"sweep: problem '{s.name}' has {np_} parameters; a sweep handles "
                              f"at most {HES_SWEEP_MAX_PARAMS}")
    if optimize and (n_shape == 0 or hes_system_kind(sys) != HES_KIND_HYBRID):
        raise InvalidArgument(f"sweep: optimize: problem '{s.name}' has no shape parameters")
    pidx = np.empty(len(names), dtype=np.intc)
    for j, k in enumerate(names):
        if len(k.encode()) >= _SWEEP_NAME_MAX:
            raise InvalidArgument(f"sweep: the name '{k}' is longer than {_SWEEP_NAME_MAX - 1} "
                                  "bytes")
        pidx[j] = _param_index(s, k, "sweep")
        if hes_system_param_info(sys, pidx[j]).flags & HES_PARAM_SOLVED:
            raise InvalidArgument(f"sweep: '{k}' is solved for by the orbit search (its value "
                                  "is found, not set): sweep the parameters that define the "
                                  "orbit instead")
    if params:
        s.set(**params)
    _check_params(s)
    return _run_sweep(s, names, pidx, np.ascontiguousarray(pts, dtype=np.float64),
                      np.array(strides, dtype=np.intc), text, 1 if optimize else 0, n_jobs,
                      path, 1 if resume else 0, output)


cdef object _latin(int n, ranges, unsigned long seed):
    """hes_latin_hypercube: n points in the box of ranges (n x dim)."""
    cdef int dim = len(ranges)
    cdef cnp.ndarray lo = np.array([r[0] for r in ranges], dtype=np.float64)
    cdef cnp.ndarray hi = np.array([r[1] for r in ranges], dtype=np.float64)
    cdef cnp.ndarray out = np.empty((n, dim), dtype=np.float64)
    cdef hes_status st = hes_latin_hypercube(n, dim, <const double *>cnp.PyArray_DATA(lo),
                                             <const double *>cnp.PyArray_DATA(hi), seed,
                                             <double *>cnp.PyArray_DATA(out))
    _check(st, "random: the bounds must be finite with LO <= HI")
    return out


cdef SweepResult _run_sweep(System s, list names, cnp.ndarray pidx, cnp.ndarray pts,
                            cnp.ndarray strides, text, int optimize, int jobs, bytes path,
                            int resume, output):
    """The sweep itself (GIL released), its rows into a SweepResult."""
    cdef hes_system *sys = s._sys()
    cdef SweepResult r = SweepResult.__new__(SweepResult)
    r.names = names
    r.param_names = s.param_names
    r.points = _readonly(pts)
    r._pidx = pidx
    r._system = s
    r.output = output
    r.warning = ""
    r.b.nv = hes_system_n_params(sys)
    cdef hes_settings set = hes_system_get_settings(sys)
    cdef hes_sweep_options so
    hes_sweep_options_init(&so)
    so.n_params = len(names)
    so.params = <const int *>cnp.PyArray_DATA(pidx)
    cdef int n_points = <int>cnp.PyArray_DIM(pts, 0)
    so.n_points = n_points
    so.values = <const double *>cnp.PyArray_DATA(pts)
    so.optimize = optimize
    so.jobs = jobs
    so.row = _sweep_row
    so.ctx = &r.b
    so.n_strides = <int>cnp.PyArray_DIM(strides, 0)
    so.strides = <const int *>cnp.PyArray_DATA(strides) if so.n_strides else NULL
    so.settings = &set
    cdef hes_sweep_file_options fo
    cdef hes_sweep_file_report rep
    cdef bytes btext = text.encode() if text is not None else None
    hes_sweep_file_options_init(&fo)
    memset(&rep, 0, sizeof(rep))
    if path is not None:
        fo.path = path
        fo.resume = resume
        if btext is not None:
            fo.points = btext
    cdef hes_error why
    cdef hes_status st
    cdef bint to_file = path is not None
    why.message[0] = 0
    s._begin()
    with _Interruptible():
        with nogil:
            if to_file:
                st = hes_sweep_run_file(sys, &so, &fo, &rep, &why)
            else:
                st = hes_sweep_run_system(sys, &so, &why)
    _reraise_model(s)
    r.kept, r.corrupted, r.duplicates, r.cut = rep.kept, rep.corrupted, rep.duplicates, rep.cut
    r.warning = _text(rep.warning)
    if r.warning:
        _warnings.warn(f"{output}: {r.warning}", RuntimeWarning, stacklevel=3)
    if r.b.nomem:
        raise OutOfMemory("out of memory storing the sweep's rows", HES_ENOMEM)
    if st != HES_OK:
        raise _error(<int>st, why.message)
    if r.kept + r.b.n != n_points:
        raise FileError(f"only {r.kept + r.b.n} of {n_points} points have a row"
                        + (f" in {output}" if output is not None else ""), HES_EIO)
    _finish(r)
    return r
