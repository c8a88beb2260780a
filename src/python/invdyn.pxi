# invdyn.pxi - joint torques and contact forces of a robot's motion by
# inverse dynamics with rigid contact (Zapolsky & Drumwright): hes.invdyn,
# what `hes invdyn` computes (src/cmd_invdyn.c, invdyn_motion.c) by the
# same calls: hes_invdyn_trajectory along a trajectory (a CSV file, or
# arrays) or at one state of a robot file, hes_invdyn_gait along a gait of
# a robot model.  The program has no JSON document for it: the result is
# hes.InvDyn, NumPy arrays with a row per node, and to_csv() is the table
# of `hes invdyn --csv` (invdyn_print.c).

from c_invdyn cimport *

# the most nodes of a trajectory (the program's INVDYN_MAX_NODES) and the
# most motors named by motors= (its buffer of names)
cdef enum:
    _INVDYN_MAX_NODES = 1000000
    _INVDYN_MAX_MOTORS = 64


cdef class InvDyn:
    """Inverse dynamics along a motion (hes.invdyn), a row per node: t,
    status ("ok", or the library's name of the failure, e.g. "infeasible
    request"), message (why a node failed, "" else), stance (nodes, nc)
    bool, tau (nodes, nu) the motors' torques, f (nodes, nc (1 +
    tangents)): the contacts' normal forces, then their x and (3-D) y
    forces, as f_normal, f_x, f_y (None for a planar robot) (nodes, nc);
    ratio (nodes, nc) the friction ratios |f_t|/f_n; mu_min (nodes) the
    smallest friction that holds the motion at a node (no-slip; -1 else);
    slip (nodes).  And: robot (the file or gait), method, dt, contacts and
    motors (their names), tangents, mu_required (the largest mu_min, or
    ratio, over the counted nodes), worst (its node; -1: none), counted
    (the nodes where the motion holds otherwise), failed (the nodes
    infeasible or failed: the program's exit status 1), ok (none failed).
    to_csv(): the table of `hes invdyn --csv`."""
    cdef readonly str robot, method
    cdef readonly double dt, mu_required
    cdef readonly int worst, counted, failed, tangents
    cdef readonly list contacts, motors, message
    cdef readonly object t, status, stance, tau, f, f_normal, f_x, f_y, ratio, mu_min, slip
    cdef bint _min_friction

    @property
    def ok(self):
        return self.failed == 0

    def to_csv(self):
        """The table `hes invdyn --csv` prints: a header, then a row per node."""
        rows = ["t,method,status" + "".join(f",tau{k}" for k in range(self.tau.shape[1]))
                + "".join(f",{d}:{c}" for d in ("fn", "fx", "fy")[:1 + self.tangents]
                          for c in self.contacts)
                + "".join(f",ratio:{c}" for c in self.contacts)
                + "".join(f",stance:{c}" for c in self.contacts) + ",mu_min,slip"]
        for n in range(self.t.shape[0]):
            rows.append("%.10g,%s,%s" % (self.t[n], self.method, self.status[n])
                        + "".join(",%.10g" % x for x in self.tau[n])
                        + "".join(",%.10g" % x for x in self.f[n])
                        + "".join(",%.10g" % x for x in self.ratio[n])
                        + "".join(",%d" % x for x in self.stance[n])
                        + ",%.10g,%.10g" % (self.mu_min[n], self.slip[n]))
        return "\n".join(rows) + "\n"

    def __repr__(self):
        return (f"<hes.InvDyn {self.robot}: {self.t.shape[0]} nodes, {self.method}, "
                f"{self.failed} failed, mu required {self.mu_required:.6g}>")


