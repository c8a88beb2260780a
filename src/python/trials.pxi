# trials.pxi - perturbation trials around a periodic orbit (the paper's
# Fig. 3 and Fig. 5 experiments: hes_orbit_find, then hes_trials_run or
# hes_trials_run_box), as `hes simulate PROBLEM` runs them
# (src/perturb_trials.c), and the derivative of one run's flow
# (hes_flow_jacobian), as `hes simulate PROBLEM --x0 ... --time T
# --jacobian` computes it (src/cmd_simulate_flow.c).

from c_trials cimport *


cdef class Trials:
    """Perturbation trials around a periodic orbit (System.trials).

    n_trials starts drawn uniformly from the ball of radius `radius`
    (region "ball"), or with every component within +-radius (region
    "box"), around the orbit's section state x_star, each followed for
    `steps` periods; error[k, s] is |x_s - x_star|_2 after period s + 1 of
    trial k (NaN after the periods a failed trial completed).  x0: the
    starts (n_trials x dim); steps_completed; failure: why a trial failed
    (its status as hes_strerror names it) or None, failure_message;
    converged: trials completing every period with a final error below
    tol; n_complete; mean_error: the mean error after each period over the
    complete trials; period, x_star, mode: the orbit's; params: every
    parameter (solved ones solved); seed.  to_json(): the document `hes
    simulate PROBLEM --json` prints for the same inputs."""
    cdef readonly int n_trials, steps, converged, n_complete
    cdef readonly double tol, radius, period
    cdef readonly str region, mode
    cdef readonly object seed, x0, steps_completed, failure, failure_message, error
    cdef readonly object mean_error, x_star
    cdef readonly dict params
    cdef str _json

    def to_json(self):
        """The document `hes simulate --json` prints for the same trials."""
        return self._json

    def __repr__(self):
        return (f"<hes.Trials {self.converged} of {self.n_trials} converged ({self.region} "
                f"{self.radius:g}, {self.steps} periods)>")


cdef Trials _trials_of(System s, hes_orbit *orbit, hes_trials *t):
    """A Trials object of the library's trials (the system at the orbit)."""
    cdef hes_system *sys = s._sys()
    cdef const hes_model *m = hes_system_model(sys)
    cdef Trials r = Trials.__new__(Trials)
    cdef int k, n = t.n
    r.n_trials, r.steps, r.converged, r.n_complete = t.n_trials, t.steps, t.converged, t.n_complete
    r.tol, r.radius, r.seed = t.tol, t.radius, t.seed
    r.region = "box" if t.box else "ball"
    r.period = orbit.period
    r.x_star = _readonly(_vector(orbit.x0, orbit.n))
    r.mode = _text(m.modes[orbit.mode].name)
    x0 = np.empty((t.n_trials, n), dtype=np.float64)
    err = np.full((t.n_trials, t.steps), np.nan)
    done = np.empty(t.n_trials, dtype=np.int64)
    fails, msgs = [], []
    for k in range(t.n_trials):
        x0[k] = _vector(t.trials[k].x0, n)
        done[k] = t.trials[k].steps_completed
        if t.trials[k].steps_completed > 0:
            err[k, :t.trials[k].steps_completed] = _vector(t.trials[k].error,
                                                           t.trials[k].steps_completed)
        fails.append(None if t.trials[k].failure == HES_OK
                     else _text(hes_strerror(t.trials[k].failure)))
        msgs.append(_text(t.trials[k].failure_msg))
    r.x0 = _readonly(x0)
    r.error = _readonly(err)
    r.steps_completed = _readonly(done)
    r.failure = fails
    r.failure_message = msgs
    r.mean_error = _readonly(_vector(t.mean_error, t.steps))
    r.params = s.params
    r._json = _take_json(hes_trials_json(sys, orbit, t))
    return r


