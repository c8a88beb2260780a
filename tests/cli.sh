#!/bin/sh
# tests/cli.sh - tests of the hes program's contract (DESIGN.md section 5):
# the output of list, info, analyze and simulate, the JSON documents, and
# every error path with its exit status (0 ok, 1 computation failed, 2 bad
# usage or input).  Run by `make check` with HES (the program),
# top_srcdir and top_builddir in the environment.  Prints each failed check
# and exits 1 if any failed.  JSON validity is checked with python3 when it
# is installed; the content checks also work without it.

HES=${HES:-${top_builddir:-.}/src/hes}
tmp=${TMPDIR:-/tmp}/hes-cli-test.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

failures=0
checks=0

if command -v python3 >/dev/null 2>&1; then
    have_python=yes
else
    have_python=no
    echo "cli.sh: python3 not found; JSON validity checks skipped" >&2
fi

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

if [ ! -x "$HES" ]; then
    echo "FAIL: the program '$HES' does not exist or is not executable"
    exit 1
fi

# ------------------------------------------------------------ general usage
run help --help
expect_status help 0 "hes --help"
expect_grep help out 'analyze' "hes --help lists the analyze command"

run version --version
expect_status version 0 "hes --version"
expect_grep version out '^hes [0-9]' "hes --version prints the version"

run noargs
expect_status noargs 2 "hes without a command"

run badcmd frobnicate
expect_status badcmd 2 "unknown command"
expect_grep badcmd err 'frobnicate' "unknown command is named"

run badopt analyze paddle-juggler --no-such-option
expect_status badopt 2 "unknown option"
expect_grep badopt err 'no-such-option' "unknown option is named"
expect_grep badopt err 'Usage' "unknown option prints the usage"

run cmdhelp analyze --help
expect_status cmdhelp 0 "hes analyze --help"
expect_grep cmdhelp out '^Usage: hes analyze' "hes analyze --help prints its usage"

# --------------------------------------------------------------------- list
run list list
expect_status list 0 "hes list"
expect_grep list out '^paddle-juggler ' "hes list lists paddle-juggler"
expect_grep list out '^slip-hopper ' "hes list lists slip-hopper"

# --------------------------------------------------------------------- info
run info info slip-hopper
expect_status info 0 "hes info slip-hopper"
expect_grep info out 'l_td' "hes info slip-hopper mentions l_td"
expect_grep info out 'theta_td' "hes info slip-hopper mentions theta_td"

run infojson info paddle-juggler --json
expect_status infojson 0 "hes info paddle-juggler --json"
expect_json infojson "hes info paddle-juggler --json"
expect_json_value infojson 'd["name"]' paddle-juggler "info JSON names the problem"

run infobad info no-such-problem
expect_status infobad 2 "hes info of an unknown problem"

# ------------------------------------------------------------------ analyze
run an_json analyze paddle-juggler --json
expect_status an_json 0 "hes analyze paddle-juggler --json"
expect_json an_json "hes analyze paddle-juggler --json"
expect_grep an_json out '"psi"' "analyze JSON has psi"
expect_grep an_json out '"multipliers"' "analyze JSON has multipliers"
expect_grep an_json out '"monodromy"' "analyze JSON has monodromy"
checks=$((checks + 1))
if [ "$(head -n 1 "$tmp/an_json.out" | cut -c 1)" = "{" ] && [ ! -s "$tmp/an_json.err" ]; then
    pass "analyze --json: stdout is only the JSON object, stderr empty"
else
    fail "analyze --json: stdout must start with '{' and stderr be empty"
fi

run stable analyze paddle-juggler -p paddle_accel=-5
expect_status stable 0 "analyze paddle-juggler paddle_accel=-5"
expect_grep stable out '^stable: psi = ' "paddle_accel=-5 is stable"
expect_grep stable out '^  *paddle_accel *= *-5' "paddle_accel=-5 is shown in the parameters"

