"""slip.py - the SLIP hopper written in Python: the model of hes's built-in
problem "slip-hopper" (problems/slip_hopper.c, the HES paper's Sec. IV-B),
as a new user would write it for hes.model().

Modes: descent and ascent (flight, state [vx, y, vy]) and stance (the body
relative to the toe, [xs, vxs, ys, vys]).  Touchdown when the toe, at leg
angle theta = theta_td + K (vx - apex_speed) + thetadot (t - t_td_nominal)
from the vertical, reaches the ground; liftoff when the leg force vanishes;
the apex (vy = 0, the orbit's section) restarts the model clock.  K and
thetadot are shape parameters; l_td and theta_td are solved so that the
apex-to-apex map has the fixed point (apex_speed, apex_height).

    python3 slip.py        analyses it and the built-in side by side
"""
from math import cos, hypot, sin, sqrt

import numpy as np

import hes

# the parameter vector's order (the order of PARAMS below)
M, G, L0, KS, B, H, V, KGAIN, THDOT, LTD, THTD = range(11)

PARAMS = [
    {"name": "m", "value": 1.0, "unit": "kg", "flags": ["positive"], "min": 0.0},
    {"name": "g", "value": 9.81, "unit": "m/s^2", "flags": ["positive"], "min": 0.0},
    {"name": "l0", "value": 1.0, "unit": "m", "flags": ["positive"], "min": 0.0},
    {"name": "k", "value": 500.0, "unit": "N/m", "flags": ["positive"], "min": 0.0},
    {"name": "b", "value": 1.0, "unit": "N s/m", "min": 0.0},
    {"name": "apex_height", "value": 2.5, "unit": "m", "flags": ["positive"], "min": 0.0},
    {"name": "apex_speed", "value": 2.0, "unit": "m/s"},
    {"name": "K", "value": 0.0, "unit": "rad s/m", "flags": ["shape"], "search": (-0.2, 0.6)},
    {"name": "thetadot", "value": 0.0, "unit": "rad/s", "flags": ["shape"],
     "search": (-3.0, 1.0)},
    {"name": "l_td", "value": 0.9, "unit": "m", "flags": ["solved", "positive"], "min": 0.0},
    {"name": "theta_td", "value": 0.2, "unit": "rad", "flags": ["solved"],
     "min": -1.5707963267948966, "max": 1.5707963267948966},
]


def flight(t, x, p):
    return [0.0, x[2], -p[G]]


def flight_dx(t, x, p):
    return [[0, 0, 0], [0, 0, 1], [0, 0, 0]]


def leg(x, p):
    """Leg length l, its rate, the leg force F and their gradients in x."""
    xs, vxs, ys, vys = x
    l = hypot(xs, ys)
    if not l > 0:
        raise hes.ModelFailure("zero leg length")
    ldot = (xs * vxs + ys * vys) / l
    F = p[KS] * (p[L0] - l) - p[B] * ldot
    dl = np.array([xs / l, 0.0, ys / l, 0.0])
    dldot = np.array([(vxs - ldot * xs / l) / l, xs / l, (vys - ldot * ys / l) / l, ys / l])
    return l, ldot, F, dl, -p[KS] * dl - p[B] * dldot


def stance(t, x, p):
    if x[2] <= 0:
        raise hes.ModelFailure("the body reached the ground during stance")
    l, _, F, _, _ = leg(x, p)
    Gs = F / (p[M] * l)
    return [x[1], Gs * x[0], x[3], Gs * x[2] - p[G]]


def stance_dx(t, x, p):
    l, _, F, dl, dF = leg(x, p)
    ml = p[M] * l
    Gs = F / ml
    dG = dF / ml - F / (ml * l) * dl
    J = np.zeros((4, 4))
    J[0, 1] = J[2, 3] = 1.0
    J[1] = dG * x[0]
    J[1, 0] += Gs
    J[3] = dG * x[2]
    J[3, 2] += Gs
    return J


def t_td_nominal(p):
    return sqrt(2 * (p[H] - p[LTD] * cos(p[THTD])) / p[G])


def leg_angle(t, x, p):
    return p[THTD] + p[KGAIN] * (x[0] - p[V]) + p[THDOT] * (t - t_td_nominal(p))


def td_guard(t, x, p):
    return x[1] - p[LTD] * cos(leg_angle(t, x, p))


def td_guard_dx(t, x, p):
    return [p[LTD] * sin(leg_angle(t, x, p)) * p[KGAIN], 1.0, 0.0]


