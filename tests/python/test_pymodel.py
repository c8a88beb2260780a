"""Models written in Python (hes.model): the SLIP hopper of
share/examples/python/slip.py against the built-in (psi to 1e-9), a paddle
juggler written here from its description against the closed form of its
monodromy (HES paper eq. 9), the numba-compiled SLIP against the built-in,
and exceptions in callbacks stopping the computation and re-raised."""
import math
import os
import sys

import numpy as np
import pytest

import hes

sys.path.insert(0, os.path.join(os.environ.get("top_srcdir", "."), "share", "examples",
                                "python"))
import slip  # noqa: E402


@pytest.mark.parametrize("K, thetadot", [(0.0, 0.0), (0.1, 0.5), (0.3, -1.0)])
def test_python_slip_equals_builtin(K, thetadot):
    mine = hes.model(slip.spec()).set(K=K, thetadot=thetadot).analyze(check=True)
    ref = hes.analyze("slip-hopper", K=K, thetadot=thetadot)
    assert mine.psi == pytest.approx(ref.psi, abs=1e-9)
    assert mine.verdict == ref.verdict
    assert np.allclose(mine.multipliers, ref.multipliers, atol=1e-9)
    assert mine.params["l_td"] == pytest.approx(ref.params["l_td"], abs=1e-10)
    assert mine.period == pytest.approx(ref.period, abs=1e-10)
    assert mine.check < 1e-6


def test_python_slip_without_jacobians():
    """Without Jacobians the library differentiates the callbacks: psi to
    the accuracy of central differences."""
    mine = hes.model(slip.spec(jacobians=False)).set(K=0.1, thetadot=0.5).analyze()
    ref = hes.analyze("slip-hopper", K=0.1, thetadot=0.5)
    assert mine.psi == pytest.approx(ref.psi, abs=1e-7)


def juggler_spec():
    """The paddle juggler of the HES paper (Sec. IV-A) as a user writes it
    from its description: a ball in flight, a paddle x_P(t) = -S + S
    cos(w s) + C sin(w s) about the impact at T/2, impact reset vB+ = (1 +
    alpha) vP - alpha vB-; non-autonomous (period T)."""
    def paddle(t, p):
        alpha, g, T, acc = p
        w = 2 * math.pi / T
        vstar = g * T * (1 - alpha) / (2 * (1 + alpha))
        S, C = -acc / w**2, vstar / w
        s = t - T / 2
        return (-S + S * math.cos(w * s) + C * math.sin(w * s),
                -S * w * math.sin(w * s) + C * w * math.cos(w * s))

    return {
        "name": "juggler-python",
        "modes": [{"name": "flight", "dim": 2, "states": ["xB", "vB"],
                   "field": lambda t, x, p: [x[1], -p[1]]}],
        "transitions": [
            {"name": "impact", "from": "flight", "to": "flight", "direction": "down",
             "guard": lambda t, x, p: x[0] - paddle(t, p)[0],
             "reset": lambda t, x, p: [x[0], (1 + p[0]) * paddle(t, p)[1] - p[0] * x[1]]},
            {"name": "apex", "from": "flight", "to": "flight", "direction": "down",
             "guard": lambda t, x, p: x[1]},
        ],
        "params": [("alpha", 0.5), ("g", 9.81), ("period", 0.5), ("paddle_accel", -5.45)],
        "orbit": {"mode": "flight", "section": "apex", "sequence": ["impact", "apex"],
                  "period_param": "period", "free_states": ["xB", "vB"],
                  "residual": ["xB", "vB"],
                  "guess": lambda p: [p[1] * p[2] ** 2 / 8, 0.0]},
    }


