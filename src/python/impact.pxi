# impact.pxi - a simultaneous impact with friction resolved by every
# outcome the impulse-stepping model allows (Halm & Posa, Algorithm 2), by
# Anitescu and Potra's law and by sequential impacts: hes.impact, what
# `hes impact` computes (src/cmd_impact.c, impact_laws.c, impact_robot.c)
# by the same calls, with to_json() = hes_impact_json; and psi over the
# outcomes of an orbit's simultaneous impact: hes.analyze_impact_set, what
# `hes analyze PROBLEM --impact-set N` computes (src/cmd_analyze.c), with
# to_json() = hes_analysis_impact_json.

from c_impact cimport *

# the most samples of a set (the program's MAX_SAMPLES, 2^22)
cdef enum:
    _IMPACT_MAX_SAMPLES = 4194304


cdef class ImpactOutcome:
    """One outcome of a single-valued law: law ("anitescu-potra" or
    "sequential"), order (a sequential law's contacts in turn), v (the
    post-impact velocity), u_normal and u_tangent (the contacts'
    velocities), modes ("stick", "slide", "lift" per contact), lcps,
    energy_before, energy_after; where it lies relative to the sampled set
    (relative: the distance to the nearest finished sample over the set's
    extent, nearest: that sample, inside_normals: within the hull of the
    first two normals; -1, -1, False without a set); status: "ok", or why
    the law did not end (then only v is set)."""
    cdef readonly str law, status
    cdef readonly list order, modes
    cdef readonly object v, u_normal, u_tangent
    cdef readonly int lcps, nearest
    cdef readonly double energy_before, energy_after, relative
    cdef readonly bint inside_normals

    def __repr__(self):
        return f"<hes.ImpactOutcome {self.law} {','.join(self.order)}: {self.modes}, {self.status}>"


cdef class Impact:
    """An impact resolved (hes.impact): problem, contacts (their names), mu
    (their friction), q and v_minus (the pre-impact state), u_normal_minus
    and u_tangent_minus (the contacts' velocities before); outcomes: the
    single-valued laws' ImpactOutcomes (with the set: Anitescu-Potra, the
    contacts' order and its reverse, located in it); with the set (law
    "routh"): samples, n_finished, mean_lcps, max_residual,
    max_energy_gain, seconds, pivots, sequence, step, steps, and per
    sample v (samples, n), u_normal and u_tangent (samples, k), modes
    (samples, k) str, lcps, finished, dissipated, residual; None of those
    for a single law.  to_json(): the document of `hes impact --json`
    (samples_out=True: with every sample, as --samples-out)."""
    cdef readonly str problem, law
    cdef readonly list contacts, outcomes
    cdef readonly object mu, q, v_minus, u_normal_minus, u_tangent_minus
    cdef readonly object samples, n_finished, mean_lcps, max_residual, max_energy_gain
    cdef readonly object seconds, pivots, sequence, step, steps
    cdef readonly object v, u_normal, u_tangent, modes, lcps, finished, dissipated, residual
    cdef str _json

    def to_json(self):
        """The document `hes impact --json` prints for the same inputs."""
        return self._json

    def __repr__(self):
        if self.samples is None:
            return f"<hes.Impact {self.problem}: {self.law}>"
        return (f"<hes.Impact {self.problem}: {self.n_finished} of {self.samples} samples "
                "finished>")


cdef class _RobotImpact:
    """The impact problem of a robot file at a given state (impact_robot.c):
    the robot, its contacts touching the ground and the problem made of
    them; freed with it."""
    cdef hes_robot *robot
    cdef int *idx
    cdef hes_impact_problem pb
    cdef bytes name, description
    cdef object q, v

    def __dealloc__(self):
        hes_robot_destroy(self.robot)
        free(self.idx)


