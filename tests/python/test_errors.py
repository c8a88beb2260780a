"""Bad input from Python: each refused with the exception of its status (a
subclass of hes.Error carrying the library's message; bad input is also a
ValueError or LookupError, with the program's exit status 2), none crashes
the interpreter, and a numerical failure is a hes.Error of exit status 1."""
import os

import numpy as np
import pytest

import hes


def slip_like(**change):
    """A small valid model (a ball falling to a floor and bouncing back up
    with restitution 1) with some keys changed."""
    spec = {
        "name": "ball",
        "modes": [{"name": "air", "dim": 2, "field": lambda t, x, p: [x[1], -9.81]}],
        "transitions": [{"name": "bounce", "from": "air", "to": "air",
                         "guard": lambda t, x, p: x[0],
                         "reset": lambda t, x, p: [x[0], -x[1]]}],
        "params": [("e", 1.0)],
    }
    spec.update(change)
    return spec


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


BAD = {
    # problems and plugins
    "unknown problem": (lambda t, pl: hes.problem("no-such-problem"), hes.NotFoundError),
    "problem not a string": (lambda t, pl: hes.problem(42), hes.InvalidArgument),
    "problem with NUL": (lambda t, pl: hes.problem("slip\0hopper"), hes.InvalidArgument),
    "missing plugin": (lambda t, pl: hes.load_plugin("/nonexistent/model.so"), hes.NotFoundError),
    "plugin without entry": (lambda t, pl: hes.load_plugin(pl("bad_plugin")), hes.InvalidArgument),
    "plugin of another ABI": (lambda t, pl: hes.load_plugin(pl("ball_walls_wrong_abi")),
                              hes.InvalidArgument),
    "plugin is a directory": (lambda t, pl: hes.load_plugin(str(t)), hes.InvalidArgument),
    "plugin is a device": (lambda t, pl: hes.load_plugin("/dev/zero"), hes.InvalidArgument),
    "missing robot description": (lambda t, pl: hes.robot("/nonexistent/robot.json"),
                                  hes.InvalidArgument),
    "robot description of garbage": (lambda t, pl: hes.robot(write(t, "r.json", "{not json")),
                                     hes.InvalidArgument),
    # parameters
    "unknown parameter": (lambda t, pl: hes.problem("slip-hopper", nope=1), hes.NotFoundError),
    "NaN parameter": (lambda t, pl: hes.problem("slip-hopper", K=float("nan")),
                      hes.InvalidArgument),
    "infinite parameter": (lambda t, pl: hes.problem("slip-hopper", K=np.inf),
                           hes.InvalidArgument),
    "parameter not a number": (lambda t, pl: hes.problem("slip-hopper", K="fast"),
                               hes.InvalidArgument),
    "parameter out of range": (lambda t, pl: hes.problem("paddle-juggler", alpha=2),
                               hes.InvalidArgument),
    "parameters the model refuses": (lambda t, pl: hes.problem("slip-hopper", l_td=1.5),
                                     hes.InvalidArgument),
    "unknown parameter read": (lambda t, pl: hes.problem("slip-hopper")["nope"],
                               hes.NotFoundError),
    # settings
    "zero tolerance": (lambda t, pl: hes.problem("slip-hopper").configure(rtol=0),
                       hes.InvalidArgument),
    "unknown setting": (lambda t, pl: hes.problem("slip-hopper").configure(speed=2),
                        hes.InvalidArgument),
    "setting not a number": (lambda t, pl: hes.problem("slip-hopper").configure(
        newton_maxiter="many"), hes.InvalidArgument),
    # simulate
    "x0 of the wrong length": (lambda t, pl: hes.problem("slip-hopper").simulate(
        [1, 2], t_end=1), hes.InvalidArgument),
    "x0 with NaN": (lambda t, pl: hes.problem("slip-hopper").simulate(
        [2, float("nan"), 0], t_end=1), hes.InvalidArgument),
    "simulate without an end": (lambda t, pl: hes.problem("slip-hopper").simulate([2, 2.5, 0]),
                                hes.InvalidArgument),
    "simulate in an unknown mode": (lambda t, pl: hes.problem("slip-hopper").simulate(
        [2, 2.5, 0], mode="swimming", t_end=1), hes.NotFoundError),
    "simulate backwards": (lambda t, pl: hes.problem("slip-hopper").simulate(
        [2, 2.5, 0], t_end=-1), hes.InvalidArgument),
    "simulate an ESS system": (lambda t, pl: hes.problem("hopper-pumped").simulate(
        [1, 0], t_end=1), hes.InvalidArgument),
    # objects and arguments
    "an empty System": (lambda t, pl: hes.System().analyze(), hes.InvalidArgument),
    "analyze a number": (lambda t, pl: hes.analyze(3.5), hes.InvalidArgument),
    # models written in Python
    "model without a name": (lambda t, pl: hes.model(slip_like(name=None)), hes.InvalidArgument),
    "model with a bad name": (lambda t, pl: hes.model(slip_like(name='a "quoted", name')),
                              hes.InvalidArgument),
    "model without modes": (lambda t, pl: hes.model(slip_like(modes=[])), hes.InvalidArgument),
    "mode of dimension 0": (lambda t, pl: hes.model(slip_like(modes=[
        {"name": "air", "dim": 0, "field": lambda t, x, p: []}])), hes.InvalidArgument),
    "transition from an unknown mode": (lambda t, pl: hes.model(slip_like(transitions=[
        {"name": "b", "from": "water", "to": "air", "guard": lambda t, x, p: x[0]}])),
        hes.InvalidArgument),
    "field not callable": (lambda t, pl: hes.model(slip_like(modes=[
        {"name": "air", "dim": 2, "field": "x'' = -g"}])), hes.InvalidArgument),
    "duplicate parameters": (lambda t, pl: hes.model(slip_like(params=[("e", 1), ("e", 2)])),
                             hes.InvalidArgument),
    "unknown direction": (lambda t, pl: hes.model(slip_like(transitions=[
        {"name": "b", "from": "air", "to": "air", "direction": "sideways",
         "guard": lambda t, x, p: x[0]}])), hes.InvalidArgument),
    "compiled callback at address 0": (lambda t, pl: hes.model(slip_like(modes=[
        {"name": "air", "dim": 2, "field": -1}])), hes.InvalidArgument),
    "unknown integrator": (lambda t, pl: hes.model(slip_like(integrator="euler")),
                           hes.InvalidArgument),
    "orbit guess of the wrong length": (lambda t, pl: hes.model(slip_like(orbit={
        "mode": "air", "section": "bounce", "sequence": ["bounce"], "free_states": [0],
        "residual": [1], "guess": [1.0]})), hes.InvalidArgument),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input(case, tmp_path, plugin):
    call, cls = BAD[case]
    with pytest.raises(cls) as info:
        call(tmp_path, plugin)
    e = info.value
    assert isinstance(e, hes.Error)
    assert str(e), "the exception carries a message"
    assert e.exit_code == 2, f"bad input is the program's exit status 2, not {e.exit_code}"
    assert isinstance(e, (ValueError, LookupError))


def test_numerical_failure_is_exit_status_1():
    # the paddle juggler past paddle_accel 22.316: the ball would pass
    # through the paddle (grazing), so there is no period-1 orbit
    with pytest.raises(hes.Error) as info:
        hes.analyze("paddle-juggler", paddle_accel=25.0)
    assert info.value.exit_code == 1
    assert not isinstance(info.value, ValueError)
    assert info.value.status == "no periodic orbit"


def test_many_bad_inputs_counted():
    assert len(BAD) >= 30
