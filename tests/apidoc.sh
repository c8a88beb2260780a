#!/bin/sh
# tests/apidoc.sh - the API reference builds from the public headers
# (lib/hes.h, lib/hes/*.h) without a single Doxygen warning: every public
# function, struct and field, enum, typedef, macro and callback type has its
# comment, and every comment is well formed.  Doxygen does not warn about an
# enumeration value without one, so its XML output is read for those.
# Runs doxygen on share/doc/Doxyfile (written by configure) into a temporary
# folder.  Run by `make check` with top_builddir in the environment; exits
# 77 (skipped) without doxygen, 1 naming each problem.

DOXYGEN=${DOXYGEN:-doxygen}
if ! command -v "$DOXYGEN" >/dev/null 2>&1; then
    echo "apidoc.sh: doxygen not found (Debian package doxygen): API reference check skipped"
    exit 77
fi

doxyfile=${top_builddir:-.}/share/doc/Doxyfile
if [ ! -f "$doxyfile" ]; then
    echo "FAIL: $doxyfile does not exist (configure writes it from share/doc/Doxyfile.in)"
    exit 1
fi

tmp=${TMPDIR:-/tmp}/hes-apidoc-test.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

# The configured Doxyfile with the output (HTML and XML) in $tmp; doxygen
# runs in $tmp so that nothing it writes lands in the build tree.
{
    cat "$doxyfile"
    echo "OUTPUT_DIRECTORY = $tmp/out"
    echo "GENERATE_XML = YES"
} > "$tmp/Doxyfile" || exit 1
(cd "$tmp" && "$DOXYGEN" Doxyfile) > "$tmp/stdout" 2> "$tmp/stderr"
status=$?

failed=0
if [ -s "$tmp/stderr" ]; then
    echo "FAIL: doxygen warns about the public headers:"
    cat "$tmp/stderr"
    failed=1
fi
if [ $status -ne 0 ]; then
    echo "FAIL: doxygen exited with status $status"
    failed=1
fi

# Enumeration values without a comment, from the XML of each header.
undocumented=$(awk '
    /<enumvalue /            { inside = 1; documented = 0; name = "" }
    inside && /<name>/       { name = $0; sub(/.*<name>/, "", name); sub(/<\/name>.*/, "", name) }
    inside && /<para>/       { documented = 1 }
    /<\/enumvalue>/          { if (!documented) print "  " name; inside = 0 }
' "$tmp"/out/xml/*_8h.xml 2>/dev/null)
if [ ! -f "$tmp/out/xml/base_8h.xml" ]; then
    echo "FAIL: doxygen wrote no XML for the headers (expected $tmp/out/xml/base_8h.xml)"
    failed=1
elif [ -n "$undocumented" ]; then
    echo "FAIL: enumeration values without a comment (/**< ... */ after the value):"
    echo "$undocumented"
    failed=1
fi

if [ $failed -ne 0 ]; then
    echo "apidoc.sh: document each public symbol where it is declared (lib/README.md)"
    exit 1
fi
echo "apidoc.sh: the API reference builds without a warning"
exit 0
