# trajopt.pxi - hes.trajopt(): the periodic orbit itself as the unknown of a
# multi-phase direct collocation, with the model's inputs at the nodes,
# virtual events and psi and/or the input energy in the cost, re-analysed
# by shooting through the gait's derived model: the pipeline
# hes_trajopt_run, as `hes trajopt` runs it (src/cmd_trajopt.c,
# trajopt_line.c, trajopt_values.c, trajopt_print.c).

from c_trajopt cimport *
from libc.errno cimport errno, EIO
from libc.stdio cimport fopen, fclose, fflush, fprintf, stderr
from libc.string cimport strerror


cdef struct _tj_progress:
    int last


cdef void _trajopt_progress(void *ctx, int evaluation, double cost, double violation,
                            double psi) nogil:
    """The program's progress line on stderr, every tenth evaluation."""
    cdef _tj_progress *p = <_tj_progress *>ctx
    if evaluation - p.last < 10 and p.last > 0:
        return
    p.last = evaluation
    fprintf(stderr, "trajopt: evaluation %5d  cost %.8g  violation %.2e  psi %.6g\n",
            evaluation, cost, violation, psi)


cdef class TrajoptResult:
    """The outcome of hes.trajopt: the optimised gait, its collocation and
    its re-analysis by shooting.

    problem; params: the gait's parameters (dict); objective (and weight
    for "weighted"); nodes, variables, constraints, path_constraints of the
    last grid; design: the design parameters' values ({name: value}) and
    design_bounds; phases: a list of dicts (mode, duration, ends_with,
    virtual, offset (NaN for a physical event), x: the states at the
    nodes (nodes x dim), u: the inputs (rows x inputs) or None); inputs:
    the inputs' names; period; energy (NaN without inputs);
    psi_collocation; psi_refined and refined_nodes (the re-collocation with
    the inputs held, NaN and 0 without); have_shooting, psi_shooting,
    verdict, psi_tol, return_map_difference, psi_difference, unresolved
    (the grid does not resolve psi), shooting_status and
    shooting_message; violation; return_map (collocation, dim x dim);
    grids (one dict per grid of the mesh continuation); cost,
    cost_shooting; starts (one dict per start) and best_start;
    evaluations, fallbacks, seconds; solver.  write_gait(path) writes the
    gait file (`hes trajopt -o`); to_json(): the document `hes trajopt
    --json` prints for the same inputs."""
    cdef hes_trajopt_result r
    cdef bint have
    cdef System _system
    cdef const hes_model *_model
    cdef readonly str problem, objective, verdict, shooting_status, shooting_message, solver
    cdef readonly dict params, design, design_bounds
    cdef readonly list phases, inputs, grids, starts
    cdef readonly int nodes, variables, constraints, path_constraints, refined_nodes
    cdef readonly int evaluations, fallbacks, best_start
    cdef readonly bint have_shooting, unresolved
    cdef readonly double weight, period, energy, psi_collocation, psi_refined, psi_shooting
    cdef readonly double psi_tol, return_map_difference, psi_difference, violation
    cdef readonly double cost, cost_shooting, seconds
    cdef readonly object return_map
    cdef str _json

    def __dealloc__(self):
        if self.have:
            hes_trajopt_result_free(&self.r)

    def write_gait(self, path):
        """Writes the gait file (JSON, `hes trajopt -o FILE`), for
        `hes analyze --orbit FILE` and `hes simulate --orbit FILE`."""
        _write_gait(_path_option(path, "output"), &self.r.gait, self._model)

    def to_json(self):
        """The document `hes trajopt --json` prints for the same inputs."""
        return self._json

    def __repr__(self):
        shoot = f"{self.psi_shooting:.10g}" if self.have_shooting else "failed"
        return (f"<hes.TrajoptResult {self.problem} {self.objective}: psi collocation "
                f"{self.psi_collocation:.10g}, by shooting {shoot}>")


cdef int _write_gait(bytes path, const hes_gait *g, const hes_model *m) except -1:
    """The gait file, every write checked; a regular file is removed when a
    write fails rather than left empty or cut."""
    global errno
    cdef FILE *f = fopen(path, "w")
    cdef int err = 0
    if f == NULL:
        err = errno
    else:
        errno = 0
        if hes_gait_write(g, m, f) != HES_OK or fflush(f) != 0:
            err = errno if errno else EIO
        errno = 0
        if fclose(f) != 0 and not err:
            err = errno if errno else EIO
    if not err:
        return 0
    p = path.decode("utf-8", "surrogateescape")
    removed = False
    if f != NULL and _os.path.isfile(p):
        try:
            _os.remove(p)
            removed = True
        except OSError:
            pass
    raise FileError(f"cannot write {p}: {strerror(err).decode()}"
                    + (" (the incomplete file is removed)" if removed else ""), HES_EIO)


