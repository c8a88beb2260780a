"""slip_numba.py - the SLIP hopper of slip.py compiled with numba's @cfunc:
every callback a C function that hes calls directly, with no Python and no
GIL, so that an analysis runs at the speed of a C model and a sweep of it
scales with its threads.

A callback has hes's C signature (hes_fn):

    int f(double t, const double *x, const double *p, double *out, void *data)

numba.carray views the pointers as arrays; a callback returns 0, or
nonzero for a state outside the model (as a C model does).  Jacobians are
column-major: out[i + rows * j] = d out_i / d x_j.

    python3 slip_numba.py      analyses it beside the built-in (needs python3-numba)
"""
from math import cos, hypot, sin, sqrt

import numpy as np
from numba import carray, cfunc, njit, types

import hes
import slip

M, G, L0, KS, B, H, V, KGAIN, THDOT, LTD, THTD = range(11)
NP = len(slip.PARAMS)
SIG = types.int32(types.float64, types.CPointer(types.float64), types.CPointer(types.float64),
                  types.CPointer(types.float64), types.voidptr)
compiled = cfunc(SIG, nopython=True, cache=False)


@njit
def leg_length_dx(x, l, j):
    """d l / d x_j of the leg length l = |(xs, ys)|, x = [xs, vxs, ys, vys]."""
    return x[0] / l if j == 0 else x[2] / l if j == 2 else 0.0


@njit
def leg_force_dx(x, p, l, j):
    """d F / d x_j of the leg force F = k (l0 - l) - b ldot."""
    ldot = (x[0] * x[1] + x[2] * x[3]) / l
    dldot = ((x[1] - ldot * x[0] / l) / l, x[0] / l, (x[3] - ldot * x[2] / l) / l, x[2] / l)
    return -p[KS] * leg_length_dx(x, l, j) - p[B] * dldot[j]


@compiled
def flight(t, x_, p_, out_, d):
    x, p, out = carray(x_, 3), carray(p_, NP), carray(out_, 3)
    out[0] = 0.0
    out[1] = x[2]
    out[2] = -p[G]
    return 0


@compiled
def flight_dx(t, x_, p_, out_, d):
    out = carray(out_, 9)
    for i in range(9):
        out[i] = 0.0
    out[1 + 3 * 2] = 1.0
    return 0


@compiled
def stance(t, x_, p_, out_, d):
    x, p, out = carray(x_, 4), carray(p_, NP), carray(out_, 4)
    if x[2] <= 0.0:
        return 1
    l = hypot(x[0], x[2])
    if not l > 0.0:
        return 2
    ldot = (x[0] * x[1] + x[2] * x[3]) / l
    Gs = (p[KS] * (p[L0] - l) - p[B] * ldot) / (p[M] * l)
    out[0] = x[1]
    out[1] = Gs * x[0]
    out[2] = x[3]
    out[3] = Gs * x[2] - p[G]
    return 0


@compiled
def stance_dx(t, x_, p_, out_, d):
    x, p, J = carray(x_, 4), carray(p_, NP), carray(out_, 16)
    l = hypot(x[0], x[2])
    if not l > 0.0:
        return 2
    F = p[KS] * (p[L0] - l) - p[B] * (x[0] * x[1] + x[2] * x[3]) / l
    ml = p[M] * l
    Gs = F / ml
    for j in range(4):
        dl = leg_length_dx(x, l, j)
        dG = leg_force_dx(x, p, l, j) / ml - F / (ml * l) * dl
        J[0 + 4 * j] = 1.0 if j == 1 else 0.0
        J[1 + 4 * j] = dG * x[0] + (Gs if j == 0 else 0.0)
        J[2 + 4 * j] = 1.0 if j == 3 else 0.0
        J[3 + 4 * j] = dG * x[2] + (Gs if j == 2 else 0.0)
    return 0


def _angle(t, x0, p):
    t_nom = sqrt(2.0 * (p[H] - p[LTD] * cos(p[THTD])) / p[G])
    return p[THTD] + p[KGAIN] * (x0 - p[V]) + p[THDOT] * (t - t_nom)


angle = njit(_angle)


@compiled
def td_guard(t, x_, p_, out_, d):
    x, p, out = carray(x_, 3), carray(p_, NP), carray(out_, 1)
    out[0] = x[1] - p[LTD] * cos(angle(t, x[0], p))
    return 0


@compiled
def td_guard_dx(t, x_, p_, out_, d):
    x, p, out = carray(x_, 3), carray(p_, NP), carray(out_, 3)
    out[0] = p[LTD] * sin(angle(t, x[0], p)) * p[KGAIN]
    out[1] = 1.0
    out[2] = 0.0
    return 0


@compiled
def td_guard_dt(t, x_, p_, out_, d):
    x, p, out = carray(x_, 3), carray(p_, NP), carray(out_, 1)
    out[0] = p[LTD] * sin(angle(t, x[0], p)) * p[THDOT]
    return 0


@compiled
def td_reset(t, x_, p_, out_, d):
    x, p, out = carray(x_, 3), carray(p_, NP), carray(out_, 4)
    out[0] = -p[LTD] * sin(angle(t, x[0], p))
    out[1] = x[0]
    out[2] = x[1]
    out[3] = x[2]
    return 0


@compiled
def td_reset_dx(t, x_, p_, out_, d):
    x, p, R = carray(x_, 3), carray(p_, NP), carray(out_, 12)
    for i in range(12):
        R[i] = 0.0
    R[0] = -p[LTD] * cos(angle(t, x[0], p)) * p[KGAIN]
    R[1] = 1.0
    R[2 + 4] = 1.0
    R[3 + 8] = 1.0
    return 0


