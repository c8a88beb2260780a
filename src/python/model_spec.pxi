# model_spec.pxi - hes.model(): a hybrid model described in Python (dicts,
# or an object with the same attributes) as the library's hes_model.
#
#     hes.model(name="ball", modes=[...], transitions=[...], params=[...],
#               orbit={...}, integrator="adams", description="...")
#
# modes: {"name", "dim", "field", "field_dx" (optional), "states" (names)}
# transitions: {"name", "from", "to" (mode names or indices), "direction"
#   ("down", "up", "any"), "guard", "reset" (optional: identity),
#   "guard_dx", "guard_dt", "reset_dx", "reset_dt" (optional: central
#   differences), "clock_reset" (bool)}
# params: {"name", "value", "min", "max", "unit", "description", "flags"
#   (a list of "shape", "solved", "positive"), "search" ((lo, hi))}, or
#   (name, value) pairs
# orbit: {"mode", "section", "sequence" (transition names or indices),
#   "free_states" (state names or indices), "free_params" (names),
#   "residual" (as free_states), "period_param", "any_order", "guess"
#   (a callable p -> x0 or (x0, {param: value}), or x0 itself)}
# validate (optional): a callable p -> None when the parameter vector is
#   valid, else the reason (the program's -p refusals show it); or a
#   compiled function (cmodel.pxi).
# Each callback is a Python callable f(t, x, p) or a compiled function
# (cmodel.pxi); a Python one raises hes.ModelFailure where a C one would
# return nonzero (pymodel.pxi).

_directions = {"down": HES_DOWN, "up": HES_UP, "any": HES_ANY}
_param_flags = {"shape": HES_PARAM_SHAPE, "solved": HES_PARAM_SOLVED,
                "positive": HES_PARAM_POSITIVE}


cdef object _get(spec, key, default=KeyError):
    """spec[key] of a dict, or spec.key of an object; default when absent
    (KeyError: required, InvalidArgument saying so)."""
    if isinstance(spec, dict):
        if key in spec:
            return spec[key]
    elif hasattr(spec, key):
        return getattr(spec, key)
    if default is KeyError:
        raise InvalidArgument(f"the model has no '{key}'")
    return default


cdef const char *_keep(_PyModelBase m, obj, what) except NULL:
    """obj as a C string kept alive by m."""
    b = _name(obj, what)
    m.keep.append(b)
    return <const char *>(<bytes>b)


cdef int _index(obj, names, what) except -1:
    """obj (a name in names or an index) as an index."""
    if isinstance(obj, (int, np.integer)) and not isinstance(obj, bool):
        if not 0 <= obj < len(names):
            raise InvalidArgument(f"{what} {obj} is out of range (0 to {len(names) - 1})")
        return int(obj)
    if isinstance(obj, str) and obj in names:
        return names.index(obj)
    raise InvalidArgument(f"{what} {obj!r} is not one of {', '.join(map(str, names))}")


cdef hes_fn _callback(_PyModelBase m, list store, obj, hes_fn tramp, what,
                      bint required) except? NULL:
    """The C function for one callback: obj's own if compiled, the
    trampoline of a Python callable (kept in store), NULL for None."""
    cdef hes_fn f = _compiled(obj, what)
    # kept either way: a compiled function's object may own its code (a
    # ctypes callback frees it with the object)
    store.append(obj)
    if f != NULL:
        return f
    if obj is None:
        if required:
            raise InvalidArgument(f"{what} is required")
        return NULL
    if not callable(obj):
        raise InvalidArgument(f"{what} must be callable (t, x, p) or a compiled function, "
                              f"not {type(obj).__name__}")
    return tramp