run unstable analyze paddle-juggler --param paddle_accel=1
expect_status unstable 0 "analyze paddle-juggler paddle_accel=1"
expect_grep unstable out '^unstable: psi = ' "paddle_accel=1 is unstable"
expect_no_grep unstable out '^stable:' "paddle_accel=1 is not called stable"

run unstable_json analyze paddle-juggler -p paddle_accel=1 --json
expect_status unstable_json 0 "analyze paddle-juggler paddle_accel=1 --json"
expect_grep unstable_json out '"stable": false' "paddle_accel=1 JSON says \"stable\": false"
expect_json_value unstable_json 'd["stable"]' False "paddle_accel=1 JSON stable is false"
expect_json_value unstable_json 'd["psi"] >= 1' True "paddle_accel=1 JSON psi >= 1"

run slip analyze slip-hopper --json
expect_status slip 0 "analyze slip-hopper --json"
expect_json slip "analyze slip-hopper --json"
expect_grep slip out '"l_td"' "slip-hopper JSON params has l_td"
expect_grep slip out '"theta_td"' "slip-hopper JSON params has theta_td"
if [ "$have_python" = yes ]; then
    expect_json_value slip 'len(d["multipliers"])' 2 "slip-hopper has exactly 2 multipliers"
    expect_json_value slip '"l_td" in d["params"] and "theta_td" in d["params"]' True \
        "slip-hopper l_td and theta_td are parameters"
else
    checks=$((checks + 1))
    n=$(grep -c '"abs"' "$tmp/slip.out")
    if [ "$n" -eq 2 ]; then
        pass "slip-hopper has exactly 2 multipliers"
    else
        fail "slip-hopper has $n multipliers, expected 2"
    fi
fi

# max |difference| of --check, from the text output (awk reads 1.2e-09).
check_diff_below() {
    name=$1
    what=$2
    checks=$((checks + 1))
    d=$(sed -n 's/^check: .*max |difference| = *//p' "$tmp/$name.out")
    if [ -z "$d" ]; then
        fail "$what: no 'check: ... max |difference| = ...' line"
    elif awk -v d="$d" 'BEGIN { exit !(d + 0 < 1e-5 && d + 0 >= 0) }'; then
        pass "$what: max |difference| = $d < 1e-5"
    else
        fail "$what: max |difference| = $d, expected < 1e-5"
    fi
}

run check_pj analyze paddle-juggler --check
expect_status check_pj 0 "analyze paddle-juggler --check"
check_diff_below check_pj "paddle-juggler --check"

run check_slip analyze slip-hopper --check
expect_status check_slip 0 "analyze slip-hopper --check"
check_diff_below check_slip "slip-hopper --check"

run check_json analyze paddle-juggler --check --json
expect_status check_json 0 "analyze paddle-juggler --check --json"
expect_grep check_json out '"max_abs_diff"' "check JSON has max_abs_diff"
expect_json_value check_json 'd["check"]["max_abs_diff"] < 1e-5' True \
    "check JSON max_abs_diff < 1e-5"
expect_json_value check_json 'd["check"]["method"]' finite-differences \
    "check JSON method"

# ---------------------------------------------------------- analyze errors
run e_problem analyze no-such-problem
expect_status e_problem 2 "unknown problem"
expect_grep e_problem err "unknown problem 'no-such-problem'" "unknown problem is named"

run e_param analyze paddle-juggler -p nosuch=1
expect_status e_param 2 "unknown parameter"
expect_grep e_param err "'nosuch'" "unknown parameter is named"
expect_grep e_param err 'paddle_accel' "unknown parameter lists the valid ones"

run e_range analyze slip-hopper -p k=-5
expect_status e_range 2 "slip-hopper k=-5 out of range"
expect_grep e_range err "k=-5" "out-of-range parameter is named"

run e_nan analyze paddle-juggler -p alpha=nan
expect_status e_nan 2 "alpha=nan"
expect_grep e_nan err 'finite' "alpha=nan is called not finite"

