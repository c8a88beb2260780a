#!/usr/bin/env python3
"""bench_python.py - one SLIP-hopper analysis from Python, four ways, side
by side in one run (make bench):

  SciPy      the analysis written with SciPy alone (slip_scipy.py:
             solve_ivp with events, finite-difference Newton and return
             map, tolerance 1e-12), the baseline;
  (a)        hes's built-in model, hes.analyze("slip-hopper", ...);
  (b)        the same model written in Python (share/examples/python/slip.py)
             through hes.model();
  (c)        that model compiled with numba's @cfunc
             (share/examples/python/slip_numba.py; skipped without numba);
  program    the program run from Python, `hes analyze --json` through
             subprocess, as before the module (HES, default src/hes).

Then a sweep of 600 points of the compiled model (the built-in when numba
is missing) on 1 and 2 threads, interleaved over 3 rounds: the ratio of
the medians shows whether the sweep's threads run in parallel (the
callbacks take no GIL).

The rounds are interleaved (each round times every way at every point), a
way's time per analysis is the median over rounds, and each is printed as a
ratio to SciPy's; psi of each way is compared with the built-in's.
Run with PYTHONPATH holding the module (make bench sets it).
"""
import json
import os
import statistics
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.dirname(os.path.dirname(here))
sys.path[:0] = [here, os.path.join(top, "share", "examples", "python")]

import hes  # noqa: E402
import slip  # noqa: E402
import slip_scipy  # noqa: E402

POINTS = [(0.0, 0.0), (0.1, 0.5), (0.3, -1.0), (0.5, 0.0)]
ROUNDS = 3


def per_analysis(fn, reps):
    """Seconds per call of fn, over reps calls; and its last result."""
    t = time.perf_counter()
    for _ in range(reps):
        r = fn()
    return (time.perf_counter() - t) / reps, r


def main():
    ways = {"SciPy": None, "(a) built-in": hes.problem("slip-hopper"),
            "(b) Python model": hes.model(slip.spec())}
    try:
        t = time.perf_counter()
        import slip_numba                # compiles the callbacks
        ways["(c) numba model"] = hes.model(slip_numba.spec())
        compile_s = time.perf_counter() - t
    except ImportError:
        compile_s = None
    program = os.environ.get("HES", os.path.join(top, "src", "hes"))
    if os.path.exists(program):
        ways["program"] = None
    reps = {"SciPy": 1, "(a) built-in": 200, "(b) Python model": 5, "(c) numba model": 200,
            "program": 5}
    times = {w: [] for w in ways}
    worst = {w: 0.0 for w in ways}
    for _ in range(ROUNDS):
        for K, thd in POINTS:
            ref = hes.analyze("slip-hopper", K=K, thetadot=thd).psi
            for w, s in ways.items():
                if w == "program":
                    cmd = [program, "analyze", "slip-hopper", "-p", f"K={K}", "-p",
                           f"thetadot={thd}", "--json"]
                    dt, out = per_analysis(lambda: subprocess.run(
                        cmd, check=True, capture_output=True).stdout, reps[w])
                    psi = json.loads(out)["psi"]
                elif s is None:
                    dt, psi = per_analysis(lambda: slip_scipy.analyse(K, thd), reps[w])
                else:
                    s.set(K=K, thetadot=thd)
                    dt, a = per_analysis(s.analyze, reps[w])
                    psi = a.psi
                times[w].append(dt)
                worst[w] = max(worst[w], abs(psi - ref))
    print(f"SLIP hopper, one analysis from Python; {os.cpu_count()} cores online; "
          f"{len(POINTS)} points x {ROUNDS} interleaved rounds, medians")
    base = statistics.median(times["SciPy"])
    for w in ways:
        m = statistics.median(times[w])
        print(f"{w:18s} {m * 1e3:10.3f} ms   {base / m:8.1f} x SciPy   "
              f"psi vs built-in: max |difference| {worst[w]:.1e}")
    if compile_s is None:
        print("(c) numba model: skipped (install python3-numba)")
    else:
        print(f"(numba compiled the model's 20 callbacks in {compile_s:.1f} s, once)")


def sweep_threads(system):
    """Median seconds of a 20 x 30 sweep on 1 and on 2 threads."""
    import numpy as np
    grid = {"K": np.linspace(0.0, 0.2, 20), "thetadot": np.linspace(-1, 1, 30)}
    times = {1: [], 2: []}
    for _ in range(ROUNDS):
        for jobs in (1, 2):
            t = time.perf_counter()
            r = hes.sweep(system, grid=grid, jobs=jobs)
            times[jobs].append(time.perf_counter() - t)
            assert len(r.psi) == 600
    return statistics.median(times[1]), statistics.median(times[2])


if __name__ == "__main__":
    main()
    try:
        import slip_numba
        model, what = hes.model(slip_numba.spec()), "numba model"
    except ImportError:
        model, what = hes.problem("slip-hopper"), "built-in (no numba)"
    one, two = sweep_threads(model)
    print(f"sweep of 600 points, {what}: 1 thread {one:.3f} s, 2 threads {two:.3f} s, "
          f"{one / two:.2f} x")