def juggler_closed_psi(alpha, g, T, acc):
    """psi of Phi = A Xi A, A the flight over T/2, Xi the impact's
    saltation matrix DxR + (F+ - DxR F- - DtR) Dxg / (Dtg + Dxg F-)."""
    A = np.array([[1, T / 2], [0, 1]])
    vstar = g * T * (1 - alpha) / (2 * (1 + alpha))
    DxR = np.diag([1, -alpha])
    Fm, Fp = np.array([-g * T / 2, -g]), np.array([g * T / 2, -g])
    DtR = np.array([0, (1 + alpha) * acc])
    Dxg, Dtg = np.array([1.0, 0.0]), -vstar
    Xi = DxR + np.outer(Fp - DxR @ Fm - DtR, Dxg) / (Dtg + Dxg @ Fm)
    return max(abs(np.linalg.eigvals(A @ Xi @ A)))


@pytest.mark.parametrize("acc", [-2.0, -5.45, -10.0, -12.0])
def test_python_juggler_closed_form(acc):
    a = hes.model(juggler_spec()).set(paddle_accel=acc).analyze()
    assert a.psi == pytest.approx(juggler_closed_psi(0.5, 9.81, 0.5, acc), abs=1e-7)
    # stable exactly for -2 g (1 + alpha^2) / (1 + alpha)^2 < paddle_accel < 0 (eq. 10)
    assert a.stable == (-2 * 9.81 * 1.25 / 2.25 < acc < 0)


def test_numba_slip_equals_builtin():
    pytest.importorskip("numba")
    import slip_numba
    mine = hes.model(slip_numba.spec()).set(K=0.1, thetadot=0.5).analyze(check=True)
    ref = hes.analyze("slip-hopper", K=0.1, thetadot=0.5)
    assert mine.psi == pytest.approx(ref.psi, abs=1e-12)
    assert mine.check < 1e-6
    # its compiled validate refuses as the built-in's does, with its reason
    with pytest.raises(hes.InvalidArgument, match="exceeds the rest length"):
        hes.model(slip_numba.spec()).set(l_td=1.5)


# ---------------------------------------------------- callbacks that raise
def failing_slip(where, exc):
    """slip.py's model with one callback raising exc once armed."""
    s = slip.spec(name="slip-failing")
    state = {"armed": True}
    target = s["modes"][2] if where == "field" else s["transitions"][0]
    good = target[where]

    def bad(t, x, p):
        if state["armed"]:
            raise exc
        return good(t, x, p)
    target[where] = bad
    return s, state


@pytest.mark.parametrize("where", ["field", "guard", "reset", "reset_dx"])
def test_exception_in_callback_is_reraised(where):
    err = ZeroDivisionError("from the model")
    spec, state = failing_slip(where, err)
    sysm = hes.model(spec)
    with pytest.raises(ZeroDivisionError) as info:
        sysm.analyze()
    assert info.value is err
    # the system is usable once the callback behaves
    state["armed"] = False
    assert sysm.analyze().psi == pytest.approx(hes.analyze("slip-hopper").psi, abs=1e-9)


