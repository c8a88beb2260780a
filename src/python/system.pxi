# system.pxi - a model with its parameter values and settings: hes.System,
# and the ways to one (a built-in problem, a plugin, a robot model, a model
# written in Python: pymodel.pxi, cmodel.pxi).

cdef class _Plugin:
    """A loaded plugin module; it outlives every system of its model."""
    cdef hes_plugin *plugin

    def __dealloc__(self):
        hes_plugin_destroy(self.plugin)


cdef class _OwnedModel:
    """A model the library made for the module (a robot model)."""
    cdef hes_model *model

    def __dealloc__(self):
        hes_model_destroy(self.model)


_settings_fields = ("rtol", "atol", "graze_tol", "zeno_events", "zeno_window", "max_events",
                    "max_phase_time", "newton_tol", "newton_maxiter", "fd_step", "fd_order",
                    "max_steps",
                    "max_wall_time", "max_search_time", "check_derivatives")


# no_gc_clear: the garbage collector leaves `owner` (the plugin module, the
# model) in place until __dealloc__ has destroyed the system that uses it
@cython.no_gc_clear
cdef class System:
    """A model of either kind (hybrid or event-selected) with its parameter
    values and solver settings: what every computation takes.

    Make one with hes.problem(name), hes.load_plugin(path), hes.robot(desc)
    or hes.model(spec); parameters are keyword arguments of those and of
    set().  A system serves one thread at a time (sweeps copy it per
    thread)."""
    cdef hes_system *sys
    # what must outlive sys: a plugin module, a model the library made, a
    # model written in Python
    cdef object owner

    def __dealloc__(self):
        hes_system_destroy(self.sys)
        self.sys = NULL

    cdef hes_system *_sys(self) except NULL:
        if self.sys == NULL:
            raise InvalidArgument("this System was not made by hes.problem, hes.load_plugin, "
                                  "hes.robot or hes.model")
        return self.sys

    cdef int _begin(self) except -1:
        """Before a computation: not from inside a callback of its own
        model, and no exception of an earlier one pending."""
        if isinstance(self.owner, _PyModelBase):
            (<_PyModelBase>self.owner).begin()
        return 0

    cdef int _finish(self) except -1:
        """After a computation that succeeded: an exception a Python
        model's callback raised where the library carried on (a derivative
        check skips a callback that fails) is raised all the same."""
        if isinstance(self.owner, _PyModelBase):
            (<_PyModelBase>self.owner).reraise()
        return 0

    cdef int _raise(self, hes_status st) except -1:
        """The system's last failure as an exception (a Python model's own
        exception first, when one of its callbacks raised)."""
        if isinstance(self.owner, _PyModelBase):
            (<_PyModelBase>self.owner).reraise()
        raise _error(<int>st, _text(hes_system_errmsg(self.sys)))

    # ------------------------------------------------------------ describe
    @property
    def name(self):
        """The model's name."""
        return _text(hes_system_name(self._sys()))

    @property
    def kind(self):
        """"hybrid" or "ess" (an event-selected system)."""
        return _text(hes_kind_name(hes_system_kind(self._sys())))

    @property
    def param_names(self):
        """The parameters' names, in the order of the parameter vector."""
        cdef hes_system *s = self._sys()
        return [_text(hes_system_param_info(s, i).name) for i in range(hes_system_n_params(s))]

    @property
    def params(self):
        """The parameter values as a dict (a copy: set() changes them)."""
        cdef hes_system *s = self._sys()
        cdef const double *p = hes_system_params(s)
        return {_text(hes_system_param_info(s, i).name): p[i]
                for i in range(hes_system_n_params(s))}

    def param_info(self, name):
        """A parameter's description: a dict of value, min, max, unit,
        description and flags ("shape", "solved", "positive")."""
        cdef hes_system *s = self._sys()
        cdef const hes_param *q
        key = name.encode() if isinstance(name, str) else name
        for i in range(hes_system_n_params(s)):
            q = hes_system_param_info(s, i)
            if q.name == key:
                flags = [w for bit, w in ((HES_PARAM_SHAPE, "shape"), (HES_PARAM_SOLVED, "solved"),
                                          (HES_PARAM_POSITIVE, "positive")) if q.flags & bit]
                return {"name": _text(q.name), "value": hes_system_params(s)[i],
                        "default": q.value, "min": q.min, "max": q.max,
                        "unit": _text(q.unit), "description": _text(q.description),
                        "flags": flags}
        raise NotFoundError(f"{self.name}: no parameter '{name}' (its parameters: "
                            f"{', '.join(self.param_names)})", HES_ENOTFOUND)

    def __getitem__(self, name):
        """system["K"]: a parameter's value."""
        cdef double v
        cdef bytes b = _name(name, "a parameter's name")
        cdef hes_status st = hes_system_get_param(self._sys(), b, &v)
        if st != HES_OK:
            raise NotFoundError(f"{self.name}: no parameter '{name}' (its parameters: "
                                f"{', '.join(self.param_names)})", HES_ENOTFOUND)
        return v

    def __setitem__(self, name, value):
        self.set(**{name: value})

    def set(self, **params):
        """Sets parameters by name: system.set(K=0.1, thetadot=0.5).  Each is
        checked (finite, within its range), and then the whole vector by
        the model's own check, as the program's -p is checked; on a
        refusal no parameter has changed."""
        cdef hes_system *s = self._sys()
        cdef int n = hes_system_n_params(s)
        saved = _vector(hes_system_params(s), n)
        self._begin()
        names = self.param_names
        try:
            for key, value in params.items():
                try:
                    v = float(value)
                except (TypeError, ValueError):
                    raise InvalidArgument(f"parameter {key}: {value!r} is not a number") from None
                st = hes_system_set_param(s, _name(key, "a parameter's name"), v)
                if st == HES_ENOTFOUND:
                    raise NotFoundError(f"{self.name}: no parameter '{key}' (its parameters: "
                                        f"{', '.join(names)})", HES_ENOTFOUND)
                if st != HES_OK:
                    self._raise(st)
            if params:
                # the model's own check of the whole vector (its validate)
                st = hes_system_check_params(s)
                if st != HES_OK:
                    self._raise(st)
                self._finish()
        except BaseException:
            for i in range(n):
                hes_system_set_param(s, names[i].encode(), saved[i])
            raise
        return self

    @property
    def settings(self):
        """The solver settings as a dict (rtol, atol, newton_tol,
        max_wall_time, ...); configure() changes them."""
        cdef hes_settings st = hes_system_get_settings(self._sys())
        cdef dict d = st
        return d

    def configure(self, **settings):
        """Changes solver settings by name (the keys of settings), checked
        as the library checks them; on a refusal nothing changed."""
        cdef hes_settings st = hes_system_get_settings(self._sys())
        cdef hes_status rc
        cdef dict d = st
        for key, value in settings.items():
            if key not in d:
                raise InvalidArgument(f"no setting '{key}' (the settings: "
                                      f"{', '.join(_settings_fields)})")
            d[key] = value
        try:
            st = d
        except (TypeError, OverflowError) as e:
            raise InvalidArgument(f"settings: {e}") from None
        rc = hes_system_set_settings(self.sys, &st)
        if rc != HES_OK:
            self._raise(rc)
        return self

    # --------------------------------------------------------- computations
    def analyze(self, check=False):
        """The periodic orbit, its monodromy, multipliers, psi and verdict
        (hes.Analysis), as `hes analyze` computes them.  check=True also
        compares the analysed matrix with central differences of the full
        flow (Analysis.check), as `hes analyze --check` does."""
        return _analysis(self, 1 if check else 0)

    def simulate(self, x0, mode=None, t_end=None, events=None, section=None, t0=0.0,
                 sensitivities=False, after=None):
        """Simulates from state x0 in mode (a name or index; default: the
        orbit's mode) until absolute time t_end, or until `events` events of
        transition `section` (default: the orbit's section), whichever comes
        first; every guard is armed.  x0 lies just after an event of
        transition `after` (default: the orbit's section when the mode is
        the orbit's, as the orbit's x0 does), whose guard's zero right at
        the start is not an event.  Returns a hes.Trajectory, whose status
        says why it ended (a failure of the run is in the status, not
        raised, as the program reports it)."""
        return _simulate(self, x0, mode, t_end, events, section, t0, sensitivities, after)

    def trials(self, **options):
        """Perturbation trials around the periodic orbit (hes.trials)."""
        return trials(self, **options)

    def psi_gradient(self, check=False):
        """dpsi/dh over the shape parameters at the orbit (hes.psi_gradient)."""
        return psi_gradient(self, check)

    def flow_jacobian(self, x0, time, mode=None):
        """The derivative of one run's flow (hes.flow_jacobian)."""
        return flow_jacobian(self, x0, time, mode)

    def to_json(self):
        """The model's description: `hes info --json` of it."""
        cdef hes_system *s = self._sys()
        if hes_system_kind(s) == HES_KIND_ESS:
            return _take_json(hes_ess_model_json(hes_system_ess_model(s)))
        return _take_json(hes_model_json(hes_system_model(s)))

    def __repr__(self):
        if self.sys == NULL:
            return "<hes.System (empty)>"
        return f"<hes.System {self.name} ({self.kind})>"


