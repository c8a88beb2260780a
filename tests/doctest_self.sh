#!/bin/sh
# doctest_self.sh - the document test can fail: a document with a wrong
# number, a wrong exit status, a missing line or a command outside a console
# block is refused, and one whose numbers agree to their shown digits passes;
# and every document of share/doc is one of make check's tests.
top_srcdir=$(cd "${top_srcdir:-${srcdir:-.}}" && pwd)
top_builddir=$(cd "${top_builddir:-.}" && pwd)
command -v python3 >/dev/null 2>&1 || { echo "doctest_self.sh: python3 not found"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0
run() {   # run NAME EXPECTED-STATUS: the document $tmp/NAME.md
    HES_TOP_SRCDIR=$top_srcdir HES_TOP_BUILDDIR=$top_builddir \
        python3 "$top_srcdir/tests/doctest.py" "$tmp/$1.md" >"$tmp/$1.out" 2>&1
    st=$?
    if [ "$st" -ne "$2" ]; then
        echo "FAIL: $1: exit status $st, expected $2"; cat "$tmp/$1.out"; fails=$((fails + 1))
    else
        echo "ok: $1 (exit status $st)"
    fi
}
f='```'
printf '%s\n' "${f}console" '$ echo "psi 0.662364167632 and 1.23e-05 in 3.2 ms"' \
    'psi 0.6624 and 1.2e-05 in ~9 ms' '$ printf "a\nb\nc\nd\n"' 'a' '...' 'd' \
    '$ echo "x = 12345 rest"' 'x = 12345 ...' "$f" "${f}console status=3" '$ exit 3' "$f" \
    > "$tmp/good.md"
run good 0
printf '%s\n' "${f}console" '$ echo "psi 0.662364167632"' 'psi 0.6625' "$f" > "$tmp/digit.md"
run digit 1
printf '%s\n' "${f}console" '$ echo 12' '13' "$f" > "$tmp/integer.md"
run integer 1
printf '%s\n' "${f}console" '$ exit 2' "$f" > "$tmp/status.md"
run status 1
printf '%s\n' "${f}console" '$ printf "a\nb\n"' 'a' "$f" > "$tmp/missing.md"
run missing 1
printf '%s\n' "${f}sh" '$ hes analyze nosuch' "$f" > "$tmp/outside.md"
run outside 1
printf '%s\n' "${f}console status=two" '$ exit 2' "$f" > "$tmp/badstatus.md"
run badstatus 1
printf '%s\n' "${f}console" '$ echo hi' "$f" "${f}c file=x.c" 'int x;' > "$tmp/unclosed.md"
run unclosed 2
printf '%s\n' 'See [the guide](nosuch.md) and [ok](good.md).' > "$tmp/link.md"
run link 1
printf '%s\n' "${f}c file=x.c" 'int main(void) { return 0; }' "$f" "${f}console" \
    '$ test -s x.c && echo written' 'written' "$f" > "$tmp/file.md"
run file 0
# every document is a test: each Markdown file of share/doc is in DOC_TESTS
for doc in "$top_srcdir"/share/doc/*.md "$top_srcdir"/share/doc/*/*.md; do
    [ -f "$doc" ] || continue
    rel=${doc#"$top_srcdir"/}
    case $rel in share/doc/NEWS.md) continue ;; esac   # history: no commands
    if ! grep -Eq "^DOC_TESTS \+?= $rel\$" "$top_srcdir/Makefile.am"; then
        echo "FAIL: $rel is not in DOC_TESTS (Makefile.am): its commands would never run"
        fails=$((fails + 1))
    fi
done
[ "$fails" -eq 0 ]
