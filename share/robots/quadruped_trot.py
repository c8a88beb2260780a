#!/usr/bin/env python3
"""quadruped_trot.py - generates share/robots/quadruped_trot.json: the free
quadruped of quadruped_free.xml trotting under joint PD control about a
periodic reference, with its orbit's mode, section, sequence and guess.

The gait.  Each leg follows one flex profile f(theta) over the period
(theta = omega t, omega = 2 pi / period): the hip at h0 + hx + f and the
knee at -2 (h0 + f): f bends the leg (f > 0) or straightens it (f < 0)
and keeps the foot under the hip, which hx leans.  Over the
stance, the first fraction beta of the period, the leg presses down by a
constant extension e.  Over the swing, u = 0..1, it flexes in a raised
cosine (a + esw) sin^2(pi u) - esw, to a at mid-swing and ending extended
by esw to reach for the ground, plus a term (esw - e) (1 - 2 u)^2 over the
swing's first half that starts it from the stance's extension.  The
reference is this profile's Fourier series of K harmonics.  The diagonal
pairs (LF, RH) and (RF, LH) are half a period apart, and each hind leg
follows its front partner later by delta rad of phase.  The abduction
joints hold +ab (left legs) and -ab (right legs).

The modes.  Each foot is in the air ('o'), held ('H', sticking under
friction mu) or sliding ('S'): 3^4 = 81 modes, named by the feet in the
order LF RF LH RH ("HooH": LF and RH held).  A foot in the air touches
down (td_, into 'H', and every sliding foot sticks at that impact); a held
foot lifts off (lo_) or slips (sl_); a sliding foot lifts off (lo_) or
sticks (st_): 540 transitions, named td_LF_HooH and so on after the foot
and the mode they leave.

The orbit's guess.  The gait starts at mid-stance of the pair (LF, RH),
theta = pi beta: those two feet on the floor with LF's reference joints,
the other legs at their references in swing, the base level and at rest.
It is simulated for T seconds.  The section is the last touchdown of RF
with a full period after it; the sequence, the events after it up to its
next one (the same transition, a period later within 0.1%); the guess,
the state just after it with base_x = base_y = 0 (the orbit is symmetric
in x, y and yaw).  The reference written is shifted by omega t_section
(its series at t + t_section), so that the section lies at t = 0.

Run it from the top of the source tree with the built Python module (the
simulation needs `hes`, built with MuJoCo):

    PYTHONPATH=src/python/.libs:src/python \\
        python3 share/robots/quadruped_trot.py [--kp 15 --kd 0.3 ...] -o OUT.json

Every design parameter is an option (python3 quadruped_trot.py --help);
the defaults give quadruped_trot.json.  Its guess and its reference's
phase (through t_section) come from the simulation, and so follow the
library's integration of sliding contacts in their last digits.  The
description written names its robot as "quadruped_free.xml", relative to
the description, so OUT.json belongs in share/robots/.
"""
import argparse
import itertools
import json
import math
import os
import sys
import tempfile

import numpy as np

FEET = ("lf_foot", "rf_foot", "lh_foot", "rh_foot")
FOOT_NAMES = ("LF", "RF", "LH", "RH")
LEGS = ("lf", "rf", "lh", "rh")
ROBOT = "quadruped_free.xml"
# hip to knee and knee to foot, 0.08 m each (quadruped_free.xml)
LEG_LENGTH = 0.16
# samples of the profile over one period, for its Fourier series
SAMPLES = 1024
# the section's return after one period, within this fraction of it
PERIOD_TOLERANCE = 1e-3


def mode_graph():
    """The 81 modes ('o' in the air, 'H' held, 'S' sliding per foot) and
    the 540 transitions between them, as the description lists them."""
    modes, transitions = [], []
    for feet in itertools.product("oHS", repeat=4):
        name = "".join(feet)
        modes.append({"name": name,
                      "holds": [f for f, c in zip(FEET, feet) if c != "o"],
                      "slides": [f for f, c in zip(FEET, feet) if c == "S"]})
        for i, c in enumerate(feet):
            # (prefix, the foot's new letter, the transition's kind)
            if c == "o":
                moves = [("td", "H", "activate")]
            elif c == "H":
                moves = [("sl", "S", "slip"), ("lo", "o", "release")]
            else:
                moves = [("lo", "o", "release"), ("st", "H", "stick")]
            for prefix, letter, kind in moves:
                # a touchdown's impact stops every sliding foot
                to = ["H" if prefix == "td" and f == "S" else f for f in feet]
                to[i] = letter
                transitions.append({"name": "%s_%s_%s" % (prefix, FOOT_NAMES[i], name),
                                    "from": name, "to": "".join(to), kind: FEET[i]})
    return modes, transitions


