# shape.pxi - hybrid event shaping: hes.shape() minimises psi over the shape
# parameters (hes_shape_optimize: NLopt from several starts, a polish, a
# full re-analysis at the optimum), as `hes shape` runs it (src/cmd_shape.c,
# shape_arrays.c), with its --verify trials; and hes.psi_gradient(), dpsi/dh
# over every shape parameter by eigenvalue perturbation (hes_shape_new,
# hes_shape_eval), as `hes analyze --gradient` computes it.

from c_shape cimport *


cdef str _gradient_word(int gradient):
    return "analytic" if gradient == 1 else "finite-differences" if gradient == 0 else "none"


cdef class ShapeResult:
    """The optimum of hybrid event shaping (hes.shape).

    names: the parameters optimised (the shape parameters in model order,
    then those that move the orbit, in the order named); start, optimum,
    lo, hi: their start values, optimum and bounds (arrays in that order;
    bounds: {name: (lo, hi)}); psi_initial: psi at the start; psi: psi at
    the optimum from a full re-analysis, psi_tol its accuracy, verdict and
    stable; measure ("psi" or "smooth") and measure_value (the measure
    minimised, at the optimum); evaluations, gradients, fallbacks (analytic
    gradients that fell back to differences), gradient ("analytic",
    "finite-differences" or "none"), algorithm, polish ("" without one),
    starts; multipliers, period and x0 of the orbit at the optimum; params:
    every parameter at the optimum (solved ones solved); applied: whether
    the system was left at the optimum; verify: the perturbation trials
    around the optimum (hes.Trials) or None; moves_orbit: whether a
    parameter that moves the orbit was optimised (each evaluation a full
    re-analysis), lost: how many of those evaluations lost the orbit,
    lost_at ({name: value}, or None) and lost_why: the lost one nearest the
    optimum and why.  to_json(): the document `hes shape --json` prints for
    the same inputs."""
    cdef readonly list names
    cdef readonly object start, optimum, lo, hi, multipliers, x0
    cdef readonly dict bounds, params
    cdef readonly double psi_initial, psi, psi_tol, measure_value, period
    cdef readonly str verdict, measure, gradient, algorithm, polish
    cdef readonly int evaluations, gradients, fallbacks, starts, lost
    cdef readonly bint applied, moves_orbit
    cdef readonly object lost_at
    cdef readonly str lost_why
    cdef readonly object verify
    cdef str _json

    @property
    def stable(self):
        return self.verdict == "stable"

    def to_json(self):
        """The document `hes shape --json` prints for the same inputs."""
        return self._json

    def __repr__(self):
        return (f"<hes.ShapeResult psi {self.psi_initial:.6g} -> {self.psi:.12g} ({self.verdict}), "
                f"{self.evaluations} evaluations>")


cdef int _shape_slot(System s, list shape_names, list idx, name, what) except -1:
    """The place of parameter `name` among the optimised ones, appending
    one that is neither a shape nor a solved parameter (it moves the
    orbit)."""
    cdef hes_system *sys = s._sys()
    if name in shape_names:
        return shape_names.index(name)
    if name in s.param_names:
        i = s.param_names.index(name)
        if hes_system_param_info(sys, i).flags & HES_PARAM_SOLVED:
            raise InvalidArgument(f"{what}: '{name}' is solved by the orbit search of "
                                  f"'{s.name}', not a parameter to optimise")
        shape_names.append(name)
        idx.append(i)
        return len(shape_names) - 1
    raise NotFoundError(f"{what}: unknown parameter '{name}' for problem '{s.name}' (its "
                        f"shape parameters: {', '.join(shape_names)})", HES_ENOTFOUND)


