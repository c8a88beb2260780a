"""hes.continue_ against `hes continue`: the same document as --json (to
the byte) for the same inputs, the objects' columns equal to its numbers,
the paddle juggler's period doubling where its closed form puts it,
Ctrl-C stopping a long branch with KeyboardInterrupt, a progress callable,
and bad input refused with hes.Error."""
import json
import math
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import hes
from conftest import run_hes, same_document


def program(*args):
    """The program's document: text (as printed, without the last newline)
    and parsed."""
    out = run_hes("continue", *args, "--json", "-q").stdout
    return out.rstrip("\n"), json.loads(out)


def check_columns(c, doc):
    """Every branch's columns are the document's numbers."""
    assert len(c.branches) == len(doc["branches"])
    assert c.state_names == doc["state_names"]
    for br, db in zip(c.branches, doc["branches"]):
        pts = db["points"]
        assert len(br) == len(pts) and br.kind == db["kind"] and br.returns == db["returns"]
        assert br.reached == db["reached"] and br.why == db["why"]
        assert list(br.value) == [p["value"] for p in pts]
        assert list(br.psi) == [p["psi"] for p in pts]
        assert list(br.period) == [p["period"] for p in pts]
        assert br.x0.tolist() == [p["x0"] for p in pts]
        assert list(br.label) == [p["label"] or "" for p in pts]
        assert list(br.crossing) == [p["crossing"] or "" for p in pts]
        for i, p in enumerate(pts):
            m = [complex(q["re"], q["im"]) for q in p["multipliers"]]
            assert list(br.multipliers[i, :br.n_mult[i]]) == m
            if p["xr"]:
                assert br.xr[i].tolist() == p["xr"]
    labelled = [(b, p["index"], p["label"]) for b, db in enumerate(doc["branches"])
                for p in db["points"] if p["label"]]
    assert [(p.branch, p.index, p.label) for p in c.labelled] == labelled


def test_juggler_matches_program_and_closed_form():
    c = hes.continue_("paddle-juggler", ("paddle_accel", -20, 10))
    text, doc = program("paddle-juggler", "--param", "paddle_accel=-20:10")
    assert c.to_json() == text
    same_document(json.loads(c.to_json()), doc)
    check_columns(c, doc)
    # the period-1 orbit is stable exactly for -2 g (1 + alpha^2) / (1 + alpha)^2
    # < paddle_accel < 0: a period doubling at -10.9 (alpha 0.5, g 9.81) and a
    # multiplier +1 at 0, both located to 1e-6
    lower = -2 * 9.81 * (1 + 0.5 ** 2) / (1 + 0.5) ** 2
    pd = [p for p in c.labelled if p.label == "PD"]
    bp = [p for p in c.labelled if p.label == "BP"]
    assert len(pd) == 1 and abs(pd[0].value - lower) < 1e-6 and pd[0].crossing == "-1"
    assert len(bp) == 1 and abs(bp[0].value) < 1e-6 and bp[0].crossing == "+1"
    inside = (c.value > lower + 1e-3) & (c.value < -1e-3)
    assert np.all(c.psi[inside] < 1) and np.all(c.psi[c.value < lower - 1e-3] > 1)
    assert c.branch.reached and c.value[0] == -20 and c.value[-1] == 10


@pytest.mark.parametrize("kwargs, args", [
    ({"param": "paddle_accel=-16:2", "param2": ("alpha", 0.9)},
     ["paddle-juggler", "--param", "paddle_accel=-16:2", "--param2", "alpha=0.9"]),
    ({"param": ("paddle_accel", -16, 2), "param2": "alpha=0.6", "step2": 0.05, "max_step2": 0.05},
     ["paddle-juggler", "--param", "paddle_accel=-16:2", "--param2", "alpha=0.6", "--step2",
      "0.05", "--max-step2", "0.05"]),
    ({"param": ("paddle_accel", 10, 30)}, ["paddle-juggler", "--param", "paddle_accel=10:30"]),
    ({"param": ("paddle_accel", -5, -12), "step": 0.5, "method": "natural", "alpha": 0.4},
     ["paddle-juggler", "-p", "alpha=0.4", "--param", "paddle_accel=-5:-12", "--step", "0.5",
      "--method", "natural"]),
    ({"param": ("pump", 1.0, 2.0), "max_points": 20},
     ["hopper-pumped", "--param", "pump=1:2", "--max-points", "20"]),
])
def test_options_match_program(kwargs, args):
    kw = dict(kwargs)
    c = hes.continue_(args[0], kw.pop("param"), **kw)
    text, doc = program(*args)
    assert c.to_json() == text
    check_columns(c, doc)