cdef tuple _trial_options(trials, perturb, steps, seed, tol, box):
    """The program's trial options checked: (trials, radius, steps, seed,
    tol, box) with its defaults (src/cli.h CLI_TRIAL_DEFAULTS)."""
    if perturb is not None and box is not None:
        raise InvalidArgument("box and perturb exclude each other (a box or a ball of starts)")
    n = _int_option(20 if trials is None else trials, "trials", 1, CLI_MAX_TRIALS)
    st = _int_option(100 if steps is None else steps, "steps", 1, CLI_MAX_STEPS)
    if n * st > CLI_MAX_TRIAL_STEPS:
        raise InvalidArgument(f"trials {n} x steps {st} is more than {CLI_MAX_TRIAL_STEPS} "
                              "periods in all")
    if box is not None:
        radius = _float_option(box, "box", 0.0)
    else:
        radius = _float_option(0.1 if perturb is None else perturb, "perturb", 0.0)
    return (n, radius, st, _seed_option(1 if seed is None else seed, "seed"),
            _float_option(1e-6 if tol is None else tol, "tol", 0.0, True), box is not None)


cdef int _hybrid_with_orbit(System s, what) except -1:
    cdef hes_system *sys = s._sys()
    if hes_system_kind(sys) != HES_KIND_HYBRID:
        raise InvalidArgument(f"{what}: '{s.name}' is an event-selected system; {what} takes "
                              "a hybrid one")
    if hes_system_model(sys).orbit.guess == NULL:
        raise InvalidArgument(f"{what}: problem '{s.name}' declares no periodic orbit")
    return 0


def trials(system, trials=None, perturb=None, steps=None, seed=None, tol=None, box=None,
           **params):
    """Perturbation trials around the periodic orbit, as `hes simulate
    PROBLEM` runs them: the orbit (hes_orbit_find; its solved parameters
    set in the system), then `trials` starts (20) uniform in the ball of
    radius `perturb` (0.1) around its section state, or with box=H every
    component uniform in (-H, H) (the paper's Fig. 5 protocol; not with
    perturb), each followed for `steps` periods (100; trials x steps at
    most 10,000,000); a trial converged when its final error is below tol
    (1e-6); seed (1) fixes the starts.  Other keywords set parameters (-p).
    Returns a hes.Trials."""
    cdef System s = _as_system(system, {})
    _hybrid_with_orbit(s, "trials")
    n, radius, st, sd, tl, is_box = _trial_options(trials, perturb, steps, seed, tol, box)
    if params:
        s.set(**params)
    _check_params(s)
    cdef hes_system *sys = s._sys()
    cdef hes_orbit orbit
    cdef hes_trials t
    cdef hes_status rc
    cdef int c_n = n, c_steps = st, c_box = is_box
    cdef double c_radius = radius, c_tol = tl
    cdef unsigned long c_seed = sd
    memset(&orbit, 0, sizeof(orbit))
    memset(&t, 0, sizeof(t))
    s._begin()
    with nogil:
        rc = hes_orbit_find(sys, &orbit)
    if rc != HES_OK:
        hes_orbit_free(&orbit)
        s._raise(rc)
    try:
        with nogil:
            if c_box:
                rc = hes_trials_run_box(sys, &orbit, c_n, c_radius, c_steps, c_seed, c_tol, &t)
            else:
                rc = hes_trials_run(sys, &orbit, c_n, c_radius, c_steps, c_seed, c_tol, &t)
        if rc != HES_OK:
            s._raise(rc)
        _reraise_model(s)
        return _trials_of(s, &orbit, &t)
    finally:
        hes_trials_free(&t)
        hes_orbit_free(&orbit)


# -------------------------------------------------------- flow derivative
cdef class Flow:
    """One run of a hybrid model with the derivative of its flow
    (System.flow_jacobian): mode and x0 (the start), time, jacobian =
    d x(time) / d x0 (the saltation matrices at its events), mode_end and
    x_end, events (a list of (transition, t)), trajectory (the run as a
    hes.Trajectory, with its variational matrices) and simultaneous (each
    pair of events closer than 1e-8 of time, as a dict with the document's
    keys: event (the first one's index), first, second, dt, other_order
    (the other order's transitions as applied, or None where the model has
    none), coupling (NaN unless two impacts of one mechanical system),
    outcome_gap, piece_gap, continuous, differentiable, psi_taken,
    psi_other, and decoupled).  to_json(): the document `hes simulate
    PROBLEM --x0 ... --time T --jacobian --json` prints."""
    cdef readonly str mode, mode_end
    cdef readonly double time
    cdef readonly object x0, x_end, jacobian, trajectory
    cdef readonly list events, simultaneous
    cdef str _json

    def to_json(self):
        return self._json

    def __repr__(self):
        return f"<hes.Flow {self.mode} -> {self.mode_end} over {self.time:g}, {len(self.events)} events>"