cdef list _per_grid(value, what, int lo, int hi, bint increasing):
    """A value per grid: an int, or 1 to HES_TRAJOPT_MAX_GRIDS of them
    (increasing if asked), each in [lo, hi]."""
    if isinstance(value, str):
        vals = value.split(",")
    elif isinstance(value, (int, np.integer)):
        vals = [value]
    else:
        try:
            vals = list(value)
        except TypeError:
            vals = None
    try:
        vals = [int(v) if isinstance(v, str) else v for v in vals] if vals else None
    except ValueError:
        vals = None
    form = (f"1 to {HES_TRAJOPT_MAX_GRIDS} integers from {lo} to {hi}"
            + (", increasing" if increasing else ""))
    if not vals or len(vals) > HES_TRAJOPT_MAX_GRIDS:
        raise InvalidArgument(f"{what} = {value!r}: expected {form}")
    out = []
    for v in vals:
        out.append(_int_option(v, what, lo, hi))
        if increasing and len(out) > 1 and not out[len(out) - 1] > out[len(out) - 2]:
            raise InvalidArgument(f"{what} = {value!r}: expected {form}")
    return out


cdef list _virtual_counts(spec, const hes_model *m):
    """--virtual-events: "none", "default" (the model's), or one count 0 to
    64 per event of the orbit's sequence (a list, or "A,B,...")."""
    cdef int n = m.orbit.n_sequence
    cdef const _trajopt_spec_view *ts = <const _trajopt_spec_view *>m.trajopt
    if spec is None or spec == "none":
        return [0] * n
    if spec == "default":
        if ts == NULL or ts.virtual_events == NULL:
            raise InvalidArgument(f"virtual_events: problem '{_text(m.name)}' has no default "
                                  "virtual events")
        return [ts.virtual_events[i] for i in range(n)]
    vals = spec.split(",") if isinstance(spec, str) else spec
    try:
        counts = [_int_option(int(v) if isinstance(v, str) else v, "virtual_events", 0, 64)
                  for v in vals]
    except (TypeError, ValueError, InvalidArgument):
        counts = None
    if counts is None or len(counts) != n:
        raise InvalidArgument(f"virtual_events = {spec!r}: expected 'none', 'default' or {n} "
                              "counts 0..64 (one per event of the sequence)")
    return counts


cdef tuple _name_ranges(value, what):
    """NAME=LO:HI pairs ({name: (lo, hi)}, at most HES_COLLOC_MAX_DESIGN):
    (names as bytes, lo, hi)."""
    d = _mapping_option(value, what)
    if len(d) > HES_COLLOC_MAX_DESIGN:
        raise InvalidArgument(f"{what}: at most {HES_COLLOC_MAX_DESIGN} of them")
    names, lo, hi = [], [], []
    for k, v in d.items():
        a, b = _range_option(v, f"{what} {k}")
        names.append(_name(k, what))
        lo.append(a)
        hi.append(b)
    return names, np.array(lo + [0.0]), np.array(hi + [0.0])


