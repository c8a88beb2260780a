"""hes.sweep against `hes sweep`: the same JSON lines (--json) and the same
resumable CSV file (-o) for the same points, resumes of a file cut short
(by a damaged last row, or by Ctrl-C in a running sweep), the speed-up of
two threads on a compiled model, and refusals of bad input."""
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import hes
from conftest import run_hes, same_document


def json_lines(*args):
    """The rows `hes sweep ... --json` prints, parsed."""
    out = run_hes("sweep", *args, "--json").stdout
    return [json.loads(line) for line in out.splitlines()]


def same_rows(result, lines):
    """result.to_json() is the program's output, line by line, and the
    result's arrays hold the numbers of its rows."""
    mine = [json.loads(line) for line in result.to_json().splitlines()]
    assert len(mine) == len(lines) == len(result)
    for a, b in zip(mine, lines):
        same_document(a, b)
    for i, row in enumerate(lines):
        assert result.index[i] == row["index"]
        assert result.status[i] == row["status"]
        for j, name in enumerate(result.names):
            assert result.values[i, j] == row["params"][name]
        if row["status"] == "ok":
            assert result.psi[i] == row["psi"]
            assert result.period[i] == row["period"]
            assert result.verdict[i] == row["verdict"]
            assert result.stable[i] == row["stable"]
            assert result.branch_jump[i] == row["branch_jump"]
            mult = [complex(re, im) for re, im in row["multipliers"]]
            assert list(result.multipliers[i, :len(mult)]) == mult
            assert np.all(np.isnan(result.multipliers[i, len(mult):]))
        else:
            assert math.isnan(result.psi[i]) and result.verdict[i] == ""
            assert row["message"] == result.message[i].replace('"', "'")


def csv_rows(path):
    """The rows of a sweep file by index (its '#' lines and header apart)."""
    with open(path) as f:
        lines = f.read().splitlines()
    body = [l for l in lines if not l.startswith("#")][1:]
    return {int(l.split(",", 1)[0]): l for l in body}


def test_grid_matches_program():
    r = hes.sweep("slip-hopper", grid={"K": "0:0.3:4", "thetadot": np.linspace(0, 1, 3)})
    same_rows(r, json_lines("slip-hopper", "--grid", "K=0:0.3:4", "--grid", "thetadot=0:1:3"))
    assert r.names == ["K", "thetadot"] and r.points.shape == (12, 2)
    # the first axis varies slowest; every parameter after the analysis
    assert list(r["K"][:3]) == [0.0] * 3 and r["thetadot"][2] == 1.0
    assert r.params.shape == (12, len(r.param_names))
    assert np.all(r["l_td"] > 0.9) and np.all(r["p.K"] == r["K"])
    assert np.all(np.abs(r.multipliers[:, 0]) == r.psi)
    assert r.rows[5]["point"] == {"K": r.points[5, 0], "thetadot": 1.0} and r.rows[5]["index"] == 5
    assert r.x0.shape == (12, 3) and np.all(r.x0[:, 0] == 2.0)


def test_failed_points_and_fixed_params():
    # apex_speed 20 and 40: the hopper falls (a failed row with its message)
    r = hes.sweep("slip-hopper", grid={"apex_speed": "0:40:3"}, K=0.1)
    same_rows(r, json_lines("slip-hopper", "-p", "K=0.1", "--grid", "apex_speed=0:40:3"))
    assert list(r.status) == ["ok", "no periodic orbit", "no periodic orbit"]
    assert "fell" in r.message[1] and r.message[0] == ""


def test_random_list_and_points_match_program(tmp_path):
    r = hes.sweep("slip-hopper", random=12, bounds={"K": (0, 0.2), "thetadot": (0, 1)}, seed=5)
    same_rows(r, json_lines("slip-hopper", "--random", "12", "--bounds", "K=0:0.2",
                            "--bounds", "thetadot=0:1", "--seed", "5"))
    # every coordinate takes each of the 12 strata once (Latin hypercube)
    assert sorted((r.values[:, 0] / 0.2 * 12).astype(int)) == list(range(12))
    pts = r.values[:5]
    listed = tmp_path / "points.csv"
    listed.write_text("K,thetadot\n" + "".join(f"{k!r},{t!r}\n" for k, t in pts))
    lines = json_lines("slip-hopper", "--list", str(listed))
    same_rows(hes.sweep("slip-hopper", list=listed), lines)
    same_rows(hes.sweep("slip-hopper", points={"K": pts[:, 0], "thetadot": pts[:, 1]}), lines)
    same_rows(hes.sweep("slip-hopper", points=[{"K": k, "thetadot": t} for k, t in pts]), lines)