def test_keyboard_interrupt_in_callback():
    spec, _ = failing_slip("field", KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        hes.model(spec).analyze()


def test_exception_in_guess():
    spec = slip.spec()
    spec["orbit"]["guess"] = lambda p: 1 / 0
    with pytest.raises(ZeroDivisionError):
        hes.model(spec).analyze()


def test_model_failure_is_a_model_error():
    """hes.ModelFailure is the model's own refusal: the library handles it
    as a C model's nonzero return (here: no orbit) with its message."""
    spec = slip.spec()
    spec["modes"][2]["field"] = lambda t, x, p: (_ for _ in ()).throw(
        hes.ModelFailure("the leg broke"))
    with pytest.raises(hes.Error, match="the leg broke"):
        hes.model(spec).analyze()


def test_wrong_output_size_is_reraised():
    spec = slip.spec()
    spec["modes"][0]["field"] = lambda t, x, p: [0.0, x[2]]
    with pytest.raises(hes.InvalidArgument, match="mode descent: field returned 2 values"):
        hes.model(spec).analyze()


def test_wrong_jacobian_is_found():
    """A wrong supplied Jacobian: the analysis compares it with central
    differences of the callback and refuses it, naming the entry."""
    spec = slip.spec()
    spec["modes"][0]["field_dx"] = lambda t, x, p: np.eye(3)
    with pytest.raises(hes.ModelError, match="descent"):
        hes.model(spec).analyze()


def test_validate():
    s = hes.model(slip.spec())
    with pytest.raises(hes.InvalidArgument, match="exceeds the rest length"):
        s.set(l_td=1.5)
    assert s["l_td"] == 0.9


def test_simulate_python_model():
    s = hes.model(slip.spec())
    a = s.analyze()
    tr = s.simulate(a.x0, events=1)
    assert [e.transition for e in tr.events] == ["touchdown", "liftoff", "apex"]
    assert np.allclose(tr.events[-1].x_plus, a.x0, atol=1e-9)


def test_python_ball_against_plugin(plugin):
    """share/examples/python/bouncing_ball.py: the model written in Python
    (no Jacobians) against the same model compiled as a plugin."""
    import bouncing_ball
    assert bouncing_ball.compare(plugin("bouncing_ball_plugin")) < 1e-7


def thrust_hopper():
    """A vertical hopper of one's own, without Jacobians: flight, a
    damped spring stance, a push dv at liftoff; the apex is the section."""
    G, K, C, L0, DV = range(5)
    return {
        "name": "thrust-hopper",
        "modes": [
            {"name": "flight", "dim": 2, "states": ["y", "v"],
             "field": lambda t, x, p: [x[1], -p[G]]},
            {"name": "stance", "dim": 2, "states": ["y", "v"],
             "field": lambda t, x, p: [x[1], p[K] * (p[L0] - x[0]) - p[C] * x[1] - p[G]]},
        ],
        "transitions": [
            {"name": "touchdown", "from": "flight", "to": "stance",
             "guard": lambda t, x, p: x[0] - p[L0]},
            {"name": "liftoff", "from": "stance", "to": "flight", "direction": "up",
             "guard": lambda t, x, p: x[0] - p[L0],
             "reset": lambda t, x, p: [x[0], x[1] + p[DV]]},
            {"name": "apex", "from": "flight", "to": "flight",
             "guard": lambda t, x, p: x[1]},
        ],
        "params": [("g", 9.81), ("k", 400.0), ("c", 4.0), ("l0", 1.0), ("dv", 1.5)],
        "orbit": {"mode": "flight", "section": "apex",
                  "sequence": ["touchdown", "liftoff", "apex"], "free_states": ["y"],
                  "residual": ["y"], "guess": lambda p: [1.3, 0.0]},
    }


def test_thrust_hopper_against_its_apex_map():
    """psi of the saltation pipeline against central differences of the
    apex-to-apex map, each return simulated from an apex (System.simulate
    starts just after the section event, so its first apex is a period on)."""
    s = hes.model(thrust_hopper())
    a = s.analyze()

    def apex(h):
        tr = s.simulate([h, 0.0], events=1)
        assert [e.transition for e in tr.events] == ["touchdown", "liftoff", "apex"]
        return tr.events[-1].x_plus[0]
    h, d = a.x0[0], 1e-5
    assert apex(h) == pytest.approx(h, abs=1e-9)
    assert (apex(h + d) - apex(h - d)) / (2 * d) == pytest.approx(a.psi, abs=1e-6)
    # too weak a push: the apex map has no fixed point, and hes says so
    with pytest.raises(hes.NoOrbitError):
        s.set(dv=0.5).analyze()


# ------------------------------------------------- callbacks at the edges
def test_ctypes_callback_outlives_the_spec():
    """A ctypes callback owns its code: the model keeps it alive after the
    spec that held it is gone."""
    import ctypes
    import gc
    P = ctypes.POINTER(ctypes.c_double)
    FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_double, P, P, P, ctypes.c_void_p)

    def field(t, x, p, out, d):
        out[0] = x[1]
        out[1] = -p[1]
        return 0
    spec = juggler_spec()
    spec["modes"] = [{"name": "flight", "dim": 2, "states": ["xB", "vB"],
                      "field": FN(field)}]
    m = hes.model(spec)
    first = m.analyze().psi
    del spec
    gc.collect()
    junk = [bytearray(b"\xff" * 64) for _ in range(2000)]
    assert m.analyze().psi == first and junk


