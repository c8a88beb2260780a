#!/bin/sh
# tests/python.sh - the Python module's pytest suite (tests/python/), run
# by `make check` against the module just built (src/python/.libs) and the
# program (HES), with the test plugins of tests/.libs.  Skipped (77) with a
# message when configure did not build the module or pytest is missing.

srcdir=${top_srcdir:-.}
builddir=${top_builddir:-.}
if [ -z "$HES_PYTHON" ] || [ "$HES_PYTHON" = : ] || [ ! -f "$builddir/src/python/.libs/hes.so" ]; then
    echo "SKIP: the Python module was not built (configure: python3-dev, python3-numpy, cython3)"
    exit 77
fi
if ! "$HES_PYTHON" -c 'import pytest' >/dev/null 2>&1; then
    echo "SKIP: pytest is missing (Debian: python3-pytest)"
    exit 77
fi
PYTHONPATH="$builddir/src/python/.libs${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH
cd "$builddir" || exit 1
exec "$HES_PYTHON" -m pytest -q -rs -p no:cacheprovider "$srcdir/tests/python"