def flex_profile(beta, a, e, esw, n=SAMPLES):
    """The leg's flex f at theta = 2 pi k / n, k = 0..n-1: the stance on
    theta < 2 pi beta, the swing after it."""
    theta = np.arange(n) * 2 * np.pi / n
    f = np.full(n, -e)
    swing_start = 2 * np.pi * beta
    swing = theta >= swing_start
    # u: the swing's progress, 0 at lift-off to 1 at touchdown
    u = (theta[swing] - swing_start) / (2 * np.pi - swing_start)
    # f = -esw + (a + esw) sin^2(pi u) + (esw - e) (1 - 2u)^2 [u < 1/2]
    f[swing] = (-esw + (a + esw) * np.sin(np.pi * u) ** 2
                + (esw - e) * np.where(u < 0.5, (1 - u * 2) ** 2, 0))
    return f


def fourier(f, K):
    """[a0, a1, b1, .., aK, bK] of the samples f over one period:
    f(theta) ~ a0 + sum_k a_k cos(k theta) + b_k sin(k theta)."""
    n = len(f)
    c = np.fft.rfft(f) / n
    out = [c[0].real]
    for k in range(1, K + 1):
        # a_k = 2 Re c_k, b_k = -2 Im c_k
        out += [2 * c[k].real, -2 * c[k].imag]
    return out