def test_exception_the_library_skipped_is_raised():
    """The derivative check skips a callback that fails; its exception is
    raised all the same, by the analysis, not by a later call."""
    spec = juggler_spec()
    spec["transitions"].append(
        {"name": "never", "from": "flight", "to": "flight",
         "guard": lambda t, x, p: x[0] + 100.0,
         "reset": lambda t, x, p: x, "reset_dx": lambda t, x, p: 1 / 0})
    spec["validate"] = lambda p: None
    m = hes.model(spec)
    with pytest.raises(ZeroDivisionError):
        m.analyze()
    m.set(alpha=0.4)                     # nothing left over


def test_model_failure_whose_message_fails():
    """An exception while reporting a hes.ModelFailure is still a failure
    (never a callback's success with its output unwritten)."""
    class Bad(hes.ModelFailure):
        def __str__(self):
            raise RuntimeError("no message")

    def guard(t, x, p):
        raise Bad()
    spec = juggler_spec()
    spec["transitions"][1]["guard"] = guard
    tr = hes.model(spec).simulate([1.0, 0.0], t_end=0.3)
    assert tr.status != "success" and not tr.events


def test_validate_whose_exception_fails_to_print():
    class E(Exception):
        def __str__(self):
            raise RuntimeError("bad str")

    def validate(p):
        if p[0] > 0.9:
            raise E()
    m = hes.model(dict(juggler_spec(), validate=validate))
    with pytest.raises(E):
        m.set(alpha=0.95)
    assert m["alpha"] == 0.5
    m.set(alpha=0.3)


def test_failure_messages_stay_with_their_points():
    """Each thread of a sweep keeps its own hes.ModelFailure message."""
    def field(t, x, p):
        raise hes.ModelFailure(f"g={p[1]!r}")
    spec = juggler_spec()
    spec["modes"] = [{"name": "flight", "dim": 2, "states": ["xB", "vB"], "field": field}]
    m = hes.model(spec)
    r = hes.sweep(m, points={"g": list(np.linspace(9.0, 10.0, 40))}, jobs=4)
    for v, msg in zip(r.values[:, 0], r.message):
        assert f"g={v!r}" in msg


def test_transposed_jacobian_is_refused():
    spec = slip.spec()
    spec["transitions"][0]["reset_dx"] = lambda t, x, p: np.zeros((3, 4))
    with pytest.raises(hes.InvalidArgument, match="3 x 4 matrix, expected 4 x 3"):
        hes.model(spec).analyze()


def test_callback_may_not_compute_with_its_own_model():
    """A callback that starts a computation of its own model would share
    the running one's workspaces: refused, and the refusal re-raised."""
    holder = {}

    def guard(t, x, p):
        holder["m"].simulate([1.0, 0.0], t_end=0.1)
        return x[1]
    spec = juggler_spec()
    spec["transitions"][1]["guard"] = guard
    holder["m"] = hes.model(spec)
    with pytest.raises(hes.InvalidArgument, match="callback of this model"):
        holder["m"].analyze()
    # another model is fine from a callback
    other = hes.model(juggler_spec())
    spec2 = juggler_spec()
    spec2["orbit"]["guess"] = lambda p: other.analyze().x0
    assert hes.model(spec2).analyze().psi == pytest.approx(0.5, abs=1e-7)
