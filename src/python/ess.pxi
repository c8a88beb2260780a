# ess.pxi - one run of the ESS integrator of an event-selected system:
# hes.ess_run, what `hes simulate PROBLEM --integrator ess` computes
# (src/cmd_simulate_ess.c): hes_ess_run from x0 at time 0 to T, then
# hes_ess_run_error (the runs at eps/2, eps/4, eps/8: the end state's error
# from the band), as hes.EssRun, whose to_json() is hes_ess_result_json.

from c_ess cimport *

# the most output times of samples= (the program's CLI_MAX_SAMPLES)
cdef enum:
    _ESS_MAX_SAMPLES = 1000000


cdef class EssRun:
    """A run of the ESS integrator (hes.ess_run): problem, eps, params (the
    parameter values), states (their names), t0, x0, t_end; t and x: the
    samples (the output times of samples=, or else the step boundaries),
    x with a row per sample; x_end and signs_end (the sign pattern of the
    event functions at t_end, +1 or -1 each); counts: integration_steps,
    projections, sign_changes, rearms, refused; jacobian: d x(t_end) /
    d x0 (with jacobian=True, else None); eps_error and eps_order: the end
    state's error from the band and its observed order (2 where the
    estimate can be trusted).  to_json(): the document of `hes simulate
    PROBLEM --integrator ess --json`."""
    cdef readonly str problem, method
    cdef readonly double eps, t0, t_end, eps_error, eps_order
    cdef readonly dict params, counts
    cdef readonly list states
    cdef readonly object x0, t, x, x_end, signs_end, jacobian
    cdef str _json

    def to_json(self):
        """The document `hes simulate PROBLEM --integrator ess --json` prints."""
        return self._json

    def __repr__(self):
        return (f"<hes.EssRun {self.problem}: {self.t.shape[0]} samples to t = "
                f"{self.t_end:.6g}, {self.counts['projections']} projections>")