cdef list _robot_contacts(contacts, what):
    """contacts as [(name, mu)]: "NAME:MU,...", a dict {NAME: MU} or pairs;
    each name once, mu >= 0."""
    if isinstance(contacts, str):
        pairs = []
        for tok in contacts.split(","):
            name, colon, mu = tok.rpartition(":")
            if not colon or not name:
                raise InvalidArgument(f"{what} expects NAME:MU,... (mu >= 0), got {contacts!r}")
            pairs.append((name, mu))
    elif isinstance(contacts, dict):
        pairs = list(contacts.items())
    else:
        try:
            pairs = [tuple(p) for p in contacts]
        except TypeError:
            raise InvalidArgument(f"{what}: expected 'NAME:MU,...', a dict or (name, mu) "
                                  f"pairs, not {type(contacts).__name__}") from None
    out, seen = [], set()
    for p in pairs:
        if len(p) != 2:
            raise InvalidArgument(f"{what}: {p!r} is not a (name, mu) pair")
        name, mu = p
        name = _name(name, f"{what}: a contact's name").decode()
        try:
            m = float(mu)
        except (TypeError, ValueError):
            raise InvalidArgument(f"{what}: contact {name}: mu {mu!r} is not a number") from None
        if not (m >= 0 and _math.isfinite(m)):
            raise InvalidArgument(f"{what}: contact {name}: mu = {mu!r}, expected a finite "
                                  "number >= 0")
        if name in seen:
            raise InvalidArgument(f"{what} names '{name}' twice: give each contact once")
        seen.add(name)
        out.append((name, m))
    if not out:
        raise InvalidArgument(f"{what} expects NAME:MU,... , got {contacts!r}")
    return out


cdef hes_robot *_robot_read(path, list contacts, what) except NULL:
    """A robot file (MJCF or URDF) with these contacts (None: every site)."""
    import os
    cdef bytes b = _name(os.fspath(path), f"{what}'s path")
    cdef int n = len(contacts) if contacts is not None else 0
    cdef hes_robot_contact *cs = NULL
    cdef bytes bn
    cdef hes_robot *robot = NULL
    cdef hes_error err
    cdef hes_status st
    names = [_name(c[0], "a contact's name") for c in contacts] if n else []
    if n:
        cs = <hes_robot_contact *>calloc(n, sizeof(hes_robot_contact))
        if cs == NULL:
            raise MemoryError()
        for i in range(n):
            bn = names[i]
            cs[i].site = bn
            cs[i].mu = contacts[i][1]
    cdef const char *cpath = b
    try:
        with nogil:
            st = hes_robot_read(cpath, cs, n, &robot, &err)
    finally:
        free(cs)
    if st != HES_OK:
        raise _error(<int>st, err.message)
    return robot