cdef tuple _shape_arrays(System s, start, bounds):
    """The start values and bounds over every shape parameter in model
    order, then every other parameter start= or bounds= names (it moves
    the orbit), NaN where the library's default applies (the system's
    value, the model's search bound): (names, moving, start, lo, hi)."""
    cdef hes_system *sys = s._sys()
    idx = [i for i in range(hes_system_n_params(sys))
           if hes_system_param_info(sys, i).flags & HES_PARAM_SHAPE]
    shape_names = [_text(hes_system_param_info(sys, i).name) for i in idx]
    n_shape = len(idx)
    n = hes_system_n_params(sys)
    st = np.full(n + 1, np.nan)
    lo = np.full(n + 1, np.nan)
    hi = np.full(n + 1, np.nan)

    for k, v in _mapping_option(start, "start").items():
        st[_shape_slot(s, shape_names, idx, k, "start")] = _float_option(v, f"start {k}")
    for k, v in _mapping_option(bounds, "bounds").items():
        j = _shape_slot(s, shape_names, idx, k, "bounds")
        lo[j], hi[j] = _range_option(v, f"bounds {k}")
    return shape_names, len(shape_names) > n_shape, st, lo, hi


def shape(system, start=None, bounds=None, algorithm=None, starts=None, seed=None,
          measure=None, fd_gradient=False, no_polish=False, maxeval=None, verify=False,
          trials=None, perturb=None, steps=None, tol=None, apply=True, **params):
    """Hybrid event shaping, as `hes shape` runs it: minimises psi (or its
    smooth surrogate) over every shape parameter within box bounds
    (hes_shape_optimize), applies the optimum to the system
    (hes_shape_result_apply; apply=False restores the system's values
    afterwards) and, with verify, runs perturbation trials around it.

    start={name: value}: start values (default: the current ones);
    bounds={name: (lo, hi)}: search bounds (default: the model's);
    algorithm: an NLopt name (LD_SLSQP); starts: 1 to 1000 (8; the first
    from the start values, the rest uniform in the bounds); seed: of the
    random starts and of the trials (1); measure: "psi" or "smooth";
    fd_gradient: central differences of the measure instead of the
    analytic gradient; no_polish: no derivative-free polish; maxeval:
    evaluations per start and for the polish, 1 to 100000 (400);
    verify (implied by trials, perturb, steps, tol): trials around the
    optimum with hes.trials' options.  Other keywords set parameters (-p).
    Returns a hes.ShapeResult."""
    cdef System s = _as_system(system, {})
    cdef hes_system *sys = s._sys()
    cdef hes_shape_options so
    hes_shape_options_init(&so)
    cdef bytes alg = None
    if algorithm is not None:
        alg = _name(algorithm, "algorithm")
        so.algorithm = alg
    if starts is not None:
        so.starts = _int_option(starts, "starts", 1, CLI_MAX_STARTS)
    if seed is not None:
        so.seed = _seed_option(seed, "seed")
    cdef hes_measure meas
    if measure is not None:
        if hes_measure_from_name(_name(measure, "measure"), &meas) != HES_OK:
            raise InvalidArgument(f"measure = {measure!r}: expected 'psi' or 'smooth'")
        so.measure = meas
    if maxeval is not None:
        so.maxeval = _int_option(maxeval, "maxeval", 1, CLI_MAX_EVALS)
    if fd_gradient:
        so.gradient = 0
    if no_polish:
        so.polish = 0
    cdef bint do_verify = bool(verify) or any(x is not None for x in (trials, perturb, steps, tol))
    if do_verify:
        n_tr, radius, n_steps, _, tl, _ = _trial_options(trials, perturb, steps, None, tol, None)
    a = algorithm if isinstance(algorithm, str) else None
    if fd_gradient and a and len(a) > 2 and a[1] == "N" and a[2] == "_":
        raise InvalidArgument(f"fd_gradient: algorithm {a} uses no gradient")
    if starts is not None and so.starts > 1 and a and a[0] == "G":
        raise InvalidArgument(f"starts: the global algorithm {a} searches the bounds once "
                              "(no starts)")
    names, moving, st_arr, lo_arr, hi_arr = _shape_arrays(s, start, bounds)
    if params:
        s.set(**params)
    _check_params(s)
    cdef cnp.ndarray c_st = st_arr, c_lo = lo_arr, c_hi = hi_arr
    # every shape parameter (n = 0), or with one that moves the orbit all by name
    encoded = [k.encode() for k in names]
    cdef const char **c_names = NULL
    so.n = 0
    so.names = NULL
    if moving:
        c_names = <const char **>malloc(sizeof(char *) * len(encoded))
        if c_names == NULL:
            raise MemoryError()
        for j, b in enumerate(encoded):
            c_names[j] = b
        so.n = len(encoded)
        so.names = c_names
    so.start = <const double *>cnp.PyArray_DATA(c_st)
    so.lo = <const double *>cnp.PyArray_DATA(c_lo)
    so.hi = <const double *>cnp.PyArray_DATA(c_hi)

    cdef hes_shape_result res
    cdef hes_trials t
    cdef hes_status rc
    cdef int c_trials = 0, c_steps = 0
    cdef double c_radius = 0, c_tol = 0
    cdef ShapeResult r
    memset(&res, 0, sizeof(res))
    memset(&t, 0, sizeof(t))
    saved = s.params
    s._begin()
    with nogil:
        rc = hes_shape_optimize(sys, &so, &res)
    free(c_names)
    if rc != HES_OK:
        hes_shape_result_free(&res)
        s._raise(rc)
    try:
        rc = hes_shape_result_apply(sys, &res)
        if rc != HES_OK:
            s._raise(rc)
        if do_verify:
            c_trials, c_steps, c_radius, c_tol = n_tr, n_steps, radius, tl
            with nogil:
                rc = hes_trials_run(sys, &res.analysis.orbit, c_trials, c_radius, c_steps,
                                    so.seed, c_tol, &t)
            if rc != HES_OK:
                s._raise(rc)
        _reraise_model(s)
        r = _shape_result(s, &res, so.measure, &t if do_verify else NULL)
        r.applied = bool(apply)
        return r
    finally:
        hes_trials_free(&t)
        hes_shape_result_free(&res)
        if not apply:
            for k, v in saved.items():
                hes_system_set_param(sys, k.encode(), v)


