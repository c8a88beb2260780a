"""bouncing_ball.py - Holmes's ball on a sinusoidally vibrating table
written in Python, checked against the same model compiled as a plugin
(share/examples/bouncing_ball.c).

The table moves as xP(t) = -A cos(w t), w = 2 pi / T; the ball flies
(xB' = vB, vB' = -g), hits the table when xB - xP(t) crosses zero downward
and leaves with vB+ = (1 + alpha) vP(t) - alpha vB-.  Its period-1 orbit
leaves each impact with g T / 2; the orbit is stroboscopic over T.  The
Python model gives no Jacobians: hes differentiates its callbacks.

Build the plugin and compare (share/examples/Makefile shows the build):

    cc -shared -fPIC -DHES_PLUGIN bouncing_ball.c $(pkg-config --cflags hes) -o bouncing_ball.so
    python3 bouncing_ball.py ./bouncing_ball.so
"""
import sys
from math import asin, cos, pi, sin

import hes

ALPHA, G, T, A = range(4)


def table(t, p):
    """The table's position and velocity at time t."""
    w = 2 * pi / p[T]
    return -p[A] * cos(w * t), p[A] * w * sin(w * t)


def guess(p):
    """The decelerating period-1 orbit: the ball at t = 0 falls towards an
    impact at t_i, where the table's speed is g T (1 - alpha) / (2 (1 + alpha))."""
    g, period, w = p[G], p[T], 2 * pi / p[T]
    vstar = g * period * (1 - p[ALPHA]) / (2 * (1 + p[ALPHA]))
    s = vstar / (p[A] * w)
    th = pi - asin(s) if s < 1 else pi / 2
    ti, hi = th / w, -p[A] * cos(th)
    return [hi + 0.5 * g * period * ti - 0.5 * g * ti * ti, -0.5 * g * period + g * ti]


SPEC = {
    "name": "bouncing-ball-python",
    "description": "ball on a vibrating table written in Python (Holmes 1982)",
    "modes": [{"name": "flight", "dim": 2, "states": ["xB", "vB"],
               "field": lambda t, x, p: [x[1], -p[G]]}],
    "transitions": [
        {"name": "impact", "from": "flight", "to": "flight", "direction": "down",
         "guard": lambda t, x, p: x[0] - table(t, p)[0],
         "reset": lambda t, x, p: [x[0], (1 + p[ALPHA]) * table(t, p)[1] - p[ALPHA] * x[1]]},
        {"name": "apex", "from": "flight", "to": "flight", "direction": "down",
         "guard": lambda t, x, p: x[1]},
    ],
    "params": [
        {"name": "alpha", "value": 0.5, "min": 0.0, "max": 1.0},
        {"name": "g", "value": 9.81, "flags": ["positive"], "min": 0.0},
        {"name": "period", "value": 0.5, "flags": ["positive"], "min": 0.0},
        {"name": "amplitude", "value": 0.08, "flags": ["positive"], "min": 0.0},
    ],
    "validate": lambda p: None if 0 <= p[ALPHA] < 1 else f"alpha = {p[ALPHA]:g} must lie in [0, 1)",
    "orbit": {"mode": "flight", "section": "apex", "sequence": ["impact", "apex"],
              "period_param": "period", "free_states": ["xB", "vB"],
              "residual": ["xB", "vB"], "guess": guess},
}


def compare(plugin_path, amplitudes=(0.07, 0.08, 0.1)):
    """psi of the Python model and of the plugin at each amplitude; the
    largest difference."""
    mine, theirs = hes.model(SPEC), hes.load_plugin(plugin_path)
    worst = 0.0
    for a in amplitudes:
        pm = mine.set(amplitude=a).analyze().psi
        pc = theirs.set(amplitude=a).analyze().psi
        print(f"amplitude {a}: psi {pm:.10f} (Python) {pc:.10f} (plugin)")
        worst = max(worst, abs(pm - pc))
    return worst


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python3 bouncing_ball.py PLUGIN.so")
    print(f"largest difference {compare(sys.argv[1]):.1e}")
