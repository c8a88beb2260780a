"""hes.trajopt against `hes trajopt --json` for the same inputs (small
grids and budgets: the pipeline, not the optimum), the gait file of -o,
the objects' fields against the document's numbers, and refusals of bad
input."""
import json
import math

import pytest

import hes
from conftest import same_document


def check(r, doc):
    same_document(json.loads(r.to_json()), doc)
    assert r.params == doc["params"] and r.design == doc["design"]
    assert (r.nodes, r.variables, r.constraints) == (doc["nodes"], doc["variables"],
                                                     doc["constraints"])
    assert r.psi_collocation == doc["psi_collocation"] and r.period == doc["period"]
    assert r.psi_shooting == doc["psi_shooting"] and r.verdict == doc["verdict"]
    assert r.evaluations == doc["evaluations"] and r.cost == doc["cost"]
    for mine, theirs in zip(r.phases, doc["phases"]):
        assert (mine["mode"], mine["duration"], mine["ends_with"], mine["virtual"]) == \
            (theirs["mode"], theirs["duration"], theirs["ends_with"], theirs["virtual"])
    assert sum(p["duration"] for p in r.phases) == pytest.approx(r.period, rel=1e-14)
    assert [g["evaluations"] for g in r.grids] == [g["evaluations"] for g in doc["grids"]]


def test_stability_with_design_and_gait_file(hes_run, tmp_path):
    s = hes.problem("slip-hopper")
    r = hes.trajopt(s, nodes=11, maxeval=40, design={"K": (-0.2, 0.6), "thetadot": (-1, 1)},
                    output=tmp_path / "py.json")
    doc = hes_run("trajopt", "slip-hopper", "--nodes", "11", "--maxeval", "40", "--design",
                  "K=-0.2:0.6", "--design", "thetadot=-1:1", "--quiet", "-o",
                  tmp_path / "hes.json", "--json")
    check(r, doc)
    assert (tmp_path / "py.json").read_text() == (tmp_path / "hes.json").read_text()
    assert r.design_bounds == {"K": (-0.2, 0.6), "thetadot": (-1.0, 1.0)}
    # the design parameters end in the system
    assert s["K"] == r.design["K"] and r.phases[0]["x"].shape == (11, 3)
    assert r.return_map.shape == (3, 3)
    # started from that gait, on a mesh continuation with virtual events
    r2 = hes.trajopt("slip-hopper", init=tmp_path / "py.json", nodes=[7, 9], maxeval=[15, 10],
                     virtual_events="0,1,0", objective="feasible")
    doc2 = hes_run("trajopt", "slip-hopper", "--init", tmp_path / "py.json", "--nodes", "7,9",
                   "--maxeval", "15,10", "--virtual-events", "0,1,0", "--objective",
                   "feasible", "--quiet", "--json")
    check(r2, doc2)
    assert len(r2.grids) == 2 and sum(p["virtual"] for p in r2.phases) == 1


def test_inputs_energy_and_starts(hes_run):
    r = hes.trajopt("knee-biped", slope=0, inputs="constant", objective="energy", nodes=7,
                    maxeval=30)
    doc = hes_run("trajopt", "knee-biped", "-p", "slope=0", "--inputs", "constant",
                  "--objective", "energy", "--nodes", "7", "--maxeval", "30", "--quiet", "--json")
    check(r, doc)
    assert r.inputs and r.energy == doc["energy"]
    assert all(p["u"].shape == (1, len(r.inputs)) for p in r.phases)
    r = hes.trajopt("slip-hopper", nodes=7, maxeval=20, starts=2, seed=3, spread=0.05,
                    psi_floor=0.7, measure="smooth", solver="slsqp", jobs=2)
    doc = hes_run("trajopt", "slip-hopper", "--nodes", "7", "--maxeval", "20", "--starts", "2",
                  "--seed", "3", "--spread", "0.05", "--psi-floor", "0.7", "--measure",
                  "smooth", "--solver", "slsqp", "--jobs", "2", "--quiet", "--json")
    check(r, doc)
    assert len(r.starts) == 2 and r.best_start == doc["best_start"]


@pytest.mark.parametrize("kwargs, error, text", [
    ({"nodes": 2}, hes.InvalidArgument, "nodes"),
    ({"nodes": [9, 7]}, hes.InvalidArgument, "increasing"),
    ({"nodes": [7, 9], "maxeval": [1, 2, 3]}, hes.InvalidArgument, "maxeval"),
    ({"objective": "fastest"}, hes.InvalidArgument, "objective"),
    ({"weight": 1.0}, hes.InvalidArgument, "only to weighted"),
    ({"objective": "energy", "measure": "smooth"}, hes.InvalidArgument, "does not apply"),
    ({"psi_smoothing": 0.05, "measure": "smooth"}, hes.InvalidArgument, "no"),
    ({"virtual_events": "1,2"}, hes.InvalidArgument, "virtual_events"),
    ({"virtual_events": "default"}, hes.InvalidArgument, "default virtual events"),
    ({"inputs": "constant"}, hes.InvalidArgument, "no inputs"),
    ({"solver": "magic"}, hes.InvalidArgument, "solver"),
    ({"seed": 3}, hes.InvalidArgument, "starts above 1"),
    ({"spread": 2.0, "starts": 2}, hes.InvalidArgument, "spread"),
    ({"design": {"K": (1, 0)}}, hes.InvalidArgument, "LO <= HI"),
    ({"design": {"nope": (0, 1)}, "nodes": 5, "maxeval": 1}, hes.NotFoundError, "nope"),
    ({"init": "/nonexistent/gait.json"}, hes.InvalidArgument, "/nonexistent/gait.json"),
    ({"nodes": 5, "maxeval": 1, "output": "/nonexistent/dir/g.json"}, hes.FileError,
     "cannot write"),
])
def test_bad_input(kwargs, error, text):
    with pytest.raises(error) as e:
        hes.trajopt("slip-hopper", **kwargs)
    assert text in str(e.value) and isinstance(e.value, hes.Error)


def test_bad_systems():
    with pytest.raises(hes.InvalidArgument, match="event-selected"):
        hes.trajopt("hopper-pumped")