def ess_run(problem, x0, time, *, eps=None, samples=None, jacobian=False,
            strict_liveness=False, ess_method="cvodes", **params):
    """Integrates an event-selected system (a System, a built-in ESS
    problem's name such as "hopper-1d", "hopper-pumped", "plate-springs",
    "plate-vertical", or an ESS plugin's path; **params set as -p sets
    them) from the state x0 at time 0 to `time` by the ESS integrator, as
    `hes simulate PROBLEM --integrator ess --x0 ... --time T` does, and
    estimates the end state's error from the band: a hes.EssRun.

    eps: the band width (> 0; default 1e-3), the accuracy knob (error
    O(eps^2)); samples: output at that many evenly spaced times in [0, time]
    (2 to 1000000; default: the step boundaries); jacobian: also d x(T) /
    d x0; strict_liveness: a guard in its band that the field does not
    cross fails the run (GrazingError) instead of being watched;
    ess_method: "cvodes" (default) or "dopri5".  A hybrid model is refused
    (System.simulate runs those).  The run's error from the band above
    1e-3 of the state's size gives a RuntimeWarning, as the program's note
    on stderr.  The GIL is released during the runs."""
    cdef hes_ess_options o
    hes_ess_options_init(&o)
    cdef double t_end
    try:
        t_end = float(time)
    except (TypeError, ValueError):
        raise InvalidArgument(f"time = {time!r}: expected a finite number > 0") from None
    if not (t_end > 0 and _math.isfinite(t_end)):
        raise InvalidArgument(f"time = {time!r}: expected a finite number > 0")
    if eps is not None:
        o.eps = _cont_positive(eps, "eps")
    cdef int n_samples = 0
    if samples is not None:
        n_samples = _cont_int(samples, 2, _ESS_MAX_SAMPLES, "samples")
    if ess_method not in ("cvodes", "dopri5"):
        raise InvalidArgument(f"ess_method = {ess_method!r}: expected cvodes or dopri5")
    o.method = HES_ESS_DOPRI5 if ess_method == "dopri5" else HES_ESS_CVODES
    o.jacobian = 1 if jacobian else 0
    if strict_liveness:
        o.near_miss = 0

    cdef System s = _as_system(problem, params)
    cdef hes_system *sys = s._sys()
    if hes_system_kind(sys) != HES_KIND_ESS:
        raise InvalidArgument(f"problem '{s.name}' is a hybrid model with no ESS form; "
                              "ess_run takes the event-selected systems (kind \"ess\" in "
                              "hes.problems(); System.simulate runs a hybrid one)")
    s._begin()
    cdef hes_status st = hes_system_check_params(sys)
    if st != HES_OK:
        s._raise(st)
    cdef const hes_ess_model *em = hes_system_ess_model(sys)
    cdef int n = em.n
    cdef cnp.ndarray x = _as_vector(x0, -1, "x0")
    if cnp.PyArray_DIM(x, 0) != n:
        raise InvalidArgument(f"x0 has {cnp.PyArray_DIM(x, 0)} values; the state of "
                              f"'{s.name}' has {n}")
    cdef cnp.ndarray t_out = None
    if n_samples > 0:
        t_out = np.empty(n_samples)
        st = hes_grid_linspace(0.0, t_end, n_samples, <double *>cnp.PyArray_DATA(t_out))
        if st != HES_OK:
            raise _error(<int>st, "the output times")
        o.n_out = n_samples
        o.t_out = <const double *>cnp.PyArray_DATA(t_out)
    else:
        o.record = 1
    cdef hes_ess *ess = hes_system_ess(sys)
    cdef hes_ess_result r
    memset(&r, 0, sizeof(r))
    cdef const double *xp = <const double *>cnp.PyArray_DATA(x)
    with nogil:
        st = hes_ess_run(ess, &o, 0.0, xp, t_end, &r)
        if st == HES_OK:
            st = hes_ess_run_error(ess, &o, 0.0, xp, t_end, &r)
    cdef EssRun out
    cdef int count, k
    try:
        if st != HES_OK:
            raise _error(<int>st, _text(hes_ess_errmsg(ess)))
        out = EssRun.__new__(EssRun)
        out.problem = s.name
        out.method = ess_method
        out.eps = o.eps
        out.params = s.params
        out.states = []
        for k in range(n):
            out.states.append(_text(em.state_names[k]) if em.state_names != NULL
                              else f"x[{k}]")
        out.t0 = 0.0
        out.x0 = x.copy()
        out.t_end = r.t_end
        count = o.n_out if o.n_out > 0 else r.n_samples
        if o.n_out > 0:
            out.t = t_out.copy()
            out.x = _vector(r.x_out, <Py_ssize_t>count * n).reshape(count, n)
        else:
            out.t = _vector(r.t, count)
            out.x = _vector(r.x, <Py_ssize_t>count * n).reshape(count, n)
        out.x_end = _vector(r.x_end, n)
        out.signs_end = np.array([r.s_end[k] for k in range(r.m)], dtype=np.intc)
        out.counts = {"integration_steps": r.n_integrations, "projections": r.n_projections,
                      "sign_changes": r.n_sign_changes, "rearms": r.n_rearms,
                      "refused": r.n_refused}
        out.jacobian = _matrix(r.jac, n, n) if r.jac != NULL else None
        out.eps_error, out.eps_order = r.eps_error, r.eps_order
        for a in (out.x0, out.t, out.x, out.x_end, out.signs_end):
            a.flags.writeable = False
        if out.jacobian is not None:
            out.jacobian.flags.writeable = False
        out._json = _take_json(hes_ess_result_json(ess, &o, 0.0, xp, &r))
    finally:
        hes_ess_result_free(&r)
    # the program's note: the end state is only as good as its error from the band
    size = max([1.0] + [abs(v) for v in out.x_end])
    trusted = _math.isfinite(out.eps_order) and 1.5 < out.eps_order < 2.5
    if out.eps_error > 1e-3 * size or (not trusted and out.eps_error > 1e-6 * size):
        _warnings.warn(
            f"the end state's error from the band eps = {'%g' % o.eps} is about "
            f"{'%.3g' % out.eps_error} (max norm; the runs at eps/2, eps/4 and eps/8 give "
            f"order {'%.2f' % out.eps_order}"
            + ("" if trusted else ", not the method's 2: the estimate itself is rough")
            + "); try a smaller eps", RuntimeWarning, stacklevel=2)
    return out
