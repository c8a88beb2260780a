# tests/testlib.sh - what the shell tests of the hes program share (sourced
# by tests/cli.sh, tests/cli_io.sh and tests/refusals.sh): counting checks,
# running the program with its output captured, and the checks on exit
# status, output lines and JSON documents.  The sourcing script sets HES (the
# program), tmp (its temporary directory) and have_python (yes or no) first,
# and ends with testlib_summary.

failures=0
checks=0

fail() {
    failures=$((failures + 1))
    echo "FAIL: $*"
}

pass() {
    echo "ok: $*"
}

# run NAME ARGS...: runs the program, output in $tmp/NAME.out and .err,
# exit status in $status.
run() {
    name=$1
    shift
    "$HES" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    status=$?
}

# expect_status NAME WANT DESCRIPTION
expect_status() {
    checks=$((checks + 1))
    if [ "$status" -eq "$2" ]; then
        pass "$3 (exit $2)"
    else
        fail "$3: exit status $status, expected $2"
        sed 's/^/    stderr: /' "$tmp/$1.err" | head -5
    fi
}

# expect_grep NAME FILE-SUFFIX PATTERN DESCRIPTION: the output matches the
# extended regular expression PATTERN.
expect_grep() {
    checks=$((checks + 1))
    if grep -E -q -- "$3" "$tmp/$1.$2"; then
        pass "$4"
    else
        fail "$4: no line matching '$3' in std$2"
        sed 's/^/    /' "$tmp/$1.$2" | head -10
    fi
}

expect_no_grep() {
    checks=$((checks + 1))
    if grep -E -q -- "$3" "$tmp/$1.$2"; then
        fail "$4: unexpected line matching '$3'"
    else
        pass "$4"
    fi
}

# expect_json NAME DESCRIPTION: stdout is one valid JSON document.
expect_json() {
    [ "$have_python" = yes ] || return 0
    checks=$((checks + 1))
    if python3 -m json.tool "$tmp/$1.out" >/dev/null 2>"$tmp/$1.jsonerr"; then
        pass "$2: valid JSON"
    else
        fail "$2: stdout is not valid JSON: $(cat "$tmp/$1.jsonerr")"
    fi
}

# json_eval NAME EXPR: prints the Python expression EXPR of the document d
# (empty when python3 is missing or the document is invalid).
json_eval() {
    [ "$have_python" = yes ] || return 0
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$tmp/$1.out" "$2" 2>/dev/null
}

# expect_json_value NAME EXPR WANT DESCRIPTION
expect_json_value() {
    [ "$have_python" = yes ] || return 0
    checks=$((checks + 1))
    got=$(json_eval "$1" "$2")
    if [ "$got" = "$3" ]; then
        pass "$4"
    else
        fail "$4: $2 is '$got', expected '$3'"
    fi
}

# expect_true DESCRIPTION COMMAND...: the command succeeds.
expect_true() {
    what=$1
    shift
    checks=$((checks + 1))
    if "$@"; then
        pass "$what"
    else
        fail "$what"
    fi
}

# run_for NAME LIMIT ARGS...: run with at most LIMIT seconds (exit status 124
# when it ran out).
run_for() {
    name=$1
    limit=$2
    shift 2
    timeout "$limit" "$HES" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    status=$?
}

# testlib_summary SCRIPT: prints the count and exits 1 if any check failed.
testlib_summary() {
    echo "$1: $checks checks, $failures failed"
    [ "$failures" -eq 0 ] || exit 1
    exit 0
}