def trajopt(system, objective=None, weight=None, measure=None, psi_floor=None,
            psi_smoothing=None, smooth=None, virtual_events=None, inputs=None, bound=None,
            design=None, nodes=None, init=None, refine=None, maxeval=None, solver=None,
            starts=None, seed=None, spread=None, jobs=None, output=None, quiet=True,
            **params):
    """Trajectory optimisation of the periodic orbit, as `hes trajopt` runs
    it (hes_trajopt_run): Hermite-Simpson collocation over the orbit's
    event sequence with free phase durations, the model's inputs at the
    nodes and optional virtual events, minimising the objective, then the
    gait re-analysed by shooting.  The solved and design parameters end in
    the system.  Returns a hes.TrajoptResult.

    objective: "stability" (psi, the default), "energy", "weighted" (psi +
    weight * energy; weight >= 0) or "feasible"; measure: "psi" or
    "smooth"; psi_floor, psi_smoothing, smooth (the input-rate weight):
    numbers >= 0 of the psi objectives; virtual_events: "none", "default"
    or a count per event of the sequence; inputs: "linear" or "constant";
    bound={state: (lo, hi)}: bounds on the first state; design={name: (lo,
    hi)}: parameters optimised within bounds (default without inputs:
    every shape parameter); nodes: per phase, 3 to 1000, or increasing
    counts of a mesh continuation; init: a gait file to start from
    (default: a simulation of the orbit guess); refine: 1 to 16; maxeval:
    1 to 100000, one for every grid or one per grid; solver: "ipopt",
    "slsqp", "reduced" or "hybrid"; starts: 1 to 64, with seed and spread
    (0, 1]; jobs: 1 to 64; output: the gait file to write (-o); quiet=False
    prints the program's progress lines on stderr.  Other keywords set
    parameters (-p; over those of init's gait)."""
    cdef System s = _as_system(system, {})
    cdef hes_system *sys = s._sys()
    cdef hes_trajopt_options to
    cdef hes_colloc_objective obj
    cdef hes_measure meas
    cdef hes_nlp_solver sol
    hes_trajopt_options_init(&to)
    if hes_system_kind(sys) != HES_KIND_HYBRID:
        raise InvalidArgument(f"trajopt: '{s.name}' is an event-selected system; trajopt "
                              "collocates a hybrid model's orbit")
    cdef const hes_model *m = hes_system_model(sys)
    cdef const _trajopt_spec_view *spec = <const _trajopt_spec_view *>m.trajopt
    if objective is not None:
        if hes_colloc_objective_from_name(_name(objective, "objective"), &obj) != HES_OK:
            raise InvalidArgument(f"objective = {objective!r}: expected energy, stability, "
                                  "weighted or feasible")
        to.objective = obj
    if weight is not None:
        to.weight = _float_option(weight, "weight", 0.0)
    if smooth is not None:
        to.smooth_weight = _float_option(smooth, "smooth", 0.0)
    if psi_floor is not None:
        to.psi_floor = _float_option(psi_floor, "psi_floor", 0.0)
    if psi_smoothing is not None:
        to.psi_smoothing = _float_option(psi_smoothing, "psi_smoothing", 0.0)
    if measure is not None:
        if hes_measure_from_name(_name(measure, "measure"), &meas) != HES_OK:
            raise InvalidArgument(f"measure = {measure!r}: expected psi or smooth")
        to.measure = meas
    if inputs is not None:
        if inputs not in ("linear", "constant"):
            raise InvalidArgument(f"inputs = {inputs!r}: expected linear or constant")
        to.constant_inputs = inputs == "constant"
    grids = _per_grid(to.nodes if nodes is None else nodes, "nodes", 3, 1000, True)
    evals = _per_grid(to.maxeval if maxeval is None else maxeval, "maxeval", 1,
                      CLI_MAX_EVALS, False)
    if len(evals) > 1 and len(evals) != len(grids):
        raise InvalidArgument(f"maxeval gives {len(evals)} values for the {len(grids)} grids of "
                              "nodes: give one for every grid, or one per grid")
    if len(evals) == 1:
        evals = evals * len(grids)
    if starts is not None:
        to.starts = _int_option(starts, "starts", 1, HES_TRAJOPT_MAX_STARTS)
    if seed is not None:
        to.seed = _seed_option(seed, "seed")
    if spread is not None:
        to.start_spread = _float_option(spread, "spread", 0.0, True, 1.0)
    if jobs is not None:
        to.jobs = _int_option(jobs, "jobs", 1, HES_COLLOC_MAX_JOBS)
    if refine is not None:
        to.refine = _int_option(refine, "refine", 1, 16)
    if solver is not None:
        if (solver == "default" or hes_nlp_solver_from_name(_name(solver, "solver"), &sol)
                != HES_OK):
            raise InvalidArgument(f"solver = {solver!r}: expected ipopt, slsqp, reduced or "
                                  "hybrid")
        to.solver = sol
    if not hes_nlp_solver_available(to.solver):
        raise InvalidArgument(f"solver {_text(hes_nlp_solver_name(to.solver))}: hes was built "
                              "without it")
    dnames, dlo, dhi = _name_ranges(design, "design")
    bnames, blo, bhi = _name_ranges(bound, "bound")
    counts = _virtual_counts(virtual_events, m)
    cdef bytes out_path = _path_option(output, "output") if output is not None else None
    cdef bytes init_path = None
    if init is not None and init != "default":
        init_path = _path_option(init, "init")

    # the refusals of options that go together or would be ignored
    psi_objective = to.objective in (HES_COLLOC_STABILITY, HES_COLLOC_WEIGHTED)
    obj_name = _text(hes_colloc_objective_name(to.objective))
    if (seed is not None or spread is not None) and to.starts < 2:
        raise InvalidArgument(f"{'seed' if seed is not None else 'spread'} applies only with "
                              "starts above 1")
    if to.starts > 1 and to.objective == HES_COLLOC_FEASIBLE:
        raise InvalidArgument("starts needs a cost to compare the starts by (not objective "
                              "feasible)")
    if weight is not None and to.objective != HES_COLLOC_WEIGHTED:
        raise InvalidArgument(f"weight does not apply to objective {obj_name} (only to weighted)")
    if not psi_objective:
        for k, v in (("measure", measure), ("psi_floor", psi_floor),
                     ("psi_smoothing", psi_smoothing), ("smooth", smooth)):
            if v is not None:
                raise InvalidArgument(f"{k} does not apply to objective {obj_name} (only to "
                                      "stability and weighted)")
    if to.psi_smoothing > 0 and to.measure == HES_MEASURE_SMOOTH:
        raise InvalidArgument("psi_smoothing smooths psi's kinks; measure smooth has none")
    cdef int n_inputs = spec.n_inputs if spec != NULL else 0
    if inputs is not None and n_inputs == 0:
        raise InvalidArgument(f"inputs: problem '{s.name}' has no inputs")
    if refine is not None and to.refine > 1 and n_inputs == 0 and not any(counts):
        raise InvalidArgument(f"refine applies only with inputs or virtual events: problem "
                              f"'{s.name}' has no inputs and virtual_events gives none")

    # the system with -p, and the start of init (-p over its parameters)
    if params:
        s.set(**params)
    _check_params(s)
    cdef hes_gait start
    cdef hes_error gerr
    memset(&start, 0, sizeof(start))
    cdef const double *p
    if init_path is not None:
        if hes_gait_read(init_path, m, &start, &gerr) != HES_OK:
            raise InvalidArgument(f"init {init}: {_text(gerr.message)}")
        p = hes_system_params(sys)
        for key in params:
            k = hes_model_param_index(m, key.encode())
            if 0 <= k < start.n_params:
                start.params[k] = p[k]

    # the options' arrays, kept alive for the call
    cdef cnp.ndarray c_grids = np.array(grids + [0], dtype=np.intc)
    cdef cnp.ndarray c_evals = np.array(evals + [0], dtype=np.intc)
    cdef cnp.ndarray c_counts = np.array(counts + [0], dtype=np.intc)
    cdef cnp.ndarray c_dlo = dlo, c_dhi = dhi, c_blo = blo, c_bhi = bhi
    cdef const char **dptr = <const char **>malloc((len(dnames) + 1) * sizeof(char *))
    cdef const char **bptr = <const char **>malloc((len(bnames) + 1) * sizeof(char *))
    cdef _tj_progress prog
    cdef hes_status st
    cdef TrajoptResult r = TrajoptResult.__new__(TrajoptResult)
    prog.last = 0
    try:
        if dptr == NULL or bptr == NULL:
            raise OutOfMemory("out of memory", HES_ENOMEM)
        for j, b in enumerate(dnames):
            dptr[j] = <bytes>b
        for j, b in enumerate(bnames):
            bptr[j] = <bytes>b
        to.nodes = grids[0]
        to.n_finer = len(grids) - 1
        to.finer_nodes = <const int *>cnp.PyArray_DATA(c_grids) + 1
        to.maxeval = evals[0]
        to.finer_maxeval = <const int *>cnp.PyArray_DATA(c_evals) + 1
        to.n_design = len(dnames)
        to.design = dptr
        to.design_lo = <const double *>cnp.PyArray_DATA(c_dlo)
        to.design_hi = <const double *>cnp.PyArray_DATA(c_dhi)
        to.n_bounds = len(bnames)
        to.bound_states = bptr
        to.bound_lo = <const double *>cnp.PyArray_DATA(c_blo)
        to.bound_hi = <const double *>cnp.PyArray_DATA(c_bhi)
        to.virtual_events = <const int *>cnp.PyArray_DATA(c_counts)
        to.init = &start if init_path is not None else NULL
        if not quiet:
            to.progress = _trajopt_progress
            to.progress_ctx = &prog
        s._begin()
        with nogil:
            st = hes_trajopt_run(sys, &to, &r.r)
        r.have = True
        if st != HES_OK:
            s._raise(st)
        _reraise_model(s)
    finally:
        free(dptr)
        free(bptr)
        hes_gait_free(&start)
    _trajopt_result(r, s, m)
    if out_path is not None:
        _write_gait(out_path, &r.r.gait, m)
    if r.have_shooting and r.unresolved:
        _warnings.warn(f"psi of the collocation ({r.r.gait.psi:.6g}) and by shooting "
                       f"({r.psi_shooting:.6g}) differ by {r.psi_difference:.2g} relative: the "
                       "grid does not resolve this gait, and the optimiser may have used its "
                       "discretisation error; use more nodes"
                       + (" or a finer refine" if r.refined_nodes else ""),
                       RuntimeWarning, stacklevel=2)
    return r