cdef ShapeResult _shape_result(System s, hes_shape_result *res, hes_measure measure,
                               hes_trials *t):
    """A ShapeResult of the library's result (the system at the optimum)."""
    cdef hes_system *sys = s._sys()
    cdef ShapeResult r = ShapeResult.__new__(ShapeResult)
    cdef const hes_analysis *a = &res.analysis
    cdef int m = hes_analysis_n_multipliers(a), n = hes_analysis_dim(a)
    r.names = [_text(hes_system_param_info(sys, res.param[j]).name) for j in range(res.n)]
    r.start = _readonly(_vector(res.start, res.n))
    r.optimum = _readonly(_vector(res.h, res.n))
    r.lo = _readonly(_vector(res.lo, res.n))
    r.hi = _readonly(_vector(res.hi, res.n))
    r.bounds = {k: (res.lo[j], res.hi[j]) for j, k in enumerate(r.names)}
    r.psi_initial, r.psi, r.measure_value = res.psi_initial, res.psi, res.measure
    r.psi_tol = hes_analysis_psi_tol(a)
    r.verdict = _text(hes_verdict_name(hes_analysis_verdict(a)))
    r.measure = _text(hes_measure_name(measure if measure == HES_MEASURE_SMOOTH
                                       else HES_MEASURE_PSI))
    r.evaluations, r.gradients, r.fallbacks = res.evaluations, res.gradients, res.fallbacks
    r.gradient = _gradient_word(res.gradient)
    r.algorithm = _text(res.algorithm)
    r.polish = _text(res.polish)
    r.starts = res.starts
    r.moves_orbit = bool(res.moves_orbit)
    r.lost = res.lost
    r.lost_at = ({k: res.lost_at[j] for j, k in enumerate(r.names)} if res.lost_at != NULL
                 else None)
    r.lost_why = _text(res.lost_why)
    re = np.empty(m)
    im = np.empty(m)
    x0 = np.empty(n)
    cdef double[::1] vre = re, vim = im, vx0 = x0
    if m > 0:
        hes_analysis_multipliers(a, &vre[0], &vim[0], m)
    if n > 0:
        hes_analysis_x0(a, &vx0[0], n)
    r.multipliers = _readonly(re + 1j * im)
    r.x0 = _readonly(x0)
    r.period = hes_analysis_period(a)
    r.params = {_text(hes_system_param_info(sys, i).name): res.params[i]
                for i in range(res.n_params)}
    r.verify = _trials_of(s, &res.analysis.orbit, t) if t != NULL else None
    r._json = _take_json(hes_shape_json(sys, res, measure, t))
    return r


