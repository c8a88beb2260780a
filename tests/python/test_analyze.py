"""hes.analyze and hes.System against the program: the same document as
`hes analyze --json` for the same inputs, and the arrays the objects hold
equal to the numbers in it."""
import json

import numpy as np
import pytest

import hes
from conftest import same_document


@pytest.mark.parametrize("problem, params", [
    ("slip-hopper", {}),
    ("slip-hopper", {"K": 0.1, "thetadot": 0.5}),
    ("paddle-juggler", {"paddle_accel": -8.0}),
    ("knee-biped", {}),
    ("hopper-pumped", {}),
])
def test_analyze_matches_program(hes_run, problem, params):
    args = [a for k, v in params.items() for a in ("-p", f"{k}={v!r}")]
    doc = hes_run("analyze", problem, *args, "--json")
    a = hes.analyze(problem, **params)
    same_document(json.loads(a.to_json()), doc)
    # the objects' arrays are the document's numbers
    assert a.psi == doc["psi"] and a.verdict == doc["verdict"]
    assert a.psi_tol == doc["psi_tolerance"]
    assert a.period == doc["orbit"]["period"]
    assert list(a.x0) == doc["orbit"]["x0"]
    assert np.array_equal(a.monodromy, np.array(doc["monodromy"]))
    assert list(a.multipliers.real) == [m["re"] for m in doc["multipliers"]]
    assert list(a.multipliers.imag) == [m["im"] for m in doc["multipliers"]]
    if "return_map" in doc:
        assert np.array_equal(a.return_map, np.array(doc["return_map"]))
    assert abs(a.multipliers[0]) == pytest.approx(a.psi, rel=1e-15)


def test_analysis_objects():
    s = hes.problem("slip-hopper", K=0.1)
    a = s.analyze(check=True)
    assert a.dim == 3
    assert a.monodromy.shape == (3, 3) and a.return_map.shape == (3, 3)
    assert a.check < 1e-6
    # psi is the largest modulus of the return map's eigenvalues
    ev = np.linalg.eigvals(a.return_map)
    assert max(abs(ev)) == pytest.approx(a.psi, rel=1e-9)
    # the orbit is one period: events touchdown, liftoff, apex; it closes
    orb = a.orbit
    assert [e.transition for e in orb.events] == ["touchdown", "liftoff", "apex"]
    assert orb.events[-1].t == pytest.approx(a.period, rel=1e-12)
    assert np.allclose(orb.events[-1].x_plus, a.x0, atol=1e-9)
    # solved parameters come back solved
    assert a.params["l_td"] == s["l_td"] and a.params["l_td"] != 0.9


def test_simulate_reaches_orbit():
    s = hes.problem("slip-hopper")
    a = s.analyze()
    tr = s.simulate(a.x0, events=2)
    assert tr.status == "success"
    apexes = [e for e in tr.events if e.transition == "apex"]
    assert len(apexes) == 2
    # on the orbit, the second apex comes a period after the first
    assert apexes[1].t - apexes[0].t == pytest.approx(a.period, rel=1e-9)


def test_settings_round_trip():
    s = hes.problem("paddle-juggler")
    s.configure(rtol=1e-10, newton_maxiter=20)
    assert s.settings["rtol"] == 1e-10 and s.settings["newton_maxiter"] == 20
    with pytest.raises(hes.InvalidArgument):
        s.configure(rtol=-1)
    assert s.settings["rtol"] == 1e-10


@pytest.mark.parametrize("problem", ["slip-hopper", "knee-biped", "plate-vertical"])
def test_info_matches_program(hes_run, problem):
    same_document(json.loads(hes.problem(problem).to_json()), hes_run("info", problem, "--json"))


def test_problems_match_list(hes_run):
    listed = hes_run("list").splitlines()
    mine = hes.problems()
    assert len(listed) == len(mine)
    for line, (name, kind, desc) in zip(listed, mine):
        assert line.split()[0] == name and line.endswith(desc)


def test_plugin_matches_program(hes_run, plugin):
    path = plugin("rimless_wheel_plugin")
    doc = hes_run("analyze", "--model", path, "--json")
    same_document(json.loads(hes.load_plugin(path).analyze().to_json()), doc)
    # a plugin opened by its path through hes.problem is the same model
    same_document(json.loads(hes.problem(path).analyze().to_json()), doc)


def test_robot_matches_program(hes_run, srcdir):
    if "mujoco" not in hes.features:
        pytest.skip("libhes was built without MuJoCo (robot files)")
    desc = f"{srcdir}/share/robots/rimless_wheel.json"
    doc = hes_run("analyze", "--robot", desc, "--json")
    same_document(json.loads(hes.robot(desc).analyze().to_json()), doc)