def test_optimize_and_ess_match_program():
    same_rows(hes.sweep("slip-hopper", grid={"K": "0:0.2:2"}, optimize=True),
              json_lines("slip-hopper", "--grid", "K=0:0.2:2", "--optimize"))
    same_rows(hes.sweep("hopper-pumped", grid={"pump": "1.5:2.5:3"}, jobs=2),
              json_lines("hopper-pumped", "--grid", "pump=1.5:2.5:3"))


def test_plugin_file_is_the_programs(plugin, tmp_path):
    s = hes.load_plugin(plugin("rimless_wheel_plugin"))
    mine, theirs = tmp_path / "py.csv", tmp_path / "hes.csv"
    r = hes.sweep(s, grid={"gamma": "0.06:0.12:4", "a": [0.2, 0.25, 0.3]}, output=mine)
    run_hes("sweep", "--model", plugin("rimless_wheel_plugin"), "--grid", "gamma=0.06:0.12:4",
            "--grid", "a=0.2:0.3:3", "-o", theirs)
    assert mine.read_text() == theirs.read_text()
    assert "# points: grid gamma=0.06:0.12:4 a=0.2:0.3:3" in mine.read_text()
    assert r.kept == 0 and len(r) == 12 and r.output == mine
    # resumed, a complete file keeps every row and computes none
    again = hes.sweep(s, grid={"gamma": "0.06:0.12:4", "a": [0.2, 0.25, 0.3]}, output=mine,
                      resume=True)
    assert again.kept == 12 and len(again) == 0 and again.to_json() == ""
    assert mine.read_text() == theirs.read_text()


def test_resume_completes_a_damaged_file(tmp_path):
    full, cut = tmp_path / "full.csv", tmp_path / "cut.csv"
    grid = {"K": "0:0.3:5", "thetadot": "0:1:4"}
    run_hes("sweep", "slip-hopper", "--grid", "K=0:0.3:5", "--grid", "thetadot=0:1:4", "-o", full)
    text = full.read_text()
    lines = text.splitlines(keepends=True)
    # row 3 damaged (its checksum no longer matches), the file cut inside row 9
    head = [l for l in lines if l.startswith("#")]
    body = lines[len(head):]
    body[1 + 3] = body[1 + 3].replace(",ok,", ",OK,")
    cut.write_text("".join(head + body[:1 + 9]) + body[1 + 9][:25])
    r = hes.sweep("slip-hopper", grid=grid, output=cut, resume=True)
    assert (r.kept, r.corrupted, r.cut) == (8, 1, 1)
    assert sorted(r.index) == [3] + list(range(9, 20))
    assert csv_rows(cut) == csv_rows(full)
    # the program takes the completed file as its own: every row kept
    before = cut.read_text()
    run_hes("sweep", "slip-hopper", "--grid", "K=0:0.3:5", "--grid", "thetadot=0:1:4", "-o", cut,
            "--resume")
    assert cut.read_text() == before