cdef InvDyn _invdyn_copy(hes_invdyn_run *run, hes_robot *robot, what,
                         const hes_invdyn_run_options *ro):
    cdef InvDyn r = InvDyn.__new__(InvDyn)
    cdef int N = run.nodes, nc = run.nc, nu = run.nu, rows = run.nc * (1 + run.tangents)
    cdef int n
    r.robot = what
    r.method = _text(hes_invdyn_method_name(ro.solve.method))
    r.dt = ro.dt
    r._min_friction = ro.solve.min_friction != 0
    r.tangents = run.tangents
    r.contacts = [_text(hes_robot_contact_name(robot, c)) for c in range(nc)]
    r.motors = [_text(hes_robot_motor_joint(robot, k)) or "?" for k in range(nu)]
    r.t = _vector(run.t, N)
    r.status = np.array(["ok" if run.status[n] == HES_OK else _text(hes_strerror(run.status[n]))
                         for n in range(N)], dtype=str)
    r.message = [_text((<char *>run.message) + 160 * n) for n in range(N)]
    r.stance = np.array([run.stance[k] != 0 for k in range(N * nc)],
                        dtype=bool).reshape(N, nc)
    r.tau = _vector(run.tau, <Py_ssize_t>N * nu).reshape(N, nu)
    r.f = _vector(run.f, <Py_ssize_t>N * rows).reshape(N, rows)
    r.f_normal = r.f[:, :nc]
    r.f_x = r.f[:, nc:2 * nc]
    r.f_y = r.f[:, 2 * nc:3 * nc] if run.tangents == 2 else None
    r.ratio = _vector(run.ratio, <Py_ssize_t>N * nc).reshape(N, nc)
    r.mu_min = _vector(run.mu_min, N)
    r.slip = _vector(run.slip, N)
    r.mu_required, r.worst, r.counted, r.failed = (run.mu_required, run.worst, run.counted,
                                                   run.failed)
    for a in (r.t, r.status, r.stance, r.tau, r.f, r.ratio, r.mu_min, r.slip):
        a.flags.writeable = False
    return r


# hes.robot: a robot model from its description (system.pxi); invdyn's
# argument of that name is a robot file or model
_robot_model = robot


cdef class _Robot:
    """A robot file read for inverse dynamics; freed with it."""
    cdef hes_robot *robot

    def __dealloc__(self):
        hes_robot_destroy(self.robot)


cdef tuple _invdyn_read_csv(path, _Robot rob, int nq, int nc):
    """The trajectory file of `hes invdyn --trajectory` (invdyn_motion.c): a
    header naming t, every coordinate of the robot once (nq of them, any order) and
    optionally stance:CONTACT columns, then a row per node (blank lines and
    lines starting with '#' skipped), the times increasing: (t, q, stance
    or None)."""
    import os
    p = os.fspath(path)
    lines = _read_text(p, "trajectory").split("\n")
    coords = [_text(hes_robot_coordinate(rob.robot, i)) for i in range(nq)]
    cnames = [_text(hes_robot_contact_name(rob.robot, c)) for c in range(nc)]
    if not lines or not lines[0].strip(" \t\r"):
        raise InvalidArgument(f"{p}: no header line")
    header = [f.strip(" \t") for f in lines[0].rstrip("\r").split(",")]
    if len(header) > nq + nc + 2:
        raise InvalidArgument(f"{p}: more columns than t, {nq} coordinates and {nc} stance "
                              "columns")
    col = []
    for name in header:
        if name == "t":
            col.append(-1)
        elif name in coords:
            col.append(coords.index(name))
        elif name.startswith("stance:") and name[7:] in cnames:
            col.append(-2 - cnames.index(name[7:]))
        else:
            raise InvalidArgument(f"{p}: column '{name}' is neither t, a coordinate of the "
                                  "robot nor stance:CONTACT")
    missing = None
    if col.count(-1) != 1:
        missing = "t"
    else:
        for i in range(nq):
            if col.count(i) != 1:
                missing = coords[i]
                break
    if missing is not None:
        raise InvalidArgument(f"{p}: the header needs t and every coordinate once; {missing} "
                              "is missing or repeated")
    has_stance = any(c <= -2 for c in col)
    ts, qs, ss = [], [], []
    allowed = set("0123456789+-.eE")
    for number, line in enumerate(lines[1:], start=2):
        line = line.rstrip("\r")
        if not line.strip(" \t") or line.startswith("#"):
            continue
        if len(ts) == _INVDYN_MAX_NODES:
            raise InvalidArgument(f"{p}: more than {_INVDYN_MAX_NODES} nodes")
        fields = line.split(",")
        if len(fields) != len(header):
            raise InvalidArgument(f"{p}: line {number} has {len(fields)} fields, the header "
                                  f"{len(header)}")
        qrow, srow, tv = [0.0] * nq, [0] * nc, 0.0
        for k, text in enumerate(fields):
            s = text.strip(" \t")
            try:
                if not s or not set(s) <= allowed:
                    raise ValueError
                x = float(s)
                if not _math.isfinite(x):
                    raise ValueError
            except ValueError:
                raise InvalidArgument(f"{p}: line {number}, field {k + 1}: '{text}' is not a "
                                      "number") from None
            if col[k] == -1:
                tv = x
            elif col[k] >= 0:
                qrow[col[k]] = x
            elif x != 0 and x != 1:
                raise InvalidArgument(f"{p}: line {number}: a stance column holds 0 or 1, "
                                      f"not {text}")
            else:
                srow[-col[k] - 2] = int(x)
        if ts and not tv > ts[len(ts) - 1]:
            raise InvalidArgument(f"{p}: line {number}: the times must increase")
        ts.append(tv)
        qs.append(qrow)
        ss.append(srow)
    if len(ts) < 3:
        raise InvalidArgument(f"{p}: {len(ts)} nodes; the derivatives need at least 3")
    return (np.array(ts, dtype=np.float64), np.array(qs, dtype=np.float64).reshape(-1),
            np.array(ss, dtype=np.intc).reshape(-1) if has_stance else None)


