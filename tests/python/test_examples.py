"""The examples of share/examples/python run as the guide says, and say
what they claim."""
import os
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(os.environ.get("top_srcdir", "."), "share", "examples", "python")


def run(*args):
    p = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300,
                       cwd=EXAMPLES)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_juggler_region_agrees_with_eq10(tmp_path):
    out = run("juggler_region.py", str(tmp_path / "region.png"))
    assert "207 stable, 207 unstable points; 0 disagree with eq. 10" in out
    try:
        import matplotlib  # noqa: F401
        assert (tmp_path / "region.png").stat().st_size > 1000
    except ImportError:
        assert "no picture" in out


def test_slip_example():
    out = run("slip.py").splitlines()
    for line in out:
        mine, builtin = line.split("psi ")[1].split(" (Python) ")
        assert mine == builtin.split(" ")[0]


def test_slip_shape_sweep(tmp_path):
    out = run("slip_shape_sweep.py", str(tmp_path / "map.png"))
    assert "psi 2.006118 -> 0.662362 (stable)" in out
    assert "the optimum is below the map's best: True" in out
