# continuation.pxi - a periodic orbit followed as a parameter moves:
# hes.continue_, what `hes continue` computes (src/cmd_continue.c) by the
# same calls: hes_continue from FROM to TO (or hes_continue_both from V both
# ways, or hes_continue_resume of a document's branch), then the branches
# switched at period doublings (hes_continue_doubled), then the curves of
# the bifurcations in a second parameter (hes_continue_curve).  The result
# is hes.Continuation, whose to_json() is the document the program prints
# with --json; the program makes that document itself (continue_print.c,
# Jansson with 17 significant digits), so it is written here the same way.

from c_continuation cimport *
from cpython.ref cimport PyObject
from libc.math cimport NAN, isfinite

import json as _json
import math as _math
import os as _os
import warnings as _warnings

# the most branches one run follows and the most curves (the program's
# CONT_MAX_BRANCHES and CONT_MAX_CURVES)
cdef enum:
    _CONT_MAX_BRANCHES = 64
    _CONT_MAX_CURVES = 128


# ---------------------------------------------------------------- JSON text
# The program's documents are Jansson's json_dumps(JSON_INDENT(2) |
# JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17)): a real as "%.17g" with
# ".0" added when it has neither a point nor an exponent, and the
# exponent without "+" and leading zeros ("1e-05" -> "1e-5"); strings as
# UTF-8 with '"', '\\' and control characters escaped.

def _jansson_real(double v):
    s = "%.17g" % v
    if "." not in s and "e" not in s:
        s += ".0"
    i = s.find("e")
    if i >= 0:
        exp = s[i + 1:]
        sign = "-" if exp.startswith("-") else ""
        s = s[:i + 1] + sign + (exp.lstrip("+-").lstrip("0") or "0")
    return s


def _jansson_dump(obj, int level=0):
    """obj (dict, list, str, int, float, bool, None) as Jansson prints it."""
    if obj is None:
        return "null"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if isinstance(obj, (int, np.integer)):
        return str(int(obj))
    if isinstance(obj, (float, np.floating)):
        return _jansson_real(obj) if _math.isfinite(obj) else "null"
    if isinstance(obj, str):
        return _json.dumps(obj, ensure_ascii=False)
    pad = "\n" + "  " * (level + 1)
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        items = [_json.dumps(str(k), ensure_ascii=False) + ": " + _jansson_dump(v, level + 1)
                 for k, v in obj.items()]
        return "{" + pad + ("," + pad).join(items) + "\n" + "  " * level + "}"
    if not obj:
        return "[]"
    return ("[" + pad + ("," + pad).join(_jansson_dump(v, level + 1) for v in obj) + "\n"
            + "  " * level + "]")


cdef object _number(double v):
    """A number of a document: None (null) where not finite."""
    return v if isfinite(v) else None


# ------------------------------------------------------------------ results

cdef class LabelledPoint:
    """A labelled point of a branch or curve: index (in its branch), label
    ("EP", "SN", "BP", "PD", "NS", "GR", "SEQ", "SIM"), detail (GR: the
    guard, SEQ: the event, SIM: "A+B"; else ""), value (the parameter),
    value2 (a curve's second parameter; NaN on a branch), period, psi,
    verdict, crossing ("+1", "-1", "complex" or "" where psi does not cross
    1), x0 (the section state) and branch (the branch's or curve's place in
    Continuation.branches)."""
    cdef readonly int index, branch
    cdef readonly str label, detail, verdict, crossing
    cdef readonly double value, value2, period, psi
    cdef readonly object x0

    def __repr__(self):
        return (f"<hes.LabelledPoint {self.label} {self.value:.12g}"
                + (f" ({self.detail})" if self.detail else "") + f", psi {self.psi:.6g}>")


