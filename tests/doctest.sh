#!/bin/sh
# doctest.sh DOC.md - make check's driver for a document: runs its commands
# and compares their output with what it shows (tests/doctest.py).
top_srcdir=$(cd "${top_srcdir:-${srcdir:-.}}" && pwd)
top_builddir=$(cd "${top_builddir:-.}" && pwd)
py=python3
command -v "$py" >/dev/null 2>&1 || { echo "doctest.sh: python3 not found"; exit 77; }
HES_TOP_SRCDIR=$top_srcdir HES_TOP_BUILDDIR=$top_builddir
export HES_TOP_SRCDIR HES_TOP_BUILDDIR
exec "$py" "$top_srcdir/tests/doctest.py" "$1"
