#!/bin/sh
# tests/man.sh - the manual pages of share/man/: hes.1 (the commands and what
# they share), hes-COMMAND.1 (one per command) and libhes.3 (the library).
# Every page renders with man (non-empty, with its NAME) and passes
# `groff -man -ww -z` without a warning.  The pages agree with the program,
# so that none goes stale:
#   - every command of `hes --help` has its page hes-COMMAND.1, named in the
#     SEE ALSO of hes.1, and every hes-*.1 page is a command's;
#   - every long option that `hes COMMAND --help` prints appears in
#     hes-COMMAND.1, and every option an item of the page's OPTIONS
#     describes is one that --help prints;
#   - every long option of `hes --help` appears in hes.1, and every option
#     of its OPTIONS is one of some command;
#   - each page has its sections, names hes(1) or libhes(3) in its SEE ALSO,
#     and is listed in Makefile.am (dist_man_MANS).
# Each missing command, page or option is reported by name.  Run by `make
# check` with HES, top_srcdir and top_builddir in the environment; skipped
# (exit 77) without man (Debian: man-db) or groff (Debian: groff-base).

for tool in man groff; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "man.sh: $tool not found; skipped (install the Debian packages man-db and groff-base)"
        exit 77
    fi
done

HES=${HES:-${top_builddir:-.}/src/hes}
srcdir=${top_srcdir:-${srcdir:-.}}
mandir=$srcdir/share/man
tmp=${TMPDIR:-/tmp}/hes-man-test.$$
mkdir -p "$tmp" || exit 99
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

if [ ! -x "$HES" ]; then
    echo "FAIL: the program '$HES' does not exist or is not executable"
    exit 1
fi

failures=0
checks=0
fail() {
    failures=$((failures + 1))
    echo "FAIL: $*"
}
check() {
    checks=$((checks + 1))
}

# The page's source with groff's hyphens as plain ones: \- (and \(hy) is
# how a page writes the - of an option, \% a word it does not hyphenate.
plain() {
    sed -e 's/\\-/-/g' -e 's/\\(hy/-/g' -e 's/\\%//g' "$1"
}

# The long options a text names: --name tokens, one per line, sorted.
long_options() {
    grep -o -- '--[a-z][a-z0-9-]*' "$1" | sed 's/-*$//' | sort -u
}

# The long options named by the item tags of a page's OPTIONS section: the
# line after each .TP there.
item_options() {
    plain "$1" | awk '
        /^\.SH/ { in_options = ($0 ~ /^\.SH "?OPTIONS"?[ \t]*$/); next }
        in_options && tag { print; tag = 0; next }
        in_options && /^\.TP/ { tag = 1 }' > "$tmp/tags"
    long_options "$tmp/tags"
}

# has_section PAGE NAME: the page has the section .SH NAME (quoted or not).
has_section() {
    grep -E -q "^\.SH (\"$2\"|$2)[ 	]*\$" "$1"
}

# see_also PAGE: the page's SEE ALSO section, hyphens plain.
see_also() {
    plain "$1" | awk '/^\.SH/ { on = ($0 ~ /SEE ALSO/); next } on'
}

# ---------------------------------------------------------- the commands
"$HES" --help > "$tmp/help" 2>&1
commands=$(sed -n '/^Commands:/,/^$/p' "$tmp/help" | awk 'NR > 1 && NF { print $1 }')
if [ -z "$commands" ]; then
    fail "hes --help lists no commands (expected a 'Commands:' block)"
    exit 1
fi

pages="hes.1"
for cmd in $commands; do
    pages="$pages hes-$cmd.1"
done
pages="$pages libhes.3"

# ---------------------------------------------------------- rendering
unset MAN_KEEP_FORMATTING
MANWIDTH=80
export MANWIDTH
for page in $pages; do
    f=$mandir/$page
    check
    if [ ! -f "$f" ]; then
        fail "$page: no such page in share/man"
        continue
    fi
    { man -l "$f" 2>"$tmp/man.err"; echo $? > "$tmp/man.rc"; } | cat > "$tmp/man.out"
    name=$(echo "$page" | sed 's/\.[0-9]$//')
    if [ "$(cat "$tmp/man.rc")" -ne 0 ] || [ ! -s "$tmp/man.out" ]; then
        fail "$page: man -l fails or renders nothing: $(head -c 300 "$tmp/man.err")"
    elif ! grep -q '^NAME' "$tmp/man.out" || ! grep -E -q "^ *$name +- " "$tmp/man.out"; then
        fail "$page: the rendered page has no NAME section naming $name"
    fi
    check
    if ! groff -man -Tutf8 -ww -z "$f" > "$tmp/groff.out" 2>&1 || [ -s "$tmp/groff.out" ]; then
        fail "$page: groff -man -ww warns: $(head -5 "$tmp/groff.out")"
    fi