@compiled
def td_reset_dt(t, x_, p_, out_, d):
    x, p, out = carray(x_, 3), carray(p_, NP), carray(out_, 4)
    out[0] = -p[LTD] * cos(angle(t, x[0], p)) * p[THDOT]
    out[1] = out[2] = out[3] = 0.0
    return 0


@compiled
def lo_guard(t, x_, p_, out_, d):
    x, p, out = carray(x_, 4), carray(p_, NP), carray(out_, 1)
    l = hypot(x[0], x[2])
    if not l > 0.0:
        return 2
    out[0] = p[KS] * (p[L0] - l) - p[B] * (x[0] * x[1] + x[2] * x[3]) / l
    return 0


@compiled
def lo_guard_dx(t, x_, p_, out_, d):
    x, p, out = carray(x_, 4), carray(p_, NP), carray(out_, 4)
    l = hypot(x[0], x[2])
    if not l > 0.0:
        return 2
    for i in range(4):
        out[i] = leg_force_dx(x, p, l, i)
    return 0


@compiled
def zero1(t, x_, p_, out_, d):
    carray(out_, 1)[0] = 0.0
    return 0


@compiled
def zero3(t, x_, p_, out_, d):
    out = carray(out_, 3)
    out[0] = out[1] = out[2] = 0.0
    return 0


@compiled
def lo_reset(t, x_, p_, out_, d):
    x, out = carray(x_, 4), carray(out_, 3)
    if not x[3] > 0.0:
        return 4
    out[0] = x[1]
    out[1] = x[2]
    out[2] = x[3]
    return 0


@compiled
def lo_reset_dx(t, x_, p_, out_, d):
    R = carray(out_, 12)
    for i in range(12):
        R[i] = 0.0
    R[0 + 3 * 1] = 1.0
    R[1 + 3 * 2] = 1.0
    R[2 + 3 * 3] = 1.0
    return 0


@compiled
def apex_guard(t, x_, p_, out_, d):
    carray(out_, 1)[0] = carray(x_, 3)[2]
    return 0


@compiled
def apex_guard_dx(t, x_, p_, out_, d):
    out = carray(out_, 3)
    out[0] = 0.0
    out[1] = 0.0
    out[2] = 1.0
    return 0


@compiled
def apex_reset(t, x_, p_, out_, d):
    x, p, out = carray(x_, 3), carray(p_, NP), carray(out_, 3)
    if not x[1] > p[LTD] * cos(angle(0.0, x[0], p)):
        return 3
    out[0] = x[0]
    out[1] = x[1]
    out[2] = x[2]
    return 0


@compiled
def identity3(t, x_, p_, out_, d):
    R = carray(out_, 9)
    for i in range(9):
        R[i] = 1.0 if i % 4 == 0 else 0.0
    return 0


VALIDATE_SIG = types.int32(types.CPointer(types.float64), types.CPointer(types.uint8),
                          types.uintp, types.voidptr)
# the reasons, as NUL-terminated bytes
SINK = np.frombuffer(b"apex_height must exceed the touchdown height l_td cos(theta_td)\0",
                     dtype=np.uint8)
LONG = np.frombuffer(b"preload leg length l_td exceeds the rest length l0\0", dtype=np.uint8)


@njit
def _say(msg_, n, text):
    msg = carray(msg_, np.int64(n))
    k = min(np.int64(n), np.int64(len(text))) - 1
    for i in range(k):
        msg[i] = text[i]
    msg[k] = 0


@cfunc(VALIDATE_SIG, nopython=True)
def validate(p_, msg_, n, d):
    """slip.validate compiled: the library checks the parameters at every
    step of the orbit search (it solves for l_td and theta_td), so a
    validate written in Python would take the GIL that often."""
    p = carray(p_, NP)
    if not p[H] > p[LTD] * cos(p[THTD]):
        _say(msg_, n, SINK)
        return 1
    if not p[LTD] <= p[L0]:
        _say(msg_, n, LONG)
        return 1
    return 0


def spec(name="slip-numba"):
    """slip.py's model with every callback compiled."""
    s = slip.spec(name=name)
    s["description"] = "the SLIP hopper compiled with numba (share/examples/python/slip_numba.py)"
    s["validate"] = validate
    fl, de = s["modes"][0], s["modes"][1]
    for md in (fl, de):
        md["field"], md["field_dx"] = flight, flight_dx
    s["modes"][2]["field"], s["modes"][2]["field_dx"] = stance, stance_dx
    td, lo, ap = s["transitions"]
    td.update(guard=td_guard, guard_dx=td_guard_dx, guard_dt=td_guard_dt, reset=td_reset,
              reset_dx=td_reset_dx, reset_dt=td_reset_dt)
    lo.update(guard=lo_guard, guard_dx=lo_guard_dx, guard_dt=zero1, reset=lo_reset,
              reset_dx=lo_reset_dx, reset_dt=zero3)
    ap.update(guard=apex_guard, guard_dx=apex_guard_dx, guard_dt=zero1, reset=apex_reset,
              reset_dx=identity3, reset_dt=zero3)
    return s


if __name__ == "__main__":
    for K, thd in ((0.0, 0.0), (0.1, 0.5)):
        mine = hes.model(spec()).set(K=K, thetadot=thd).analyze()
        builtin = hes.analyze("slip-hopper", K=K, thetadot=thd)
        print(f"K {K} thetadot {thd}: psi {mine.psi:.12f} (numba) "
              f"{builtin.psi:.12f} (built-in)")