def model(spec=None, **kwargs):
    """A hybrid model written in Python, as a hes.System.

    spec: a dict or an object with the attributes name, modes,
    transitions, params, orbit (and optionally description, integrator,
    max_phase_time); or the same as keyword arguments.  Parameters' values
    may follow as a dict under "set".  The module's documentation
    (share/doc/howto-python.md) shows a complete model."""
    if spec is None:
        spec = kwargs
    elif kwargs:
        raise InvalidArgument("give the model as one spec or as keyword arguments, not both")
    cdef _PyModelBase m = _PyModelBase.__new__(_PyModelBase)
    m.keep = []
    m.active = {}
    m.fields, m.fields_dx, m.guards, m.guards_dx = [], [], [], []
    m.guards_dt, m.resets, m.resets_dx, m.resets_dt = [], [], [], []
    memset(&m.model, 0, sizeof(hes_model))
    m.model.abi = HES_MODEL_ABI
    m.model.name = _keep(m, _get(spec, "name"), "the model's name")
    m.model.description = _keep(m, _get(spec, "description", "a model written in Python"),
                                "the model's description")
    m.ctx.model = <PyObject *>m
    m.model.data = &m.ctx
    m.model.describe_error = _describe
    integ = _get(spec, "integrator", "adams")
    cdef hes_integrator integrator
    if hes_integrator_from_name(_name(integ, "integrator"), &integrator) != HES_OK:
        raise InvalidArgument(f"integrator {integ!r} is not one of adams, bdf, rk8, dopri5")
    m.model.integrator = integrator
    m.model.max_phase_time = float(_get(spec, "max_phase_time", 0.0))
    validate = _get(spec, "validate", None)
    cdef size_t vaddr = _address(validate, "validate")
    if vaddr != 0:
        m.keep.append(validate)
        m.model.validate = <int (*)(const double *, char *, size_t, void *) nogil>vaddr
    elif validate is not None:
        if not callable(validate):
            raise InvalidArgument("validate must be callable (p -> None or a reason) or a "
                                  "compiled function")
        m.validate_fn = validate
        m.model.validate = _t_validate

    # ----------------------------------------------------------- modes
    modes = list(_get(spec, "modes"))
    cdef int nm = len(modes)
    if nm < 1:
        raise InvalidArgument("the model has no modes")
    m.modes = <hes_mode *>calloc(nm, sizeof(hes_mode))
    m.mode_cb = <_cb *>calloc(nm, sizeof(_cb))
    if m.modes == NULL or m.mode_cb == NULL:
        raise MemoryError()
    mode_names = []
    dims = []
    n_names = sum(len(_get(md, "states", ()) or ()) for md in modes)
    orbit = _get(spec, "orbit", None)
    free_params = list(_get(orbit, "free_params", ()) or ()) if orbit is not None else []
    m.name_ptrs = <const char **>calloc(n_names + len(free_params) + 1, sizeof(char *))
    if m.name_ptrs == NULL:
        raise MemoryError()
    cdef int at = 0
    for i, md in enumerate(modes):
        nm_i = _get(md, "name")
        m.modes[i].name = _keep(m, nm_i, f"modes[{i}].name")
        mode_names.append(nm_i)
        dim = int(_get(md, "dim"))
        m.modes[i].dim = dim
        dims.append(dim)
        m.mode_cb[i].model = <PyObject *>m
        m.mode_cb[i].index = i
        m.modes[i].data = &m.mode_cb[i]
        m.modes[i].field = _callback(m, m.fields, _get(md, "field"), _t_field,
                                     f"mode {nm_i}: field", True)
        m.modes[i].field_dx = _callback(m, m.fields_dx, _get(md, "field_dx", None), _t_field_dx,
                                        f"mode {nm_i}: field_dx", False)
        states = _get(md, "states", None)
        if states:
            states = list(states)
            if len(states) != dim:
                raise InvalidArgument(f"mode {nm_i}: {len(states)} state names for dim {dim}")
            m.modes[i].state_names = &m.name_ptrs[at]
            for s in states:
                m.name_ptrs[at] = _keep(m, s, f"mode {nm_i}: a state's name")
                at += 1
    m.model.n_modes = nm
    m.model.modes = m.modes

    # ------------------------------------------------------ transitions
    trans = list(_get(spec, "transitions"))
    cdef int nt = len(trans)
    m.transitions = <hes_transition *>calloc(max(nt, 1), sizeof(hes_transition))
    m.trans_cb = <_cb *>calloc(max(nt, 1), sizeof(_cb))
    if m.transitions == NULL or m.trans_cb == NULL:
        raise MemoryError()
    trans_names = []
    for j, tr in enumerate(trans):
        tn = _get(tr, "name")
        trans_names.append(tn)
        w = f"transition {tn}"
        m.transitions[j].name = _keep(m, tn, f"transitions[{j}].name")
        m.transitions[j].from_ = _index(_get(tr, "from"), mode_names, f"{w}: from")
        m.transitions[j].to = _index(_get(tr, "to"), mode_names, f"{w}: to")
        d = _get(tr, "direction", "down")
        if d not in _directions:
            raise InvalidArgument(f"{w}: direction {d!r} is not one of down, up, any")
        m.transitions[j].direction = _directions[d]
        m.trans_cb[j].model = <PyObject *>m
        m.trans_cb[j].index = j
        m.transitions[j].data = &m.trans_cb[j]
        m.transitions[j].guard = _callback(m, m.guards, _get(tr, "guard"), _t_guard,
                                           f"{w}: guard", True)
        m.transitions[j].guard_dx = _callback(m, m.guards_dx, _get(tr, "guard_dx", None),
                                              _t_guard_dx, f"{w}: guard_dx", False)
        m.transitions[j].guard_dt = _callback(m, m.guards_dt, _get(tr, "guard_dt", None),
                                              _t_guard_dt, f"{w}: guard_dt", False)
        m.transitions[j].reset = _callback(m, m.resets, _get(tr, "reset", None), _t_reset,
                                           f"{w}: reset", False)
        m.transitions[j].reset_dx = _callback(m, m.resets_dx, _get(tr, "reset_dx", None),
                                              _t_reset_dx, f"{w}: reset_dx", False)
        m.transitions[j].reset_dt = _callback(m, m.resets_dt, _get(tr, "reset_dt", None),
                                              _t_reset_dt, f"{w}: reset_dt", False)
        m.transitions[j].clock_reset = 1 if _get(tr, "clock_reset", False) else 0
    m.model.n_transitions = nt
    m.model.transitions = m.transitions

    # ------------------------------------------------------- parameters
    params = list(_get(spec, "params", ()) or ())
    cdef int np_ = len(params)
    m.params = <hes_param *>calloc(max(np_, 1), sizeof(hes_param))
    if m.params == NULL:
        raise MemoryError()
    param_names = []
    for k, q in enumerate(params):
        if isinstance(q, (tuple, list)):
            if len(q) != 2:
                raise InvalidArgument(f"params[{k}]: a pair (name, value) or a dict")
            q = {"name": q[0], "value": q[1]}
        pn = _get(q, "name")
        param_names.append(pn)
        m.params[k].name = _keep(m, pn, f"params[{k}].name")
        try:
            m.params[k].value = float(_get(q, "value"))
            m.params[k].min = float(_get(q, "min", -np.inf))
            m.params[k].max = float(_get(q, "max", np.inf))
            lo, hi = _get(q, "search", (0.0, 0.0))
            m.params[k].search_lo, m.params[k].search_hi = float(lo), float(hi)
        except (TypeError, ValueError) as e:
            raise InvalidArgument(f"parameter {pn}: {e}") from None
        unit = _get(q, "unit", None)
        if unit is not None:
            m.params[k].unit = _keep(m, unit, f"parameter {pn}: unit")
        desc = _get(q, "description", None)
        if desc is not None:
            m.params[k].description = _keep(m, desc, f"parameter {pn}: description")
        flags = _get(q, "flags", ())
        if isinstance(flags, str):
            flags = [flags]
        for f in flags:
            if f not in _param_flags:
                raise InvalidArgument(f"parameter {pn}: flag {f!r} is not one of shape, "
                                      "solved, positive")
            m.params[k].flags |= _param_flags[f]
    m.model.n_params = np_
    m.model.params = m.params

    # ------------------------------------------------------------ orbit
    if orbit is not None:
        _orbit_spec(m, orbit, mode_names, trans_names, modes, free_params, at)
    cdef hes_system *sys = NULL
    cdef hes_error err
    cdef hes_status st = hes_system_new(&m.model, &sys, &err)
    if st != HES_OK:
        raise _error(<int>st, err.message)
    return _system_of(sys, m, dict(_get(spec, "set", None) or {}))