cdef _RobotImpact _robot_impact(path, q, v, contacts, double gap_tol):
    """impact_robot_problem: the robot at (q, v), its contacts those of
    `contacts` (each must touch the ground within gap_tol) or every site
    (those farther from the ground left out with a warning)."""
    cdef _RobotImpact r = _RobotImpact.__new__(_RobotImpact)
    clist = _robot_contacts(contacts, "contacts") if contacts is not None else None
    r.robot = _robot_read(path, clist, "robot")
    cdef const hes_mech *m = hes_robot_mech(r.robot)
    cdef int nc = hes_robot_contact_count(r.robot)
    if nc < 1:
        raise InvalidArgument(f"{path} has no sites: name its contacts with contacts="
                              "'NAME:MU,...'")
    cdef int nq = 0
    hes_robot_dims(r.robot, &nq, NULL)
    coords = [_text(hes_robot_coordinate(r.robot, i)) for i in range(nq)]
    try:
        r.q = _as_vector(q, nq, "q")
        r.v = _as_vector(v, m.d, "v")
    except InvalidArgument:
        if nq == m.d:
            raise InvalidArgument(f"q and v need {m.d} numbers each (the robot's coordinates: "
                                  f"{', '.join(coords)})") from None
        vnames = [_text(hes_robot_velocity_name(r.robot, i)) for i in range(m.d)]
        raise InvalidArgument(f"q needs {nq} numbers ({', '.join(coords)}), v {m.d} "
                              f"({', '.join(vnames)})") from None
    r.idx = <int *>malloc(sizeof(int) * nc)
    if r.idx == NULL:
        raise MemoryError()
    cdef hes_robot_dynamics d
    cdef hes_error err
    cdef hes_status st = hes_robot_dynamics_at(r.robot, <const double *>cnp.PyArray_DATA(r.q),
                                               <const double *>cnp.PyArray_DATA(r.v), &d, &err)
    if st != HES_OK:
        raise _error(<int>st, err.message)
    cdef int k = 0
    for i in range(nc):
        name = _text(hes_robot_contact_name(r.robot, i))
        if abs(d.phi[i]) <= gap_tol:
            r.idx[k] = 2 * i
            k += 1
            continue
        where = "above" if d.phi[i] > 0 else "into"
        if contacts is not None:
            raise InvalidArgument(f"contact {name} is {'%.6g' % abs(d.phi[i])} m {where} the "
                                  f"ground at the given q (more than gap_tol {'%g' % gap_tol}): "
                                  "an impact needs its contacts touching")
        _warnings.warn(f"site {name} is {'%.6g' % abs(d.phi[i])} m {where} the ground (more "
                       f"than gap_tol {'%g' % gap_tol}): left out of the impact",
                       RuntimeWarning, stacklevel=3)
    if k == 0:
        raise InvalidArgument(f"no contact of {path} touches the ground at the given q (within "
                              f"gap_tol {'%g' % gap_tol}): there is no impact")
    import os
    r.name = os.fspath(path).encode("utf-8")
    r.description = f"the robot of {os.fspath(path)} at the given q, v".encode("utf-8")
    r.pb.name = r.name
    r.pb.description = r.description
    r.pb.mech = m
    r.pb.k = k
    r.pb.contacts = r.idx
    r.pb.pre_impact = NULL
    r.pb.h = 0
    r.pb.steps = 20
    r.pb.samples = 4096
    return r


cdef str _contact_name(const hes_impact_problem *pb, int i):
    return _text(pb.mech.constraints[pb.contacts[i]].name)


cdef ImpactOutcome _outcome_copy(const hes_impact_problem *pb, const hes_impact_outcome *o,
                                 int d, int k):
    cdef ImpactOutcome r = ImpactOutcome.__new__(ImpactOutcome)
    r.law = "sequential" if o.law == HES_LAW_SEQUENTIAL else "anitescu-potra"
    r.order = [_contact_name(pb, o.order[i]) for i in range(k)] \
        if o.law == HES_LAW_SEQUENTIAL else []
    r.v = _vector(o.v, d)
    r.u_normal = _vector(o.u, k)
    r.u_tangent = _vector(&o.u[k], k)
    r.modes = [_text(hes_contact_mode_name(o.modes[i])) for i in range(k)]
    r.lcps = o.lcps
    r.energy_before, r.energy_after = o.energy_before, o.energy_after
    r.relative, r.nearest, r.inside_normals = o.relative, o.nearest, o.inside_normals != 0
    r.status = "ok" if o.status == HES_OK else _text(hes_strerror(o.status))
    return r


