"""hes.impact against `hes impact --json` and hes.analyze_impact_set
against `hes analyze --impact-set --json`: the same documents (but their
wall-clock times) for the same inputs, the objects' arrays equal to their
numbers, the rocking block's pre-impact state from its drop height, and
bad input refused with hes.Error."""
import json
import math

import numpy as np
import pytest

import hes
from conftest import same_document

COMPASS_Q = [-0.97814760073380569, 0.20791169081775931, -1.3613568165555772,
             1.3613568165555772]
COMPASS_V = [-0.051977922703439829, -0.24453690018345144, 0.25, 0.25]


def without_clock(doc):
    """The document without its wall-clock times ("seconds",
    "seconds_per_sample", "seconds_per_lcp")."""
    if isinstance(doc, dict):
        return {k: without_clock(v) for k, v in doc.items() if not k.startswith("seconds")}
    if isinstance(doc, list):
        return [without_clock(v) for v in doc]
    return doc


def check_arrays(r, doc):
    assert r.problem == doc["problem"]
    assert r.contacts == [c["name"] for c in doc["contacts"]]
    assert list(r.mu) == [c["mu"] for c in doc["contacts"]]
    assert list(r.u_normal_minus) == [c["u_normal"] for c in doc["contacts"]]
    assert list(r.q) == doc["q"] and list(r.v_minus) == doc["v_minus"]
    assert len(r.outcomes) == len(doc["laws"])
    for o, d in zip(r.outcomes, doc["laws"]):
        assert o.law == d["law"] and o.modes == d["modes"] and o.status == d["status"]
        assert list(o.v) == d["v"] and list(o.u_normal) == d["u_normal"]
        assert list(o.u_tangent) == d["u_tangent"]
    if r.samples is None:
        return
    s = doc["summary"]
    assert (r.samples, r.n_finished, r.mean_lcps) == (s["samples"], s["finished"],
                                                      s["mean_lcps"])
    counts = [{m: int(np.sum(r.modes[:, i] == m)) for m in ("stick", "slide", "lift")}
              for i in range(len(r.contacts))]
    assert counts == doc["mode_counts"]
    if "samples" in doc and isinstance(doc["samples"], list):
        assert r.v.tolist() == [x["v"] for x in doc["samples"]]
        assert r.u_normal.tolist() == [x["u_normal"] for x in doc["samples"]]
        assert list(r.dissipated) == [x["dissipated"] for x in doc["samples"]]


@pytest.mark.parametrize("problem, kwargs, args", [
    ("rocking-block", {"samples": 64}, ["--samples", "64"]),
    ("box-wall", {"samples": 32, "seed": 3, "samples_out": True},
     ["--samples", "32", "--seed", "3", "--samples-out"]),
    ("disk-stack", {"samples": 16, "select": "lemke", "threads": 2},
     ["--samples", "16", "--select", "lemke", "--threads", "2"]),
    ("compass-gait-impact", {"samples": 32, "step": 0.01, "steps": 50},
     ["--samples", "32", "--step", "0.01", "--steps", "50"]),
    ("compass-gait-impact", {"law": "anitescu-potra"}, ["--law", "anitescu-potra"]),
    ("rocking-block", {"law": "sequential:B,A"}, ["--law", "sequential:B,A"]),
])
def test_impact_matches_program(hes_run, problem, kwargs, args):
    if kwargs.get("law", "routh") == "routh" and "siconos" not in hes.features:
        pytest.skip("the post-impact set needs Siconos numerics")
    r = hes.impact(problem, **kwargs)
    doc = hes_run("impact", problem, *args, "--json")
    same_document(without_clock(json.loads(r.to_json())), without_clock(doc))
    check_arrays(r, doc)