cdef System _system_of(hes_system *sys, owner, dict params):
    """A System object owning sys, with params set."""
    cdef System s = System.__new__(System)
    s.sys = sys
    s.owner = owner
    if params:
        s.set(**params)
    return s


def problem(name, **params):
    """A built-in problem by name (hes.problems() lists them), or a plugin
    file (a name with a '/' or ending in ".so"), with parameters:

        hes.problem("slip-hopper", K=0.1)
    """
    cdef hes_system *sys = NULL
    cdef hes_plugin *plugin = NULL
    cdef hes_error err
    cdef bytes b = _name(name, "a problem's name")
    cdef hes_status st = hes_system_open(b, &sys, &plugin, &err)
    owner = None
    if plugin != NULL:
        owner = _Plugin.__new__(_Plugin)
        (<_Plugin>owner).plugin = plugin
    if st != HES_OK:
        raise _error(<int>st, err.message)
    return _system_of(sys, owner, params)


def load_plugin(path, **params):
    """A model compiled as a plugin (a shared module exporting
    hes_plugin_model or hes_plugin_ess_model; share/examples/ has some),
    with parameters.  A path without '/' is a file in the current
    directory."""
    cdef hes_plugin *plugin = NULL
    cdef const hes_model *model = NULL
    cdef const hes_ess_model *ess = NULL
    cdef hes_system *sys = NULL
    cdef hes_error err
    import os
    cdef bytes b = _name(os.fspath(path), "a plugin's path")
    cdef hes_status st = hes_plugin_open_any(b, &plugin, &model, &ess, &err)
    if st != HES_OK:
        raise _error(<int>st, err.message)
    owner = _Plugin.__new__(_Plugin)
    (<_Plugin>owner).plugin = plugin
    st = hes_system_new(model, &sys, &err) if model != NULL else hes_system_new_ess(ess, &sys, &err)
    if st != HES_OK:
        raise _error(<int>st, err.message)
    return _system_of(sys, owner, params)


