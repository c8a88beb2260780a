#!/usr/bin/env python3
"""slip_scipy.py - the baseline of bench_sweep.sh: the SLIP hopper's
stability analysis as a user would write it with SciPy (Debian's
python3-scipy), without hes: solve_ivp with events for the apex-to-apex
map (descent, touchdown, stance, liftoff, ascent, apex), Newton with a
finite-difference Jacobian for the solved parameters l_td and theta_td,
and the multipliers from a central-difference Jacobian of the return map
on the apex section.  Same model as problems/slip_hopper.c, same
tolerances as hes (rtol = atol = 1e-12), LSODA (Adams/BDF like CVODES).

Usage: slip_scipy.py K1,thetadot1 K2,thetadot2 ...   prints one line per
point: K thetadot psi (or 'failed').  bench_python.py imports analyse().
"""
import math
import sys

import numpy as np
from scipy.integrate import solve_ivp

M, G, L0, KS, B, H, V = 1.0, 9.81, 1.0, 500.0, 1.0, 2.5, 2.0
TOL = dict(rtol=1e-12, atol=1e-12, method="LSODA")


def return_map(x0, l_td, th_td, K, thd):
    """apex state [vx, y, vy] -> next apex state, or None (fall)."""
    t_nom = math.sqrt(2 * (H - l_td * math.cos(th_td)) / G)

    def angle(t, vx):
        return th_td + K * (vx - V) + thd * (t - t_nom)

    def flight(t, x):
        return [0.0, x[2], -G]

    def touchdown(t, x):
        return x[1] - l_td * math.cos(angle(t, x[0]))
    touchdown.terminal, touchdown.direction = True, -1
    d = solve_ivp(flight, (0, 100), x0, events=touchdown, **TOL)
    if not d.t_events[0].size:
        return None
    t1, (vx, y, vy) = d.t_events[0][0], d.y_events[0][0]
    th = angle(t1, vx)
    s0 = [-l_td * math.sin(th), vx, y, vy]

    def force(x):
        l = math.hypot(x[0], x[2])
        ldot = (x[0] * x[1] + x[2] * x[3]) / l
        return KS * (L0 - l) - B * ldot, l

    def stance(t, x):
        F, l = force(x)
        g = F / (M * l)
        return [x[1], g * x[0], x[3], g * x[2] - G]

    def liftoff(t, x):
        return force(x)[0]
    liftoff.terminal, liftoff.direction = True, -1
    s = solve_ivp(stance, (0, 100), s0, events=liftoff, **TOL)
    if not s.t_events[0].size:
        return None
    xs, vxs, ys, vys = s.y_events[0][0]
    if vys <= 0:
        return None

    def apex(t, x):
        return x[2]
    apex.terminal, apex.direction = True, -1
    a = solve_ivp(flight, (0, 100), [vxs, ys, vys], events=apex, **TOL)
    if not a.t_events[0].size:
        return None
    return a.y_events[0][0]


def analyse(K, thd):
    x0 = np.array([V, H, 0.0])
    u = np.array([0.9, 0.2])                      # l_td, theta_td: initial guess

    def residual(u):
        xr = return_map(x0, u[0], u[1], K, thd)
        return None if xr is None else (xr - x0)[:2]
    for _ in range(50):                          # Newton, forward-difference Jacobian
        r = residual(u)
        if r is None:
            return None
        if np.max(np.abs(r)) < 1e-10:
            break
        J = np.empty((2, 2))
        for j in range(2):
            h = 1e-7 * max(1.0, abs(u[j]))
            up = u.copy()
            up[j] += h
            rp = residual(up)
            if rp is None:
                return None
            J[:, j] = (rp - r) / h
        u = u - np.linalg.solve(J, r)
    else:
        return None
    P = np.empty((2, 2))                         # return map on the section vy = 0
    for j in range(2):
        h = 1e-6 * max(1.0, abs(x0[j]))
        xp, xm = x0.copy(), x0.copy()
        xp[j] += h
        xm[j] -= h
        fp, fm = return_map(xp, u[0], u[1], K, thd), return_map(xm, u[0], u[1], K, thd)
        if fp is None or fm is None:
            return None
        P[:, j] = (fp[:2] - fm[:2]) / (2 * h)
    return max(abs(np.linalg.eigvals(P)))


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        K, thd = (float(v) for v in arg.split(","))
        psi = analyse(K, thd)
        print(K, thd, "failed" if psi is None else repr(psi), flush=True)