def invdyn(robot, *, trajectory=None, t=None, q=None, v=None, a=None, stance=None,
           orbit=None, contacts=None, mu=None, motors=None, method="no-slip", dt=None,
           no_drift=False, stance_tol=None, cold=False, slip_tol=None, eom_tol=None):
    """Joint torques and contact forces together for a desired motion by
    inverse dynamics with rigid contact and friction, as `hes invdyn` does;
    a hes.InvDyn (the program prints a table, no JSON document: the result
    is arrays, and to_csv() is its --csv table).

    robot: a robot file (MJCF or URDF; needs MuJoCo) with the motion
    trajectory= (a CSV file as the program's --trajectory: t, every
    coordinate, optionally stance:CONTACT columns), or t= (nodes) and q=
    (nodes, coordinates) with optionally stance= (nodes, contacts) of 0/1,
    or one state q=, v=, a=; its contacts (contacts="NAME:MU,...", a dict
    or pairs; default every site, friction 1), mu (one friction for every
    contact), motors (joint names driven by unit motors instead of the
    file's actuators).  Or a robot model (a System of hes.robot(DESC.json),
    or the DESC.json path) with orbit= a gait file of it (`hes trajopt
    --robot DESC.json -o GAIT`).

    method: "none", "no-slip" (default), "coulomb", "convex",
    "convex-no-slip"; dt (0, 1] s, the control period (default 1e-3);
    no_drift: hold the contact Jacobians over dt; stance_tol: stance by
    height (default 1e-4); cold: no warm start (no-slip); slip_tol and
    eom_tol in (0, 1) (defaults 1e-3 along a trajectory, 1e-6 at one state
    or along a gait), eom_tol "off": only the motored coordinates follow.
    A node that is infeasible or fails is reported in status (InvDyn.ok is
    False then), not raised; bad input raises."""
    cdef hes_invdyn_run_options ro
    hes_invdyn_run_options_init(&ro)
    cdef double x
    # ---- the options (cmd_invdyn.c's parse_option)
    if not isinstance(method, str) or \
            hes_invdyn_method_from_name(method.encode("utf-8"), &ro.solve.method) != HES_OK:
        raise InvalidArgument(f"method = {method!r}: expected none, no-slip, coulomb, convex "
                              "or convex-no-slip")
    if dt is not None:
        x = _cont_finite(dt, "dt")
        if not (0 < x <= 1):
            raise InvalidArgument(f"dt = {dt!r}: expected a period in (0, 1] s")
        ro.dt = x
    if stance_tol is not None:
        ro.stance_tol = _cont_positive(stance_tol, "stance_tol")
    ro.no_drift = 1 if no_drift else 0
    ro.solve.cold = 1 if cold else 0
    for value, what in ((slip_tol, "slip_tol"), (eom_tol, "eom_tol")):
        if value is None:
            continue
        if what == "eom_tol" and value == "off":
            ro.solve.tol_eom = -1
            continue
        x = _cont_finite(value, what) if not isinstance(value, str) else NAN
        if not (0 < x < 1):
            raise InvalidArgument(f"{what} = {value!r}: expected a number in (0, 1)"
                                  + (" or \"off\"" if what == "eom_tol" else ""))
        if what == "slip_tol":
            ro.solve.tol_slip = x
        else:
            ro.solve.tol_eom = x
    cdef double mu_all = -1
    if mu is not None:
        mu_all = _cont_finite(mu, "mu")
        if not (mu_all >= 0):
            raise InvalidArgument(f"mu = {mu!r}: expected a number >= 0")

    cdef hes_invdyn_run run
    cdef hes_error err
    cdef hes_status st
    cdef _Robot rob = _Robot.__new__(_Robot)
    memset(&run, 0, sizeof(run))
    import os

    # ---- along a gait of a robot model (cmd_invdyn.c's invdyn_gait)
    cdef System s
    cdef hes_gait g
    cdef const hes_model *model
    cdef bytes b_orbit
    cdef const char *c_orbit
    if orbit is not None:
        if (trajectory is not None or t is not None or q is not None or v is not None
                or a is not None or stance is not None or contacts is not None
                or mu is not None or motors is not None):
            raise InvalidArgument("orbit takes the motion, contacts and motors from the gait "
                                  "and its robot model: no trajectory, t, q, v, a, stance, "
                                  "contacts, mu or motors")
        if isinstance(robot, System):
            s = robot
        elif str(os.fspath(robot)).endswith(".json"):
            s = _robot_model(robot)
        else:
            s = problem(robot)
        if hes_system_kind(s._sys()) != HES_KIND_HYBRID or \
                hes_robot_model_robot(hes_system_model(s._sys())) == NULL:
            raise InvalidArgument(f"'{s.name}' is not a robot model: inverse dynamics along a "
                                  "gait needs one (hes.robot(DESC.json))")
        model = hes_system_model(s._sys())
        b_orbit = _name(os.fspath(orbit), "orbit's path")
        c_orbit = b_orbit
        memset(&g, 0, sizeof(g))
        with nogil:
            st = hes_gait_read(c_orbit, model, &g, &err)
        if st != HES_OK:
            raise _error(<int>st, f"orbit {os.fspath(orbit)}: {_text(err.message)}")
        ro.solve.min_friction = ro.solve.method == HES_INVDYN_NO_SLIP
        try:
            with nogil:
                st = hes_invdyn_gait(model, &g, &ro, &rob.robot, &run, &err)
        finally:
            hes_gait_free(&g)
        if st != HES_OK:
            raise _error(<int>st, err.message)
        try:
            return _invdyn_copy(&run, rob.robot,
                                f"the gait {os.fspath(orbit)} of {s.name}", &ro)
        finally:
            hes_invdyn_run_free(&run)

    # ---- a robot file (cmd_invdyn.c's load_robot, invdyn_file)
    if isinstance(robot, System):
        raise InvalidArgument("a robot model (System) goes with orbit=GAIT; without it give "
                              "the robot file itself (ROBOT.xml or ROBOT.urdf)")
    single = q is not None and t is None and trajectory is None
    if trajectory is not None and (t is not None or q is not None or v is not None
                                   or a is not None or stance is not None):
        raise InvalidArgument("give either trajectory=FILE, or t= and q=, or all of q=, v= "
                              "and a=")
    if trajectory is None and t is None and not (q is not None and v is not None
                                                 and a is not None):
        raise InvalidArgument("give either trajectory=FILE, or t= and q=, or all of q=, v= "
                              "and a=")
    if t is not None and (q is None or v is not None or a is not None):
        raise InvalidArgument("t= goes with q= (a row per node) and optionally stance=; the "
                              "velocities and accelerations are the samples' derivatives")
    clist = _robot_contacts(contacts, "contacts") if contacts is not None else None
    if clist is not None and mu_all >= 0:
        clist = [(c, mu_all) for c, _ in clist]
    rob.robot = _robot_read(robot, clist, "robot")
    cdef int nq, nv
    hes_robot_dims(rob.robot, &nq, &nv)
    cdef int nc = hes_robot_contact_count(rob.robot)
    if nc < 1:
        raise InvalidArgument(f"{os.fspath(robot)} has no sites: name its contacts with "
                              "contacts='NAME:MU,...'")
    if mu_all >= 0 and clist is None:
        hes_robot_set_friction(rob.robot, -1, mu_all)
    cdef const char **names = NULL
    cdef bytes bm
    cdef int nm
    if motors is not None:
        mlist = motors.split(",") if isinstance(motors, str) else list(motors)
        mbytes = [_name(mm, "motors: a joint's name") for mm in mlist[:_INVDYN_MAX_MOTORS]]
        nm = len(mbytes)
        names = <const char **>malloc(sizeof(char *) * (nm if nm else 1))
        if names == NULL:
            raise MemoryError()
        try:
            for i in range(nm):
                bm = mbytes[i]
                names[i] = bm
            st = hes_robot_set_motors(rob.robot, names, nm, &err)
        finally:
            free(names)
        if st != HES_OK:
            raise InvalidArgument(f"motors: {_text(err.message)}")

    coords = [_text(hes_robot_coordinate(rob.robot, i)) for i in range(nq)]
    vnames = [_text(hes_robot_velocity_name(rob.robot, i)) for i in range(nv)]
    cdef cnp.ndarray tt, qq, vv = None, aa = None, ss = None
    cdef int nodes
    if trajectory is not None:
        tt, qq, ss = _invdyn_read_csv(trajectory, rob, nq, nc)
        nodes = cnp.PyArray_DIM(tt, 0)
    elif t is not None:
        tt = _as_vector(t, -1, "t")
        nodes = cnp.PyArray_DIM(tt, 0)
        if nodes < 3 or nodes > _INVDYN_MAX_NODES:
            raise InvalidArgument(f"t has {nodes} nodes; the derivatives need at least 3 (at "
                                  f"most {_INVDYN_MAX_NODES})")
        if not np.all(np.diff(tt) > 0):
            raise InvalidArgument("t: the times must increase")
        qq = _as_vector(q, <Py_ssize_t>nodes * nq,
                        f"q (nodes x coordinates: {', '.join(coords)})")
        if stance is not None:
            sa = np.asarray(stance)
            if sa.size != nodes * nc or not np.all((sa == 0) | (sa == 1)):
                cn = [_text(hes_robot_contact_name(rob.robot, c)) for c in range(nc)]
                raise InvalidArgument(f"stance: expected {nodes} x {nc} values 0 or 1 (the "
                                      f"contacts {', '.join(cn)})")
            ss = np.ascontiguousarray(sa, dtype=np.intc).reshape(-1)
    else:
        try:
            qq = _as_vector(q, nq, "q")
            vv = _as_vector(v, nv, "v")
            aa = _as_vector(a, nv, "a")
        except InvalidArgument:
            if nq == nv:
                raise InvalidArgument(f"q, v and a need {nv} numbers each (the robot's "
                                      f"coordinates: {', '.join(coords)})") from None
            raise InvalidArgument(f"q needs {nq} numbers ({', '.join(coords)}), v and a {nv} "
                                  f"each ({', '.join(vnames)})") from None
        if stance is not None:
            raise InvalidArgument("stance= goes with t= and q= (a trajectory)")
        tt = np.zeros(1)
        nodes = 1
    # a sampled trajectory's differences are consistent to O(h^2) only:
    # looser tolerances than the library's (for exact motions) unless given
    if not single and ro.solve.tol_slip == 0:
        ro.solve.tol_slip = 1e-3
    if not single and ro.solve.tol_eom == 0:
        ro.solve.tol_eom = 1e-3
    ro.solve.min_friction = ro.solve.method == HES_INVDYN_NO_SLIP
    cdef const double *pt = <const double *>cnp.PyArray_DATA(tt)
    cdef const double *pq = <const double *>cnp.PyArray_DATA(qq)
    cdef const double *pv = <const double *>cnp.PyArray_DATA(vv) if vv is not None else NULL
    cdef const double *pa = <const double *>cnp.PyArray_DATA(aa) if aa is not None else NULL
    cdef const int *ps = <const int *>cnp.PyArray_DATA(ss) if ss is not None else NULL
    with nogil:
        st = hes_invdyn_trajectory(rob.robot, nodes, pt, pq, pv, pa, ps, &ro, &run, &err)
    if st != HES_OK:
        raise _error(<int>st, err.message)
    try:
        return _invdyn_copy(&run, rob.robot, os.fspath(robot), &ro)
    finally:
        hes_invdyn_run_free(&run)