def impact(problem, *, samples=None, step=None, steps=None, seed=0, select="random",
           threads=1, law="routh", samples_out=False, q=None, v=None, contacts=None,
           gap_tol=None):
    """Resolves a simultaneous impact with friction as `hes impact` does: the
    set of post-impact velocities of the impulse-stepping model (Halm &
    Posa, Algorithm 2), the Anitescu-Potra outcome and the sequential ones
    (the contacts' order and its reverse), located in the set; a hes.Impact.

    problem: a built-in impact problem ("rocking-block",
    "compass-gait-impact", "box-wall", "disk-stack"), or a robot file
    (MJCF or URDF; needs MuJoCo) at the pre-impact state q, v, its contacts
    `contacts` ("NAME:MU,...", a dict or (name, mu) pairs; default every
    site touching the ground within gap_tol, default 1e-6 m).

    samples (1 to 4194304; default the problem's), step (the impulse step
    h > 0; default the paper's, or half the largest Anitescu-Potra normal
    impulse), steps (1 to 10000), seed (>= 0: randomises the caps),
    select ("random" or "lemke": a step's LCP solution when it has
    several), threads (1 to 256), law ("routh": the set; "anitescu-potra"
    or "sequential:A,B,...": that law alone), samples_out (to_json with
    every sample).  The sampling runs with the GIL released."""
    # ---- the options, as the program checks them
    cdef int n_samples = 0, n_steps = 0, n_threads, n_outs = 0, i, j
    cdef double h_opt = 0, tol_gap = 1e-6
    if samples is not None:
        n_samples = _cont_int(samples, 1, _IMPACT_MAX_SAMPLES, "samples")
    if step is not None:
        h_opt = _cont_positive(step, "step")
    if steps is not None:
        n_steps = _cont_int(steps, 1, 10000, "steps")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0 \
            or seed > 2 ** 64 - 1:
        raise InvalidArgument(f"seed = {seed!r}: expected a non-negative integer")
    cdef unsigned long c_seed = seed
    if select not in ("random", "lemke"):
        raise InvalidArgument(f"select = {select!r}: expected random or lemke")
    n_threads = _cont_int(threads, 1, 256, "threads")
    if gap_tol is not None:
        try:
            tol_gap = float(gap_tol)
        except (TypeError, ValueError):
            tol_gap = NAN
        if not (0 < tol_gap < 1):
            raise InvalidArgument(f"gap_tol = {gap_tol!r}: expected a height in (0, 1) m")
    if not isinstance(law, str):
        raise InvalidArgument(f"law = {law!r}: expected routh, anitescu-potra or "
                              "sequential:NAME,NAME,...")

    # ---- the problem: built in, or a robot file
    cdef const hes_impact_problem *pb = NULL
    cdef _RobotImpact rob = None
    import os
    name = os.fspath(problem) if not isinstance(problem, str) else problem
    if isinstance(name, bytes):
        name = name.decode("utf-8", "replace")
    if not isinstance(name, str):
        raise InvalidArgument(f"expected an impact problem's name or a robot file, not "
                              f"{type(problem).__name__}")
    if "\0" not in name:
        pb = hes_impact_problem_find(name.encode("utf-8"))
    is_robot = pb == NULL and (q is not None or v is not None or
                               name.endswith((".xml", ".urdf", ".mjcf")) or os.path.exists(name))
    if pb == NULL and not is_robot:
        known = ", ".join(_text(hes_impact_problem_get(i).name)
                          for i in range(hes_impact_problem_count()))
        raise NotFoundError(f"unknown impact problem '{name}' ({known})", HES_ENOTFOUND)
    if not is_robot and (q is not None or v is not None or contacts is not None
                         or gap_tol is not None):
        raise InvalidArgument("q, v, contacts and gap_tol go with a robot file")
    if is_robot and (q is None or v is None):
        raise InvalidArgument("a robot file needs the pre-impact state: q and v")
    if is_robot:
        rob = _robot_impact(problem, q, v, contacts, tol_gap)
        pb = &rob.pb

    # ---- the law (impact_laws.c's impact_choose_law)
    cdef hes_impact_law one_law = HES_LAW_ANITESCU_POTRA
    cdef bint single = law != "routh"
    cdef int k = pb.k
    order = []
    if law == "anitescu-potra":
        one_law = HES_LAW_ANITESCU_POTRA
    elif law.startswith("sequential:"):
        one_law = HES_LAW_SEQUENTIAL
        names = [_contact_name(pb, i) for i in range(k)]
        for tok in law[11:].split(","):
            if tok not in names or names.index(tok) in order or len(order) >= k:
                raise InvalidArgument(f"law sequential: '{tok}' is not an unused contact of "
                                      f"{_text(pb.name)} ({', '.join(names)})")
            order.append(names.index(tok))
        if len(order) != k:
            raise InvalidArgument(f"law sequential needs all {k} contacts of {_text(pb.name)} "
                                  "in order")
    elif single:
        raise InvalidArgument(f"law = {law!r}: expected routh, anitescu-potra or "
                              "sequential:NAME,NAME,...")
    if single and samples_out:
        raise InvalidArgument("samples_out needs the set (law routh)")

    # ---- the impact and the set's options (cmd_impact.c's setup_impact)
    cdef hes_impact_setup s
    cdef hes_impact_set_options so
    cdef hes_error err
    cdef hes_status st
    cdef double h = h_opt if h_opt > 0 else pb.h, h_ap = 0
    cdef hes_impact_set S
    cdef hes_impact_outcome outs[3]
    cdef hes_impact_set *Sp = NULL
    cdef Impact r = Impact.__new__(Impact)
    memset(&s, 0, sizeof(s))
    memset(&S, 0, sizeof(S))
    memset(outs, 0, sizeof(outs))
    try:
        if rob is not None:
            st = hes_impact_setup_state(pb.mech, pb.k, pb.contacts,
                                        <const double *>cnp.PyArray_DATA(rob.q),
                                        <const double *>cnp.PyArray_DATA(rob.v), &s, &err)
        else:
            st = hes_impact_problem_setup(pb, &s, &err)
        if st == HES_OK and (not (h > 0) or (not single and h_opt > 0)):
            st = hes_impact_default_step(&s.contacts, s.v, &h_ap, &err)
        if st != HES_OK:
            raise _error(<int>st, err.message)
        if not (h > 0):
            h = h_ap
        if n_steps == 0:
            n_steps = pb.steps
        if not single and h_opt > 0 and n_steps * h_opt < 1e-3 * 2 * h_ap:
            raise InvalidArgument(f"step {'%g' % h_opt}: {n_steps} steps of it carry at most "
                                  f"{'%g' % (n_steps * h_opt)} of normal impulse, below 1e-3 "
                                  f"of the {'%g' % (2 * h_ap)} the impact needs "
                                  f"(Anitescu-Potra's largest): no sample could end; the "
                                  f"default step is {'%g' % h_ap}")
        memset(&so, 0, sizeof(so))
        so.samples = n_samples if n_samples else pb.samples
        so.routh.h = h
        so.routh.steps = n_steps
        so.routh.tol = 0
        so.routh.select = (c_seed if c_seed else 1) if select == "random" else 0
        so.seed = c_seed
        so.threads = n_threads
        so.keep_caps = 0
        so.max_wall_time = 0

        # ---- the set, the outcomes (impact_laws.c's impact_outcomes), the document
        if not single:
            Sp = &S
            with nogil:
                st = hes_impact_set_sample(&s.contacts, s.v, &so, &S, &err)
            if st != HES_OK:
                raise _error(<int>st, err.message)
            if S.n_finished == 0:
                raise MaxIterError(f"none of the {S.samples} samples ended within "
                                   f"{so.routh.steps} steps of h = {'%g' % so.routh.h} "
                                   "(contacts still approach): there is no post-impact set "
                                   "to show; raise step or steps", HES_EMAXITER)
            n_outs = 3
        else:
            n_outs = 1
        for j in range(n_outs):
            st = hes_impact_outcome_init(&outs[j],
                                         one_law if single else
                                         (HES_LAW_ANITESCU_POTRA if j == 0
                                          else HES_LAW_SEQUENTIAL), s.d, k)
            if st != HES_OK:
                raise MemoryError()
        for i in range(k):
            if single:
                outs[0].order[i] = order[i] if one_law == HES_LAW_SEQUENTIAL else 0
            else:
                outs[1].order[i] = i
                outs[2].order[i] = k - 1 - i
        for j in range(n_outs):
            with nogil:
                st = hes_impact_outcome_compute(&s.contacts, s.v, Sp, &outs[j], &err)
            if st != HES_OK and not (st == HES_EMAXITER and not single):
                raise _error(<int>st, err.message)

        r.problem = _text(pb.name)
        r.law = law
        r.contacts = [_contact_name(pb, i) for i in range(k)]
        r.mu = _vector(s.mu, k)
        r.q = _vector(s.q, hes_mech_nq(pb.mech))
        r.v_minus = _vector(s.v, s.d)
        u0 = np.empty(2 * k)
        hes_contact_velocities(&s.contacts, s.v, <double *>cnp.PyArray_DATA(u0))
        r.u_normal_minus, r.u_tangent_minus = u0[:k].copy(), u0[k:].copy()
        r.outcomes = [_outcome_copy(pb, &outs[j], s.d, k) for j in range(n_outs)]
        if not single:
            r.samples, r.n_finished, r.mean_lcps = S.samples, S.n_finished, S.mean_lcps
            r.max_residual, r.max_energy_gain = S.max_residual, S.max_energy_gain
            r.seconds, r.pivots, r.sequence = S.seconds, S.pivots, _text(S.sequence)
            r.step, r.steps = so.routh.h, so.routh.steps
            u = _vector(S.u, <Py_ssize_t>S.samples * 2 * k).reshape(S.samples, 2 * k)
            r.v = _vector(S.v, <Py_ssize_t>S.samples * S.n).reshape(S.samples, S.n)
            r.u_normal, r.u_tangent = u[:, :k].copy(), u[:, k:].copy()
            r.modes = np.array([[_text(hes_contact_mode_name(S.modes[j * k + i]))
                                 for i in range(k)] for j in range(S.samples)], dtype=str)
            r.lcps = np.array([S.lcps[j] for j in range(S.samples)], dtype=np.intc)
            r.finished = np.array([S.finished[j] != 0 for j in range(S.samples)], dtype=bool)
            r.dissipated = _vector(S.dissipated, S.samples)
            r.residual = _vector(S.residual, S.samples)
            r._json = _take_json(hes_impact_json(pb, &s, &so, &S, outs, n_outs,
                                                 1 if samples_out else 0))
        else:
            # the one outcome in the set's document, with an empty set
            S.n = s.d
            S.k = s.k
            S.sequence = "none"
            so.samples = 0
            r._json = _take_json(hes_impact_json(pb, &s, &so, &S, outs, n_outs, 0))
            S.sequence = NULL
    finally:
        hes_impact_set_free(&S)
        for j in range(3):
            hes_impact_outcome_free(&outs[j])
        hes_impact_setup_free(&s)
    return r