def robot(desc, **params):
    """A robot model from its description, DESC.json (the robot file it
    names, MJCF or URDF, with its modes, transitions and orbit; see
    share/robots/), with parameters.  Needs a libhes built with MuJoCo."""
    cdef hes_model *model = NULL
    cdef hes_system *sys = NULL
    cdef hes_error err
    import os
    cdef bytes b = _name(os.fspath(desc), "a robot description's path")
    cdef hes_status st
    cdef const char *path = b
    with nogil:
        st = hes_robot_model_read(path, &model, &err)
    if st != HES_OK:
        raise _error(<int>st, err.message)
    owner = _OwnedModel.__new__(_OwnedModel)
    (<_OwnedModel>owner).model = model
    st = hes_system_new(model, &sys, &err)
    if st != HES_OK:
        raise _error(<int>st, err.message)
    return _system_of(sys, owner, params)


def problems():
    """Everything built in: a list of (name, kind, description), kind
    "hybrid", "ess" or "impact" (`hes list`)."""
    cdef const char *name
    cdef const char *kind
    cdef const char *desc
    out = []
    for i in range(hes_catalog_count()):
        hes_catalog_entry(i, &name, &kind, &desc)
        out.append((_text(name), _text(kind), _text(desc)))
    return out


cdef System _as_system(obj, dict params):
    """obj (a System or a problem's name) as a System with params set."""
    if isinstance(obj, System):
        if params:
            (<System>obj).set(**params)
        return <System>obj
    if isinstance(obj, (str, bytes)):
        return problem(obj, **params)
    raise InvalidArgument(f"expected a hes.System or a problem's name, not "
                          f"{type(obj).__name__}")