def test_rocking_block_from_its_drop():
    r = hes.impact("rocking-block", law="anitescu-potra")
    # dropped flat from 0.01 m: both corners hit at -sqrt(2 g h), with the
    # kinetic energy m g h; the simultaneous plastic impact stops the block
    assert list(r.u_normal_minus) == pytest.approx([-math.sqrt(2 * 9.81 * 0.01)] * 2,
                                                   rel=1e-12)
    ap = r.outcomes[0]
    assert ap.energy_before == pytest.approx(9.81 * 0.01, rel=1e-12)
    assert ap.modes == ["stick", "stick"] and np.allclose(ap.v, 0, atol=1e-12)


@pytest.mark.skipif("mujoco" not in hes.features, reason="robot files need MuJoCo")
def test_robot_file_is_the_builtin(hes_run, srcdir):
    urdf = f"{srcdir}/share/robots/compass_gait.urdf"
    r = hes.impact(urdf, contacts="A:5,B:5", q=COMPASS_Q, v=COMPASS_V, samples=64)
    doc = hes_run("impact", "--robot", urdf, "--contacts", "A:5,B:5", "--q",
                  ",".join(map(repr, COMPASS_Q)), "--v", ",".join(map(repr, COMPASS_V)),
                  "--samples", "64", "--json")
    same_document(without_clock(json.loads(r.to_json())), without_clock(doc))
    # at the built-in's pre-impact state the laws' outcomes are the built-in's
    b = hes.impact("compass-gait-impact", samples=64)
    for o, ob in zip(r.outcomes, b.outcomes):
        assert np.allclose(o.u_normal, ob.u_normal, atol=1e-9)
        assert np.allclose(o.u_tangent, ob.u_tangent, atol=1e-9)


def test_impact_set_matches_program(hes_run):
    if "siconos" not in hes.features or "gsl" not in hes.features:
        pytest.skip("the impact set needs Siconos numerics and GSL")
    a = hes.analyze_impact_set("knee-biped", 4)
    doc = hes_run("analyze", "knee-biped", "--impact-set", "4", "--json")
    same_document(without_clock(json.loads(a.to_json())), without_clock(doc))
    assert a.analysis.psi == doc["psi"] and a.transition == doc["impact_set"]["transition"]
    s = doc["impact_set"]
    assert (a.samples, a.n_orbits, a.psi_worst, a.psi_best) == (s["samples"], s["orbits"],
                                                                s["psi_worst"], s["psi_best"])
    assert [None if math.isnan(x) else x for x in a.psi] == s["psi"]
    assert a.psi_nominal == s["psi_nominal"] and a.n_consistent == s["consistent"]
    assert a.psi_best <= a.psi_worst and np.nanmax(a.psi) == a.psi_worst


@pytest.mark.parametrize("call, error", [
    (lambda: hes.impact("no-such-impact"), hes.NotFoundError),
    (lambda: hes.impact("rocking-block", samples=0), hes.InvalidArgument),
    (lambda: hes.impact("rocking-block", law="bogus"), hes.InvalidArgument),
    (lambda: hes.impact("rocking-block", law="sequential:A"), hes.InvalidArgument),
    (lambda: hes.impact("rocking-block", select="best"), hes.InvalidArgument),
    (lambda: hes.impact("rocking-block", step=-1), hes.InvalidArgument),
    (lambda: hes.impact("rocking-block", q=[0, 0, 0]), hes.InvalidArgument),
    (lambda: hes.impact("rocking-block", law="anitescu-potra", samples_out=True),
     hes.InvalidArgument),
    (lambda: hes.impact("rocking-block", step=1e-9, steps=1), hes.InvalidArgument),
    (lambda: hes.impact("/nonexistent.xml", q=[0], v=[0]), hes.Error),
    (lambda: hes.analyze_impact_set("slip-hopper", 4), hes.InvalidArgument),
    (lambda: hes.analyze_impact_set("knee-biped", 0), hes.InvalidArgument),
    (lambda: hes.analyze_impact_set("hopper-pumped", 2), hes.InvalidArgument),
])
def test_bad_input(call, error):
    with pytest.raises(error):
        call()