# ---------------------------------------- psi over an orbit's impact outcomes

cdef class ImpactSetAnalysis:
    """Stability over the outcomes of an orbit's simultaneous frictional
    impact (hes.analyze_impact_set, `hes analyze --impact-set`): analysis
    (the nominal hes.Analysis), transition (the impact's), contacts,
    psi_nominal, samples, n_consistent (outcomes that continue the orbit's
    mode sequence), n_orbits, n_failed, n_stable, n_unstable, n_marginal,
    psi_worst and psi_best (over the orbits found) and their samples
    worst, best, worst_check, step, steps, seconds, message (why the first
    failed orbit failed); per sample psi (NaN: not consistent, or failed)
    and consistent.  to_json(): the document of `hes analyze --impact-set
    N --json`."""
    cdef readonly object analysis
    cdef readonly str transition, message
    cdef readonly int contacts, samples, n_consistent, n_orbits, n_failed, n_stable
    cdef readonly int n_unstable, n_marginal, worst, best, steps
    cdef readonly double psi_nominal, psi_worst, psi_best, worst_check, step, seconds
    cdef readonly object psi, consistent
    cdef str _json

    def to_json(self):
        """The document `hes analyze PROBLEM --impact-set N --json` prints."""
        return self._json

    def __repr__(self):
        return (f"<hes.ImpactSetAnalysis {self.transition}: psi nominal "
                f"{self.psi_nominal:.6g}, worst {self.psi_worst:.6g}, best "
                f"{self.psi_best:.6g} over {self.n_orbits} orbits>")