def test_doublings_match_program(plugin):
    ball = plugin("bouncing_ball_plugin")
    c = hes.continue_(ball, ("amplitude", 0.08, 0.12), doublings=2)
    text, doc = program("--model", ball, "--param", "amplitude=0.08:0.12", "--doublings", "2")
    assert c.to_json() == text
    check_columns(c, doc)
    # the cascade: branches of 1, 2 and 4 returns, each switched at its parent's PD
    assert [b.returns for b in c.branches] == [1, 2, 4]
    assert [b.from_branch for b in c.branches] == [None, 0, 1]
    assert c.branches[1].xr.shape[1:] == (2, 2)


def test_start_at_and_resume_match_program(plugin, tmp_path):
    walker = plugin("simplest_walker_plugin")
    c = hes.continue_(walker, ("gamma", 0.001, 0.02), start_at=0.009, tol=1e-10)
    text, _ = program("--model", walker, "--param", "gamma=0.001:0.02", "--start-at", "0.009",
                      "--tol", "1e-10")
    assert c.to_json() == text
    assert c.value[0] == 0.001 and c.value[-1] == 0.02 and np.all(np.diff(c.value) > 0)
    one = hes.continue_(walker, ("gamma", 0.001, 0.02), start_at=0.009, tol=1e-10, jobs=1)
    assert one.to_json() == c.to_json()
    # cut after 6 points, then resumed from its document and from the object
    part = hes.continue_(walker, ("gamma", 0.001, 0.02), tol=1e-10, max_points=6)
    assert len(part.value) == 6 and not part.branch.reached
    f = tmp_path / "part.json"
    f.write_text(part.to_json())
    res = hes.continue_(walker, resume=str(f), tol=1e-10)
    text, doc = program("--model", walker, "--resume", str(f), "--tol", "1e-10")
    assert res.to_json() == text
    check_columns(res, doc)
    assert hes.continue_(walker, resume=part, tol=1e-10).to_json() == text
    assert np.array_equal(res.value[:6], part.value) and res.branch.reached
    pd = [p.value for p in res.labelled if p.label == "PD"]
    assert len(pd) == 1 and abs(pd[0] - [p.value for p in c.labelled if p.label == "PD"][0]) < 1e-9


def test_system_restored_and_start():
    s = hes.problem("paddle-juggler")
    before = s.params
    a = s.analyze()
    c = hes.continue_(s, ("paddle_accel", -8, -6), start=a.x0, returns=1)
    assert s.params == before
    assert c.x0[0] == pytest.approx(a.x0, abs=1e-9)


def kicked_ball(field=None):
    """A ball kicked at every bounce, v+ = -e v- + c, written in Python: its
    orbit bounces with v+ = c / (1 - e), period 2 v+ / g, multiplier e."""
    return hes.model(
        name="kicked-ball",
        modes=[{"name": "fly", "dim": 2, "states": ["y", "v"],
                "field": field or (lambda t, x, p: [x[1], -p[0]])}],
        transitions=[{"name": "bounce", "from": "fly", "to": "fly", "direction": "down",
                      "guard": lambda t, x, p: x[0],
                      "reset": lambda t, x, p: [x[0], -p[1] * x[1] + p[2]]}],
        params=[("g", 9.81), ("e", 0.5), ("c", 1.0)],
        orbit={"mode": "fly", "section": "bounce", "sequence": ["bounce"],
               "free_states": ["v"], "residual": ["v"],
               "guess": lambda p: [0.0, p[2] / (1 - p[1])]})


def test_model_written_in_python():
    c = hes.continue_(kicked_ball(), ("c", 1.0, 2.0))
    assert c.branch.reached and c.value[0] == 1.0 and c.value[-1] == 2.0
    assert np.allclose(c.period, 2 * c.value / ((1 - 0.5) * 9.81), rtol=1e-8)
    assert np.allclose(c.psi, 0.5, atol=1e-8)
    assert hes.continue_(kicked_ball(), ("c", 1.0, 2.0), start_at=1.5).branch.reached

    def field(t, x, p):
        if p[2] > 1.5:
            raise RuntimeError("from the model")
        return [x[1], -p[0]]
    with pytest.raises(RuntimeError, match="from the model"):
        hes.continue_(kicked_ball(field), ("c", 1.0, 2.0))


def test_progress_callable():
    seen = []

    def progress(info):
        seen.append(info)
        return False if info["points"] >= 5 else None
    c = hes.continue_("paddle-juggler", ("paddle_accel", -20, 10), progress=progress)
    assert len(c.value) == 5 and not c.branch.reached
    assert c.branch.why == "stopped by the caller" and not c.interrupted
    assert [i["points"] for i in seen] == [1, 2, 3, 4, 5]
    assert seen[-1]["value"] == c.value[-1] and seen[-1]["kind"] == "branch"

    def bad(info):
        raise ZeroDivisionError("from the callable")
    with pytest.raises(ZeroDivisionError, match="from the callable"):
        hes.continue_("paddle-juggler", ("paddle_accel", -20, 10), progress=bad)