done

# ---------------------------------------------------------- sections, SEE ALSO, Makefile.am
for page in $pages; do
    f=$mandir/$page
    [ -f "$f" ] || continue
    case $page in
    hes-*.1) sections="NAME SYNOPSIS DESCRIPTION OPTIONS OUTPUT EXIT_STATUS EXAMPLES SEE_ALSO"
             back=hes; section=1 ;;
    hes.1)   sections="NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS EXIT_STATUS SEE_ALSO"
             back=libhes; section=3 ;;
    *)       sections="NAME SYNOPSIS DESCRIPTION EXAMPLE SEE_ALSO"
             back=hes; section=1 ;;
    esac
    for s in $sections; do
        check
        s=$(echo "$s" | tr _ ' ')
        has_section "$f" "$s" || fail "$page: no section $s"
    done
    check
    see_also "$f" | grep -E -q "(^|[^a-z-])$back \\($section\\)" ||
        fail "$page: its SEE ALSO does not name $back($section)"
    if [ -f "$srcdir/Makefile.am" ]; then
        check
        grep -q "share/man/$page" "$srcdir/Makefile.am" ||
            fail "$page: not in Makefile.am (dist_man_MANS)"
    fi
done

# every command is named in hes.1's SEE ALSO; every hes-*.1 page is a command's
see_also "$mandir/hes.1" > "$tmp/seealso"
for cmd in $commands; do
    check
    grep -E -q "hes-$cmd \(1\)" "$tmp/seealso" ||
        fail "hes.1: its SEE ALSO does not name hes-$cmd(1)"
done
for f in "$mandir"/hes-*.1; do
    [ -f "$f" ] || continue
    cmd=$(basename "$f" .1 | sed 's/^hes-//')
    check
    echo "$commands" | grep -q -x -- "$cmd" ||
        fail "share/man/hes-$cmd.1: hes --help has no command '$cmd'"
done

# ---------------------------------------------------------- options
: > "$tmp/all_options"
for cmd in $commands; do
    f=$mandir/hes-$cmd.1
    "$HES" "$cmd" --help > "$tmp/help.$cmd" 2>&1
    long_options "$tmp/help.$cmd" > "$tmp/opts.$cmd"
    cat "$tmp/opts.$cmd" >> "$tmp/all_options"
    [ -f "$f" ] || continue
    plain "$f" > "$tmp/page"
    check
    if [ ! -s "$tmp/opts.$cmd" ]; then
        fail "hes $cmd --help prints no long option"
    fi
    for opt in $(cat "$tmp/opts.$cmd"); do
        check
        grep -E -q -- "$opt([^a-z0-9-]|\$)" "$tmp/page" ||
            fail "hes-$cmd.1 does not document $opt, which hes $cmd --help prints"
    done
    for opt in $(item_options "$f"); do
        check
        grep -q -x -- "$opt" "$tmp/opts.$cmd" ||
            fail "hes-$cmd.1 describes $opt, which hes $cmd --help does not print"
    done
done

long_options "$tmp/help" > "$tmp/opts.hes"
cat "$tmp/opts.hes" >> "$tmp/all_options"
plain "$mandir/hes.1" > "$tmp/page"
for opt in $(cat "$tmp/opts.hes"); do
    check
    grep -E -q -- "$opt([^a-z0-9-]|\$)" "$tmp/page" ||
        fail "hes.1 does not document $opt, which hes --help prints"
done
sort -u "$tmp/all_options" -o "$tmp/all_options"
for opt in $(item_options "$mandir/hes.1"); do
    check
    grep -q -x -- "$opt" "$tmp/all_options" ||
        fail "hes.1 describes $opt, which neither hes --help nor a command's --help prints"
done

echo "man.sh: $checks checks, $failures failed"
[ "$failures" -eq 0 ]
