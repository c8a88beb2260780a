# trajectory.pxi - a simulated trajectory (hes_traj) as Python objects:
# its phases (the flow of one mode between events) and its events.

cdef class Phase:
    """The flow of one mode between two events: mode (its name), t0, t1
    (absolute times), tm0 (model time at the start), x0, x1 (the states at
    start and end) and A (the variational matrix, or None)."""
    cdef readonly str mode
    cdef readonly double t0, t1, tm0
    cdef readonly object x0, x1, A

    def __repr__(self):
        return f"<hes.Phase {self.mode} t {self.t0:.6g}..{self.t1:.6g}>"


cdef class Event:
    """A transition taken: transition (its name), t (absolute time), tm
    (model time, before any clock reset), x_minus and x_plus (the states
    before and after its reset)."""
    cdef readonly str transition
    cdef readonly double t, tm
    cdef readonly object x_minus, x_plus

    def __repr__(self):
        return f"<hes.Event {self.transition} t {self.t:.6g}>"


cdef class Trajectory:
    """A simulated trajectory: phases (list of Phase), events (list of
    Event; phase k ends with event k), status ("ok", or why the run ended
    early, as the library names it) and message (the failure in full, as
    the program prints it: which mode, transition or contact, and where;
    "" when the run ended well)."""
    cdef readonly list phases, events
    cdef readonly str status, message

    def __repr__(self):
        return (f"<hes.Trajectory {len(self.phases)} phases, {len(self.events)} events, "
                f"{self.status}>")


cdef Trajectory _trajectory(const hes_model *m, const hes_traj *tr):
    """A copy of tr (of model m) as Python objects."""
    cdef Trajectory out = Trajectory.__new__(Trajectory)
    cdef Phase ph
    cdef Event ev
    cdef int n, nj
    out.phases = []
    out.events = []
    out.status = _text(hes_strerror(tr.status))
    out.message = ""
    for k in range(tr.n_phases):
        ph = Phase.__new__(Phase)
        n = m.modes[tr.phases[k].mode].dim
        ph.mode = _text(m.modes[tr.phases[k].mode].name)
        ph.t0, ph.t1, ph.tm0 = tr.phases[k].t0, tr.phases[k].t1, tr.phases[k].tm0
        ph.x0 = _vector(tr.phases[k].x0, n)
        ph.x1 = _vector(tr.phases[k].x1, n)
        ph.A = _matrix(tr.phases[k].A, n, n) if tr.phases[k].A != NULL else None
        out.phases.append(ph)
    for k in range(tr.n_events):
        ev = Event.__new__(Event)
        tn = tr.events[k].transition
        ev.transition = _text(m.transitions[tn].name)
        ev.t, ev.tm = tr.events[k].t, tr.events[k].tm
        n = m.modes[m.transitions[tn].from_].dim
        nj = m.modes[m.transitions[tn].to].dim
        ev.x_minus = _vector(tr.events[k].x_minus, n)
        ev.x_plus = _vector(tr.events[k].x_plus, nj)
        out.events.append(ev)
    return out


cdef int _index_of(const hes_model *m, obj, bint mode, what) except -2:
    """A mode's or transition's index from its name or index."""
    cdef int n = m.n_modes if mode else m.n_transitions
    cdef int i
    if obj is None:
        return -1
    if isinstance(obj, (int, np.integer)):
        i = int(obj)
        if i < 0 or i >= n:
            raise InvalidArgument(f"{what} {obj} is out of range (0 to {n - 1})")
        return i
    b = _name(obj, what)
    i = hes_model_mode_index(m, b) if mode else hes_model_transition_index(m, b)
    if i < 0:
        names = [_text(m.modes[k].name) if mode else _text(m.transitions[k].name)
                 for k in range(n)]
        raise NotFoundError(f"model '{_text(m.name)}' has no {what} '{obj}' "
                            f"(its {what}s: {', '.join(names)})", HES_ENOTFOUND)
    return i


cdef Trajectory _simulate(System s, x0, mode, t_end, events, section, double t0,
                          bint sensitivities, after):
    cdef hes_system *sys = s._sys()
    if hes_system_kind(sys) != HES_KIND_HYBRID:
        raise InvalidArgument(f"'{s.name}' is an event-selected system: simulate takes a "
                              "hybrid one (hes.ess_run runs the ESS integrator)")
    cdef const hes_model *m = hes_system_model(sys)
    cdef int md = _index_of(m, mode, True, "mode")
    if md < 0:
        md = m.orbit.mode
    cdef int sec = _index_of(m, section, False, "transition")
    if sec < 0:
        sec = m.orbit.section
    cdef cnp.ndarray x = _as_vector(x0, m.modes[md].dim, "x0")
    cdef hes_sim_options o
    hes_sim_options_init(&o)
    if t_end is None and events is None:
        raise InvalidArgument("simulate needs t_end or events (where to stop)")
    if t_end is not None:
        o.t_end = float(t_end)
        if not (o.t_end > t0):
            raise InvalidArgument(f"t_end = {t_end} must be finite and after t0 = {t0}")
    if events is not None:
        if int(events) < 1:
            raise InvalidArgument(f"events = {events} must be at least 1")
        o.section = sec
        o.n_section = int(events)
    o.sensitivities = 1 if sensitivities else 0
    if after is not None:
        o.after_transition = _index_of(m, after, False, "transition")
        if m.transitions[o.after_transition].to != md:
            raise InvalidArgument(f"after: transition '{_text(m.transitions[o.after_transition].name)}' "
                                  f"does not lead to mode '{_text(m.modes[md].name)}'")
    elif md == m.orbit.mode and m.orbit.section >= 0 and m.orbit.section < m.n_transitions:
        o.after_transition = m.orbit.section
    cdef hes_traj tr
    memset(&tr, 0, sizeof(tr))
    cdef hes_status st
    s._begin()
    with nogil:
        st = hes_simulate(sys, md, t0, t0, <const double *>cnp.PyArray_DATA(x), &o, &tr)
    try:
        if isinstance(s.owner, _PyModelBase):
            (<_PyModelBase>s.owner).reraise()
        if st == HES_EINVAL or st == HES_ENOMEM:
            s._raise(st)
        out = _trajectory(m, &tr)
        out.message = _text(hes_system_errmsg(sys)) if st != HES_OK else ""
        return out
    finally:
        hes_traj_free(&tr)