cdef int _orbit_spec(_PyModelBase m, orbit, list mode_names, list trans_names, list modes,
                     list free_params, int at) except -1:
    cdef hes_orbit_spec *o = &m.model.orbit
    o.mode = _index(_get(orbit, "mode"), mode_names, "orbit mode")
    o.section = _index(_get(orbit, "section"), trans_names, "orbit section")
    states = list(_get(modes[o.mode], "states", None) or range(m.modes[o.mode].dim))
    seq = list(_get(orbit, "sequence", ()) or ())
    any_order = list(_get(orbit, "any_order", ()) or ())
    free_states = list(_get(orbit, "free_states", ()) or ())
    residual = list(_get(orbit, "residual", ()) or ())
    if any_order and len(any_order) != len(seq):
        raise InvalidArgument("orbit any_order: one flag per sequence event")
    n = len(seq) + len(any_order) + len(free_states) + len(residual)
    m.ints = <int *>calloc(max(n, 1), sizeof(int))
    if m.ints == NULL:
        raise MemoryError()
    cdef int k = 0
    o.n_sequence = len(seq)
    o.sequence = &m.ints[k]
    for s in seq:
        m.ints[k] = _index(s, trans_names, "orbit sequence: transition")
        k += 1
    if any_order:
        o.any_order = &m.ints[k]
        for s in any_order:
            m.ints[k] = 1 if s else 0
            k += 1
    o.n_free_states = len(free_states)
    o.free_states = &m.ints[k]
    for s in free_states:
        m.ints[k] = _index(s, states, "orbit free_states: state")
        k += 1
    o.n_residual = len(residual)
    o.residual = &m.ints[k]
    for s in residual:
        m.ints[k] = _index(s, states, "orbit residual: state")
        k += 1
    o.n_free_params = len(free_params)
    o.free_params = &m.name_ptrs[at]
    for i, s in enumerate(free_params):
        m.name_ptrs[at + i] = _keep(m, s, "orbit free_params: a parameter's name")
    pp = _get(orbit, "period_param", None)
    if pp is not None:
        o.period_param = _keep(m, pp, "orbit period_param")
    guess = _get(orbit, "guess", None)
    if guess is None:
        raise InvalidArgument("orbit guess is required: a callable p -> x0, or x0")
    if callable(guess):
        m.guess_fn = guess
        o.guess = _t_guess
    else:
        m.guess_x0 = _as_vector(guess, m.modes[o.mode].dim, "orbit guess")
        m.ctx.guess = <double *>cnp.PyArray_DATA(m.guess_x0)
        m.ctx.n_guess = m.modes[o.mode].dim
        o.guess = _t_guess_fixed
    return 0