def flow_jacobian(system, x0, time, mode=None, **params):
    """The derivative of the hybrid flow from state x0 of `mode` (a name or
    index; default: the model's first mode, as the program's) over `time`,
    with the report of its simultaneous events, as `hes simulate PROBLEM
    --x0 ... --time T --jacobian` computes it (hes_flow_jacobian); the run
    must end in a mode of the start's dimension.  Other keywords set
    parameters (-p).  Returns a hes.Flow."""
    cdef System s = _as_system(system, {})
    cdef hes_system *sys = s._sys()
    if hes_system_kind(sys) != HES_KIND_HYBRID:
        raise InvalidArgument(f"flow_jacobian: '{s.name}' is an event-selected system; its "
                              "flow is the ESS integrator's")
    cdef const hes_model *m = hes_system_model(sys)
    cdef int md = _index_of(m, mode, True, "mode")
    if md < 0:
        md = 0
    cdef cnp.ndarray x = _as_vector(x0, m.modes[md].dim, f"x0 (mode {_text(m.modes[md].name)})")
    cdef double T = _float_option(time, "time", 0.0, True)
    if params:
        s.set(**params)
    _check_params(s)
    cdef hes_flow f
    cdef hes_status st
    cdef const double *xp = <const double *>cnp.PyArray_DATA(x)
    memset(&f, 0, sizeof(f))
    s._begin()
    with nogil:
        st = hes_flow_jacobian(sys, md, xp, T, &f)
    try:
        if st != HES_OK:
            s._raise(st)
        _reraise_model(s)
        return _flow_of(s, m, md, x, T, &f)
    finally:
        hes_flow_free(&f)


cdef object _tname(const hes_model *m, int i):
    """A transition's name, None for -1 (none)."""
    return _text(m.transitions[i].name) if 0 <= i < m.n_transitions else None


cdef Flow _flow_of(System s, const hes_model *m, int md, cnp.ndarray x, double T, hes_flow *f):
    cdef Flow r = Flow.__new__(Flow)
    cdef const hes_phase *end = &f.traj.phases[f.traj.n_phases - 1]
    cdef const hes_simultaneous *q
    r.mode = _text(m.modes[md].name)
    r.x0 = _readonly(x.copy())
    r.time = T
    r.jacobian = _readonly(_matrix(f.jac, f.n, f.n))
    r.mode_end = _text(m.modes[end.mode].name)
    r.x_end = _readonly(_vector(end.x1, m.modes[end.mode].dim))
    r.trajectory = _trajectory(m, &f.traj)
    r.events = [(_text(m.transitions[f.traj.events[k].transition].name), f.traj.events[k].t)
                for k in range(f.traj.n_events)]
    r.simultaneous = []
    for k in range(f.n_simultaneous):
        q = &f.simultaneous[k]
        r.simultaneous.append({
            "event": q.event, "first": _tname(m, q.first), "second": _tname(m, q.second),
            "dt": q.dt,
            "other_order": ([_tname(m, q.alt_second), _tname(m, q.alt_first)]
                            if q.alt_first >= 0 else None),
            "coupling": q.coupling, "outcome_gap": q.outcome_gap, "piece_gap": q.piece_gap,
            "continuous": bool(q.continuous), "differentiable": bool(q.differentiable),
            "psi_taken": q.psi_taken, "psi_other": q.psi_other,
            "decoupled": bool(q.decoupled)})
    r._json = _take_json(hes_flow_json(s._sys(), md, <const double *>cnp.PyArray_DATA(x), T, f))
    return r
