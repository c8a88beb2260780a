"""juggler_region.py - the paddle juggler's stability region in the plane
of the restitution alpha and the paddle's acceleration at impact, from
hes's analysis at each point of a grid, against the HES paper's eq. 10:
the period-1 orbit is stable exactly for

    -2 g (1 + alpha^2) / (1 + alpha)^2 < paddle_accel < 0.

Prints the region as a map ('#' stable, '.' unstable, '~' marginal, ' '
no orbit) and the points where hes and eq. 10 disagree; with
python3-matplotlib it also draws the map with eq. 10's boundary.

    python3 juggler_region.py [PICTURE.png]
"""
import sys

import numpy as np

import hes

G = 9.81


def region(alphas, accels):
    """The verdict at every (alpha, paddle_accel): 1 stable, 0 unstable,
    0.5 marginal, NaN no orbit (a row per alpha)."""
    juggler = hes.problem("paddle-juggler")
    out = np.full((len(alphas), len(accels)), np.nan)
    for i, alpha in enumerate(alphas):
        for j, acc in enumerate(accels):
            try:
                a = juggler.set(alpha=alpha, paddle_accel=acc).analyze()
            except hes.Error:
                continue
            out[i, j] = {"stable": 1.0, "unstable": 0.0, "marginal": 0.5}[a.verdict]
    return out


def eq10(alpha, acc):
    return -2 * G * (1 + alpha**2) / (1 + alpha) ** 2 < acc < 0


def main():
    alphas = np.linspace(0.1, 0.9, 9)
    accels = np.linspace(-19.5, 3.5, 47)
    v = region(alphas, accels)
    wrong = [(a, c) for i, a in enumerate(alphas) for j, c in enumerate(accels)
             if v[i, j] in (0.0, 1.0) and (v[i, j] == 1.0) != eq10(a, c)]
    print(f"paddle_accel {accels[0]} .. {accels[-1]} (left to right)")
    for i in reversed(range(len(alphas))):
        print(f"alpha {alphas[i]:.1f} " + "".join(
            " " if np.isnan(x) else "#" if x == 1 else "." if x == 0 else "~" for x in v[i]))
    print(f"{np.sum(v == 1)} stable, {np.sum(v == 0)} unstable points; "
          f"{len(wrong)} disagree with eq. 10")
    if len(sys.argv) > 1:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("no picture: install python3-matplotlib")
            return
        fig, ax = plt.subplots(figsize=(6, 3.5))
        ax.pcolormesh(accels, alphas, v, cmap="RdYlGn", vmin=0, vmax=1, shading="nearest")
        fine = np.linspace(alphas[0], alphas[-1], 200)
        ax.plot(-2 * G * (1 + fine**2) / (1 + fine) ** 2, fine, "k-", label="eq. 10")
        ax.axvline(0, color="k")
        ax.set_xlabel("paddle_accel (m/s$^2$)")
        ax.set_ylabel("alpha")
        ax.set_title("paddle juggler: stable (green) and unstable (red) period-1 orbits")
        ax.legend(loc="lower left")
        fig.tight_layout()
        fig.savefig(sys.argv[1], dpi=100)
        print(f"wrote {sys.argv[1]}")


if __name__ == "__main__":
    main()
