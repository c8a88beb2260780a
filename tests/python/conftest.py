"""Fixtures of the Python module's tests (tests/python.sh runs them).

hes_run(*args): the program `hes` (HES) with args; its JSON document
parsed when it printed one, else its stdout.  plugin(name): the path of a
test plugin of tests/.libs (tests/NAME.la).  srcdir: the source tree."""
import json
import os
import subprocess

import pytest

TOP_SRCDIR = os.path.abspath(os.environ.get("top_srcdir", "."))
TOP_BUILDDIR = os.path.abspath(os.environ.get("top_builddir", "."))
HES = os.environ.get("HES", os.path.join(TOP_BUILDDIR, "src", "hes"))


def run_hes(*args, check=True):
    p = subprocess.run([HES, *map(str, args)], capture_output=True, text=True,
                       cwd=TOP_BUILDDIR, timeout=600)
    if check and p.returncode != 0:
        raise AssertionError(f"hes {' '.join(map(str, args))}: exit {p.returncode}: {p.stderr}")
    return p


@pytest.fixture
def hes_run():
    def run(*args):
        out = run_hes(*args).stdout
        return json.loads(out) if "--json" in args else out
    return run


@pytest.fixture
def srcdir():
    return TOP_SRCDIR


@pytest.fixture
def plugin():
    def path(name):
        p = os.path.join(TOP_BUILDDIR, "tests", ".libs", name + ".so")
        if not os.path.exists(p):
            pytest.skip(f"the test plugin {name} is not built (make check builds it)")
        return p
    return path


def same_document(a, b, path="$"):
    """Asserts two JSON documents equal: the same keys and strings, numbers
    equal to the last digit the program prints (it prints 17 significant
    digits: so exactly, unless a key names a wall-clock time)."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), f"{path}: keys {a.keys()} != {b.keys()}"
        for k in a:
            if k in ("seconds", "wall_time", "time_s", "elapsed"):
                continue
            same_document(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), f"{path}: lengths differ"
        for i, (x, y) in enumerate(zip(a, b)):
            same_document(x, y, f"{path}[{i}]")
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"
