"""System.trials and System.flow_jacobian against `hes simulate PROBLEM
--json` and `hes simulate PROBLEM --x0 ... --time T --jacobian --json` for
the same inputs, the objects' arrays against the documents' numbers, and
refusals of bad input."""
import json
import math

import numpy as np
import pytest

import hes
from conftest import same_document


@pytest.mark.parametrize("problem, kwargs, args", [
    ("slip-hopper", {"trials": 4, "steps": 6, "K": 0.1},
     ["-p", "K=0.1", "--trials", "4", "--steps", "6"]),
    ("slip-hopper", {"trials": 3, "steps": 5, "box": 0.05, "seed": 7, "tol": 0.01},
     ["--trials", "3", "--steps", "5", "--box", "0.05", "--seed", "7", "--tol", "0.01"]),
    ("paddle-juggler", {"trials": 3, "steps": 8, "perturb": 0.02},
     ["--trials", "3", "--steps", "8", "--perturb", "0.02"]),
])
def test_trials_match_program(hes_run, problem, kwargs, args):
    params = {k: v for k, v in kwargs.items() if k == "K"}
    opts = {k: v for k, v in kwargs.items() if k != "K"}
    t = hes.problem(problem, **params).trials(**opts)
    doc = hes_run("simulate", problem, *args, "--json")
    same_document(json.loads(t.to_json()), doc)
    assert t.n_trials == len(doc["trials"]) and t.converged == doc["converged"]
    assert (t.radius, t.tol, t.region, t.seed) == (doc["radius"], doc["tol"], doc["region"],
                                                   doc["seed"])
    assert list(t.x_star) == doc["orbit"]["x0"] and t.period == doc["orbit"]["period"]
    for k, tr in enumerate(doc["trials"]):
        assert list(t.x0[k]) == tr["x0"]
        n = t.steps_completed[k]
        assert n == tr["steps_completed"]
        assert t.failure[k] == tr["failure"]
        assert list(t.error[k, :n]) == tr["error"]
        assert np.all(np.isnan(t.error[k, n:]))
    complete = t.steps_completed == t.steps
    assert np.allclose(t.mean_error, np.mean(t.error[complete], axis=0), rtol=1e-14)


def test_trials_function_and_errors_shrink():
    t = hes.trials("slip-hopper", K=0.1, trials=2, steps=10)
    assert t.error.shape == (2, 10) and np.all(np.diff(t.error, axis=1) < 0)
    assert t.params["K"] == 0.1 and t.mode == "descent"


@pytest.mark.parametrize("problem, x0, time, mode", [
    ("slip-hopper", [2, 2.5, 0], 1.2550748259094497, None),
    ("trot-soft", [0.6, 0, 0.3, 0.3, 0, 0, 0, 0], 0.4, "flight"),
])
def test_flow_matches_program(hes_run, problem, x0, time, mode):
    f = hes.problem(problem).flow_jacobian(x0, time, mode=mode)
    doc = hes_run("simulate", problem, "--x0", ",".join(map(repr, map(float, x0))),
                  "--time", repr(time), "--jacobian", "--json")
    same_document(json.loads(f.to_json()), doc)
    assert f.jacobian.tolist() == doc["jacobian"]
    assert list(f.x_end) == doc["x_end"] and f.mode_end == doc["mode_end"]
    assert f.events == [(e["transition"], e["t"]) for e in doc["events"]]
    assert len(f.simultaneous) == len(doc["simultaneous"])
    for mine, theirs in zip(f.simultaneous, doc["simultaneous"]):
        for k, v in theirs.items():
            assert (mine[k] == v) or (v is None and isinstance(mine[k], float)
                                      and math.isnan(mine[k]))
    # the jacobian is the product of the run's factors: its events' states
    assert f.trajectory.events[-1].t == doc["events"][-1]["t"]


@pytest.mark.parametrize("call, error, text", [
    (lambda s: s.trials(trials=0), hes.InvalidArgument, "trials"),
    (lambda s: s.trials(steps=1.5), hes.InvalidArgument, "steps"),
    (lambda s: s.trials(perturb=0.1, box=0.1), hes.InvalidArgument, "exclude"),
    (lambda s: s.trials(perturb=-1), hes.InvalidArgument, "perturb"),
    (lambda s: s.trials(tol=float("nan")), hes.InvalidArgument, "tol"),
    (lambda s: s.trials(seed=-1), hes.InvalidArgument, "seed"),
    (lambda s: s.flow_jacobian([2, 2.5], 1.0), hes.InvalidArgument, "x0"),
    (lambda s: s.flow_jacobian([2, 2.5, 0], -1.0), hes.InvalidArgument, "time"),
    (lambda s: s.flow_jacobian([2, 2.5, 0], 1.0, mode="orbit"), hes.NotFoundError, "mode"),
    (lambda s: s.flow_jacobian([2, 2.5, 0], 2.0), hes.InvalidArgument, "dimension"),
])
def test_bad_input(call, error, text):
    with pytest.raises(error) as e:
        call(hes.problem("slip-hopper"))
    assert text in str(e.value) and isinstance(e.value, hes.Error)


def test_bad_systems():
    with pytest.raises(hes.InvalidArgument, match="event-selected"):
        hes.trials("hopper-pumped")
    with pytest.raises(hes.InvalidArgument, match="no periodic orbit"):
        hes.trials("trot-soft")