cdef class Branch:
    """One branch (kind "branch") or one curve of a bifurcation in two
    parameters (kind "curve") of a continuation, as columns with a row per
    point, in the order of the branch:

    value, value2 (a curve's second parameter; NaN on a branch), s
    (arclength), period, psi, psi_tol: float arrays; label, detail,
    verdict, crossing: str arrays ("" where none); full: bool array;
    multipliers: complex (points, most multipliers; NaN where a point has
    fewer: n_mult); x0: (points, n) section states; xr: (points, returns,
    n) the states after each section event (NaN where a point has none, an
    ESS system's); margins: (points, transitions) each guard's clearance
    (+inf: no interior minimum; None for an ESS system); tangency,
    tangency_event, n_events: the events' crossing of their guards.

    And: returns, method ("natural" or "arclength"), reached (followed to
    its end), why (where it ended before it, else None), from_branch and
    from_point (where it was switched or, for a curve, the point it
    follows; None for the first branch), depth (period doublings from the
    first branch), param2 (a curve's second parameter, else None),
    labelled (its LabelledPoints)."""
    cdef readonly str kind, method
    cdef readonly object param2, why, from_branch, from_point
    cdef readonly int returns, depth
    cdef readonly bint reached
    cdef readonly object value, value2, s, period, psi, psi_tol, label, detail, verdict
    cdef readonly object crossing, full, multipliers, n_mult, x0, xr, margins
    cdef readonly object tangency, tangency_event, n_events
    cdef object _has_xr, _has_margins
    cdef int _xr_returns
    cdef list _guard_names

    def __len__(self):
        return self.value.shape[0]

    @property
    def labelled(self):
        return [self._point(i, -1) for i in range(len(self)) if self.label[i]]

    cdef LabelledPoint _point(self, int i, int b):
        cdef LabelledPoint p = LabelledPoint.__new__(LabelledPoint)
        p.index, p.branch = i, b
        p.label, p.detail = str(self.label[i]), str(self.detail[i])
        p.verdict, p.crossing = str(self.verdict[i]), str(self.crossing[i])
        p.value, p.value2 = self.value[i], self.value2[i]
        p.period, p.psi = self.period[i], self.psi[i]
        p.x0 = self.x0[i].copy()
        return p

    def _document(self):
        """The branch's object of the document (continue_print.c's
        branch_json)."""
        curve = self.kind == "curve"
        points = []
        for i in range(len(self)):
            margins = []
            if self._has_margins[i]:
                for k in range(self.margins.shape[1]):
                    name = (self._guard_names[k] if k < len(self._guard_names)
                            else f"transition {k}")
                    margins.append({"transition": name,
                                    "margin": _number(self.margins[i, k])})
            mult = [{"re": _number(m.real), "im": _number(m.imag)}
                    for m in self.multipliers[i, :self.n_mult[i]]]
            xr = ([[_number(v) for v in row] for row in self.xr[i, :self._xr_returns]]
                  if self._has_xr[i] else [])
            points.append({
                "index": i,
                "label": str(self.label[i]) or None,
                "detail": str(self.detail[i]) or None,
                "value": _number(self.value[i]),
                "value2": _number(self.value2[i]) if curve else None,
                "s": _number(self.s[i]),
                "period": _number(self.period[i]),
                "psi": _number(self.psi[i]),
                "psi_tol": _number(self.psi_tol[i]),
                "verdict": str(self.verdict[i]),
                "crossing": str(self.crossing[i]) or None,
                "margins": margins,
                "full": bool(self.full[i]),
                "multipliers": mult,
                "x0": [_number(v) for v in self.x0[i]],
                "xr": xr})
        return {"kind": self.kind, "param2": self.param2, "returns": self.returns,
                "method": self.method, "from_branch": self.from_branch,
                "from_point": self.from_point, "reached": self.reached,
                "why": None if self.reached else self.why, "points": points}

    def __repr__(self):
        return (f"<hes.Branch {self.kind}, {len(self)} points, returns {self.returns}, "
                + ("reached" if self.reached else f"ended: {self.why}") + ">")


cdef class Continuation:
    """What hes.continue_ found (`hes continue`): problem, param, from_, to
    (the parameter followed and its interval), param2, from2, to2 (the
    curves' second parameter, its value at the branches and where the
    curves go; None without param2), state_names (the section state's
    components), guard_names (a hybrid model's transitions), branches
    (Branch objects: the first branch, those switched at period doublings,
    then the curves), warnings (the doublings and curves that could not be
    followed, as the program's warnings say), interrupted (Ctrl-C stopped
    it).  branch is branches[0]; value, psi, period, x0, label and
    multipliers are its columns; labelled lists every branch's and curve's
    labelled points.  to_json(): the document of `hes continue --json`."""
    cdef readonly str problem, param
    cdef readonly double from_, to
    cdef readonly object param2, from2, to2
    cdef readonly list state_names, guard_names, branches, warnings
    cdef readonly bint interrupted

    @property
    def branch(self):
        return self.branches[0]

    @property
    def curves(self):
        return [b for b in self.branches if b.kind == "curve"]

    @property
    def value(self):
        return self.branches[0].value

    @property
    def psi(self):
        return self.branches[0].psi

    @property
    def period(self):
        return self.branches[0].period

    @property
    def x0(self):
        return self.branches[0].x0

    @property
    def label(self):
        return self.branches[0].label

    @property
    def multipliers(self):
        return self.branches[0].multipliers

    @property
    def labelled(self):
        out = []
        for b, br in enumerate(self.branches):
            out.extend((<Branch>br)._point(i, b) for i in range(len(br)) if br.label[i])
        return out

    def to_json(self):
        """The document `hes continue --json` prints for the same inputs."""
        doc = {"problem": self.problem, "param": self.param, "from": _number(self.from_),
               "to": _number(self.to), "param2": self.param2,
               "from2": None if self.param2 is None else _number(self.from2),
               "to2": None if self.param2 is None else _number(self.to2),
               "state_names": list(self.state_names),
               "branches": [b._document() for b in self.branches]}
        return _jansson_dump(doc)

    def __repr__(self):
        return (f"<hes.Continuation {self.problem}: {self.param} from {self.from_:.10g} to "
                f"{self.to:.10g}, {len(self.branches)} branch(es)/curve(s)>")


