"""slip_shape_sweep.py - the SLIP hopper stabilised by hybrid event shaping
and its stability map, from Python.

The built-in SLIP hopper's nominal gait (Raibert gain K = 0, leg angular
velocity thetadot = 0 at touchdown) is unstable.  hes.shape minimises psi
over the two shape parameters, which change the saltation matrix at
touchdown but not the orbit; then hes.sweep maps psi over the same plane on
two threads, and the map's best point is compared with the optimum.  With
python3-matplotlib the map is drawn, the optimum marked.

    python3 slip_shape_sweep.py [PICTURE.png]
"""
import sys

import numpy as np

import hes


def main():
    slip = hes.problem("slip-hopper")
    before = slip.analyze().psi
    shaped = hes.shape(slip)                     # applies the optimum to slip
    print(f"psi {before:.6f} -> {shaped.psi:.6f} ({shaped.verdict}) at "
          f"K = {slip['K']:.6f}, thetadot = {slip['thetadot']:.6f}")

    K = np.linspace(-0.2, 0.6, 33)
    thetadot = np.linspace(-3, 1, 33)
    grid = hes.sweep("slip-hopper", grid={"K": K, "thetadot": thetadot}, jobs=2)
    psi = grid.psi.reshape(len(K), len(thetadot))      # the last axis varies fastest
    ok = np.isfinite(psi)
    i, j = np.unravel_index(np.nanargmin(psi), psi.shape)
    print(f"map: {ok.sum()} of {psi.size} points with an orbit, "
          f"{np.sum(grid.stable)} stable; its best psi {psi[i, j]:.6f} at "
          f"K = {K[i]:.3f}, thetadot = {thetadot[j]:.3f}")
    print("the optimum is below the map's best:", shaped.psi <= psi[i, j])

    if len(sys.argv) > 1:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("no picture: install python3-matplotlib")
            return
        fig, ax = plt.subplots(figsize=(6, 4.5))
        m = ax.pcolormesh(thetadot, K, np.minimum(psi, 2), cmap="viridis", shading="nearest")
        ax.contour(thetadot, K, psi, levels=[1.0], colors="w")
        ax.plot(slip["thetadot"], slip["K"], "r*", ms=14, label=f"shaped: psi {shaped.psi:.3f}")
        ax.set_xlabel("thetadot (rad/s)")
        ax.set_ylabel("K (rad s/m)")
        ax.set_title("SLIP hopper: psi (white: psi = 1)")
        fig.colorbar(m, label="psi (clipped at 2)")
        ax.legend(loc="lower left")
        fig.tight_layout()
        fig.savefig(sys.argv[1], dpi=100)
        print(f"wrote {sys.argv[1]}")


if __name__ == "__main__":
    main()