def td_guard_dt(t, x, p):
    return p[LTD] * sin(leg_angle(t, x, p)) * p[THDOT]


def td_reset(t, x, p):
    return [-p[LTD] * sin(leg_angle(t, x, p)), x[0], x[1], x[2]]


def td_reset_dx(t, x, p):
    c = -p[LTD] * cos(leg_angle(t, x, p))
    return [[c * p[KGAIN], 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]


def td_reset_dt(t, x, p):
    return [-p[LTD] * cos(leg_angle(t, x, p)) * p[THDOT], 0, 0, 0]


def lo_guard(t, x, p):
    return leg(x, p)[2]


def lo_guard_dx(t, x, p):
    return leg(x, p)[4]


def lo_reset(t, x, p):
    if not x[3] > 0:
        raise hes.ModelFailure("liftoff while moving down: no apex follows, the hopper fell")
    return [x[1], x[2], x[3]]


def lo_reset_dx(t, x, p):
    return [[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]


def apex_reset(t, x, p):
    if not x[1] > p[LTD] * cos(leg_angle(0.0, x, p)):
        raise hes.ModelFailure("the apex is below the touchdown height: the hopper fell")
    return list(x)


def zero(t, x, p):
    return 0.0


def validate(p):
    if not p[H] > p[LTD] * cos(p[THTD]):
        return (f"apex_height = {p[H]:g} must exceed the touchdown height "
                f"l_td cos(theta_td) = {p[LTD] * cos(p[THTD]):g}")
    if not p[LTD] <= p[L0]:
        return f"preload leg length l_td = {p[LTD]:g} exceeds the rest length l0 = {p[L0]:g}"
    return None


def spec(jacobians=True, name="slip-python"):
    """The model for hes.model(); without jacobians the library takes
    central differences of the callbacks instead."""
    j = (lambda f: f) if jacobians else (lambda f: None)
    flight_names = ["vx", "y", "vy"]
    return {
        "name": name,
        "description": "the SLIP hopper written in Python (share/examples/python/slip.py)",
        "integrator": "rk8",
        "max_phase_time": 100.0,
        "modes": [
            {"name": "descent", "dim": 3, "states": flight_names, "field": flight,
             "field_dx": j(flight_dx)},
            {"name": "ascent", "dim": 3, "states": flight_names, "field": flight,
             "field_dx": j(flight_dx)},
            {"name": "stance", "dim": 4, "states": ["xs", "vxs", "ys", "vys"],
             "field": stance, "field_dx": j(stance_dx)},
        ],
        "transitions": [
            {"name": "touchdown", "from": "descent", "to": "stance", "direction": "down",
             "guard": td_guard, "reset": td_reset, "guard_dx": j(td_guard_dx),
             "guard_dt": j(td_guard_dt), "reset_dx": j(td_reset_dx),
             "reset_dt": j(td_reset_dt)},
            {"name": "liftoff", "from": "stance", "to": "ascent", "direction": "down",
             "guard": lo_guard, "reset": lo_reset, "guard_dx": j(lo_guard_dx),
             "guard_dt": j(zero), "reset_dx": j(lo_reset_dx), "reset_dt": j(lambda t, x, p: [0, 0, 0])},
            {"name": "apex", "from": "ascent", "to": "descent", "direction": "down",
             "guard": lambda t, x, p: x[2], "reset": apex_reset,
             "guard_dx": j(lambda t, x, p: [0, 0, 1]), "guard_dt": j(zero),
             "reset_dx": j(lambda t, x, p: np.eye(3)), "reset_dt": j(lambda t, x, p: [0, 0, 0]),
             "clock_reset": True},
        ],
        "params": PARAMS,
        "validate": validate,
        "orbit": {
            "mode": "descent", "section": "apex",
            "sequence": ["touchdown", "liftoff", "apex"],
            "free_params": ["l_td", "theta_td"], "residual": ["vx", "y"],
            "guess": lambda p: [p[V], p[H], 0.0],
        },
    }


if __name__ == "__main__":
    for K, thd in ((0.0, 0.0), (0.1, 0.5)):
        mine = hes.model(spec()).set(K=K, thetadot=thd).analyze()
        builtin = hes.analyze("slip-hopper", K=K, thetadot=thd)
        print(f"K {K} thetadot {thd}: psi {mine.psi:.12f} (Python) "
              f"{builtin.psi:.12f} (built-in)")
