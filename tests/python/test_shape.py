"""hes.shape and hes.psi_gradient against `hes shape --json` and `hes
analyze --gradient --json` for the same inputs, the objects' arrays
against the documents' numbers, and refusals of bad input."""
import json

import numpy as np
import pytest

import hes
from conftest import same_document


@pytest.mark.parametrize("kwargs, args", [
    ({"starts": 2, "maxeval": 30}, ["--starts", "2", "--maxeval", "30"]),
    ({"start": {"K": 0.1}, "bounds": {"thetadot": (-1, 1)}, "algorithm": "LN_BOBYQA",
      "measure": "smooth", "maxeval": 40, "starts": 1},
     ["--start", "K=0.1", "--bounds", "thetadot=-1:1", "--algorithm", "LN_BOBYQA",
      "--measure", "smooth", "--maxeval", "40", "--starts", "1"]),
    ({"fd_gradient": True, "no_polish": True, "seed": 4, "starts": 3, "maxeval": 20,
      "trials": 3, "steps": 5, "perturb": 0.05},
     ["--fd-gradient", "--no-polish", "--seed", "4", "--starts", "3", "--maxeval", "20",
      "--trials", "3", "--steps", "5", "--perturb", "0.05"]),
])
def test_shape_matches_program(hes_run, kwargs, args):
    s = hes.problem("slip-hopper", K=0.05)
    r = hes.shape(s, **kwargs)
    doc = hes_run("shape", "slip-hopper", "-p", "K=0.05", *args, "--json")
    same_document(json.loads(r.to_json()), doc)
    assert r.names == list(doc["shape"]) == ["K", "thetadot"]
    assert list(r.optimum) == list(doc["shape"].values())
    assert r.bounds == {k: tuple(v) for k, v in doc["bounds"].items()}
    assert (r.psi, r.psi_initial, r.verdict) == (doc["psi"], doc["psi_initial"], doc["verdict"])
    assert (r.evaluations, r.gradient, r.algorithm) == (doc["evaluations"], doc["gradient"],
                                                        doc["algorithm"])
    assert [[m.real, m.imag] for m in r.multipliers] == \
        [[m["re"], m["im"]] for m in doc["multipliers"]]
    assert abs(r.multipliers[0]) == pytest.approx(r.psi, rel=1e-12)
    # the system is at the optimum, as the program's is when it prints it
    assert s.params == doc["params"] == r.params
    if "verify" in doc:
        assert r.verify.converged == doc["verify"]["converged"]
        assert r.verify.n_trials == 3 and r.verify.error.shape == (3, 5)
    else:
        assert r.verify is None


def test_shape_apply_false_keeps_the_system():
    s = hes.problem("slip-hopper")
    before = s.params
    r = hes.shape(s, starts=1, maxeval=20, apply=False)
    assert s.params == before and not r.applied
    assert r.params["K"] == r.optimum[0] != before["K"]
    assert r.psi < r.psi_initial and r.stable


def test_a_parameter_that_moves_the_orbit_matches_program(hes_run):
    # the juggler's restitution moves the orbit: each evaluation a full
    # re-analysis; psi is alpha wherever the multipliers are complex, so
    # with the paddle's acceleration free the optimum is alpha's lower bound
    s = hes.problem("paddle-juggler")
    r = hes.shape(s, bounds={"alpha": (0.05, 0.6)})
    doc = hes_run("shape", "paddle-juggler", "--bounds", "alpha=0.05:0.6", "--json")
    same_document(json.loads(r.to_json()), doc)
    assert r.names == list(doc["shape"]) == ["paddle_accel", "alpha"]
    assert r.moves_orbit and doc["moves_orbit"] and r.lost == doc["lost"] == 0
    assert r.lost_at is None and doc["lost_at"] is None and doc["lost_why"] is None
    assert (r.algorithm, r.gradient, r.starts, r.polish) == ("LN_NELDERMEAD", "none", 1, "")
    assert r.optimum[1] == 0.05 and r.psi == pytest.approx(0.05, abs=1e-9)
    assert hes.analyze("paddle-juggler", **r.params).psi == pytest.approx(r.psi, rel=1e-9)


def test_gradient_matches_program(hes_run):
    s = hes.problem("slip-hopper", K=0.1)
    g = s.psi_gradient()
    doc = hes_run("analyze", "slip-hopper", "-p", "K=0.1", "--gradient", "--json")
    same_document(json.loads(g.to_json()), doc)
    assert g.by_name == doc["psi_gradient"] and g.method == doc["psi_gradient_method"]
    assert g.nonsmooth == doc["psi_gradient_nonsmooth"]
    assert g.analysis.psi == doc["psi"]
    # against central differences of psi in K
    h = 1e-6
    d = (hes.analyze("slip-hopper", K=0.1 + h).psi - hes.analyze("slip-hopper", K=0.1 - h).psi) / (2 * h)
    assert g.by_name["K"] == pytest.approx(d, rel=1e-4)
    same_document(json.loads(hes.psi_gradient("slip-hopper", K=0.1).to_json()), doc)


@pytest.mark.parametrize("kwargs, error, text", [
    ({"start": {"m": 1.0}}, hes.InvalidArgument, "'m' has no default search bounds"),
    ({"bounds": {"l_td": (0.5, 1)}}, hes.InvalidArgument, "solved by the orbit search"),
    ({"start": {"nope": 1.0}}, hes.NotFoundError, "unknown parameter 'nope'"),
    ({"start": {"K": float("nan")}}, hes.InvalidArgument, "finite"),
    ({"bounds": {"K": (1, 0)}}, hes.InvalidArgument, "LO <= HI"),
    ({"maxeval": 0}, hes.InvalidArgument, "maxeval"),
    ({"starts": 1001}, hes.InvalidArgument, "starts"),
    ({"measure": "size"}, hes.InvalidArgument, "measure"),
    ({"algorithm": "LN_BOBYQA", "fd_gradient": True}, hes.InvalidArgument, "uses no gradient"),
    ({"algorithm": "GN_DIRECT_L", "starts": 3}, hes.InvalidArgument, "global algorithm"),
    ({"algorithm": "XX_NONE", "maxeval": 5}, hes.InvalidArgument, "XX_NONE"),
    ({"trials": 100000, "steps": 1000}, hes.InvalidArgument, "periods in all"),
    ({"tol": 0}, hes.InvalidArgument, "tol"),
])
def test_bad_input(kwargs, error, text):
    s = hes.problem("slip-hopper")
    before = s.params
    with pytest.raises(error) as e:
        hes.shape(s, **kwargs)
    assert text in str(e.value) and isinstance(e.value, hes.Error)
    assert s.params == before


def test_bad_systems(plugin):
    wheel = hes.load_plugin(plugin("rimless_wheel_plugin"))
    with pytest.raises(hes.InvalidArgument, match="no shape parameters"):
        wheel.psi_gradient()
    with pytest.raises(hes.InvalidArgument, match="event-selected"):
        hes.psi_gradient("hopper-pumped")
    with pytest.raises(hes.Error):
        hes.shape(wheel, maxeval=5)
