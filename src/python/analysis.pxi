# analysis.pxi - a periodic orbit's analysis (hes_analyze): orbit ->
# monodromy -> multipliers -> psi and the verdict, as hes.Analysis.

cdef class Analysis:
    """The analysis of a system's periodic orbit (System.analyze).

    psi: the largest modulus of the nontrivial multipliers; psi_tol: its
    accuracy; verdict: "stable" (psi < 1 - psi_tol), "unstable" or
    "marginal"; stable: verdict == "stable"; multipliers: complex array, by
    modulus, descending; monodromy: Phi (dim x dim); return_map: P, the
    return map's Jacobian on the section (autonomous orbits; else Phi);
    x0: the section state; period; params: every parameter after the
    analysis (solved ones solved); check: the largest difference of the
    analysed matrix from central differences of the full flow (NaN
    without check=True); orbit: the period as a hes.Trajectory (hybrid
    systems; None for an event-selected one)."""
    cdef hes_analysis *a
    cdef readonly double psi, psi_tol, period, check
    cdef readonly str verdict
    cdef readonly object multipliers, monodromy, return_map, x0
    cdef readonly dict params
    cdef str _json
    cdef object _orbit
    cdef bint _hybrid
    cdef object _model_ref
    cdef const hes_model *_model

    def __dealloc__(self):
        hes_analysis_destroy(self.a)

    @property
    def stable(self):
        return self.verdict == "stable"

    @property
    def dim(self):
        return self.x0.shape[0]

    @property
    def orbit(self):
        if not self._hybrid:
            return None
        if self._orbit is None:
            self._orbit = _trajectory(self._model, &self.a.orbit.traj)
        return self._orbit

    def to_json(self):
        """The document `hes analyze --json` prints for the same system."""
        return self._json

    def __repr__(self):
        return f"<hes.Analysis psi {self.psi:.12g} ({self.verdict}), period {self.period:.12g}>"


cdef Analysis _analysis(System s, int check):
    """Runs the pipeline on s (GIL released) and copies the results out."""
    cdef hes_system *sys = s._sys()
    cdef hes_analysis *a = NULL
    cdef hes_status st
    s._begin()
    with nogil:
        st = hes_analysis_new(sys, check, &a)
    if st != HES_OK:
        s._raise(st)
    try:
        s._finish()
    except BaseException:
        hes_analysis_destroy(a)
        raise
    cdef Analysis r = Analysis.__new__(Analysis)
    r.a = a
    r.psi = hes_analysis_psi(a)
    r.psi_tol = hes_analysis_psi_tol(a)
    r.period = hes_analysis_period(a)
    r.check = hes_analysis_check(a)
    r.verdict = _text(hes_verdict_name(hes_analysis_verdict(a)))
    cdef int n = hes_analysis_dim(a)
    cdef int m = hes_analysis_n_multipliers(a)
    cdef cnp.ndarray x0 = np.empty(n, dtype=np.float64)
    hes_analysis_x0(a, <double *>cnp.PyArray_DATA(x0), n)
    cdef cnp.ndarray re = np.empty(m, dtype=np.float64)
    cdef cnp.ndarray im = np.empty(m, dtype=np.float64)
    hes_analysis_multipliers(a, <double *>cnp.PyArray_DATA(re), <double *>cnp.PyArray_DATA(im), m)
    cdef cnp.ndarray phi = np.empty((n, n), dtype=np.float64)
    cdef cnp.ndarray proj = np.empty((n, n), dtype=np.float64)
    hes_analysis_monodromy(a, 0, <double *>cnp.PyArray_DATA(phi), n * n)
    hes_analysis_monodromy(a, 1, <double *>cnp.PyArray_DATA(proj), n * n)
    r.x0 = x0
    r.multipliers = re + 1j * im
    r.monodromy = phi.T
    r.return_map = proj.T
    r.params = s.params
    r._hybrid = hes_system_kind(sys) == HES_KIND_HYBRID
    r._model = hes_system_model(sys)
    r._model_ref = s
    r._json = _take_json(hes_analysis_json(sys, a))
    return r


def analyze(system, check=False, **params):
    """hes.analyze("slip-hopper", K=0.1): the analysis of a problem (by
    name) or a System, with parameters set first (on the System given)."""
    return _analysis(_as_system(system, params), 1 if check else 0)