def shift(coef, phase):
    """The coefficients of f(theta + phase), f's being coef."""
    out = [coef[0]]
    for k in range(1, (len(coef) - 1) // 2 + 1):
        a, b = coef[2 * k - 1], coef[2 * k]
        c, s = math.cos(k * phase), math.sin(k * phase)
        # a cos(k (theta + phase)) + b sin(k (theta + phase))
        out += [a * c + b * s, -a * s + b * c]
    return out


def series_value(coef, theta):
    """The Fourier series coef at theta."""
    # a0 + sum_k a_k cos(k theta) + b_k sin(k theta)
    v = coef[0]
    for k in range(1, (len(coef) - 1) // 2 + 1):
        v += coef[2 * k - 1] * math.cos(k * theta) + coef[2 * k] * math.sin(k * theta)
    return v


def reference(p):
    """The joints' Fourier coefficients at model time t (theta = omega t):
    leg LEG flexes as f(theta - phase), LF at phase 0, RH at delta, RF at
    pi and LH at pi + delta."""
    base = fourier(flex_profile(p.beta, p.a, p.e, p.esw), p.K)
    ref = {}
    for leg, phase in (("lf", 0), ("rh", p.delta), ("rf", math.pi), ("lh", math.pi + p.delta)):
        c = shift(base, -phase)
        ref[leg + "_abduction"] = [p.ab if leg[0] == "l" else -p.ab]
        # hip h0 + hx + f, knee -2 (h0 + f)
        ref[leg + "_hip"] = [p.h0 + p.hx + c[0]] + c[1:]
        ref[leg + "_knee"] = [-2 * (p.h0 + c[0])] + [-2 * v for v in c[1:]]
    return ref


def start_state(p, ref, states):
    """The state at mid-stance of (LF, RH), theta = pi beta, and its model
    time: LF and RH on the floor with LF's reference joints, RF and LH at
    their references, the base level and at rest."""
    t0 = p.period * p.beta / 2
    theta = 2 * math.pi * t0 / p.period
    q = {"base_qw": 1.0}
    for leg in LEGS:
        for joint in ("abduction", "hip", "knee"):
            q["%s_%s" % (leg, joint)] = series_value(ref["%s_%s" % (leg, joint)], theta)
    q["rh_hip"], q["rh_knee"] = q["lf_hip"], q["lf_knee"]
    q["rh_abduction"] = -q["lf_abduction"]
    # a leg at hip h + hx and knee -2 h reaches LEG_LENGTH cos(h) cos(hx)
    # below its hip, times cos(ab) abducted by ab; a foot's centre at
    # z = 0 touches the floor
    h = -q["lf_knee"] / 2
    q["base_z"] = LEG_LENGTH * math.cos(h) * math.cos(p.hx) * math.cos(p.ab)
    return [q.get(name, 0.0) for name in states], t0


def description(p, sequence):
    """The description's text, from the parameters and the orbit's
    sequence (whether its feet slide before they lift off)."""
    text = ("The free quadruped trotting under joint PD control (kp %g, kd %g) about a "
            "periodic reference: each leg flexes in a raised-cosine swing of %g rad over "
            "%g%% of the %g s period (%d harmonics), diagonal pairs half a period apart, "
            "the hind legs %g rad later. Friction %g: every foot in the air, sticking or "
            "sliding (81 modes)"
            % (p.kp, p.kd, p.a, 100 * (1 - p.beta), p.period, p.K, p.delta, p.mu))
    # lo_LF_SHHH: the foot named leaves mode SHHH sliding
    lift_offs = [t.split("_") for t in sequence if t.startswith("lo_")]
    if lift_offs and all(m[FOOT_NAMES.index(f)] == "S" for _, f, m in lift_offs):
        text += "; feet slip and slide for a few ms before they lift off"
    return text + "."


def robot_description(p, ref, robot, text="", orbit=None):
    """The robot description (a dict) naming the robot file robot."""
    modes, transitions = mode_graph()
    d = {"name": "quadruped-trot", "description": text, "robot": robot,
         "contacts": {f: p.mu for f in FEET}, "modes": modes, "transitions": transitions,
         "control": {"period": p.period, "kp": p.kp, "kd": p.kd, "reference": ref}}
    if orbit:
        d["orbit"] = orbit
    return d


def simulate(p, ref):
    """The states' names of the robot with reference ref and its
    trajectory (hes.Trajectory) over T seconds from the start state."""
    import hes
    xml = os.path.join(os.path.dirname(os.path.abspath(__file__)), ROBOT)
    # hes reads a relative robot path from the description's folder: the
    # temporary description names the robot file by its absolute path
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "quadruped_trot.json")
        with open(path, "w") as f:
            json.dump(robot_description(p, ref, xml), f)
        system = hes.robot(path)
    system.configure(max_wall_time=p.wall)
    states = json.loads(system.to_json())["modes"][0]["states"]
    x0, t0 = start_state(p, ref, states)
    tr = system.simulate(x0, mode="HooH", t_end=p.T, t0=t0)
    if tr.message:
        sys.exit("quadruped_trot.py: the simulation stopped early: %s" % tr.message)
    return states, tr


def orbit_from(p, states, tr):
    """The orbit block (section, sequence, mode and guess) of trajectory
    tr and the model time of its section."""
    t_end = tr.phases[-1].t1
    i = max((k for k, ev in enumerate(tr.events)
             if ev.transition.startswith("td_RF") and ev.t + p.period < t_end), default=None)
    if i is None:
        sys.exit("quadruped_trot.py: no touchdown of RF a period before T = %g" % p.T)
    section = tr.events[i]
    # the period's events after the section, ending with its next one
    nxt = next((k for k in range(i + 1, len(tr.events))
                if tr.events[k].transition == section.transition), None)
    if nxt is None or abs(tr.events[nxt].t - section.t - p.period) > PERIOD_TOLERANCE * p.period:
        sys.exit("quadruped_trot.py: %s at t = %g does not come back a period later: "
                 "the gait has not settled" % (section.transition, section.t))
    sequence = [ev.transition for ev in tr.events[i + 1:nxt + 1]]
    guess = {name: float(v) for name, v in zip(states, section.x_plus)}
    guess["base_x"] = guess["base_y"] = 0.0
    # phase i + 1 starts with event i
    orbit = {"mode": tr.phases[i + 1].mode, "section": section.transition,
             "sequence": sequence, "guess": guess, "symmetries": ["x", "y", "yaw"]}
    return orbit, section.tm


def number(text):
    """A number as written: an int if it has no point or exponent."""
    try:
        return int(text)
    except ValueError:
        return float(text)


def main():
    ap = argparse.ArgumentParser(
        description="Generates the quadruped's trot description (quadruped_trot.json) "
                    "by simulating its gait; needs the hes Python module "
                    "(PYTHONPATH=src/python/.libs:src/python).")
    for name, default, meaning in (
            ("kp", 15, "joint feedback's stiffness (N m/rad)"),
            ("kd", 0.3, "joint feedback's damping (N m s/rad)"),
            ("period", 0.55, "the gait's period (s)"),
            ("beta", 0.6, "stance's fraction of the period"),
            ("a", 0.12, "swing's flex (rad)"),
            ("e", 0.03, "stance's extension (rad)"),
            ("esw", 0.04, "swing's extension at its end (rad)"),
            ("delta", 0.4, "phase of each hind leg after its front partner (rad)"),
            ("h0", 0.5, "hip's mean flex; the knee's is -2 h0 (rad)"),
            ("hx", 0.05, "hip's lean added to every leg (rad)"),
            ("ab", 0.1, "abduction: +ab left legs, -ab right legs (rad)"),
            ("mu", 1.0, "friction coefficient of every foot"),
            ("T", 4.2, "simulated time (s) that the section is taken from"),
            ("wall", 600, "the simulation's wall-time budget (s)")):
        ap.add_argument("--" + name, type=number, default=default,
                        help="%s (default %s)" % (meaning, default))
    ap.add_argument("--K", type=int, default=8, help="harmonics of the reference (default 8)")
    ap.add_argument("-o", "--output", default="-",
                    help="the description to write (default -: standard output)")
    p = ap.parse_args()

    ref = reference(p)
    states, tr = simulate(p, ref)
    orbit, t_section = orbit_from(p, states, tr)
    # the reference's clock starts at the section: r(t + t_section)
    omega = 2 * math.pi / p.period
    ref = {joint: shift(c, omega * t_section) for joint, c in ref.items()}
    d = robot_description(p, ref, ROBOT, description(p, orbit["sequence"]), orbit)
    if p.output == "-":
        json.dump(d, sys.stdout, indent=1)
    else:
        with open(p.output, "w") as f:
            json.dump(d, f, indent=1)


if __name__ == "__main__":
    main()