cdef int _trajopt_result(TrajoptResult r, System s, const hes_model *m) except -1:
    """The result's fields from the library's result."""
    cdef hes_trajopt_result *t = &r.r
    cdef const hes_gait *g = &t.gait
    cdef const hes_gait_phase *ph
    cdef hes_system *sys = s._sys()
    cdef double v
    r._system = s
    r._model = m
    r.problem = _text(m.name)
    r.params = {_text(m.params[i].name): g.params[i] for i in range(min(g.n_params, m.n_params))}
    r.objective = _text(hes_colloc_objective_name(t.objective))
    r.weight = t.weight
    r.nodes, r.variables, r.constraints = t.nodes, t.variables, t.constraints
    r.path_constraints = t.path_constraints
    r.design, r.design_bounds = {}, {}
    for j in range(t.n_design):
        name = _text(m.params[t.design[j]].name)
        hes_system_get_param(sys, m.params[t.design[j]].name, &v)
        r.design[name] = v
        r.design_bounds[name] = (t.design_lo[j], t.design_hi[j])
    r.inputs = [_text(m.params[g.inputs[k]].name) for k in range(g.n_inputs)]
    r.phases = []
    for i in range(g.n_phases):
        ph = &g.phases[i]
        dim = m.modes[ph.mode].dim
        r.phases.append({
            "mode": _text(m.modes[ph.mode].name), "duration": ph.duration,
            "ends_with": _text(m.transitions[ph.transition].name),
            "virtual": bool(ph.is_virtual), "offset": ph.offset if ph.is_virtual else np.nan,
            "x": _readonly(_vector(ph.x, <Py_ssize_t>ph.nodes * dim).reshape(ph.nodes, dim)),
            "u": (_readonly(_vector(ph.u, <Py_ssize_t>ph.u_rows * g.n_inputs)
                            .reshape(ph.u_rows, g.n_inputs)) if g.n_inputs > 0 and ph.u != NULL
                  else None)})
    r.period, r.energy = t.period, t.energy
    r.psi_collocation, r.refined_nodes = t.psi_collocation, t.refined_nodes
    r.psi_refined = t.psi_refined if t.refined_nodes else np.nan
    r.have_shooting = t.have_shooting != 0
    r.psi_shooting = t.psi_shooting if t.have_shooting else np.nan
    r.verdict = _text(hes_verdict_name(t.verdict)) if t.have_shooting else None
    r.psi_tol = t.psi_tol
    r.return_map_difference = t.return_map_difference
    r.psi_difference = t.psi_difference
    r.unresolved = t.unresolved != 0
    r.shooting_status = ("ok" if t.shooting_status == HES_OK
                         else _text(hes_strerror(t.shooting_status)))
    r.shooting_message = _text(t.shooting_message)
    r.violation = t.violation
    r.return_map = _readonly(_matrix(t.return_map, t.n, t.n)) if t.return_map != NULL else None
    r.grids = [{"nodes": t.grids[k].nodes, "variables": t.grids[k].variables,
                "solver": _text(hes_nlp_solver_name(t.grids[k].solver)),
                "evaluations": t.grids[k].evaluations, "psi_collocation": t.grids[k].psi,
                "energy": t.grids[k].energy, "seconds": t.grids[k].seconds}
               for k in range(t.n_grids)]
    r.cost, r.cost_shooting = t.cost, t.cost_shooting
    r.starts = [{"status": "ok" if t.starts[k].status == HES_OK
                 else _text(hes_strerror(t.starts[k].status)),
                 "message": _text(t.starts[k].message), "cost": t.starts[k].cost,
                 "cost_shooting": t.starts[k].cost_shooting,
                 "psi_shooting": t.starts[k].psi_shooting, "energy": t.starts[k].energy,
                 "evaluations": t.starts[k].evaluations, "seconds": t.starts[k].seconds}
                for k in range(t.n_starts)]
    r.best_start = t.best_start
    r.evaluations, r.fallbacks, r.seconds = t.evaluations, t.fallbacks, t.seconds
    r.solver = _text(hes_nlp_solver_name(t.solver))
    r._json = _take_json(hes_trajopt_json(sys, t))