def analyze_impact_set(system, samples, *, select="random", threads=1, check=False,
                       **params):
    """psi over `samples` (1 to 100000) sampled outcomes of the orbit's
    simultaneous frictional impact, each outcome's own orbit and psi, as
    `hes analyze SYSTEM --impact-set N [--select S] [--threads T]
    [--check]` computes it (hes_impact_orbit_analyze): a
    hes.ImpactSetAnalysis.  system: a System or a problem's name, with
    **params set; select: "random" or "lemke"; threads: 1 to 256."""
    cdef int n = _cont_int(samples, 1, 100000, "samples")
    if select not in ("random", "lemke"):
        raise InvalidArgument(f"select = {select!r}: expected random or lemke")
    cdef int n_threads = _cont_int(threads, 1, 256, "threads")
    cdef System s = _as_system(system, params)
    cdef hes_system *sys = s._sys()
    if hes_system_kind(sys) != HES_KIND_HYBRID:
        raise InvalidArgument(f"'{s.name}' is an event-selected system: impact_set takes a "
                              "hybrid model with a frictional impact")
    s._begin()
    cdef hes_status st = hes_system_check_params(sys)
    if st != HES_OK:
        s._raise(st)
    cdef Analysis a = _analysis(s, 1 if check else 0)
    cdef hes_impact_orbit_options io
    cdef hes_impact_orbit r
    cdef hes_error err
    hes_impact_orbit_options_init(&io)
    io.set.samples = n
    io.set.routh.select = 1 if select == "random" else 0
    io.set.threads = n_threads
    memset(&r, 0, sizeof(r))
    s._begin()
    with nogil:
        st = hes_impact_orbit_analyze(sys, a.a, &io, &r, &err)
    if isinstance(s.owner, _PyModelBase):
        try:
            (<_PyModelBase>s.owner).reraise()
        except BaseException:
            hes_impact_orbit_free(&r)
            raise
    if st != HES_OK:
        raise _error(<int>st, "impact_set: " + _text(err.message))
    cdef ImpactSetAnalysis out = ImpactSetAnalysis.__new__(ImpactSetAnalysis)
    cdef const hes_model *m = hes_system_model(sys)
    try:
        out.analysis = a
        out.transition = _text(m.transitions[r.transition].name) \
            if 0 <= r.transition < m.n_transitions else ""
        out.contacts = r.k
        out.samples = r.set.samples
        out.psi_nominal = r.psi_nominal
        out.n_consistent, out.n_orbits, out.n_failed = r.n_consistent, r.n_orbits, r.n_failed
        out.n_stable, out.n_unstable, out.n_marginal = r.n_stable, r.n_unstable, r.n_marginal
        out.psi_worst, out.psi_best, out.worst, out.best = r.psi_worst, r.psi_best, r.worst, r.best
        out.worst_check, out.step, out.steps, out.seconds = (r.worst_check, r.step, r.steps,
                                                             r.seconds)
        out.message = _text(r.message)
        out.psi = _vector(r.psi, r.set.samples) if r.psi != NULL else np.empty(0)
        out.consistent = np.array([r.consistent[j] != 0 for j in range(r.set.samples)],
                                  dtype=bool) if r.consistent != NULL else np.empty(0, bool)
        out._json = _take_json(hes_analysis_impact_json(sys, a.a, &r))
    finally:
        hes_impact_orbit_free(&r)
    return out