def test_interrupt_keeps_rows_and_resume_completes(tmp_path):
    out, full = tmp_path / "sweep.csv", tmp_path / "full.csv"
    grid = "{'K': '0:0.3:50', 'thetadot': '0:1:30'}"
    script = ("import sys, hes\n"
              "print('start', flush=True)\n"
              f"hes.sweep('slip-hopper', grid={grid}, output=sys.argv[1])\n")
    p = subprocess.Popen([sys.executable, "-c", script, str(out)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "start"
    # interrupt once rows are coming (whatever the machine's speed)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and p.poll() is None:
        if out.exists() and out.read_text().count("\n") >= 20:
            break
        time.sleep(0.01)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode not in (0, -signal.SIGSEGV, -signal.SIGABRT), err
    assert "KeyboardInterrupt" in err and "Error" not in err.replace("KeyboardInterrupt", "")
    kept = csv_rows(out)
    assert 0 < len(kept) < 1500
    r = hes.sweep("slip-hopper", grid=eval(grid), output=out, resume=True)
    assert r.kept == len(kept) and r.corrupted == 0 and len(r) == 1500 - len(kept)
    assert list(r.index) == list(range(len(kept), 1500))
    run_hes("sweep", "slip-hopper", "--grid", "K=0:0.3:50", "--grid", "thetadot=0:1:30",
            "-o", full)
    assert csv_rows(out) == csv_rows(full)


def cpu_seconds():
    """The CPU time of every process on the machine (/proc/stat), and of
    this one (all its threads): (machine, own), in seconds."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    # user nice system idle iowait irq softirq steal
    busy = (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / os.sysconf("SC_CLK_TCK")
    t = os.times()
    return busy, t.user + t.system


def test_two_threads_are_faster(plugin):
    """A sweep of a compiled model (a plugin) on two threads takes at most
    1/1.8 of the time on one (the best of two runs on one thread, and of
    up to 40 on two).  The time of two
    threads counts only from runs during which the other processes on the
    machine took less than a tenth of a core (/proc/stat): on a machine
    whose second core stays busy there is nothing to measure."""
    if (os.cpu_count() or 1) < 2 or not os.path.exists("/proc/stat"):
        pytest.skip("needs two cores and /proc/stat")
    try:
        with open("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list") as f:
            siblings = f.read().strip()
    except OSError:
        siblings = "0"
    if siblings != "0" and os.cpu_count() <= len(siblings.replace("-", ",").split(",")):
        pytest.skip(f"the processors are hyperthreads of one core ({siblings})")
    s = hes.load_plugin(plugin("rimless_wheel_plugin"))
    n = 25

    def timed(jobs):
        grid = {"gamma": f"0.06:0.12:{n}", "a": "0.2:0.35:25"}
        b0, c0 = cpu_seconds()
        t0 = time.perf_counter()
        r = hes.sweep(s, grid=grid, jobs=jobs)
        t = time.perf_counter() - t0
        b1, c1 = cpu_seconds()
        assert len(r) == 25 * n and np.all(r.status == "ok")
        return t, ((b1 - b0) - (c1 - c0)) / t

    # at least two seconds on one thread, on a faster machine too, so that
    # the threads' last blocks, which may end unevenly, weigh little
    one = timed(1)[0]
    while one < 2.0 and n < 25 * 64:
        n = int(n * min(8.0, 2.4 / one) + 1)
        one = timed(1)[0]
    one = min(one, timed(1)[0])
    quiet, others = [], []
    # make check runs other suites beside this one: wait for a quiet
    # window (up to 40 runs, a second apart), as long as they may take
    for _ in range(40):
        t, busy = timed(2)
        others.append(busy)
        if busy < 0.1:
            quiet.append(t)
        if quiet and one / min(quiet) >= 1.8:
            break
        if busy >= 0.1:
            time.sleep(1.0)
    if not quiet:
        pytest.skip("other processes took " + ", ".join(f"{b:.2f}" for b in others)
                    + " cores during each run on two threads")
    two = min(quiet)
    assert one / two >= 1.8, f"1 thread {one:.3f} s, 2 threads {two:.3f} s"


def python_wheel(guard=None):
    """The rimless wheel of share/examples/rimless_wheel.c written in Python."""
    return hes.model(
        name="py-wheel",
        modes=[{"name": "stance", "dim": 2, "states": ["theta", "omega"],
                "field": lambda t, x, p: [x[1], p[0] / p[1] * math.sin(x[0])],
                "field_dx": lambda t, x, p: [[0, 1], [p[0] / p[1] * math.cos(x[0]), 0]]}],
        transitions=[{"name": "heelstrike", "from": "stance", "to": "stance", "direction": "up",
                      "guard": guard or (lambda t, x, p: x[0] - (p[3] + p[2])),
                      "reset": lambda t, x, p: [x[0] - 2 * p[2], math.cos(2 * p[2]) * x[1]]}],
        params=[("g", 9.81), ("l", 1.0), ("a", 0.3), ("gamma", 0.08)],
        orbit={"mode": "stance", "section": "heelstrike", "sequence": ["heelstrike"],
               "free_states": ["omega"], "residual": ["omega"],
               "guess": lambda p: [p[3] - p[2], 1.0]})


def test_python_model_on_threads(plugin):
    """A model written in Python sweeps on threads too (its callbacks take
    the GIL in turn), with the same rows as on one and the plugin's psi;
    an exception in a callback stops the sweep and is raised."""
    s = python_wheel()
    one = hes.sweep(s, grid={"gamma": "0.06:0.12:4"})
    two = hes.sweep(s, grid={"gamma": "0.06:0.12:4"}, jobs=2)
    assert one.to_json() == two.to_json()
    c = hes.sweep(hes.load_plugin(plugin("rimless_wheel_plugin")), grid={"gamma": "0.06:0.12:4"})
    assert np.allclose(one.psi, c.psi, rtol=1e-9) and np.allclose(one.period, c.period)
    calls = [0]

    def guard(t, x, p):
        calls[0] += 1
        if calls[0] > 300:
            raise ZeroDivisionError("from the guard")
        return x[0] - (p[3] + p[2])
    with pytest.raises(ZeroDivisionError, match="from the guard"):
        hes.sweep(python_wheel(guard), grid={"gamma": "0.06:0.12:4"}, jobs=2)


def test_plugin_system_in_a_cycle(plugin):
    """A plugin's System and its results in a reference cycle (as an
    exception's traceback makes one) are collected without a crash: the
    system is destroyed before its plugin is unloaded."""
    script = ("import gc, sys, hes\n"
              "for k in range(5):\n"
              "    s = hes.load_plugin(sys.argv[1])\n"
              "    h = type('H', (), {})()\n"
              "    h.me, h.s = h, s\n"
              "    h.r = hes.sweep(s, grid={'gamma': [0.08, 0.09]}, jobs=2)\n"
              "    h.a = s.analyze()\n"
              "    del s, h\n"
              "    gc.collect()\n"
              "print('collected')\n")
    p = subprocess.run([sys.executable, "-c", script, plugin("rimless_wheel_plugin")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.strip() == "collected", p.stderr


@pytest.mark.parametrize("kwargs, error, text", [
    ({"grid": {"nope": [1, 2]}}, hes.NotFoundError, "no parameter 'nope'"),
    ({"grid": {"K": []}}, hes.InvalidArgument, "no values"),
    ({"grid": {}}, hes.InvalidArgument, "no axes"),
    ({"grid": {"K": [0.0, math.nan]}}, hes.InvalidArgument, "not finite"),
    ({"grid": {"K": "0:1"}}, hes.InvalidArgument, "LO:HI:N"),
    ({"grid": {"l_td": [0.9]}}, hes.InvalidArgument, "solved for"),
    ({"grid": {"K": [0]}, "jobs": 0}, hes.InvalidArgument, "jobs"),
    ({"grid": {"K": [0]}, "jobs": 1.5}, hes.InvalidArgument, "jobs"),
    ({"grid": {"K": [0]}, "random": 3}, hes.InvalidArgument, "exactly one"),
    ({"random": 3}, hes.InvalidArgument, "go together"),
    ({"random": 3, "bounds": {"K": (1, 0)}}, hes.InvalidArgument, "LO <= HI"),
    ({"grid": {"K": [0]}, "seed": 2}, hes.InvalidArgument, "seed"),
    ({"grid": {"K": [0]}, "resume": True}, hes.InvalidArgument, "resume needs output"),
    ({"grid": {"K": [0]}, "K": 0.1}, hes.InvalidArgument, "is swept"),
    ({"points": [{"K": 0}, {"thetadot": 0}]}, hes.InvalidArgument, "points[1]"),
    ({"grid": {"K": [0]}, "output": "/nonexistent/dir/sweep.csv"}, hes.FileError,
     "/nonexistent/dir"),
])
def test_bad_input(kwargs, error, text):
    with pytest.raises(error) as e:
        hes.sweep("slip-hopper", **kwargs)
    assert text in str(e.value)
    assert isinstance(e.value, hes.Error)


def test_bad_input_of_models_and_files(plugin, tmp_path):
    with pytest.raises(hes.InvalidArgument, match="no shape parameters"):
        hes.sweep(hes.load_plugin(plugin("rimless_wheel_plugin")), grid={"gamma": [0.1]},
                  optimize=True)
    out = tmp_path / "a.csv"
    hes.sweep("slip-hopper", grid={"K": [0, 0.1]}, output=out)
    before = out.read_text()
    # another sweep's file: refused, and left as it was
    with pytest.raises(hes.InvalidArgument, match="a.csv"):
        hes.sweep("slip-hopper", grid={"K": [0, 0.2]}, output=out, resume=True)
    with pytest.raises(hes.InvalidArgument):
        hes.sweep("slip-hopper", grid={"thetadot": [0, 0.1]}, output=out, resume=True)
    assert out.read_text() == before
    with pytest.raises(hes.NotFoundError):
        hes.sweep("slip-hopper", list=tmp_path / "missing.csv")
    # read as the program reads it: a FIFO or a device is refused, never read
    fifo = tmp_path / "fifo.csv"
    os.mkfifo(fifo)
    for path in (fifo, "/dev/zero"):
        with pytest.raises(hes.InvalidArgument, match="list"):
            hes.sweep("slip-hopper", list=path)
    bad = tmp_path / "bad.csv"
    bad.write_text("K\n0.1\nx\n")
    with pytest.raises(hes.InvalidArgument, match="line 3"):
        hes.sweep("slip-hopper", list=bad)
