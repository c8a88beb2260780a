"""hes.ess_run against `hes simulate PROBLEM --integrator ess --json`: the
same document (to the byte) for the same inputs, the run's arrays equal to
its numbers, the 1-D hopper's end state against its closed form, and bad
input refused with hes.Error."""
import json
import math

import numpy as np
import pytest

import hes
from conftest import run_hes, same_document

PLATE = [0, 0.3, 0.1, 0, 0, 0]


def program(problem, x0, time, *args):
    p = run_hes("simulate", *problem, "--integrator", "ess", "--x0",
                ",".join(repr(float(v)) for v in x0), "--time", repr(float(time)), *args, "--json")
    return p.stdout.rstrip("\n"), json.loads(p.stdout)


def check_arrays(r, doc):
    assert r.problem == doc["problem"] and r.eps == doc["eps"] and r.params == doc["params"]
    assert r.states == doc["states"] and r.t_end == doc["t_end"]
    assert list(r.t) == [s["t"] for s in doc["samples"]]
    assert r.x.tolist() == [s["x"] for s in doc["samples"]]
    assert list(r.x_end) == doc["x_end"] and list(r.signs_end) == doc["signs_end"]
    assert r.counts == doc["counts"]
    if doc["jacobian"] is None:
        assert r.jacobian is None
    else:
        assert r.jacobian.tolist() == doc["jacobian"]
    assert r.eps_error == doc["eps_error"] and r.eps_order == doc["eps_order"]


@pytest.mark.parametrize("problem, x0, time, kwargs, args", [
    ("hopper-1d", [1.2, 0], 1, {}, []),
    ("hopper-1d", [1.2, 0], 1, {"samples": 5, "jacobian": True},
     ["--samples", "5", "--jacobian"]),
    ("hopper-pumped", [1.2, 0], 2, {"eps": 1e-4, "ess_method": "dopri5"},
     ["--eps", "1e-4", "--ess-method", "dopri5"]),
    ("plate-springs", PLATE, 0.5, {}, []),
    ("plate-vertical", PLATE, 0.5, {"strict_liveness": True, "K": 1500, "eps": 1e-4},
     ["--strict-liveness", "-p", "K=1500", "--eps", "1e-4"]),
])
def test_run_matches_program(problem, x0, time, kwargs, args):
    r = hes.ess_run(problem, x0, time, **kwargs)
    text, doc = program([problem], x0, time, *args)
    assert r.to_json() == text
    same_document(json.loads(r.to_json()), doc)
    check_arrays(r, doc)


def test_plugin_matches_program(plugin):
    ball = plugin("ball_walls_plugin")
    s = hes.load_plugin(ball)
    assert s.kind == "ess"
    r = hes.ess_run(s, [0.0, 1.0], 3, samples=7)
    text, doc = program(["--model", ball], [0.0, 1.0], 3, "--samples", "7")
    assert r.to_json() == text
    check_arrays(r, doc)


def hopper_exact(y0, t_end, g=9.81, k=1000.0, m=1.0, l0=1.0):
    """The undamped hopper from rest at height y0 > l0: ballistic flight,
    then about y_eq = l0 - m g / k the harmonic stance, which it leaves at
    l0 with the speed it came with; (y, v) at t_end."""
    t1 = math.sqrt(2 * (y0 - l0) / g)           # flight down to l0
    v1 = -g * t1
    w = math.sqrt(k / m)
    u0 = m * g / k                               # y - y_eq at touchdown
    phi = math.atan2(v1 / w, u0)
    ts = (2 * math.pi + 2 * phi) / w             # stance: back to u0, rising
    period = 2 * t1 + ts
    t = t_end % period
    if t < t1:                                   # falling
        return y0 - g * t * t / 2, -g * t
    t -= t1
    if t < ts:                                   # stance
        amp = math.hypot(u0, v1 / w)
        return l0 - u0 + amp * math.cos(w * t - phi), -amp * w * math.sin(w * t - phi)
    t -= ts                                      # rising
    return l0 - v1 * t - g * t * t / 2, -v1 - g * t


def test_hopper_closed_form():
    r = hes.ess_run("hopper-1d", [1.2, 0], 1.0, eps=1e-4)
    y, v = hopper_exact(1.2, 1.0)
    # the band's error is O(eps^2); the run estimates it (order 2)
    assert abs(r.eps_order - 2) < 0.5
    assert abs(r.x_end[0] - y) < 3 * r.eps_error + 1e-9 and abs(r.x_end[0] - y) < 1e-4
    assert abs(r.x_end[1] - v) < 1e-4
    # the first touchdown (y = l0) at sqrt(2 (y0 - l0) / g)
    td = r.t[np.argmax(r.x[:, 0] <= 1.0)]
    assert td == pytest.approx(math.sqrt(0.4 / 9.81), abs=1e-6)


@pytest.mark.parametrize("call, error", [
    (lambda: hes.ess_run("paddle-juggler", [0, 0], 1), hes.InvalidArgument),
    (lambda: hes.ess_run("hopper-1d", [1.2], 1), hes.InvalidArgument),
    (lambda: hes.ess_run("hopper-1d", [math.nan, 0], 1), hes.InvalidArgument),
    (lambda: hes.ess_run("hopper-1d", [1.2, 0], -1), hes.InvalidArgument),
    (lambda: hes.ess_run("hopper-1d", [1.2, 0], math.inf), hes.InvalidArgument),
    (lambda: hes.ess_run("hopper-1d", [1.2, 0], 1, eps=0), hes.InvalidArgument),
    (lambda: hes.ess_run("hopper-1d", [1.2, 0], 1, samples=1), hes.InvalidArgument),
    (lambda: hes.ess_run("hopper-1d", [1.2, 0], 1, ess_method="rk4"), hes.InvalidArgument),
    (lambda: hes.ess_run("hopper-1d", [1.2, 0], 1, k=-1), hes.InvalidArgument),
    (lambda: hes.ess_run("hopper-1d", [1.2, 0], 1, nope=1), hes.NotFoundError),
])
def test_bad_input(call, error):
    with pytest.raises(error):
        call()