CTRL_C = r"""
import sys, traceback
import hes
print("started", flush=True)
try:
    hes.continue_(sys.argv[1], ("gamma", 0.001, 0.02), step=1e-6, max_step=1e-6,
                  min_step=1e-7, max_points=100000)
except KeyboardInterrupt as e:
    r = e.result
    print("points", len(r.value), r.branch.why, flush=True)
    traceback.print_exc()
    sys.exit(130)
print("not interrupted", flush=True)
"""


def test_ctrl_c_stops_a_long_continuation(plugin):
    walker = plugin("simplest_walker_plugin")
    env = dict(os.environ)
    p = subprocess.Popen([sys.executable, "-c", CTRL_C, walker], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    assert p.stdout.readline().strip() == "started"
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130, (p.returncode, out, err)
    assert "KeyboardInterrupt" in err
    words = out.split()
    assert words[0] == "points" and int(words[1]) >= 2
    assert "stopped: interrupted (SIGINT)" in out


@pytest.mark.parametrize("call, error", [
    (lambda: hes.continue_("paddle-juggler", ("nope", 1, 2)), hes.NotFoundError),
    (lambda: hes.continue_("paddle-juggler", ("paddle_accel", 1, 1)), hes.InvalidArgument),
    (lambda: hes.continue_("paddle-juggler", ("paddle_accel", math.nan, 1)), hes.InvalidArgument),
    (lambda: hes.continue_("paddle-juggler", "paddle_accel=x:1"), hes.InvalidArgument),
    (lambda: hes.continue_("paddle-juggler"), hes.InvalidArgument),
    (lambda: hes.continue_("paddle-juggler", ("paddle_accel", -5, -4), max_points=1),
     hes.InvalidArgument),
    (lambda: hes.continue_("paddle-juggler", ("paddle_accel", -5, -4), step=0),
     hes.InvalidArgument),
    (lambda: hes.continue_("paddle-juggler", ("paddle_accel", -5, -4), method="newton"),
     hes.InvalidArgument),
    (lambda: hes.continue_("paddle-juggler", ("paddle_accel", -5, -4), start=[1, 2, 3]),
     hes.InvalidArgument),
    (lambda: hes.continue_("paddle-juggler", ("paddle_accel", -5, -4), start_at=3),
     hes.InvalidArgument),
    (lambda: hes.continue_("paddle-juggler", ("paddle_accel", -5, -4), jobs=2),
     hes.InvalidArgument),
    (lambda: hes.continue_("paddle-juggler", ("paddle_accel", -5, -4), paddle_accel=1),
     hes.InvalidArgument),
    (lambda: hes.continue_("paddle-juggler", ("paddle_accel", -5, -4),
                           param2=("paddle_accel", 3)), hes.InvalidArgument),
    (lambda: hes.continue_("paddle-juggler", ("paddle_accel", -5, -4), param2=("nope", 3)),
     hes.NotFoundError),
    (lambda: hes.continue_("paddle-juggler", ("paddle_accel", -5, -4), step2=0.1),
     hes.InvalidArgument),
    (lambda: hes.continue_("trot-rigid", ("g", 9, 10)), hes.InvalidArgument),
    (lambda: hes.continue_("no-such-problem", ("a", 1, 2)), hes.NotFoundError),
    (lambda: hes.continue_("paddle-juggler", resume=42), hes.InvalidArgument),
])
def test_bad_input(call, error):
    with pytest.raises(error):
        call()


def test_bad_resume_files(tmp_path):
    with pytest.raises(hes.InvalidArgument, match="nosuch"):
        hes.continue_("paddle-juggler", resume=str(tmp_path / "nosuch.json"))
    garbage = tmp_path / "garbage.json"
    garbage.write_text("not json")
    with pytest.raises(hes.InvalidArgument, match="not JSON"):
        hes.continue_("paddle-juggler", resume=str(garbage))
    part = hes.continue_("paddle-juggler", ("paddle_accel", -20, -15), max_points=4)
    f = tmp_path / "pj.json"
    f.write_text(part.to_json())
    with pytest.raises(hes.InvalidArgument, match="follows paddle_accel, not alpha"):
        hes.continue_("paddle-juggler", ("alpha", 0.4, 0.6), resume=str(f))
    with pytest.raises(hes.InvalidArgument, match="not 'slip-hopper'"):
        hes.continue_("slip-hopper", resume=str(f))