cdef Branch _branch_copy(const hes_continuation *c, dict meta, list guard_names):
    """A copy of branch c as a Branch, with the program's cont_branch
    fields (kind, from_branch, from_point, depth, returns) in meta."""
    cdef Branch b = Branch.__new__(Branch)
    cdef int N = c.n_points, n = c.n, i, k, j
    cdef int nm = 0, ng = c.n_guards, nr = c.returns if c.returns > 0 else 1
    cdef const hes_continuation_point *pt
    for i in range(N):
        nm = max(nm, c.points[i].n_mult)
    b.kind = meta["kind"]
    b.param2 = _text(c.param2) if meta["kind"] == "curve" else None
    b.returns = meta["returns"]
    b.depth = meta["depth"]
    b.from_branch = meta["from_branch"]
    b.from_point = meta["from_point"]
    b.method = "arclength" if c.method == HES_CONT_ARCLENGTH else "natural"
    b.reached = c.reached != 0
    b.why = None if c.reached else (_text(c.why) or None)
    b._guard_names = guard_names
    b._xr_returns = c.returns
    value = np.empty(N); value2 = np.empty(N); s = np.empty(N); period = np.empty(N)
    psi = np.empty(N); psi_tol = np.empty(N); tangency = np.empty(N)
    tangency_event = np.empty(N, dtype=np.intc); n_events = np.empty(N, dtype=np.intc)
    full = np.empty(N, dtype=bool); n_mult = np.empty(N, dtype=np.intc)
    mult = np.full((N, nm), np.nan + 1j * np.nan)
    x0 = np.empty((N, n))
    xr = np.full((N, nr, n), np.nan)
    margins = np.full((N, ng), np.inf)
    has_xr = np.zeros(N, dtype=bool)
    has_margins = np.zeros(N, dtype=bool)
    labels, details, verdicts, crossings = [], [], [], []
    for i in range(N):
        pt = &c.points[i]
        value[i], value2[i], s[i], period[i] = pt.value, pt.value2, pt.s, pt.period
        psi[i], psi_tol[i] = pt.psi, pt.psi_tol
        tangency[i], tangency_event[i], n_events[i] = pt.tangency, pt.tangency_event, pt.n_events
        full[i] = pt.full != 0
        n_mult[i] = pt.n_mult
        for k in range(pt.n_mult):
            mult[i, k] = complex(pt.re[k], pt.im[k])
        for k in range(n):
            x0[i, k] = pt.x0[k]
        if pt.xr != NULL:
            has_xr[i] = True
            for j in range(c.returns):
                for k in range(n):
                    xr[i, j, k] = pt.xr[j * n + k]
        if pt.margins != NULL:
            has_margins[i] = True
            for k in range(ng):
                margins[i, k] = pt.margins[k]
        labels.append(_text(hes_label_name(pt.label)))
        details.append(_text(pt.detail))
        verdicts.append(_text(hes_verdict_name(pt.verdict)))
        crossings.append("" if pt.crossing == HES_CROSS_NONE
                         else _text(hes_crossing_name(pt.crossing)))
    b.value, b.value2, b.s, b.period, b.psi, b.psi_tol = value, value2, s, period, psi, psi_tol
    b.tangency, b.tangency_event, b.n_events = tangency, tangency_event, n_events
    b.full, b.n_mult, b.multipliers, b.x0 = full, n_mult, mult, x0
    b.xr = xr
    b.margins = margins if ng > 0 else None
    b._has_xr, b._has_margins = has_xr, has_margins
    b.label = np.array(labels, dtype=str)
    b.detail = np.array(details, dtype=str)
    b.verdict = np.array(verdicts, dtype=str)
    b.crossing = np.array(crossings, dtype=str)
    for a in (b.value, b.value2, b.s, b.period, b.psi, b.psi_tol, b.tangency,
              b.tangency_event, b.n_events, b.full, b.n_mult, b.multipliers, b.x0, b.xr,
              b.label, b.detail, b.verdict, b.crossing):
        a.flags.writeable = False
    if b.margins is not None:
        b.margins.flags.writeable = False
    return b


# -------------------------------------------------------- the computation

cdef struct _cont_ctx:
    PyObject *run       # the _ContRun (borrowed: it outlives the calls)
    int branch          # the branch's or curve's number, as the program counts them
    int curve           # 1: a curve
    int has_callback    # a progress= callable is given
    int stop            # the callable stopped the run, or raised