# -------------------------------------------------------- gradient of psi
cdef class Gradient:
    """The gradient of psi over every shape parameter at a system's orbit
    (hes.psi_gradient; `hes analyze --gradient`): analysis (the
    hes.Analysis it is taken at), names, gradient (dpsi/dh, an array in
    the order of names; by_name: as a dict), method ("analytic": the
    eigenvalue perturbation of the simple maximising multiplier;
    "finite-differences": it is repeated or defective and one-sided
    differences of psi gave it), nonsmooth (the differences disagree: an
    element of the generalized gradient), cond (the maximising
    multiplier's condition number).  to_json(): the document `hes analyze
    --gradient --json` prints."""
    cdef readonly object analysis, gradient
    cdef readonly list names
    cdef readonly str method
    cdef readonly bint nonsmooth
    cdef readonly double cond
    cdef str _json

    @property
    def by_name(self):
        return dict(zip(self.names, self.gradient.tolist()))

    def to_json(self):
        return self._json

    def __repr__(self):
        return f"<hes.Gradient {self.by_name} ({self.method})>"


def psi_gradient(system, check=False, **params):
    """dpsi/dh for every shape parameter h at the system's periodic orbit,
    as `hes analyze --gradient` computes it: the analysis (check=True: also
    against central differences of the full flow), then a shape context at
    it (hes_shape_new) evaluated with its gradient (hes_shape_eval).  Other
    keywords set parameters.  Returns a hes.Gradient."""
    cdef System s = _as_system(system, params)
    cdef hes_system *sys = s._sys()
    if hes_system_kind(sys) != HES_KIND_HYBRID:
        raise InvalidArgument(f"psi_gradient applies to hybrid models; '{s.name}' is an "
                              "event-selected system")
    if not any(hes_system_param_info(sys, i).flags & HES_PARAM_SHAPE
               for i in range(hes_system_n_params(sys))):
        raise InvalidArgument(f"psi_gradient: problem '{s.name}' has no shape parameters")
    _check_params(s)
    cdef Analysis an = _analysis(s, 1 if check else 0)
    cdef hes_shape *sh = NULL
    cdef hes_shape_eval_result ev
    cdef hes_status st
    cdef Gradient r
    with nogil:
        st = hes_shape_new(sys, an.a, 0, NULL, &sh)
        if st == HES_OK:
            st = hes_shape_eval(sh, NULL, 1, &ev)
    try:
        if st != HES_OK:
            s._raise(st)
        _reraise_model(s)
        r = Gradient.__new__(Gradient)
        r.analysis = an
        r.names = [_text(hes_system_param_info(sys, hes_shape_param(sh, j)).name)
                   for j in range(hes_shape_count(sh))]
        r.gradient = _readonly(_vector(ev.dpsi, ev.n_shape))
        r.method = "finite-differences" if ev.fallback else "analytic"
        r.nonsmooth = ev.nonsmooth != 0
        r.cond = ev.cond
        r._json = _take_json(hes_analysis_gradient_json(sys, an.a, sh, &ev))
        return r
    finally:
        hes_shape_destroy(sh)