run e_inf analyze paddle-juggler -p alpha=inf
expect_status e_inf 2 "alpha=inf"

run e_abc analyze paddle-juggler -p alpha=abc
expect_status e_abc 2 "alpha=abc"
expect_grep e_abc err "'abc' is not a number" "alpha=abc is called not a number"

run e_empty analyze paddle-juggler -p alpha=
expect_status e_empty 2 "alpha= (empty value)"

run e_trailing analyze paddle-juggler -p alpha=1x
expect_status e_trailing 2 "alpha=1x (trailing characters)"

run e_noeq analyze paddle-juggler -p alpha
expect_status e_noeq 2 "-p without '='"

run e_noproblem analyze
expect_status e_noproblem 2 "analyze without a problem"

run e_twoproblems analyze paddle-juggler slip-hopper
expect_status e_twoproblems 2 "analyze with two problems"

# ----------------------------------------------------------------- simulate
run sim simulate paddle-juggler --trials 3 --steps 10 --json
expect_status sim 0 "simulate paddle-juggler --trials 3 --steps 10 --json"
expect_json sim "simulate --json"
expect_grep sim out '"trials"' "simulate JSON has trials"
expect_grep sim out '"converged"' "simulate JSON has converged"
if [ "$have_python" = yes ]; then
    expect_json_value sim 'len(d["trials"])' 3 "simulate JSON has 3 trials"
    expect_json_value sim 'all(len(t["error"]) == t["steps_completed"] <= 10 for t in d["trials"])' \
        True "simulate JSON error lists match steps_completed"
else
    checks=$((checks + 1))
    n=$(grep -c '"steps_completed"' "$tmp/sim.out")
    if [ "$n" -eq 3 ]; then
        pass "simulate JSON has 3 trials"
    else
        fail "simulate JSON has $n trials, expected 3"
    fi
fi

run sim_text simulate paddle-juggler --trials 2 --steps 5
expect_status sim_text 0 "simulate paddle-juggler text output"
expect_grep sim_text out '^converged: [0-9]+ of 2' "simulate text says converged: k of 2"

run sim_csv simulate paddle-juggler --trials 2 --steps 5 --csv
expect_status sim_csv 0 "simulate paddle-juggler --csv"
checks=$((checks + 1))
if [ "$(head -n 1 "$tmp/sim_csv.out")" = "trial,step,error" ]; then
    pass "simulate --csv starts with its header"
else
    fail "simulate --csv header is '$(head -n 1 "$tmp/sim_csv.out")'"
fi

run sim_seed1 simulate paddle-juggler --trials 2 --steps 3 --seed 7 --csv
run sim_seed2 simulate paddle-juggler --trials 2 --steps 3 --seed 7 --csv
checks=$((checks + 1))
if cmp -s "$tmp/sim_seed1.out" "$tmp/sim_seed2.out"; then
    pass "simulate is deterministic for a given seed"
else
    fail "simulate with the same seed gave different output"
fi

run e_trials simulate paddle-juggler --trials 0
expect_status e_trials 2 "simulate --trials 0"
expect_grep e_trials err 'trials' "--trials 0 message names the option"

run e_steps simulate paddle-juggler --steps 0
expect_status e_steps 2 "simulate --steps 0"

run e_perturb simulate paddle-juggler --perturb -1
expect_status e_perturb 2 "simulate --perturb -1"

run e_tol simulate paddle-juggler --tol 0
expect_status e_tol 2 "simulate --tol 0"

run e_seed simulate paddle-juggler --seed x
expect_status e_seed 2 "simulate --seed x"

run e_both simulate paddle-juggler --json --csv
expect_status e_both 2 "simulate --json --csv"

run e_simparam simulate paddle-juggler -p nosuch=1
expect_status e_simparam 2 "simulate with an unknown parameter"

# ------------------------------------------------------------------ summary
echo "cli.sh: $checks checks, $failures failed"
[ "$failures" -eq 0 ] || exit 1
exit 0