cdef class _ContRun:
    """The branches and curves of one run (C), freed with it, and the
    progress callable."""
    cdef hes_continuation *c
    cdef int n
    cdef list meta
    cdef object callback, pending
    cdef _cont_ctx ctx

    def __cinit__(self):
        self.c = <hes_continuation *>calloc(_CONT_MAX_BRANCHES + _CONT_MAX_CURVES,
                                            sizeof(hes_continuation))
        if self.c == NULL:
            raise MemoryError()
        self.meta = []

    def __dealloc__(self):
        cdef int i
        if self.c != NULL:
            for i in range(_CONT_MAX_BRANCHES + _CONT_MAX_CURVES):
                hes_continuation_free(&self.c[i])
            free(self.c)

    cdef int report(self, const hes_continuation *c):
        """Calls the progress callable with the branch so far: 0 to go on,
        1 to stop (it returned False, or raised: kept for later)."""
        cdef const hes_continuation_point *pt
        try:
            pt = &c.points[c.n_points - 1]
            info = {"branch": self.ctx.branch, "kind": "curve" if self.ctx.curve else "branch",
                    "points": c.n_points, "value": pt.value,
                    "value2": pt.value2 if self.ctx.curve else None, "psi": pt.psi,
                    "label": _text(hes_label_name(pt.label))}
            if self.callback(info) is False:
                self.ctx.stop = 1
            return self.ctx.stop
        except BaseException as e:
            self.pending = e
            self.ctx.stop = 1
            return 1


cdef int _cont_progress(void *ctx, const hes_continuation *c) nogil:
    """The library's progress callback: stops the branch (nonzero) after
    Ctrl-C or when the progress callable asks to; calls that callable (with
    the GIL) when there is one."""
    cdef _cont_ctx *p = <_cont_ctx *>ctx
    if hes_py_interrupted() or p.stop:
        return 1
    if not p.has_callback:
        return 0
    with gil:
        return (<_ContRun>p.run).report(c)


cdef bint _cont_stopped(_ContRun run):
    """Ctrl-C came, or the progress callable stopped the run."""
    return hes_py_interrupted() or run.ctx.stop


cdef double _cont_positive(value, what) except? -1:
    """An option that must be a finite number > 0 (None: 0, the library's
    default)."""
    if value is None:
        return 0
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise InvalidArgument(f"{what} = {value!r}: expected a finite number > 0") from None
    if not (v > 0 and _math.isfinite(v)):
        raise InvalidArgument(f"{what} = {value!r}: expected a finite number > 0")
    return v


cdef int _cont_int(value, int lo, int hi, what) except? -1:
    """An option that must be an integer from lo to hi."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidArgument(f"{what} = {value!r}: expected an integer from {lo} to {hi}")
    if not (lo <= value <= hi):
        raise InvalidArgument(f"{what} = {value}: expected an integer from {lo} to {hi}")
    return value


cdef double _cont_finite(value, what) except? -1:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise InvalidArgument(f"{what}: {value!r} is not a number") from None
    if not _math.isfinite(v):
        raise InvalidArgument(f"{what}: {value!r} is not a finite number")
    return v


cdef tuple _cont_followed(param):
    """param=("NAME", FROM, TO) or "NAME=FROM:TO" as (name, from, to)."""
    if isinstance(param, str):
        name, eq, rest = param.partition("=")
        lo, colon, hi = rest.partition(":")
        if not eq or not colon or not name:
            raise InvalidArgument(f"param {param!r}: expected 'NAME=FROM:TO' or "
                                  "(NAME, FROM, TO)")
        spec = (name, lo, hi)
    elif isinstance(param, (tuple, list)) and len(param) == 3:
        spec = tuple(param)
    else:
        raise InvalidArgument(f"param {param!r}: expected (NAME, FROM, TO) or 'NAME=FROM:TO'")
    name = _name(spec[0], "param's name").decode()
    lo = _cont_finite(spec[1], f"param {name}: FROM")
    hi = _cont_finite(spec[2], f"param {name}: TO")
    if lo == hi:
        raise InvalidArgument(f"param {name}: FROM and TO are the same value ({lo:.10g}); "
                              "nothing to follow")
    return name, lo, hi


cdef tuple _cont_second(param2):
    """param2=("NAME2", TO2) or "NAME2=TO2" as (name, to2)."""
    if isinstance(param2, str):
        name, eq, rest = param2.partition("=")
        if not eq or not name or ":" in rest:
            raise InvalidArgument(f"param2 {param2!r}: expected 'NAME2=TO2' or (NAME2, TO2)")
        spec = (name, rest)
    elif isinstance(param2, (tuple, list)) and len(param2) == 2:
        spec = tuple(param2)
    else:
        raise InvalidArgument(f"param2 {param2!r}: expected (NAME2, TO2) or 'NAME2=TO2'")
    name = _name(spec[0], "param2's name").decode()
    return name, _cont_finite(spec[1], f"param2 {name}: TO2")


cdef int _cont_fail(System s, hes_status st, hes_error *err, prefix) except -1:
    """A failed call's exception: a Python model's own first, else the
    library's message."""
    if isinstance(s.owner, _PyModelBase):
        (<_PyModelBase>s.owner).reraise()
    raise _error(<int>st, prefix + _text(err.message))


cdef int _cont_join(_ContRun run, hes_continuation *f, hes_continuation *t, str param,
                    double lo_end, double hi_end) except -1:
    """start_at: the branch towards FROM (f) and the one towards TO (t), both
    from V, as one branch from FROM to TO into run.c[0] (cmd_continue.c's
    join_directions): f's points in reverse, then t's after its first (V,
    which f has too); V is no longer an end; the arclength runs from f's far
    end.  f and t are left empty."""
    cdef int nf = f.n_points, nt = t.n_points, i
    cdef hes_continuation *out = &run.c[0]
    # the reason first: nothing below may raise once the points are shared
    fwhy, twhy = _text(f.why), _text(t.why)
    if not f.reached and not t.reached:
        why = (f"towards {param[:32]} = {'%.10g' % lo_end}: {fwhy[:150]}; towards "
               f"{param[:32]} = {'%.10g' % hi_end}: {twhy[:150]}")
    elif not f.reached:
        why = f"towards {param[:32]} = {'%.10g' % lo_end}: {fwhy[:300]}"
    else:
        why = twhy
    wb = why.encode("utf-8")[:511]
    cdef hes_continuation_point *pts = <hes_continuation_point *>malloc(
        sizeof(hes_continuation_point) * (nf + nt - 1))
    if pts == NULL:
        raise OutOfMemory("out of memory joining the two directions", HES_ENOMEM)
    memcpy(out, t, sizeof(hes_continuation))
    out.points = pts
    cdef double sf = f.points[nf - 1].s
    for i in range(nf):
        out.points[i] = f.points[nf - 1 - i]
        out.points[i].s = sf - f.points[nf - 1 - i].s
    if out.points[nf - 1].label == HES_LABEL_EP:
        out.points[nf - 1].label = HES_LABEL_NONE
    hes_continuation_point_free(&t.points[0])
    for i in range(1, nt):
        out.points[nf - 1 + i] = t.points[i]
        out.points[nf - 1 + i].s = sf + t.points[i].s
    out.n_points = nf + nt - 1
    out.reached = f.reached and t.reached
    memcpy(out.why, <const char *>wb, len(wb))
    out.why[len(wb)] = 0
    free(f.points)
    free(t.points)
    memset(f, 0, sizeof(hes_continuation))
    memset(t, 0, sizeof(hes_continuation))
    return 0


def continue_(system, param=None, *, step=None, min_step=None, max_step=None, tol=None,
              max_points=None, max_jump=None, method="auto", corrector="shooting", nodes=None,
              returns=1, start=None, start_at=None, jobs=None, resume=None, doublings=0,
              param2=None, step2=None, min_step2=None, max_step2=None, progress=None,
              **params):
    """Follows the periodic orbit of system (a System or a problem's name,
    with **params set as -p sets them) as param goes from FROM to TO, as
    `hes continue SYSTEM --param NAME=FROM:TO` does: a hes.Continuation
    with a point per orbit (parameter value, period, psi, multipliers, x0),
    the labelled points (SN, BP, PD, NS, GR, SEQ, SIM, EP) located to tol,
    and its to_json() equal to the program's --json document.

    param: ("NAME", FROM, TO) or "NAME=FROM:TO".  The options are the
    program's: step, min_step, max_step, tol, max_jump (numbers > 0;
    None: the library's defaults), max_points (2 to 100000), method
    ("auto", "natural", "arclength"), corrector ("shooting",
    "collocation"), nodes (the collocation's, 3 to 1001), returns (an
    orbit of that many returns, 1 to 64), start (the first orbit search's
    section state), start_at (V strictly between FROM and TO: the orbit at
    V followed both ways, on jobs = 2 threads or 1), resume (the path of a
    `hes continue --json` document, or a Continuation: its first branch
    continued from its last two points; param may then be omitted),
    doublings (0 to 6: the branches born at period doublings, that deep),
    param2 (("NAME2", TO2) or "NAME2=TO2": the curve of each SN, BP, PD,
    NS and GR of the branches in the plane of NAME and NAME2, with steps
    step2, min_step2, max_step2 in NAME2).

    progress: a callable called after every point kept with a dict
    (branch, kind, points, value, value2, psi, label); returning False
    stops the branch there (as Ctrl-C does); an exception it raises stops
    the run and is raised.  Ctrl-C stops the branch being followed at its
    last point and raises KeyboardInterrupt, whose .result is the
    Continuation so far (its why: "stopped: interrupted (SIGINT)").  The
    computation runs with the GIL released."""
    # ---- the options, checked in the program's order
    cdef hes_continuation_options co
    hes_continuation_options_init(&co)
    co.step = _cont_positive(step, "step")
    co.min_step = _cont_positive(min_step, "min_step")
    co.max_step = _cont_positive(max_step, "max_step")
    co.tol = _cont_positive(tol, "tol")
    co.max_jump = _cont_positive(max_jump, "max_jump")
    if max_points is not None:
        co.max_points = _cont_int(max_points, 2, 100000, "max_points")
    methods = {"auto": HES_CONT_AUTO, "natural": HES_CONT_NATURAL,
               "arclength": HES_CONT_ARCLENGTH}
    if method not in methods:
        raise InvalidArgument(f"method = {method!r}: expected auto, natural or arclength")
    co.method = methods[method]
    if corrector not in ("shooting", "collocation"):
        raise InvalidArgument(f"corrector = {corrector!r}: expected shooting or collocation")
    co.corrector = HES_CORRECT_COLLOCATION if corrector == "collocation" else HES_CORRECT_SHOOTING
    if nodes is not None:
        co.colloc_nodes = _cont_int(nodes, 3, 1001, "nodes")
    cdef int n_returns = _cont_int(returns, 1, 64, "returns")
    cdef int depth_max = _cont_int(doublings, 0, 6, "doublings")
    cdef int n_jobs = 0
    if jobs is not None:
        n_jobs = _cont_int(jobs, 1, 2, "jobs")
    cdef double h2 = _cont_positive(step2, "step2")
    cdef double h2_min = _cont_positive(min_step2, "min_step2")
    cdef double h2_max = _cont_positive(max_step2, "max_step2")
    if param2 is None and (h2 > 0 or h2_min > 0 or h2_max > 0):
        raise InvalidArgument("step2, min_step2 and max_step2 are the curves' steps; give "
                              "param2 too")
    if ((h2 > 0 and h2_max > 0 and h2_max < h2) or (h2 > 0 and h2_min > h2)
            or (h2_max > 0 and h2_min > h2_max)):
        raise InvalidArgument("need min_step2 <= step2 <= max_step2")
    if n_jobs and start_at is None:
        raise InvalidArgument("jobs is for start_at's two directions")
    if resume is not None and (start_at is not None or start is not None or n_returns != 1):
        raise InvalidArgument("resume continues the document's branch from its last points; "
                              "start_at, start and returns do not apply")
    if param is None and resume is None:
        raise InvalidArgument("which parameter? give param=(NAME, FROM, TO) (System."
                              "param_names lists them)")
    cdef str pname = None
    cdef double lo = NAN, hi = NAN, at = NAN
    if param is not None:
        pname, lo, hi = _cont_followed(param)
        if pname in params:
            raise InvalidArgument(f"{pname}={params[pname]!r}: {pname} is the parameter "
                                  "followed")
    if start_at is not None:
        at = _cont_finite(start_at, "start_at")
        if not (min(lo, hi) < at < max(lo, hi)):
            raise InvalidArgument(f"start_at = {start_at!r}: V must lie strictly between "
                                  f"FROM {lo:.10g} and TO {hi:.10g}")
    p2 = _cont_second(param2) if param2 is not None else None

    # ---- the system
    cdef System s = _as_system(system, params)
    cdef hes_system *sys = s._sys()
    cdef const hes_model *m = hes_system_model(sys) if hes_system_kind(sys) == HES_KIND_HYBRID \
        else NULL
    cdef const hes_ess_model *em = hes_system_ess_model(sys) if m == NULL else NULL
    if (m != NULL and m.orbit.guess == NULL) or (em != NULL and em.orbit_x0 == NULL):
        raise InvalidArgument(f"problem '{s.name}' has no periodic orbit to follow")
    if pname is not None and pname not in s.param_names:
        raise NotFoundError(f"param {pname}: problem '{s.name}' has no parameter '{pname}'; "
                            f"its parameters: {', '.join(s.param_names)}", HES_ENOTFOUND)
    s._begin()
    cdef hes_status st = hes_system_check_params(sys)
    if st != HES_OK:
        s._raise(st)
    cdef int n = m.modes[m.orbit.mode].dim if m != NULL else em.n
    cdef const char *const *names = NULL
    if m != NULL:
        names = m.modes[m.orbit.mode].state_names
    else:
        names = em.state_names
    state_names = []
    for i in range(n):
        state_names.append(_text(names[i]) if names != NULL and names[i] != NULL
                           else f"x[{i}]")
    guard_names = [_text(m.transitions[k].name) for k in range(m.n_transitions)] \
        if m != NULL else []
    cdef int returns_before = hes_system_orbit_returns(sys)
    cdef cnp.ndarray x_start = None
    if start is not None:
        x_start = _as_vector(start, n, "start")

    cdef _ContRun run = _ContRun.__new__(_ContRun)
    cdef hes_continuation resumed
    cdef hes_continuation down, up
    cdef hes_error err
    cdef double doc_from = NAN, doc_to = NAN, to2 = NAN, from2 = NAN
    cdef const char *cpath
    cdef const char *ctext
    cdef size_t clen
    cdef bytes b_param, b_param2, raw
    cdef int b, i_pt, nb, k_curves, threads
    cdef hes_label lab
    cdef const char *cparam
    cdef const char *cparam2
    cdef double p_lo, p_hi
    cdef _Interruptible guard
    cdef bint interrupted = False
    memset(&resumed, 0, sizeof(resumed))
    memset(&down, 0, sizeof(down))
    memset(&up, 0, sizeof(up))
    run.callback = progress
    run.ctx.run = <PyObject *>run
    run.ctx.has_callback = progress is not None
    warns = []
    s._begin()
    try:
        if n_returns > 1:
            st = hes_system_set_orbit_returns(sys, n_returns)
            if st != HES_OK:
                raise _error(<int>st, f"returns {n_returns}: {_text(hes_system_errmsg(sys))}")
        if x_start is not None:
            st = hes_system_set_orbit_start(sys, <const double *>cnp.PyArray_DATA(x_start))
            if st != HES_OK:
                s._raise(st)

        # ---- resume: the document's first branch
        if resume is not None:
            if isinstance(resume, Continuation):
                raw = (<Continuation>resume).to_json().encode("utf-8")
                ctext = raw
                clen = len(raw)
                with nogil:
                    st = hes_continuation_from_json(ctext, clen, sys, &resumed, &doc_from,
                                                    &doc_to, &err)
                where = "resume"
            else:
                try:
                    path = _os.fspath(resume)
                except TypeError:
                    raise InvalidArgument(f"resume: expected a path or a hes.Continuation, "
                                          f"not {type(resume).__name__}") from None
                raw = _name(path, "resume's path")
                cpath = raw
                with nogil:
                    st = hes_continuation_read(cpath, sys, &resumed, &doc_from, &doc_to, &err)
                where = f"resume {path}"
            if st != HES_OK:
                raise _error(<int>st, "resume: " + _text(err.message))
            if resumed.n_points < 2:
                raise InvalidArgument(f"{where}: its branch has {resumed.n_points} point; two "
                                      "are needed")
            if pname is None:
                pname, lo, hi = _text(resumed.param), doc_from, doc_to
                if pname in params:
                    raise InvalidArgument(f"{pname}={params[pname]!r}: {pname} is the "
                                          "parameter followed")
            elif pname != _text(resumed.param):
                raise InvalidArgument(f"{where} follows {_text(resumed.param)}, not {pname} "
                                      "(param)")
            elif lo != doc_from:
                raise InvalidArgument(f"{where}: its branch is from {pname} = "
                                      f"{'%.17g' % doc_from}, not {'%.17g' % lo} (param's FROM)")
            last = resumed.points[resumed.n_points - 1].value
            if not ((hi - last) * (hi - lo) > 0):
                raise InvalidArgument(f"{where}: its branch ends at {pname} = {'%.10g' % last}, "
                                      f"{'already' if last == hi else 'past'} TO = "
                                      f"{'%.10g' % hi}")
            st = hes_system_set_orbit_returns(sys, resumed.returns)
            if st != HES_OK:
                raise _error(<int>st, f"{where}: returns {resumed.returns}: "
                             f"{_text(hes_system_errmsg(sys))}")

        # ---- param2
        if p2 is not None:
            name2, to2 = p2
            if name2 not in s.param_names:
                raise NotFoundError(f"param2 {name2}: problem '{s.name}' has no parameter "
                                    f"'{name2}'; its parameters: {', '.join(s.param_names)}",
                                    HES_ENOTFOUND)
            if name2 == pname:
                raise InvalidArgument(f"param2 {name2}: {name2} is the parameter of the "
                                      "branches; the curves need a second one")
            if "solved" in s.param_info(name2)["flags"]:
                raise InvalidArgument(f"param2 {name2}: {name2} is solved by the orbit search")
            from2 = s[name2]
            if to2 == from2:
                raise InvalidArgument(f"param2 {name2}: {name2} is {'%.10g' % from2} already; "
                                      "nothing to follow")

        # ---- the first branch
        b_param = pname.encode("utf-8")
        cparam = b_param
        p_lo, p_hi = min(lo, hi), max(lo, hi)
        co.progress = _cont_progress
        co.progress_ctx = &run.ctx
        guard = _Interruptible()
        guard.__enter__()
        try:
            if resume is not None:
                with nogil:
                    st = hes_continue_resume(sys, &resumed, hi, &co, &run.c[0], &err)
                prefix = "resume: "
            elif start_at is not None:
                threads = n_jobs if n_jobs else (1 if isinstance(s.owner, _PyModelBase) else 2)
                with nogil:
                    st = hes_continue_both(sys, cparam, p_lo, at, p_hi, &co, threads, &down,
                                           &up, &err)
                prefix = ""
                if st == HES_OK:
                    if lo < hi:
                        _cont_join(run, &down, &up, pname, lo, hi)
                    else:
                        _cont_join(run, &up, &down, pname, lo, hi)
            else:
                with nogil:
                    st = hes_continue(sys, cparam, lo, hi, &co, &run.c[0], &err)
                prefix = ""
            if run.pending is not None:
                raise run.pending
            if isinstance(s.owner, _PyModelBase):
                (<_PyModelBase>s.owner).reraise()
            if st != HES_OK:
                _cont_fail(s, st, &err, prefix)
            run.n = 1
            run.meta.append({"kind": "branch", "from_branch": None, "from_point": None,
                             "depth": 0, "returns": run.c[0].returns if run.c[0].returns > 0
                             else n_returns})

            # ---- the branches switched at period doublings
            b = 0
            while b < run.n and not _cont_stopped(run):
                if run.meta[b]["depth"] >= depth_max:
                    b += 1
                    continue
                i_pt = 1 if b else 0
                while i_pt < run.c[b].n_points and not _cont_stopped(run):
                    if run.c[b].points[i_pt].label != HES_LABEL_PD:
                        i_pt += 1
                        continue
                    if run.n == _CONT_MAX_BRANCHES:
                        warns.append(f"more than {_CONT_MAX_BRANCHES} branches; the period "
                                     f"doubling at point {i_pt} of branch {b} is not followed")
                        i_pt += 1
                        continue
                    nb = run.n
                    run.ctx.branch = nb
                    with nogil:
                        st = hes_continue_doubled(sys, &run.c[b], i_pt, hi, &co, &run.c[nb],
                                                  &err)
                    if isinstance(s.owner, _PyModelBase):
                        (<_PyModelBase>s.owner).reraise()
                    if run.pending is not None:
                        raise run.pending
                    if st != HES_OK:
                        hes_continuation_free(&run.c[nb])
                        warns.append(f"no branch switched at the period doubling at point "
                                     f"{i_pt} of branch {b}: {_text(err.message)}")
                        i_pt += 1
                        continue
                    run.n += 1
                    run.meta.append({"kind": "branch", "from_branch": b, "from_point": i_pt,
                                     "depth": run.meta[b]["depth"] + 1,
                                     "returns": run.c[nb].returns if run.c[nb].returns > 0
                                     else 2 * run.meta[b]["returns"]})
                    i_pt += 1
                b += 1

            # ---- the curves of the bifurcations in param2
            if p2 is not None and not _cont_stopped(run):
                b_param2 = p2[0].encode("utf-8")
                cparam2 = b_param2
                co.step, co.min_step, co.max_step = h2, h2_min, h2_max
                run.ctx.curve = 1
                k_curves = 0
                n_plain = run.n
                for b in range(n_plain):
                    if _cont_stopped(run):
                        break
                    for i_pt in range(run.c[b].n_points):
                        lab = run.c[b].points[i_pt].label
                        if (lab != HES_LABEL_SN and lab != HES_LABEL_BP and lab != HES_LABEL_PD
                                and lab != HES_LABEL_NS and lab != HES_LABEL_GR):
                            continue
                        if k_curves == _CONT_MAX_CURVES:
                            warns.append(f"more than {_CONT_MAX_CURVES} curves; the "
                                         f"{_text(hes_label_name(lab))} at point {i_pt} of "
                                         f"branch {b} is not followed")
                            continue
                        nb = run.n
                        run.ctx.branch = k_curves
                        with nogil:
                            st = hes_continue_curve(sys, &run.c[b], i_pt, cparam2, to2, &co,
                                                    &run.c[nb], &err)
                        if isinstance(s.owner, _PyModelBase):
                            (<_PyModelBase>s.owner).reraise()
                        if run.pending is not None:
                            raise run.pending
                        if st != HES_OK:
                            hes_continuation_free(&run.c[nb])
                            warns.append(f"no curve of the {_text(hes_label_name(lab))} at "
                                         f"point {i_pt} of branch {b} in ({pname}, {p2[0]}): "
                                         f"{_text(err.message)}")
                            continue
                        run.n += 1
                        run.meta.append({"kind": "curve", "from_branch": b,
                                         "from_point": i_pt, "depth": run.meta[b]["depth"],
                                         "returns": run.c[nb].returns if run.c[nb].returns > 0
                                         else run.meta[b]["returns"]})
                        k_curves += 1
            if run.pending is not None:
                raise run.pending
        except BaseException:
            guard.__exit__(None, None, None)    # KeyboardInterrupt if Ctrl-C came
            raise
        interrupted = guard.installed and hes_py_interrupted()
        if guard.installed:
            hes_py_interrupt_restore()
            guard.installed = False
    finally:
        hes_continuation_free(&resumed)
        hes_continuation_free(&down)
        hes_continuation_free(&up)
        if x_start is not None:
            hes_system_set_orbit_start(sys, NULL)
        hes_system_set_orbit_returns(sys, returns_before)

    # ---- the result
    cdef Continuation r = Continuation.__new__(Continuation)
    r.problem = s.name
    r.param = pname
    r.from_, r.to = lo, hi
    r.param2 = p2[0] if p2 is not None else None
    r.from2 = from2 if p2 is not None else None
    r.to2 = to2 if p2 is not None else None
    r.state_names = state_names
    r.guard_names = guard_names
    r.branches = [_branch_copy(&run.c[b], run.meta[b], guard_names) for b in range(run.n)]
    r.warnings = warns
    r.interrupted = interrupted
    if interrupted:
        for br in r.branches:
            if not br.reached and br.why is not None and "stopped by the caller" in br.why:
                (<Branch>br).why = "stopped: interrupted (SIGINT)"
    for w in warns:
        _warnings.warn(w, RuntimeWarning, stacklevel=2)
    if interrupted:
        e = KeyboardInterrupt()
        e.result = r
        raise e
    return r
