#!/bin/sh
# tests/cli.sh - tests of the hes program's contract (lib/README.md, section 5):
# the output of list, info, analyze (with --gradient), simulate and shape,
# the JSON documents, and
# every error path with its exit status (0 ok, 1 computation failed, 2 bad
# usage or input).  Run by `make check` with HES (the program),
# top_srcdir and top_builddir in the environment.  Prints each failed check
# and exits 1 if any failed.  JSON validity is checked with python3 when it
# is installed; the content checks also work without it.

HES=${HES:-${top_builddir:-.}/src/hes}
tmp=${TMPDIR:-/tmp}/hes-cli-test.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

if command -v python3 >/dev/null 2>&1; then
    have_python=yes
else
    have_python=no
    echo "cli.sh: python3 not found; JSON validity checks skipped" >&2
fi

. "${top_srcdir:-.}/tests/testlib.sh"

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
expect_grep version out '^features: base' "hes --version lists the features it was built with"
# MuJoCo's checks run when hes says it was built with it: a probe that runs
# a robot could crash and so skip them without a word
have_mujoco=no
if grep -q '^features:.* mujoco' "$tmp/version.out"; then
    have_mujoco=yes
fi
have_impacts=no
if grep -q '^features:.* siconos' "$tmp/version.out" && grep -q '^features:.* gsl' "$tmp/version.out"; then
    have_impacts=yes
fi

run noargs
expect_status noargs 2 "hes without a command"

run badcmd frobnicate
expect_status badcmd 2 "unknown command"
expect_grep badcmd err 'frobnicate' "unknown command is named"

run badopt analyze paddle-juggler --no-such-option
expect_status badopt 2 "unknown option"
expect_grep badopt err 'no-such-option' "unknown option is named"
expect_grep badopt err "hes analyze --help" "unknown option points to the command's --help"

run cmdhelp analyze --help
expect_status cmdhelp 0 "hes analyze --help"
expect_grep cmdhelp out '^Usage: hes analyze' "hes analyze --help prints its usage"

# --------------------------------------------------------------------- list
run list list
expect_status list 0 "hes list"
expect_grep list out '^paddle-juggler ' "hes list lists paddle-juggler"
expect_grep list out '^slip-hopper ' "hes list lists slip-hopper"
expect_grep list out '^hopper-1d +\[ess\] ' "hes list lists hopper-1d, marked [ess]"
expect_grep list out '^box-wall +\[impact\] ' "hes list lists box-wall, marked [impact]"

run info_ess info hopper-1d
expect_status info_ess 0 "hes info hopper-1d"
expect_grep info_ess out '^states \(2\): y, v$' "hes info hopper-1d names its states"
expect_grep info_ess out '^event functions \(2\): touchdown, liftoff$' \
    "hes info hopper-1d names its event functions"
expect_grep info_ess out '^  k +1000 ' "hes info hopper-1d lists parameter k"
run info_ess_json info hopper-1d --json
expect_status info_ess_json 0 "hes info hopper-1d --json"
expect_json info_ess_json "info hopper-1d --json"
expect_json_value info_ess_json 'list(d)' "['name', 'description', 'integrator', 'states', 'events', 'params', 'orbit_guess']" \
    "info --json of an ESS problem has its keys"
expect_json_value info_ess_json '(d["integrator"], d["events"], [p["name"] for p in d["params"]])' \
    "('ess', ['touchdown', 'liftoff'], ['g', 'k', 'mass', 'l0'])" \
    "info --json of hopper-1d: integrator, events, parameters"

# --------------------------------------------------------------------- info
run info info slip-hopper
expect_status info 0 "hes info slip-hopper"
expect_grep info out 'l_td' "hes info slip-hopper mentions l_td"
expect_grep info out 'theta_td' "hes info slip-hopper mentions theta_td"
expect_grep info out '^integrator: rk8 ' "hes info slip-hopper names its integrator, rk8"
run info_pj info paddle-juggler
expect_grep info_pj out '^integrator: CVODES Adams ' "hes info paddle-juggler names CVODES Adams"

run infojson info paddle-juggler --json
expect_status infojson 0 "hes info paddle-juggler --json"
expect_json infojson "hes info paddle-juggler --json"
expect_json_value infojson 'd["name"]' paddle-juggler "info JSON names the problem"
run infojson_trot info trot-rigid --json
expect_json_value infojson_trot 'd["orbit"]' None "info JSON: a model that declares no orbit has orbit null"
expect_json_value infojson 'd["orbit"]["sequence"]' "['impact', 'apex']" "info JSON: a declared orbit's sequence"

expect_grep info out '^  K .*\[-0\.2, 0\.6\]' "hes info slip-hopper shows the search bounds of K"

run infojson_slip info slip-hopper --json
expect_status infojson_slip 0 "hes info slip-hopper --json"
expect_json_value infojson_slip '[p["search"] for p in d["params"] if p["name"] == "K"][0]' \
    '[-0.2, 0.6]' "info JSON has the search bounds of K"
expect_json_value infojson_slip '[p["search"] for p in d["params"] if p["name"] == "k"][0]' \
    None "info JSON search is null for a parameter without search bounds"

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

# --------------------------------------------------------- analyze --gradient
run grad analyze paddle-juggler --gradient
expect_status grad 0 "analyze paddle-juggler --gradient"
expect_grep grad out '^gradient of psi \(' "analyze --gradient prints the gradient section"
expect_grep grad out '^  dpsi/dpaddle_accel *= ' "analyze --gradient prints dpsi/dpaddle_accel"

run grad_json analyze paddle-juggler --gradient --json
expect_status grad_json 0 "analyze paddle-juggler --gradient --json"
expect_json grad_json "analyze --gradient --json"
expect_grep grad_json out '"psi_gradient"' "gradient JSON has psi_gradient"
expect_grep grad_json out '"psi_gradient_method"' "gradient JSON has psi_gradient_method"
expect_json_value grad_json 'list(d["psi_gradient"].keys())' "['paddle_accel']" \
    "gradient JSON psi_gradient has exactly the key paddle_accel"
expect_json_value grad_json 'd["psi_gradient_method"] in ("analytic", "finite-differences")' \
    True "gradient JSON psi_gradient_method is analytic or finite-differences"
expect_json_value grad_json '"monodromy" in d and "psi" in d' True \
    "gradient JSON keeps the keys of analyze --json"

run grad_slip analyze slip-hopper --gradient
expect_status grad_slip 0 "analyze slip-hopper --gradient"
expect_grep grad_slip out '^  dpsi/dK *= ' "slip-hopper --gradient prints dpsi/dK"
expect_grep grad_slip out '^  dpsi/dthetadot *= ' "slip-hopper --gradient prints dpsi/dthetadot"

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

# ------------------------------------------------- simulate --integrator ess
# hopper-1d from rest at 1.2 m: one fall (0.2 m, 0.2019 s), stance, the
# return to the apex after one period (0.6131 s), ... ; at t = 0.5 two
# crossings (touchdown, liftoff).
run ess_csv simulate hopper-1d --x0 1.2,0 --time 0.5 --samples 6 --csv
expect_status ess_csv 0 "simulate hopper-1d --samples 6 --csv (ESS by default)"
expect_grep ess_csv out '^t,y,v$' "ESS CSV header t,y,v"
checks=$((checks + 1))
n=$(wc -l < "$tmp/ess_csv.out")
if [ "$n" -eq 7 ]; then pass "ESS CSV has 6 sample rows"; else fail "ESS CSV has $((n - 1)) rows, expected 6"; fi
expect_grep ess_csv out '^0,1.2,0$' "ESS CSV starts at x0"
expect_grep ess_csv out '^0.5,' "ESS CSV ends at T"
run ess_json simulate hopper-1d --integrator ess --eps 1e-4 --x0 1.2,0 --time 0.5 --jacobian --json
expect_status ess_json 0 "simulate hopper-1d --integrator ess --jacobian --json"
expect_json ess_json "simulate --integrator ess --json"
expect_json_value ess_json 'list(d)' \
    "['problem', 'integrator', 'eps', 'params', 'states', 't0', 'x0', 't_end', 'samples', 'x_end', 'signs_end', 'counts', 'jacobian', 'eps_error', 'eps_order']" \
    "ESS JSON has its keys"
expect_json_value ess_json '(d["counts"]["projections"], d["signs_end"], len(d["jacobian"]), len(d["jacobian"][0]))' \
    "(2, [-1, 1], 2, 2)" "ESS JSON: two crossings before t = 0.5, in flight after liftoff, a 2 x 2 Jacobian"
expect_json_value ess_json 'd["samples"][0] == {"t": 0, "x": [1.2, 0]} and d["samples"][-1]["t"] == 0.5' \
    True "ESS JSON samples: the step boundaries from x0 to T"
# the flow preserves phase-space area (Hamiltonian in both phases): det J = 1
expect_json_value ess_json 'abs(d["jacobian"][0][0]*d["jacobian"][1][1] - d["jacobian"][0][1]*d["jacobian"][1][0] - 1) < 1e-3' \
    True "ESS JSON: det d x(T)/d x0 = 1 (area-preserving flow)"
run ess_text simulate hopper-1d --x0 1.2,0 --time 1 --jacobian -p k=2000
expect_status ess_text 0 "simulate hopper-1d --jacobian -p k=2000 (text)"
expect_grep ess_text out '^steps: [0-9]+ integration, 4 projection' "ESS text counts 4 crossings before t = 1"
expect_grep ess_text out '^jacobian d x\(T\) / d x0:' "ESS text prints the Jacobian"
# a band far too wide for the hopper (eps 0.1 against a stance of 2.4 cm):
# every run says how far its end state is from the band's error, and
# this one says it on stderr
run ess_wide simulate hopper-1d --integrator ess --eps 0.1 --x0 1.5,0 --time 2
expect_status ess_wide 0 "simulate hopper-1d --eps 0.1"
expect_grep ess_wide err "note: the end state's error from the band eps = 0.1 is about" \
    "a band too wide is reported with its error estimate"
expect_grep ess_wide out '^error from the band' "the text gives the band's error estimate"
run ess_fine simulate hopper-1d --integrator ess --eps 1e-4 --x0 1.5,0 --time 2
expect_no_grep ess_fine err "note" "no accuracy note at eps 1e-4"
run ess_refuse simulate slip-hopper --integrator ess --x0 1,2 --time 1
expect_status ess_refuse 2 "--integrator ess on a hybrid model is refused"
expect_grep ess_refuse err 'no ESS form' "the refusal says the problem has no ESS form"
run ess_refuse2 simulate hopper-1d --integrator event --x0 1.2,0 --time 1
expect_status ess_refuse2 2 "--integrator event on an ESS problem is refused"
run ess_badname simulate hopper-1d --integrator rk4 --x0 1.2,0 --time 1
expect_status ess_badname 2 "an unknown integrator is refused"
expect_grep ess_badname err "rk4" "the unknown integrator is named"
# hopper-1d at rest 0.5 mm into its spring (l0 = 1, k = 1000, mass 1): the
# liftoff guard is in its band and not live (v = 0, then the leg compresses
# further).  By default it is watched: the hopper stays in stance,
# y(t) = ye + (0.9995 - ye) cos(w t), ye = 1 - g / k, w = sqrt(k), and no
# guard is crossed; --strict-liveness refuses the run, naming the guard.
run ess_live simulate hopper-1d --x0 0.9995,0 --time 1 --json
expect_status ess_live 0 "a guard in its band that is not live is watched by default"
expect_json_value ess_live '(d["counts"]["projections"], d["counts"]["sign_changes"], d["signs_end"])' \
    "(0, 0, [1, -1])" "the watched liftoff guard is not crossed: the hopper stays in stance"
expect_json_value ess_live 'abs(d["x_end"][0] - (1 - 9.81e-3 + (9.81e-3 - 5e-4) * __import__("math").cos(1000 ** 0.5))) < 1e-6 and abs(d["x_end"][1] + (9.81e-3 - 5e-4) * 1000 ** 0.5 * __import__("math").sin(1000 ** 0.5)) < 1e-6' \
    True "the watched run is the closed-form stance oscillation"
run ess_strict simulate hopper-1d --x0 0.9995,0 --time 1 --strict-liveness
expect_status ess_strict 1 "--strict-liveness: a liveness violation is a failed computation"
expect_grep ess_strict err "liveness violated.*'liftoff'" "the liveness message names the guard"
expect_grep ess_strict err "strict liveness" "the liveness message says it is the strict check"
run ess_strict_fine simulate hopper-1d --x0 1.2,0 --time 1 --strict-liveness --json
expect_status ess_strict_fine 0 "--strict-liveness accepts a live run"
expect_json_value ess_strict_fine '(d["counts"]["projections"], d["counts"]["refused"])' "(4, 0)" \
    "--strict-liveness: the hopper's four crossings in 1 s projected, none watched"
# the ESS paper's plate: a fall watched by default, refused when strict
run ess_plate simulate plate-vertical --x0 0,0.3,0.05,0,0,0 --time 2 --samples 3 --json
expect_status ess_plate 0 "plate-vertical's fall (near misses, liftoff guards not live) by default"
expect_json_value ess_plate 'd["counts"]["refused"] > 0 and d["counts"]["projections"] > 0' True \
    "plate-vertical's fall: projections, and guards watched instead of projected"
# --ess-method: DOPRI5 steps (with the plate's broad phase and sums) end
# where CVODES's do, to the integration tolerances
run ess_plate_dp simulate plate-vertical --x0 0,0.3,0.05,0,0,0 --time 2 --samples 3 --json --ess-method dopri5
expect_status ess_plate_dp 0 "plate-vertical's fall with --ess-method dopri5"
expect_json_value ess_plate_dp "max(abs(a - b) for a, b in zip(d['x_end'], __import__('json').load(open('$tmp/ess_plate.out'))['x_end'])) < 1e-5" \
    True "--ess-method dopri5 ends where cvodes ends (1e-5)"
run e_ess_method simulate plate-vertical --x0 0,0.3,0.05,0,0,0 --time 2 --ess-method rk4
expect_status e_ess_method 2 "--ess-method names cvodes or dopri5"
expect_grep e_ess_method err "cvodes or dopri5" "the refusal names the two methods"
run e_ess_method_hy simulate slip-hopper --ess-method dopri5
expect_status e_ess_method_hy 2 "--ess-method is an ESS option"
run ess_an_dp analyze hopper-pumped --ess-method dopri5 --json
expect_json_value ess_an_dp 'abs(d["psi"] - 0.8812752) < 1e-6' True \
    "analyze --ess-method dopri5: hopper-pumped's psi as with cvodes"
run ess_plate_strict simulate plate-vertical --x0 0,0.3,0.05,0,0,0 --time 2 --samples 3 --strict-liveness
expect_status ess_plate_strict 1 "plate-vertical's fall with --strict-liveness is refused"
expect_grep ess_plate_strict err "(near miss|liveness violated).*guard '(touchdown|liftoff) [0-9]+'" \
    "the refusal of the plate's fall names the guard"

# ------------------------------------------------- analyze an ESS orbit
# hopper-pumped: a stable hopping orbit of the ESS flow.  The flow is
# planar, so the trivial multiplier is 1 and the nontrivial one is det Phi.
run an_ess analyze hopper-pumped --json
expect_status an_ess 0 "analyze hopper-pumped (an ESS periodic orbit) --json"
expect_json an_ess "analyze hopper-pumped --json"
expect_json_value an_ess '(d["integrator"], d["section"], d["orbit"]["x0"][1], d["verdict"], len(d["multipliers"]))' \
    "('ess', 'v', 0.0, 'stable', 1)" "ESS orbit JSON: on the section v = 0, one nontrivial multiplier, stable"
expect_json_value an_ess 'abs(d["monodromy"][0][0]*d["monodromy"][1][1] - d["monodromy"][0][1]*d["monodromy"][1][0] - d["multipliers"][0]["re"]) < 1e-6' \
    True "ESS orbit JSON: the multiplier is det Phi (planar flow)"
expect_json_value an_ess 'abs(d["eps_order"] - 2) < 0.2 and d["psi_tolerance"] >= d["eps_error"] > 0' \
    True "ESS orbit JSON: psi's error from the band, observed at order 2, in its tolerance"
run an_ess_text analyze hopper-pumped --eps 1e-4 -p drag=0.6
expect_status an_ess_text 0 "analyze hopper-pumped --eps 1e-4 -p drag=0.6 (text)"
expect_grep an_ess_text out '^psi = 0\.[0-9]+ \(\+- [0-9.e-]+\): stable$' "ESS orbit text gives psi and the verdict"
expect_grep an_ess_text out 'drag = 0\.6' "ESS orbit text shows the parameter set"
run an_ess_art analyze hopper-pumped -p pump=0
expect_status an_ess_art 1 "an ESS orbit that is an artifact of the band fails"
expect_grep an_ess_art err 'does not converge as the band shrinks' "the artifact is named as such"
run an_ess_strict analyze hopper-pumped --strict-liveness --json
expect_status an_ess_strict 0 "analyze hopper-pumped --strict-liveness (its orbit is live)"
if [ "$have_python" = yes ]; then
    checks=$((checks + 1))
    if [ "$(json_eval an_ess 'd["psi"]')" = "$(json_eval an_ess_strict 'd["psi"]')" ]; then
        pass "analyze hopper-pumped: the same psi with --strict-liveness (no guard watched)"
    else
        fail "analyze hopper-pumped: psi $(json_eval an_ess_strict 'd["psi"]') with --strict-liveness, $(json_eval an_ess 'd["psi"]') without"
    fi
fi
run e_an_ess1 analyze hopper-1d
expect_status e_an_ess1 2 "analyze of an ESS problem without an orbit guess asks for one"
expect_grep e_an_ess1 err 'no periodic orbit guess' "the message asks for --x0, --period, --section"
run e_an_ess2 analyze hopper-pumped --check
expect_status e_an_ess2 0 "--check on an ESS problem: the one pipeline's check"
expect_grep e_an_ess2 out 'check: the monodromy against central differences of full ESS runs: max .difference. [0-9.e+-]+$' "the ESS monodromy is checked against differences of full runs"
d=$(sed -n 's/^check: .*max .difference. //p' "$tmp/e_an_ess2.out")
checks=$((checks + 1))
if awk -v d="$d" 'BEGIN { exit !(d != "" && d + 0 < 1e-3) }'; then
    pass "the ESS monodromy agrees with central differences ($d)"
else
    fail "the ESS monodromy differs from central differences by '$d'"
fi
run e_sw_ess sweep hopper-pumped --grid k=900:1100:3
expect_status e_sw_ess 0 "hes sweep takes an ESS system (the one pipeline)"
row=$(grep '^1,1000,ok,' "$tmp/e_sw_ess.out" | cut -d, -f4)
an=$(sed -n 's/^psi = \([0-9.]*\) .*/\1/p' "$tmp/e_an_ess2.out")
checks=$((checks + 1))
if awk -v a="$row" -v b="$an" 'BEGIN { d = a - b; exit !(a != "" && b != "" && d < 1e-6 && d > -1e-6) }'; then
    pass "the ESS sweep's row at k = 1000 is hes analyze's psi ($row, $an)"
else
    fail "the ESS sweep's row at k = 1000 has psi '$row', hes analyze '$an'"
fi
run e_sh_ess shape hopper-pumped
expect_status e_sh_ess 2 "hes shape of an ESS system is refused by the library's shape optimisation"
expect_grep e_sh_ess err 'needs an event-driven hybrid model' "the refusal says what shape optimisation needs"
run e_an_ess3 analyze slip-hopper --eps 1e-3
expect_status e_an_ess3 2 "--eps on a hybrid model is refused"
run e_an_ess4 analyze hopper-pumped --section w
expect_status e_an_ess4 2 "an unknown --section is refused"
expect_grep e_an_ess4 err "'w' is not a state" "the unknown section is named"
run e_an_ess5 analyze hopper-pumped --x0 1,2,3
expect_status e_an_ess5 2 "--x0 of the wrong length is refused"
run e_an_ess6 analyze hopper-pumped --period 0
expect_status e_an_ess6 2 "--period 0 is refused"

# -------------------------------------------------------------------- shape
run shapehelp shape --help
expect_status shapehelp 0 "hes shape --help"
expect_grep shapehelp out '^Usage: hes shape' "hes shape --help prints its usage"
expect_grep help out 'shape' "hes --help lists the shape command"

run sh_pj shape paddle-juggler --json
expect_status sh_pj 0 "shape paddle-juggler --json"
expect_json sh_pj "shape paddle-juggler --json"
expect_grep sh_pj out '"psi_initial"' "shape JSON has psi_initial"
expect_grep sh_pj out '"evaluations"' "shape JSON has evaluations"
# psi >= sqrt(det Phi) = alpha, with equality exactly where the two multipliers
# are a complex pair: for alpha = 0.5, g = 9.81 the interval [-9.81, -1.09]
# of paddle_accel (closed form of the problem).
expect_json_value sh_pj 'abs(d["psi"] - 0.5) < 1e-6' True "shape paddle-juggler psi = 0.5 (alpha)"
expect_json_value sh_pj '-9.81 <= d["shape"]["paddle_accel"] <= -1.09' True \
    "shape paddle-juggler optimum inside [-9.81, -1.09]"
expect_json_value sh_pj 'd["gradient"]' analytic "shape JSON gradient is analytic"
expect_json_value sh_pj 'd["algorithm"]' LD_SLSQP "shape JSON algorithm is LD_SLSQP"
expect_json_value sh_pj 'd["measure"]' psi "shape JSON measure is psi"
expect_json_value sh_pj 'd["bounds"]["paddle_accel"]' '[-20.0, 10.0]' \
    "shape JSON bounds are the model's search bounds"
expect_json_value sh_pj '"verify" in d' False "shape JSON has no verify without --verify"
checks=$((checks + 1))
if [ "$(head -n 1 "$tmp/sh_pj.out" | cut -c 1)" = "{" ] && [ ! -s "$tmp/sh_pj.err" ]; then
    pass "shape --json: stdout is only the JSON object, stderr empty"
else
    fail "shape --json: stdout must start with '{' and stderr be empty"
fi

run sh_pj_text shape paddle-juggler
expect_status sh_pj_text 0 "shape paddle-juggler (text)"
expect_grep sh_pj_text out '^  paddle_accel ' "shape text lists paddle_accel"
expect_grep sh_pj_text out '^psi at the optimum: ' "shape text reports psi at the optimum"
expect_grep sh_pj_text out '^stable: psi = 0\.5 < 1' "shape text gives the verdict"

run sh_slip shape slip-hopper --json
expect_status sh_slip 0 "shape slip-hopper --json"
expect_json sh_slip "shape slip-hopper --json"
expect_json_value sh_slip 'd["psi"] < 1 and d["stable"]' True "shape slip-hopper psi < 1"
expect_json_value sh_slip 'd["psi_initial"] > 1' True "shape slip-hopper starts unstable"
expect_json_value sh_slip 'd["shape"]["K"] > 0' True "shape slip-hopper K > 0"
expect_json_value sh_slip 'sorted(d["shape"])' "['K', 'thetadot']" \
    "shape slip-hopper optimises K and thetadot"

run sh_verify shape slip-hopper --verify --trials 5 --steps 60
expect_status sh_verify 0 "shape slip-hopper --verify --trials 5 --steps 60"
expect_grep sh_verify out '^verify: 5 of 5 perturbed trials converged \(radius 0\.1, 60 periods\)' \
    "shape --verify: 5 of 5 converged"

run sh_verify_json shape slip-hopper --verify --trials 3 --steps 60 --json
expect_status sh_verify_json 0 "shape slip-hopper --verify --json"
expect_json_value sh_verify_json \
    '(d["verify"]["trials"], d["verify"]["converged"], d["verify"]["steps"], d["verify"]["tol"])' \
    '(3, 3, 60, 1e-06)' "shape JSON verify"

run sh_bobyqa shape slip-hopper --algorithm LN_BOBYQA --starts 2 --json
expect_status sh_bobyqa 0 "shape slip-hopper --algorithm LN_BOBYQA"
expect_json_value sh_bobyqa 'd["gradient"]' none "derivative-free algorithm: gradient none"

run sh_fd shape paddle-juggler --fd-gradient --measure smooth --no-polish --json
expect_status sh_fd 0 "shape paddle-juggler --fd-gradient --measure smooth --no-polish"
expect_json_value sh_fd '(d["gradient"], d["measure"])' "('finite-differences', 'smooth')" \
    "shape JSON reports finite-difference gradients and the smooth measure"

run sh_seed1 shape slip-hopper --starts 3 --seed 5 --json
run sh_seed2 shape slip-hopper --starts 3 --seed 5 --json
checks=$((checks + 1))
if cmp -s "$tmp/sh_seed1.out" "$tmp/sh_seed2.out"; then
    pass "shape is deterministic for a given seed"
else
    fail "shape with the same seed gave different output"
fi

run e_sh_bounds shape slip-hopper --bounds K=1:0
expect_status e_sh_bounds 2 "shape --bounds K=1:0 (LO > HI)"
expect_grep e_sh_bounds err 'K=1:0' "--bounds K=1:0 is named"

run e_sh_bounds_fmt shape slip-hopper --bounds K=1
expect_status e_sh_bounds_fmt 2 "shape --bounds K=1 (no HI)"

run e_sh_bounds_nan shape slip-hopper --bounds K=nan:1
expect_status e_sh_bounds_nan 2 "shape --bounds K=nan:1"

run e_sh_nosuch shape slip-hopper --bounds nosuch=0:1
expect_status e_sh_nosuch 2 "shape --bounds nosuch=0:1"
expect_grep e_sh_nosuch err "'nosuch'" "unknown shape parameter is named"
expect_grep e_sh_nosuch err 'K, thetadot' "unknown shape parameter lists the shape parameters"

run e_sh_notshape shape slip-hopper --start k=400
expect_status e_sh_notshape 2 "shape --start of a parameter that moves the orbit, without bounds"
expect_grep e_sh_notshape err "'k' has no default search bounds" "its bounds are asked for"

run e_sh_solved shape slip-hopper --bounds l_td=0.8:1
expect_status e_sh_solved 2 "shape --bounds of a solved parameter"
expect_grep e_sh_solved err "'l_td' is solved by the orbit search" "a solved parameter is called so"

run sh_moves shape paddle-juggler --bounds alpha=0.05:0.6 --maxeval 80
expect_status sh_moves 0 "shape over a parameter that moves the orbit"
expect_grep sh_moves out "they move the orbit: each evaluation" "the report says the orbit moves"
expect_grep sh_moves out "0 of them lost the orbit" "the report counts the lost evaluations"

run e_sh_start shape slip-hopper --start K=5
expect_status e_sh_start 2 "shape --start K=5 outside the default bounds"
expect_grep e_sh_start err 'K = 5' "start outside the bounds is named"

run e_sh_startval shape slip-hopper --start K=abc
expect_status e_sh_startval 2 "shape --start K=abc"

run e_sh_alg shape slip-hopper --algorithm NOPE
expect_status e_sh_alg 2 "shape --algorithm NOPE"
expect_grep e_sh_alg err 'NOPE' "unknown algorithm is named"

run e_sh_measure shape slip-hopper --measure bogus
expect_status e_sh_measure 2 "shape --measure bogus"

run e_sh_starts shape slip-hopper --starts 0
expect_status e_sh_starts 2 "shape --starts 0"

run e_sh_maxeval shape slip-hopper --maxeval 0
expect_status e_sh_maxeval 2 "shape --maxeval 0"

run e_sh_noproblem shape
expect_status e_sh_noproblem 2 "shape without a problem"

run e_sh_param shape slip-hopper -p nosuch=1
expect_status e_sh_param 2 "shape with an unknown parameter"

run e_sh_noorbit shape slip-hopper -p b=200
expect_status e_sh_noorbit 1 "shape slip-hopper b=200 (no orbit: computation failed)"

# ---------------------------------------------------------- simulate --sweep
# Trajectory outcomes through intermittent contact (decoupled-limbs paper,
# Fig. 1): a trotter dropped level from rest at y0 = 0.6 m with initial
# pitch theta0, simulated to t = 0.4 s (touchdown near t = 0.247 s); the
# outcome compared is the final pitch rate omega.
rigid_x0=0.6,0,0,0              # y, theta, vy, omega (mode flight)
soft_x0=0.6,0,0.3,0.3,0,0,0,0   # y, theta, y1, y2 and rates: feet at hip height - l

run sw_rigid simulate trot-rigid --sweep theta=-0.01:0.01:5 --x0 $rigid_x0 --time 0.4 --json
expect_status sw_rigid 0 "simulate trot-rigid --sweep theta=-0.01:0.01:5 --json"
expect_json sw_rigid "simulate --sweep --json"
expect_json_value sw_rigid '(d["problem"], d["sweep"]["name"], d["sweep"]["values"])' \
    "('trot-rigid', 'theta', [-0.01, -0.005, 0.0, 0.005, 0.01])" \
    "sweep JSON: problem, swept state and its values (0 exactly in the middle)"
expect_json_value sw_rigid '[(r["mode"], len(r["x"]), r["failure"]) for r in d["results"]]' \
    "[('flight', 4, None), ('flight', 4, None), ('flight', 4, None), ('flight', 4, None), ('flight', 4, None)]" \
    "trot-rigid: every simulation reaches t = 0.4 in flight"
# The lower foot lands first; at theta0 = 0 both guards fire together and
# the lower transition index ("front") is taken first.
expect_json_value sw_rigid '[r["events"] for r in d["results"]]' \
    "[['front', 'rear'], ['front', 'rear'], ['front', 'rear'], ['rear', 'front'], ['rear', 'front']]" \
    "trot-rigid: the lower foot lands first"
# Legs coupled through the body (Da_f M^-1 Da_r^T = 1/m - d^2/J = -0.25 at
# theta = 0, A = Da M^-1 Da^T = 2.25, s = 2 |-0.25| / A = 2/9): the elastic
# impact of the first foot speeds the second one down by the factor 1 + s,
# and after both impacts omega = -+ v s (2 + s) / (2 d) = -+1.198 rad/s with
# v = sqrt(2 g (y0 - l)) = 2.426 m/s, however small theta0 is (1.23 and 1.26
# rad/s at |theta0| = 0.005 and 0.01).  The sign follows the foot that lands
# first: the outcome jumps at theta0 = 0.
expect_json_value sw_rigid 'all(abs(r["x"][3]) > 0.5 for r in d["results"] if r["value"] != 0)' \
    True "trot-rigid: |final omega| > 0.5 rad/s for every theta0 != 0"
expect_json_value sw_rigid '[r["x"][3] > 0 for r in d["results"] if r["value"] != 0]' \
    '[False, False, True, True]' "trot-rigid: final omega changes sign with theta0"
# theta0 = 0 taken as "front then rear": the closed form of the limit
# theta0 -> 0- (not the zero pitch rate of one simultaneous two-foot impact).
expect_json_value sw_rigid \
    'abs(d["results"][2]["x"][3] - (-(2*9.81*0.3)**0.5 * (2/9) * (2 + 2/9) / (2*0.5))) < 1e-6' \
    True "trot-rigid: omega at theta0 = 0 matches the closed form -1.19808 rad/s"
# The jump does not shrink with the step: +-1e-6 apart it is still 2.396.
run sw_rigid_fine simulate trot-rigid --sweep theta=-1e-6:1e-6:3 --x0 $rigid_x0 --time 0.4 --json
expect_status sw_rigid_fine 0 "simulate trot-rigid --sweep theta=-1e-6:1e-6:3"
expect_json_value sw_rigid_fine 'd["results"][2]["x"][3] - d["results"][0]["x"][3] > 2' True \
    "trot-rigid: omega jumps by more than 2 rad/s between theta0 = -1e-6 and 1e-6"

run sw_soft simulate trot-soft --sweep theta=-0.01:0.01:5 --x0 $soft_x0 --time 0.4 --json
expect_status sw_soft 0 "simulate trot-soft --sweep theta=-0.01:0.01:5 --json"
expect_json sw_soft "simulate trot-soft --sweep --json"
expect_json_value sw_soft '[(r["mode"], len(r["x"]), len(r["events"]), r["failure"]) for r in d["results"]]' \
    "[('flight', 8, 4, None), ('flight', 8, 4, None), ('flight', 8, 4, None), ('flight', 8, 4, None), ('flight', 8, 4, None)]" \
    "trot-soft: every simulation lands, lifts off and reaches t = 0.4 in flight"
# The contact sequence changes with the sign of theta0 as for trot-rigid ...
expect_json_value sw_soft '[r["events"][0] for r in d["results"]]' \
    "['front touchdown', 'front touchdown', 'front touchdown', 'rear touchdown', 'rear touchdown']" \
    "trot-soft: the lower foot lands first"
# ... but the limbs are decoupled (block-diagonal M, each constraint on its
# own foot: Da_f M^-1 Da_r^T = 0), so omega (x[5]) is continuous, indeed
# differentiable, in theta0 (paper Theorem 1): zero at theta0 = 0 by mirror
# symmetry (computed: 1.5e-15), odd in theta0 (|omega(t) + omega(-t)| was
# 2e-11, integrator noise), and adjacent values differ in proportion to the
# step.  The slope is a property of the model: the pitch rings at
# sqrt(2 k d^2 / J) = 71 rad/s in stance and leaves with omega = 25.44
# theta0 near 0 (difference quotients 25.13 and 25.40 in this sweep; an
# independent fixed-step integration of the model gave the same omegas to
# 1e-9), so the bound is 30 step, where the rigid trotter jumps by 485 step
# at this step size (and by 1.2e6 step at step 1e-6).
expect_json_value sw_soft 'abs(d["results"][2]["x"][5]) < 1e-6' True \
    "trot-soft: omega = 0 at theta0 = 0 (symmetry)"
expect_json_value sw_soft 'max(abs(d["results"][i]["x"][5] + d["results"][4 - i]["x"][5]) for i in range(2)) < 1e-8' \
    True "trot-soft: omega is odd in theta0"
expect_json_value sw_soft 'max(abs(d["results"][i + 1]["x"][5] - d["results"][i]["x"][5]) for i in range(4)) < 30 * 0.005' \
    True "trot-soft: adjacent omegas differ by less than 30 times the step"
expect_json_value sw_soft 'all((d["results"][i + 1]["x"][5] - d["results"][i]["x"][5]) > 0 for i in range(4))' \
    True "trot-soft: omega increases with theta0"
# Differentiable through the change of contact sequence: the one-sided
# difference quotients at theta0 = 0 with steps of 1e-6 (front first on the
# left, rear first on the right) agree (computed: 25.4433 both, relative
# difference 2e-7, integrator noise ~1e-12 / 1e-6), and agree with the
# coarse sweep's 25.40 to the O(step^2) curvature term (0.2 %).
run sw_soft_fine simulate trot-soft --sweep theta=-1e-6:1e-6:3 --x0 $soft_x0 --time 0.4 --json
expect_status sw_soft_fine 0 "simulate trot-soft --sweep theta=-1e-6:1e-6:3"
expect_json_value sw_soft_fine '[r["events"][0] for r in d["results"]]' \
    "['front touchdown', 'front touchdown', 'rear touchdown']" \
    "trot-soft: the fine sweep crosses the change of touchdown order"
expect_json_value sw_soft_fine \
    'abs((d["results"][2]["x"][5] - d["results"][1]["x"][5]) / (d["results"][1]["x"][5] - d["results"][0]["x"][5]) - 1) < 1e-4' \
    True "trot-soft: left and right difference quotients of omega at theta0 = 0 agree"
checks=$((checks + 1))
if [ "$have_python" = yes ]; then
    coarse=$(json_eval sw_soft '(d["results"][3]["x"][5] - d["results"][2]["x"][5]) / 0.005')
    fine=$(json_eval sw_soft_fine '(d["results"][2]["x"][5] - d["results"][1]["x"][5]) / 1e-6')
    if awk -v a="$coarse" -v b="$fine" 'BEGIN { r = a / b - 1; exit !(r < 0.01 && r > -0.01) }'; then
        pass "trot-soft: slope of omega at theta0 = 0: $fine (fine), $coarse (coarse)"
    else
        fail "trot-soft: slope of omega at theta0 = 0: $fine (fine) vs $coarse (coarse)"
    fi
else
    pass "trot-soft slope comparison skipped (no python3)"
fi

run sw_text simulate trot-rigid --sweep theta=-0.01:0.01:3 --x0 $rigid_x0 --time 0.4
expect_status sw_text 0 "simulate --sweep (text)"
expect_grep sw_text out '^  theta +events +mode +final state +transitions' "sweep text has its table header"
expect_grep sw_text out '^  -0\.01 +2 +flight +\[.*\] +front, rear$' "sweep text row of theta0 = -0.01"
expect_grep sw_text out '^states of mode flight: y, theta, vy, omega' "sweep text names the state components"

run sw_csv simulate trot-soft --sweep theta=0:0.01:2 --x0 $soft_x0 --time 0.4 --csv
expect_status sw_csv 0 "simulate --sweep --csv"
checks=$((checks + 1))
if [ "$(head -n 1 "$tmp/sw_csv.out")" = "value,n_events,transitions,mode,state,x,failure" ] &&
   [ "$(wc -l < "$tmp/sw_csv.out")" -eq 17 ]; then
    pass "sweep --csv: header and one row per final state component (2 x 8)"
else
    fail "sweep --csv: header '$(head -n 1 "$tmp/sw_csv.out")', $(wc -l < "$tmp/sw_csv.out") lines"
fi
expect_grep sw_csv out '^0\.01,4,rear touchdown;.*,flight,omega,' "sweep --csv row of omega"

# --mode: start in double stance with the legs at rest length: the body
# sinks onto the springs and both feet stay down (lambda = mf g + F > 0).
# The decoupled-limbs result from the command line: one run's derivative
# through the simultaneous touchdown, the same in both orders for the soft
# trotter (decoupled), not for the rigid one.
run fl_soft simulate trot-soft --x0 $soft_x0 --time 0.4 --jacobian --json
expect_status fl_soft 0 "simulate trot-soft --jacobian"
expect_json_value fl_soft '(len(d["jacobian"]), d["simultaneous"][0]["differentiable"], d["simultaneous"][0]["coupling"])' \
    "(8, True, 0.0)" "trot-soft: an 8 x 8 flow derivative, the same in both touchdown orders (decoupled)"
run fl_rigid simulate trot-rigid --x0 $rigid_x0 --time 0.4 --jacobian
expect_status fl_rigid 0 "simulate trot-rigid --jacobian (text)"
expect_grep fl_rigid out 'linearisations differ' "trot-rigid: the two touchdown orders give different derivatives"
run e_fl_an analyze trot-rigid
expect_status e_fl_an 2 "analyze of a problem without a periodic orbit"
expect_grep e_fl_an err 'hes simulate trot-rigid --x0 .* --jacobian' "the refusal says how to get the run's derivative"
run e_fl_sweep simulate trot-rigid --x0 $rigid_x0 --time 0.4 --jacobian --sweep theta=0:1:2
expect_status e_fl_sweep 2 "--jacobian with --sweep"
run sw_mode simulate trot-soft --sweep vy=-0.1:0:2 --mode both --x0 0.3,0,0,0 --time 0.05 --json
expect_status sw_mode 0 "simulate --sweep --mode both"
expect_json_value sw_mode '(d["sweep"]["mode"], [r["mode"] for r in d["results"]], [r["events"] for r in d["results"]])' \
    "('both', ['both', 'both'], [[], []])" "sweep from mode both stays in both"

run e_sw_name simulate trot-rigid --sweep phi=-1:1:3 --x0 $rigid_x0 --time 0.4
expect_status e_sw_name 2 "--sweep of an unknown state"
expect_grep e_sw_name err "'phi'" "unknown state is named"
expect_grep e_sw_name err 'y, theta, vy, omega' "unknown state lists the states"

run e_sw_n simulate trot-rigid --sweep theta=-1:1:0 --x0 $rigid_x0 --time 0.4
expect_status e_sw_n 2 "--sweep with N = 0"

run e_sw_order simulate trot-rigid --sweep theta=1:-1:3 --x0 $rigid_x0 --time 0.4
expect_status e_sw_order 2 "--sweep with LO > HI"
expect_grep e_sw_order err 'LO <= HI' "LO > HI is explained"

run e_sw_fmt simulate trot-rigid --sweep theta=-1:1 --x0 $rigid_x0 --time 0.4
expect_status e_sw_fmt 2 "--sweep without N"

run e_sw_nan simulate trot-rigid --sweep theta=nan:1:3 --x0 $rigid_x0 --time 0.4
expect_status e_sw_nan 2 "--sweep with LO = nan"

run e_sw_x0n simulate trot-rigid --sweep theta=-1:1:3 --x0 0.6,0,0 --time 0.4
expect_status e_sw_x0n 2 "--x0 with too few values"
expect_grep e_sw_x0n err 'has 3 values.*has 4' "wrong --x0 length is explained"

run e_sw_x0bad simulate trot-rigid --sweep theta=-1:1:3 --x0 0.6,,0,0 --time 0.4
expect_status e_sw_x0bad 2 "--x0 with an empty value"

run e_sw_time simulate trot-rigid --sweep theta=-1:1:3 --x0 $rigid_x0 --time 0
expect_status e_sw_time 2 "--time 0"

run e_sw_notime simulate trot-rigid --sweep theta=-1:1:3 --x0 $rigid_x0
expect_status e_sw_notime 2 "--sweep without --time"

run e_sw_nox0 simulate trot-rigid --sweep theta=-1:1:3 --time 0.4
expect_status e_sw_nox0 2 "--sweep without --x0"

run e_sw_mode simulate trot-soft --sweep theta=-1:1:3 --x0 $soft_x0 --mode stance --time 0.4
expect_status e_sw_mode 2 "--mode of an unknown mode"
expect_grep e_sw_mode err 'flight, front, rear, both' "unknown mode lists the modes"

run e_sw_alone simulate paddle-juggler --x0 1,2
expect_status e_sw_alone 2 "--x0 without --sweep"

run e_sw_trials simulate trot-rigid --sweep theta=-1:1:3 --x0 $rigid_x0 --time 0.4 --trials 3
expect_status e_sw_trials 2 "--sweep with --trials"

run e_sw_noorbit simulate trot-rigid
expect_status e_sw_noorbit 2 "simulate trot-rigid without --sweep (no orbit to perturb)"
expect_grep e_sw_noorbit err '--sweep' "a model without an orbit points to --sweep"

# ------------------------------------------------------------------ trajopt
# Collocation with psi in the cost: the orbit's own NLP reaches the stable
# hop of the shape optimum (psi 0.66236 at thetadot = 1, where two
# multipliers meet, so psi is the square root of the discretisation error
# there: 1e-3 relative at 11 nodes per phase, 3e-4 at 21), and the shooting
# re-analysis of the result agrees with the collocated psi.  SLSQP needs
# about 1000 evaluations here, the default budget: given room, it must stop
# on its own (a run cut at its budget is near the optimum only by chance).
run tj_slip trajopt slip-hopper --nodes 21 --maxeval 3000 --quiet --json
expect_status tj_slip 0 "trajopt slip-hopper --nodes 21 --json"
expect_json_value tj_slip 'd["evaluations"] < 3000' True \
    "trajopt slip-hopper: the optimiser converges within its budget"
expect_json tj_slip "trajopt slip-hopper --json"
expect_json_value tj_slip 'd["psi_collocation"] < 1 and d["design"]["K"] > 0' True \
    "trajopt slip-hopper: psi < 1 with K > 0"
expect_json_value tj_slip 'abs(d["psi_collocation"] - d["psi_shooting"]) < 1e-3 * d["psi_shooting"]' True \
    "trajopt slip-hopper: collocation psi agrees with shooting to 1e-3"
expect_json_value tj_slip 'd["constraint_violation"] < 1e-9' True "trajopt: constraints satisfied"
expect_json_value tj_slip 'abs(d["psi_collocation"] - 0.66236) < 1e-4' True \
    "trajopt slip-hopper: the optimum of hes shape (0.66236)"

run tj_budget trajopt slip-hopper --nodes 7 --maxeval 20 --quiet
expect_grep tj_budget out '20 evaluations of the cost \(all of --maxeval' \
    "trajopt says when the budget stopped it"
run tj_feas trajopt slip-hopper --objective feasible -p K=0.1 --nodes 11
expect_status tj_feas 0 "trajopt --objective feasible"
expect_grep tj_feas out 'not optimised' "feasible objective reports psi without optimising"

run e_tj_juggler trajopt paddle-juggler
expect_status e_tj_juggler 2 "trajopt of a non-autonomous orbit is refused"
run e_tj_bounds trajopt slip-hopper --design K=1:0
expect_status e_tj_bounds 2 "trajopt --design with LO > HI"
run e_tj_obj trajopt slip-hopper --objective energy
expect_status e_tj_obj 2 "trajopt --objective energy (needs inputs) is refused"
run e_tj_nodes trajopt slip-hopper --nodes 2
expect_status e_tj_nodes 2 "trajopt --nodes 2"
run e_tj_jobs trajopt slip-hopper --jobs 0
expect_status e_tj_jobs 2 "trajopt --jobs 0"

# Gait files: the trajopt result re-analysed and re-simulated on its own.
run tj_gait trajopt slip-hopper --nodes 9 --quiet --json -o "$tmp/slip-gait.json"
expect_status tj_gait 0 "trajopt slip-hopper -o FILE"
run an_gait analyze --orbit "$tmp/slip-gait.json" --json
expect_status an_gait 0 "analyze --orbit FILE (the SLIP gait)"
# a gait of a model that is neither built in nor loaded (a plugin's, say)
sed 's/"problem": "slip-hopper"/"problem": "my-plugin-model"/' "$tmp/slip-gait.json" \
    > "$tmp/plugin-gait.json"
run e_gait_model analyze --orbit "$tmp/plugin-gait.json"
expect_status e_gait_model 2 "analyze --orbit of a gait whose model is not built in"
expect_grep e_gait_model err "model 'my-plugin-model', which is not built in.*--model PATH.so" \
    "the refusal says to give the plugin or robot"
if [ "$have_python" = yes ]; then
    checks=$((checks + 1))
    if python3 -c "
import json, sys
t = json.load(open('$tmp/tj_gait.out')); a = json.load(open('$tmp/an_gait.out'))
sys.exit(0 if abs(t['psi_shooting'] - a['psi']) < 1e-9 * a['psi'] else 1)"; then
        pass "analyze --orbit gives the psi trajopt reported for its gait"
    else
        fail "analyze --orbit gives the psi trajopt reported for its gait"
    fi
fi
run sim_gait simulate --orbit "$tmp/slip-gait.json" --box 0.001 --trials 3 --steps 4
expect_status sim_gait 0 "simulate --orbit FILE --box H"
expect_grep sim_gait out 'box' "simulate --box reports the box"

# The knee biped with torques: minimum energy, constant inputs, then one
# virtual event per phase; each gait re-analysed by shooting.
run tj_biped trajopt knee-biped -p slope=0 --objective energy --inputs constant --nodes 7 \
    --maxeval 300 --quiet --json -o "$tmp/biped.json"
expect_status tj_biped 0 "trajopt knee-biped --objective energy"
expect_json_value tj_biped 'abs(d["psi_refined"] - d["psi_shooting"]) < 1e-3 * d["psi_shooting"] and d["energy"] > 0' True \
    "knee-biped energy gait: refined collocation psi agrees with shooting to 1e-3"
# Mesh continuation (--nodes 7,15): the psi + energy gait optimised on 7
# nodes, then again on 15 from it.  On 7 nodes the optimiser's psi is the
# coarse grid's (4.6 % off the shooting psi of its gait); on 15 it is
# resolved: Hermite-Simpson's error falls like h^4, (15/7)^4 = 21.  The
# run equals its two steps through a gait file, bit for bit (the further
# grid refines in the reduced space, as --solver reduced).
cw="knee-biped -p slope=0 --objective weighted --inputs constant --init $tmp/biped.json"
run tj_g1 trajopt $cw --maxeval 150 --nodes 7 --quiet --json
run tj_g2 trajopt $cw --maxeval 150 --nodes 7,15 --quiet --json -o "$tmp/g2.json"
expect_status tj_g2 0 "trajopt --nodes 7,15"
expect_json_value tj_g2 '([g["nodes"] for g in d["grids"]], d["nodes"], sum(g["evaluations"] for g in d["grids"]) == d["evaluations"], d["grids"][-1]["psi_collocation"] == d["psi_collocation"], d["refined_nodes"])' \
    "([7, 15], 15, True, True, 29)" "the JSON lists both grids; the result and the check grid are the last grid's"
if [ "$have_python" = yes ]; then
    checks=$((checks + 1))
    if python3 -c "
import json, sys
a = json.load(open('$tmp/tj_g1.out')); b = json.load(open('$tmp/tj_g2.out'))
coarse = abs(a['psi_collocation'] - a['psi_shooting']) / a['psi_shooting']
fine = abs(b['psi_collocation'] - b['psi_shooting']) / b['psi_shooting']
print('relative psi error of the optimised grid: 7 nodes %.3g, 7,15 nodes %.3g' % (coarse, fine))
sys.exit(0 if coarse > 1e-2 and fine < coarse / 8 else 1)"; then
        pass "the continued gait's optimised psi is resolved (shooting)"
    else
        fail "the continued gait's optimised psi is resolved (shooting)"
    fi
fi
run tj_g1b trajopt $cw --maxeval 150 --nodes 7 --refine 1 --quiet --json -o "$tmp/g1.json"
run tj_g2b trajopt knee-biped -p slope=0 --objective weighted --inputs constant --maxeval 150 \
    --init "$tmp/g1.json" --nodes 15 --solver reduced --quiet --json
expect_json_value tj_g2b "(d['psi_collocation'], d['energy']) == tuple(json.load(open('$tmp/tj_g2.out'))[k] for k in ('psi_collocation', 'energy'))" \
    True "--nodes 7,15 is --nodes 7 then --nodes 15 --solver reduced from its gait, bit for bit"
run tj_g2t trajopt $cw --nodes 7,15 --maxeval 20
expect_status tj_g2t 0 "trajopt --nodes 7,15 with text output"
expect_grep tj_g2t out '^ *15 nodes per phase, .*solver reduced .*psi' \
    "the text lists the grids; the further grid refines in the reduced space"
expect_grep tj_g2t out 'a grid used all of --maxeval' "a grid at the cap is reported"
# Several starts (--starts): on 2 threads the same as on 1, bit for bit;
# start 0 is the single run; the result is the start of least cost by
# shooting, which for psi + energy with constant inputs (no input-rate
# term) is psi by shooting + energy
run tj_s1 trajopt $cw --nodes 7 --maxeval 60 --quiet --json
run tj_s3 trajopt $cw --nodes 7 --maxeval 60 --starts 3 --jobs 2 --quiet --json -o "$tmp/s3.json"
run tj_s3b trajopt $cw --nodes 7 --maxeval 60 --starts 3 --jobs 1 --quiet --json -o "$tmp/s3b.json"
expect_status tj_s3 0 "trajopt --starts 3 --jobs 2"
if cmp -s "$tmp/s3.json" "$tmp/s3b.json"; then
    pass "--starts 3: the gait on 2 threads equals the gait on 1, bit for bit"
else
    fail "--starts 3: the gait on 2 threads equals the gait on 1, bit for bit"
fi
expect_json_value tj_s3b "[s['cost_shooting'] for s in d['starts']] == [s['cost_shooting'] for s in json.load(open('$tmp/tj_s3.out'))['starts']]" \
    True "--starts 3: every start's cost the same on 1 and 2 threads"
expect_json_value tj_s3 "(len(d['starts']), d['cost_shooting'] == min(s['cost_shooting'] for s in d['starts']) == d['starts'][d['best_start']]['cost_shooting'], abs(d['cost_shooting'] - d['psi_shooting'] - d['energy']) < 1e-12)" \
    "(3, True, True)" "--starts 3: the result is the start of least cost by shooting (psi by shooting + energy)"
expect_json_value tj_s3 "(d['starts'][0]['cost'], d['starts'][0]['psi_shooting']) == tuple(json.load(open('$tmp/tj_s1.out'))[k] for k in ('cost', 'psi_shooting'))" \
    True "start 0 of --starts 3 is the single run"
expect_json_value tj_s3 "len(set(s['cost'] for s in d['starts']))" 3 "the three starts take three paths"
expect_json_value tj_s3 "d['starts'][d['best_start']]['seconds'] < d['seconds'] and d['evaluations'] == d['starts'][d['best_start']]['evaluations']" \
    True "--starts: the kept start's own seconds and evaluations; the result's seconds of all"
# Starts on 4 threads at once each re-collocate with IPOPT (the refinement's
# default), whose MUMPS is not thread-safe: without the library's lock 23 of
# 40 such runs crashed; 8 runs must all succeed with one gait
crashed=0
for i in 1 2 3 4 5 6 7 8; do
    run tj_s4 trajopt $cw --nodes 7 --maxeval 20 --starts 4 --jobs 4 --quiet -o "$tmp/s4-$i.json"
    [ "$status" -eq 0 ] && cmp -s "$tmp/s4-1.json" "$tmp/s4-$i.json" || crashed=$((crashed + 1))
done
checks=$((checks + 1))
if [ "$crashed" -eq 0 ]; then
    pass "--starts 4 --jobs 4: 8 runs with IPOPT on 4 threads, one gait"
else
    fail "--starts 4 --jobs 4: $crashed of 8 runs failed or differed"
fi
# When another start wins, the design printed is that start's (the caller's
# system takes its parameters): the SLIP with its design K, thetadot, seed 3
# (chosen so that start 1 wins; the JSON's design comes from the system, its
# params from the gait)
run tj_sd trajopt slip-hopper --nodes 11 -p K=0.05 -p thetadot=-0.3 --maxeval 40 --starts 3 \
    --jobs 2 --spread 0.3 --seed 3 --quiet --json
expect_json_value tj_sd "(d['best_start'], d['design'] == {k: d['params'][k] for k in d['design']})" \
    "(1, True)" "--starts: the design reported is the kept start's"
run tj_s3t trajopt $cw --nodes 7 --maxeval 20 --starts 2 --seed 7 --spread 0.05
expect_grep tj_s3t out '^starts \(the result is start [01]: least cost by shooting\)' "the text lists the starts"
for bad in "--starts 0" "--starts 65" "--starts x" "--seed 3" "--spread 0.1" "--starts 2 --spread -1" \
           "--starts 2 --objective feasible"; do
    run e_tj_starts trajopt knee-biped --nodes 7 $bad
    expect_status e_tj_starts 2 "trajopt $bad is refused"
done
# A psi floor that never binds (the SLIP's optimum 0.662 lies above 0.3 +
# its smoothing band) changes nothing: the same optimum in the same
# evaluations (its smoothed rounds do not keep the rounds going)
run tj_nofloor trajopt slip-hopper --nodes 11 -p K=0.05 -p thetadot=-0.3 --maxeval 3000 --quiet --json
run tj_floor3 trajopt slip-hopper --nodes 11 -p K=0.05 -p thetadot=-0.3 --maxeval 3000 \
    --psi-floor 0.3 --quiet --json
expect_json_value tj_floor3 "(d['psi_collocation'], d['evaluations']) == tuple(json.load(open('$tmp/tj_nofloor.out'))[k] for k in ('psi_collocation', 'evaluations'))" \
    True "a psi floor below the smoothing's reach changes neither the optimum nor the evaluations"
# --psi-smoothing: SLSQP on 11 nodes from K = thetadot = 0 reaches the
# optimum of the grid that IPOPT finds (SLSQP alone crawls to 0.662866 at
# the cap); a psi floor's smoothing and psi's are independent options
run tj_ps_ipopt trajopt slip-hopper --nodes 11 --solver ipopt --refine 1 --quiet --json
if [ "$status" -eq 0 ]; then # a build with IPOPT
    run tj_ps trajopt slip-hopper --nodes 11 --solver slsqp --psi-smoothing 0.05 --refine 1 --quiet \
        --json
    expect_json_value tj_ps "abs(d['psi_collocation'] - json.load(open('$tmp/tj_ps_ipopt.out'))['psi_collocation']) < 1e-6" \
        True "--psi-smoothing 0.05: SLSQP on 11 nodes reaches IPOPT's optimum of the grid"
fi
# --maxeval per grid: with 40 on each grid the second takes more than 6
# evaluations; with 40,6 at most 6
run tj_g2m trajopt $cw --nodes 7,15 --maxeval 40 --quiet --json
expect_json_value tj_g2m '(d["grids"][0]["evaluations"], d["grids"][1]["evaluations"] > 6)' \
    "(40, True)" "--maxeval 40 caps every grid: the second takes more than 6 evaluations"
run tj_g2m2 trajopt $cw --nodes 7,15 --maxeval 40,6 --quiet --json
expect_json_value tj_g2m2 '(d["grids"][0]["evaluations"], d["grids"][1]["evaluations"] <= 6)' \
    "(40, True)" "--maxeval 40,6: 40 evaluations on 7 nodes, at most 6 on 15"
for bad in "7,15 10,20,30" "7 10,20" "7,15 10,0" "7,15 10,x"; do
    set -- $bad
    run e_tj_maxeval trajopt knee-biped --nodes $1 --maxeval $2
    expect_status e_tj_maxeval 2 "--nodes $1 --maxeval $2 is refused"
    expect_grep e_tj_maxeval err 'one per grid' "the refusal of --maxeval $2 for --nodes $1 says what is expected"
done
# The SLIP's optimum (thetadot at its bound 1) continued to 41 nodes, where
# the default solver would be IPOPT, which moves the start off the bound
# (psi 0.6654): the reduced space keeps the optimum 0.662362 of 'hes shape'.
run tj_slipc trajopt slip-hopper --nodes 11,21,41 --quiet --json
expect_json_value tj_slipc '([g["solver"] for g in d["grids"]], abs(d["psi_collocation"] - 0.662362) < 2e-6, d["design"]["thetadot"])' \
    "(['slsqp', 'reduced', 'reduced'], True, 1.0)" "the SLIP continued to 41 nodes keeps its optimum at the bound"
for bad in 15,7 7,7 7,x 3,4,5,6,7,8,9,10,11 2,9 7.5,9; do
    run e_tj_nodes trajopt knee-biped --nodes $bad
    expect_status e_tj_nodes 2 "--nodes $bad is refused"
    expect_grep e_tj_nodes err "increasing, got '$bad'" "the refusal of --nodes $bad says what is expected"
done

run tj_vhe trajopt knee-biped -p slope=0 --objective feasible --inputs constant --nodes 9 \
    --virtual-events 1,1 --init "$tmp/biped.json" --quiet --json -o "$tmp/vhe.json"
expect_status tj_vhe 0 "trajopt --virtual-events 1,1 --init FILE"
expect_json_value tj_vhe 'sum(p["virtual"] for p in d["phases"])' 2 "two virtual events in the gait"
# -p wins over the parameters of the --init gait (continuation to another
# slope): the gait written is on the new slope and the energy changes
run tj_cont trajopt knee-biped -p slope=0.02 --objective energy --inputs constant --nodes 7 \
    --maxeval 300 --init "$tmp/biped.json" --quiet --json
expect_status tj_cont 0 "trajopt --init FILE -p slope=0.02"
if [ "$have_python" = yes ]; then
    if python3 -c "
import json, sys
a = json.load(open('$tmp/tj_biped.out')); b = json.load(open('$tmp/tj_cont.out'))
sys.exit(0 if a['params']['slope'] == 0 and b['params']['slope'] == 0.02 and
         abs(a['energy'] - b['energy']) > 1e-3 * a['energy'] else 1)"; then
        pass "-p slope=0.02 overrides the --init gait's slope 0"
    else
        fail "-p slope=0.02 overrides the --init gait's slope 0"
    fi
fi
run an_vhe analyze --orbit "$tmp/vhe.json"
expect_status an_vhe 0 "analyze --orbit a gait with virtual events"
expect_grep an_vhe out 'virtual.2' "the derived model names its virtual events"

# A gait whose "inputs" list is emptied while its phases keep their input
# values must be refused, not analysed as the passive gait.
if [ "$have_python" = yes ]; then
    python3 -c "
import json; d = json.load(open('$tmp/biped.json')); assert d['inputs']
d['inputs'] = []; json.dump(d, open('$tmp/biped-noinputs.json', 'w'))"
    run e_gait_noinputs analyze --orbit "$tmp/biped-noinputs.json"
    expect_status e_gait_noinputs 2 "a gait with input values but an empty inputs list is refused"
    expect_grep e_gait_noinputs err 'input values but' "the refusal says the values would be dropped"
fi

run e_orbit_missing analyze --orbit "$tmp/no-such-gait.json"
expect_status e_orbit_missing 2 "analyze --orbit of a missing file"
run e_orbit_other analyze slip-hopper --orbit "$tmp/biped.json"
expect_status e_orbit_other 2 "analyze PROBLEM --orbit of another problem's gait"
expect_grep e_orbit_other err 'knee-biped' "the message names the gait's problem"
printf '{"format": "hes-gait", "version": 1, "problem": "knee-biped", "phases": []}\n' > "$tmp/bad-gait.json"
run e_orbit_bad simulate --orbit "$tmp/bad-gait.json"
expect_status e_orbit_bad 2 "simulate --orbit of a broken gait file"
run e_tj_virtual trajopt knee-biped --virtual-events 1,x
expect_status e_tj_virtual 2 "trajopt --virtual-events with a bad count"
run e_tj_init trajopt knee-biped --init "$tmp/no-such-gait.json"
expect_status e_tj_init 2 "trajopt --init of a missing file"
run e_tj_bound trajopt knee-biped --bound nosuchstate=0:1
expect_status e_tj_bound 2 "trajopt --bound of an unknown state"

# ------------------------------------------------------------------ sweep
# The juggler's closed-form stability interval (paper eq. 10): with
# alpha = 0.5 and g = 9.81 the orbit is stable for paddle accelerations in
# (-2 g (1 + alpha^2) / (1 + alpha)^2, 0) = (-10.9, 0); the grid steps 0.5
# from -12.2 to 1.3, never on an end.
run sw_jug sweep paddle-juggler --grid paddle_accel=-12.2:1.3:28 -o "$tmp/jug.csv"
expect_status sw_jug 0 "sweep paddle-juggler --grid"
checks=$((checks + 1))
# (the file's '#' lines and its header are not rows)
if awk -F, '/^#/ || $1 == "index" { next }
            { a = $2 + 0; want = (a > -10.9 && a < 0) ? 1 : 0;
              if ($3 != "ok" || $5 + 0 != want) bad++; n++ }
            END { exit !(n == 28 && bad == 0) }' "$tmp/jug.csv"; then
    pass "sweep over paddle_accel reproduces the closed-form stability interval"
else
    fail "sweep over paddle_accel reproduces the closed-form stability interval"
fi

# Threads give the rows of the serial run, in the same (index) order.
run sw_s1 sweep slip-hopper --grid K=-0.2:0.6:4 --grid thetadot=-3:1:4 -o "$tmp/s1.csv"
run sw_s2 sweep slip-hopper --grid K=-0.2:0.6:4 --grid thetadot=-3:1:4 --jobs 3 -o "$tmp/s2.csv"
expect_status sw_s2 0 "sweep --jobs 3"
checks=$((checks + 1))
if [ "$(grep -vc '^#' "$tmp/s1.csv")" -eq 17 ] && [ "$(grep -v '^#' "$tmp/s1.csv")" = "$(grep -v '^#' "$tmp/s2.csv")" ]; then
    pass "sweep --jobs 3 gives the rows of the serial run in index order"
else
    fail "sweep --jobs 3 gives the rows of the serial run in index order"
fi

# A sweep over a parameter that defines the orbit's start (the SLIP's apex
# height) gives at each point the orbit of that point: psi as analysed alone.
run sw_apex sweep slip-hopper --grid apex_height=2.4:2.6:3 --json
expect_status sw_apex 0 "sweep slip-hopper --grid apex_height"
for h in 2.4 2.5 2.6; do
    run sw_apex_$h analyze slip-hopper -p apex_height=$h --json
done
if [ "$have_python" = yes ]; then
    checks=$((checks + 1))
    if python3 -c "
import json, sys
rows = [json.loads(l) for l in open('$tmp/sw_apex.out')]
alone = [json.load(open('$tmp/sw_apex_%s.out' % h))['psi'] for h in ('2.4', '2.5', '2.6')]
sys.exit(0 if len(rows) == 3 and all(abs(r['psi'] - a) < 1e-9 for r, a in zip(rows, alone)) else 1)"; then
        pass "sweep over apex_height: each row's psi is the point's own (to 1e-9)"
    else
        fail "sweep over apex_height: each row's psi is the point's own (to 1e-9)"
    fi
fi

# A point without an orbit is a row with its status; the sweep goes on.
run sw_fail sweep paddle-juggler --grid paddle_accel=-5:60:2 -o "$tmp/fail.csv"
expect_status sw_fail 0 "sweep with a failing point"
checks=$((checks + 1))
if grep -q '^1,60,no periodic orbit' "$tmp/fail.csv" && grep -q '^0,-5,ok' "$tmp/fail.csv"; then
    pass "a failing point records its status and the sweep goes on"
else
    fail "a failing point records its status and the sweep goes on"
fi

# Latin hypercube: every coordinate takes each of the N strata once.
run sw_lhs sweep slip-hopper --random 8 --seed 3 --bounds K=0:0.4 --bounds thetadot=-1:1 --json
expect_status sw_lhs 0 "sweep --random --bounds --json"
if [ "$have_python" = yes ]; then
    checks=$((checks + 1))
    if python3 -c "
import json, sys
rows = [json.loads(l) for l in open('$tmp/sw_lhs.out')]
ok = len(rows) == 8
for name, lo, hi in (('K', 0, 0.4), ('thetadot', -1, 1)):
    strata = sorted(int((r['params'][name] - lo) / (hi - lo) * 8) for r in rows)
    ok = ok and strata == list(range(8))
sys.exit(0 if ok else 1)"; then
        pass "sweep --random is a Latin hypercube sample (JSON lines)"
    else
        fail "sweep --random is a Latin hypercube sample (JSON lines)"
    fi
fi

# --list: the points of a CSV file.
printf 'K,thetadot\n0.1,0.5\n0.2,-0.5\n' > "$tmp/points.csv"
run sw_list sweep slip-hopper --list "$tmp/points.csv"
expect_status sw_list 0 "sweep --list"
expect_grep sw_list out '^1,0.20000000000000001,-0.5,ok' "sweep --list analyses each row"

# Killed with SIGKILL at any moment, a resumed sweep ends with exactly the
# rows of an uninterrupted one: no duplicate, none missing.
"$HES" sweep slip-hopper --grid K=0:0.4:12 --grid thetadot=-1:1:12 -o "$tmp/full.csv" 2>/dev/null
for delay in 0.05 0.2 0.5; do
    "$HES" sweep slip-hopper --grid K=0:0.4:12 --grid thetadot=-1:1:12 -o "$tmp/part.csv" 2>/dev/null &
    pid=$!
    sleep $delay
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    "$HES" sweep slip-hopper --grid K=0:0.4:12 --grid thetadot=-1:1:12 -o "$tmp/part.csv" --resume 2>/dev/null
    checks=$((checks + 1))
    if [ "$(sort "$tmp/part.csv")" = "$(sort "$tmp/full.csv")" ]; then
        pass "sweep --resume after SIGKILL at ${delay}s gives the full, duplicate-free rows"
    else
        fail "sweep --resume after SIGKILL at ${delay}s gives the full, duplicate-free rows"
    fi
done
# a row cut in the middle (the kill came during a write) is dropped and redone
head -c 2000 "$tmp/full.csv" > "$tmp/cut.csv"
"$HES" sweep slip-hopper --grid K=0:0.4:12 --grid thetadot=-1:1:12 -o "$tmp/cut.csv" --resume 2>/dev/null
checks=$((checks + 1))
if [ "$(sort "$tmp/cut.csv")" = "$(sort "$tmp/full.csv")" ]; then
    pass "sweep --resume drops a cut last row and redoes it"
else
    fail "sweep --resume drops a cut last row and redoes it"
fi
run e_sw_resume sweep slip-hopper --grid K=0:0.4:3 -o "$tmp/full.csv" --resume
expect_status e_sw_resume 2 "sweep --resume of another sweep's file is refused"

# Threads under helgrind: no data race, no lock-order problem.
if command -v valgrind >/dev/null 2>&1 && [ -x "${top_builddir:-.}/libtool" ]; then
    checks=$((checks + 1))
    if "${top_builddir:-.}/libtool" --mode=execute valgrind --tool=helgrind -q --error-exitcode=9 \
        "$HES" sweep paddle-juggler --grid paddle_accel=-12:0:8 --jobs 2 >/dev/null 2>"$tmp/helgrind.err"; then
        pass "sweep --jobs 2 is clean under helgrind"
    elif grep -q 'ASan runtime' "$tmp/helgrind.err"; then
        echo "cli.sh: an ASan build cannot run under valgrind; the helgrind check is skipped"
    else
        fail "sweep --jobs 2 is clean under helgrind: $(head -c 400 "$tmp/helgrind.err")"
    fi
    checks=$((checks + 1))
    if "${top_builddir:-.}/libtool" --mode=execute valgrind --tool=helgrind -q --error-exitcode=9 \
        "$HES" trajopt knee-biped -p slope=0 --inputs constant --nodes 5 --objective weighted \
        --maxeval 3 --refine 1 --jobs 2 --quiet >/dev/null 2>"$tmp/helgrind.err"; then
        pass "trajopt --jobs 2 (psi's gradient on a team of threads) is clean under helgrind"
    elif grep -q 'ASan runtime' "$tmp/helgrind.err"; then
        :
    else
        fail "trajopt --jobs 2 is clean under helgrind: $(head -c 400 "$tmp/helgrind.err")"
    fi
else
    echo "cli.sh: valgrind not found; the helgrind checks of sweep and trajopt --jobs are skipped"
fi

# The same sweep on 2 MPI ranks (dynamic load balancing over one shared
# counter): the rows of the serial run.
if "$HES" --version | grep -q MPI && command -v mpirun >/dev/null 2>&1; then
    checks=$((checks + 1))
    # (an ASan build: OpenMPI's own allocations at exit are not ours to report)
    if OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0 \
        mpirun -x ASAN_OPTIONS -np 2 --oversubscribe "$HES" sweep slip-hopper --grid K=-0.2:0.6:4 \
        --grid thetadot=-3:1:4 -o "$tmp/mpi.csv" >"$tmp/mpi.log" 2>&1 &&
        grep -q 'on 2 ranks' "$tmp/mpi.log" && [ "$(grep -c 'points in' "$tmp/mpi.log")" -eq 1 ] &&
        [ "$(cat "$tmp/mpi.csv")" = "$(cat "$tmp/s1.csv")" ]; then
        pass "sweep under mpirun -np 2 gives the rows of the serial run, in index order"
    else
        fail "sweep under mpirun -np 2 gives the rows of the serial run, in index order: $(head -c 400 "$tmp/mpi.log")"
    fi
    # resumable under MPI: a file cut in the middle of a row, resumed by 2
    # ranks, ends with the rows of the uninterrupted serial sweep
    checks=$((checks + 1))
    head -c 2500 "$tmp/full.csv" > "$tmp/mpicut.csv"
    if OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0 \
        mpirun -x ASAN_OPTIONS -np 2 --oversubscribe "$HES" sweep slip-hopper --grid K=0:0.4:12 \
        --grid thetadot=-1:1:12 -o "$tmp/mpicut.csv" --resume >"$tmp/mpir.log" 2>&1 &&
        [ "$(sort "$tmp/mpicut.csv")" = "$(sort "$tmp/full.csv")" ]; then
        pass "sweep --resume under mpirun -np 2 completes a cut file with the serial rows"
    else
        fail "sweep --resume under mpirun -np 2 completes a cut file: $(head -c 400 "$tmp/mpir.log")"
    fi
else
    echo "cli.sh: hes built without MPI or no mpirun; the 2-rank sweep check is skipped"
fi

run e_sw_none sweep slip-hopper
expect_status e_sw_none 2 "sweep without points"
run e_sw_two sweep slip-hopper --grid K=0:1:2 --random 3 --bounds K=0:1
expect_status e_sw_two 2 "sweep with two kinds of points"
run e_sw_name sweep slip-hopper --grid nosuch=0:1:2
expect_status e_sw_name 2 "sweep over an unknown parameter"
run e_sw_resume_stdout sweep slip-hopper --grid K=0:1:2 --resume
expect_status e_sw_resume_stdout 2 "sweep --resume without -o"
run e_sw_jobs sweep slip-hopper --grid K=0:1:2 --jobs 0
expect_status e_sw_jobs 2 "sweep --jobs 0"

# --optimize: the shape optimisation at every point (the SLIP optimum of
# hes shape, psi 0.66236, at the default stiffness).
run sw_opt sweep slip-hopper --grid k=500:500:1 --optimize
expect_status sw_opt 0 "sweep --optimize"
checks=$((checks + 1))
if awk -F, 'NR == 2 { exit !($3 == "ok" && $4 > 0.6622 && $4 < 0.6626) }' "$tmp/sw_opt.out"; then
    pass "sweep --optimize reaches the shape optimum"
else
    fail "sweep --optimize reaches the shape optimum: $(sed -n 2p "$tmp/sw_opt.out" | cut -c1-80)"
fi

# ------------------------------------------------------------------ plot
run e_plot_ext plot multipliers slip-hopper -o "$tmp/m.jpg"
expect_status e_plot_ext 2 "plot -o with neither .png nor .svg"
HES_GNUPLOT=/nonexistent/gnuplot
export HES_GNUPLOT
run e_plot_nognuplot plot multipliers slip-hopper -o "$tmp/m.png"
unset HES_GNUPLOT
expect_status e_plot_nognuplot 1 "plot without gnuplot"
expect_grep e_plot_nognuplot err 'not found' "plot says gnuplot is missing"
if command -v gnuplot >/dev/null 2>&1; then
    run pl_map plot stability-map "$tmp/s1.csv" -o "$tmp/map.png"
    expect_status pl_map 0 "plot stability-map of a sweep"
    run pl_mult plot multipliers knee-biped -o "$tmp/mult.svg"
    expect_status pl_mult 0 "plot multipliers (SVG)"
    run pl_conv plot convergence slip-hopper -p K=0.12 -p thetadot=1 --trials 5 --steps 4 -o "$tmp/conv.png"
    expect_status pl_conv 0 "plot convergence"
    checks=$((checks + 1))
    if [ "$(head -c 4 "$tmp/map.png" | od -An -c | tr -d ' ')" = '211PNG' ] &&
        grep -q '<svg' "$tmp/mult.svg" && [ -s "$tmp/conv.png" ]; then
        pass "plot writes PNG and SVG files"
    else
        fail "plot writes PNG and SVG files"
    fi
    run e_plot_map plot stability-map "$tmp/jug.csv" -o "$tmp/bad.png"
    expect_status e_plot_map 2 "plot stability-map of a one-parameter sweep is refused"
    run pl_essb plot ess-bench "${top_srcdir:-.}/share/data/ess_vs_mujoco-plate-vertical.csv" -o "$tmp/essb.svg"
    expect_status pl_essb 0 "plot ess-bench of the benchmark's table"
    checks=$((checks + 1))
    if grep -q '<svg' "$tmp/essb.svg" && grep -q 'us per contact' "$tmp/essb.svg"; then
        pass "plot ess-bench draws both engines with their slopes"
    else
        fail "plot ess-bench draws both engines with their slopes"
    fi
    run e_plot_essb plot ess-bench "$tmp/s1.csv" -o "$tmp/bad.png"
    expect_status e_plot_essb 2 "plot ess-bench of a sweep file is refused"
    expect_grep e_plot_essb err 'not a table of bench_ess_mujoco' "plot ess-bench names the expected header"
    if [ "$have_impacts" = yes ]; then
        run pl_imp plot impact-set box-wall --samples 64 -o "$tmp/imp.svg"
        expect_status pl_imp 0 "plot impact-set box-wall"
        checks=$((checks + 1))
        if grep -q '<svg' "$tmp/imp.svg" && grep -q 'Anitescu-Potra' "$tmp/imp.svg" && grep -q 'sequential A first' "$tmp/imp.svg"; then
            pass "plot impact-set marks the Anitescu-Potra and sequential outcomes"
        else
            fail "plot impact-set marks the Anitescu-Potra and sequential outcomes"
        fi
        run e_plot_imp plot impact-set knee-biped -o "$tmp/bad.png"
        expect_status e_plot_imp 2 "plot impact-set of a model that is not an impact problem"
        run e_plot_imps plot multipliers knee-biped --samples 4 -o "$tmp/bad.png"
        expect_status e_plot_imps 2 "--samples belongs to plot impact-set"
    fi
else
    echo "cli.sh: gnuplot not found; plot checks skipped"
fi

# ----------------------------------------------------- a state on a manifold
# The torque-free rigid body of tests/rigid_body.c (attitude as a unit
# quaternion, 8 states, 7 tangent coordinates) spinning about its
# intermediate axis: the leading multiplier is exp(lambda T), lambda =
# Omega sqrt((I2 - I1)(I3 - I2) / (I1 I3)) = 1 / sqrt(3), T = 2 pi.
rigid=${top_builddir:-.}/tests/.libs/rigid_body_plugin.so
if [ -f "$rigid" ]; then
    run rb_an analyze --model "$rigid" --check --json
    expect_status rb_an 0 "analyze --model rigid_body_plugin.so --check"
    expect_json_value rb_an 'abs(d["psi"] / __import__("math").exp(2 * __import__("math").pi / 3 ** 0.5) - 1) < 1e-8 and len(d["monodromy"]) == 7 and len(d["orbit"]["x0"]) == 8 and d["check"]["max_abs_diff"] < 1e-5' True \
        "psi is exp(lambda T), the monodromy 7 x 7 in tangent coordinates, x0 of 8 states"
    run rb_text analyze --model "$rigid"
    expect_grep rb_text out 'in the tangent coordinates of mode spin \(7 of its 8 states\): rx ry rz wx wy wz tau' \
        "the text names the monodromy's tangent coordinates"
    run rb_info info --model "$rigid"
    expect_grep rb_info out 'tangent dim 7: rx, ry, rz, wx, wy, wz, tau' \
        "info lists the mode's tangent coordinates"
    expect_grep rb_info out 'unknowns: states wx, wz$' \
        "info names the orbit's free states as tangent coordinates (3 and 5, not qz and wy)"
fi

# ------------------------------------------------------------------ plugins
# The rimless wheel example built as a plugin against the build tree: its
# single multiplier is cos^2(2a) (closed form); one built for another model
# ABI is refused with a message that names both versions.
plugin=${top_builddir:-.}/tests/.libs/rimless_wheel_plugin.so
wrong=${top_builddir:-.}/tests/.libs/rimless_wheel_wrong_abi.so
if [ -f "$plugin" ]; then
    run pl_an analyze --model "$plugin" -p a=0.3 --json
    expect_status pl_an 0 "analyze --model rimless_wheel_plugin.so"
    expect_json_value pl_an 'abs(d["psi"] - __import__("math").cos(0.6) ** 2) < 1e-8' True \
        "the plugin's psi is the closed form cos^2(2a)"
    # a plugin named without './' is the file in the current directory
    checks=$((checks + 1))
    hes_abs=$(cd "$(dirname "$HES")" && pwd)/$(basename "$HES")
    if (cd "$(dirname "$plugin")" && "$hes_abs" analyze --model "$(basename "$plugin")" >/dev/null 2>&1); then
        pass "--model NAME.so without ./ loads the file in the current directory"
    else
        fail "--model NAME.so without ./ loads the file in the current directory"
    fi
    run pl_info info --model="$plugin"
    expect_status pl_info 0 "info --model=PATH"
    expect_grep pl_info out 'rimless-wheel' "info names the plugin's model"
    run pl_sweep sweep --model "$plugin" --grid a=0.2:0.4:3 --jobs 2
    expect_status pl_sweep 0 "sweep --model PATH --jobs 2"
    # a wrong supplied Jacobian (dF/dx[1,0] times 1.001) is refused by
    # default, by every command that analyses the orbit, naming the entry
    wrongjac=${top_builddir:-.}/tests/.libs/rimless_wheel_wrong_jacobian.so
    run e_pl_jacd analyze --model "$wrongjac" -p a=0.3
    expect_status e_pl_jacd 1 "analyze refuses a wrong supplied Jacobian by default"
    expect_grep e_pl_jacd err "mode stance: dF/dx\\[1,0\\] disagrees with central differences of its own callback" \
        "the default check names the wrong entry"
    run e_pl_jacsw sweep --model "$wrongjac" --grid a=0.3:0.35:2
    expect_status e_pl_jacsw 0 "sweep with a wrong supplied Jacobian (rows fail, the sweep goes on)"
    expect_grep e_pl_jacsw out '^1,.*,model failure,.*dF/dx\[1;0\] disagrees' "each sweep row names the wrong entry"
    run pl_jacoff analyze --model "$wrongjac" -p a=0.3 --no-check-derivatives
    expect_status pl_jacoff 0 "analyze --no-check-derivatives takes the supplied Jacobian"
    # with --check (and the default check off): the analysis is printed,
    # the check names the entry, and the exit status is 1
    run e_pl_jac analyze --model "$wrongjac" -p a=0.3 --check --no-check-derivatives
    expect_status e_pl_jac 1 "analyze --check with a wrong supplied Jacobian"
    expect_grep e_pl_jac err 'mode stance: dF/dx\[1,0\] disagrees' "the check names the wrong entry"
    expect_grep e_pl_jac out '^psi' "the analysis is printed before the verdict"
    run e_pl_jacj analyze --model "$wrongjac" -p a=0.3 --check --json --no-check-derivatives
    expect_status e_pl_jacj 1 "analyze --check --json with a wrong supplied Jacobian"
    expect_json_value e_pl_jacj 'd["check"]["jacobians"]["disagree"]' True \
        "the JSON's check says the Jacobians disagree"
    run pl_jac analyze --model "$plugin" -p a=0.3 --check --json
    expect_status pl_jac 0 "analyze --check with a correct supplied Jacobian"
    expect_json_value pl_jac 'd["check"]["jacobians"]["disagree"]' False \
        "the JSON's check says the Jacobians agree"
    # its angle as a design parameter on a coarse grid: the optimiser uses
    # the grid's error (psi collocated far below the closed form that
    # shooting gives), and says so; on 41 nodes the two agree
    run pl_coarse trajopt --model "$plugin" -p a=0.3 --design a=0.2:0.5 --nodes 15 --quiet --json
    expect_status pl_coarse 0 "trajopt --model PATH --design on 15 nodes"
    expect_json_value pl_coarse 'd["grid_resolved"]' False "15 nodes do not resolve the wheel's psi"
    expect_json_value pl_coarse 'abs(d["psi_shooting"] - __import__("math").cos(2 * d["design"]["a"]) ** 2) < 1e-6' \
        True "psi by shooting is the closed form cos^2(2a) at the design found"
    expect_grep pl_coarse err 'warning: psi of the collocation .* use more --nodes' \
        "the unresolved grid is reported on stderr"
    run pl_fine trajopt --model "$plugin" -p a=0.3 --design a=0.2:0.5 --nodes 41 --quiet --json
    expect_status pl_fine 0 "trajopt --model PATH --design on 41 nodes"
    expect_json_value pl_fine 'd["grid_resolved"]' True "41 nodes resolve it"
    run e_pl_abi analyze --model "$wrong"
    expect_status e_pl_abi 2 "a plugin built for another model ABI is refused"
    expect_grep e_pl_abi err 'ABI 999, this hes uses ABI' "the refusal names both ABI versions"
    run e_pl_missing analyze --model "$tmp/no-such-plugin.so"
    expect_status e_pl_missing 2 "a missing plugin"
    run e_pl_notplugin analyze --model "${top_builddir:-.}/lib/.libs/libhes.so"
    expect_status e_pl_notplugin 2 "a shared object without hes_plugin_model()"
    expect_grep e_pl_notplugin err 'hes_plugin_model' "the refusal says what is missing"
else
    echo "cli.sh: $plugin not built; plugin checks skipped"
fi

# ---------------------------------------------------- verdicts and starts
# psi = 1 exactly (theory) is neither stable nor unstable: the elastic
# juggler (alpha = 1) and both ends of the stable interval of paddle_accel.
for a in alpha=1 paddle_accel=0 paddle_accel=-10.9; do
    run v_marg analyze paddle-juggler -p $a --json
    expect_status v_marg 0 "analyze paddle-juggler -p $a"
    expect_json_value v_marg '(d["verdict"], d["stable"], abs(d["psi"] - 1) <= d["psi_tolerance"] < 1e-8)' \
        "('marginal', False, True)" "-p $a: verdict marginal, stable false, |psi - 1| within the tolerance"
done
run v_marg_text analyze paddle-juggler -p alpha=1
expect_grep v_marg_text out '^marginal: psi = .* within .* of 1' "the text verdict says marginal"
run v_stable analyze paddle-juggler -p paddle_accel=-1e-6 --json
expect_json_value v_stable '(d["verdict"], d["stable"])' "('stable', True)" \
    "1e-6 inside the stable interval is stable"
run v_unstable analyze paddle-juggler -p paddle_accel=1e-6 --json
expect_json_value v_unstable '(d["verdict"], d["stable"])' "('unstable', False)" \
    "1e-6 outside the stable interval is unstable"

# A start state on a guard whose flow enters the guard's far side (a body
# standing on rigid feet; the ball resting on the paddle after a plastic
# impact) is reported, never integrated through the guard.
run st_guard simulate trot-rigid --sweep theta=0:0:1 --x0 0.3,0,0,0 --time 1 --json
expect_status st_guard 0 "simulate trot-rigid from feet on the ground"
expect_json_value st_guard '(d["results"][0]["failure"].startswith("grazing event"), d["results"][0]["x"][0] >= 0.3)' \
    "(True, True)" "the run stops at the start with a grazing event, not 4.6 m underground"
run st_plastic simulate paddle-juggler -p alpha=0 --sweep vB=0:0:1 --x0 1,0 --time 20
expect_grep st_plastic out 'sustained contact' "a plastic impact on the paddle is reported as sustained contact"
expect_no_grep st_plastic out '-1905' "the ball does not fall through the paddle"

# --x0 and --mode of analyze: the start of the orbit search.
run e_x0_count analyze knee-biped --x0 1,2
expect_status e_x0_count 2 "analyze --x0 with the wrong number of values"
expect_grep e_x0_count err 'has 6 states' "the message gives the mode's dimension"
run e_x0_mode analyze knee-biped --mode locked --x0 1,2,3,4
expect_status e_x0_mode 2 "analyze --mode other than the orbit's"
expect_grep e_x0_mode err "starts in mode 'unlocked'" "the message names the orbit's mode"
run e_x0_bad analyze knee-biped --x0 1,x,3,4,5,6
expect_status e_x0_bad 2 "analyze --x0 with a non-number"
run e_mode_alone analyze knee-biped --mode unlocked
expect_status e_mode_alone 2 "analyze --mode without --x0"

# The simplest walking model (Garcia et al. 1998) as a plugin, its section
# just after the plastic heelstrike: the stable long-period gait from the
# model's guess, the unstable short-period gait from --x0 (the paper's two
# gaits at slope 0.009).
walker=${top_builddir:-.}/tests/.libs/simplest_walker_plugin.so
if [ -f "$walker" ]; then
    run wk_long analyze --model "$walker" --json
    expect_status wk_long 0 "analyze the simplest walker at its heelstrike section"
    expect_json_value wk_long '(round(d["orbit"]["x0"][0], 5), d["verdict"], len(d["multipliers"]))' \
        "(0.20031, 'stable', 3)" "the long-period gait: theta = 0.20031, stable, 3 multipliers"
    run wk_short analyze --model "$walker" --x0 0.1939374,0.3878748,-0.2038669,-0.0148 --json
    expect_status wk_short 0 "analyze --x0 selects the short-period gait"
    expect_json_value wk_short '(round(d["orbit"]["x0"][0], 5), d["verdict"], round(d["psi"], 2))' \
        "(0.19394, 'unstable', 4.0)" "the short-period gait: theta = 0.19394, unstable, psi 4.00"
    # Between slopes 0.0154 and 0.0156 the orbit found is another gait
    # (period 3.91 -> 3.07): the row says so.
    run wk_jump sweep --model "$walker" --grid gamma=0.0140:0.0160:11 --jobs 2
    expect_status wk_jump 0 "sweep the simplest walker's slope"
    checks=$((checks + 1))
    if awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "branch_jump") c = i; next }
                { if ($c == 1) j = j " " $1 } END { exit !(c && j == " 8") }' "$tmp/wk_jump.out"; then
        pass "sweep flags the jump to another gait (branch_jump at the point of period 3.07)"
    else
        fail "sweep flags the jump to another gait (branch_jump at the point of period 3.07)"
    fi
else
    echo "cli.sh: $walker not built; walker checks skipped"
fi

# The mechanical rimless wheel (share/examples/mech_rimless_wheel.c) as a
# plugin: its multiplier is cos^2(2a), and analyze --check compares its
# field Jacobian (the library's, through its chart) with differences.
mwheel=${top_builddir:-.}/tests/.libs/mech_rimless_wheel_plugin.so
if [ -f "$mwheel" ]; then
    run mw_an analyze --model "$mwheel" --check --json
    expect_status mw_an 0 "analyze --model a mechanical plugin --check"
    expect_json_value mw_an 'abs(d["psi"] - __import__("math").cos(2 * d["params"]["a"]) ** 2) < 1e-8 and d["check"]["jacobians"]["checked"] >= 1 and d["check"]["jacobians"]["max_rel_err"] < 1e-7' \
        True "mechanical plugin: psi = cos^2(2a), its Jacobian agrees with differences"
    run mw_txt analyze --model "$mwheel" --check
    expect_grep mw_txt out "the model's 1 Jacobian at the orbit's states" "analyze --check reports the Jacobian check"
else
    echo "cli.sh: $mwheel not built; mechanical plugin checks skipped"
fi

# The ESS example (share/examples/ball_walls.c) as a plugin: an event-
# selected system loaded with --model.  Its bouncing orbit's multiplier is
# 1 / G^2 with G = exp(pump t_c / 2 m), t_c = pi / sqrt(k/m - (pump/2m)^2).
ball=${top_builddir:-.}/tests/.libs/ball_walls_plugin.so
ballabi=${top_builddir:-.}/tests/.libs/ball_walls_wrong_abi.so
if [ -f "$ball" ]; then
    run bw_an analyze --model "$ball" --eps 1e-4 --json
    expect_status bw_an 0 "analyze --model an ESS plugin"
    expect_json_value bw_an 'abs(d["psi"] - __import__("math").exp(-10 * __import__("math").pi / (1000 - 25) ** 0.5)) < 1e-5 and d["verdict"] == "stable"' \
        True "the ESS plugin's psi is the closed form 1 / G^2"
    run bw_an2 analyze --model "$ball" -p pump=6 --eps 1e-4 --json
    expect_json_value bw_an2 'abs(d["psi"] - __import__("math").exp(-6 * __import__("math").pi / (1000 - 9) ** 0.5)) < 1e-5' \
        True "-p pump=6 on the ESS plugin: psi follows the closed form"
    run bw_sim simulate --model "$ball" --x0 0,4 --time 1 --samples 3 --csv
    expect_status bw_sim 0 "simulate --model an ESS plugin (ESS by default)"
    expect_grep bw_sim out '^t,x,v$' "the ESS plugin's states name the CSV columns"
    run bw_info info --model "$ball"
    expect_grep bw_info out '^ball-walls: ' "info --model an ESS plugin"
    expect_grep bw_info out '\(hes analyze --model [^ ]*ball_walls[^ ]*\.so\)' "info names a plugin by --model and its path in the commands it suggests"
    run e_bw_sec analyze hopper-1d --x0 1.5,0 --period 0.74
    expect_status e_bw_sec 2 "an ESS model without an orbit guess needs --section too"
    expect_grep e_bw_sec err 'section NAME' "the message asks for --section"
    run bw_abi1 analyze --model "${top_builddir:-.}/tests/.libs/ball_walls_abi1.so" --eps 1e-4 --json
    expect_json_value bw_abi1 'abs(d["psi"] - __import__("math").exp(-10 * __import__("math").pi / (1000 - 25) ** 0.5)) < 1e-5' \
        True "an ESS plugin of the first ESS ABI loads and gives the same psi"
    run bw_abi2 analyze --model "${top_builddir:-.}/tests/.libs/ball_walls_abi2.so" --eps 1e-4 --json
    expect_json_value bw_abi2 'abs(d["psi"] - __import__("math").exp(-10 * __import__("math").pi / (1000 - 25) ** 0.5)) < 1e-5' \
        True "an ESS plugin of the second ESS ABI (before release) loads and gives the same psi"
    run e_bw_abi analyze --model "$ballabi"
    expect_status e_bw_abi 2 "an ESS plugin built for another ESS ABI is refused"
    expect_grep e_bw_abi err 'ESS model ABI 999, this hes uses ABI' "the refusal names both ESS ABI versions"
    expect_grep e_pl_notplugin err 'hes_plugin_ess_model' "a shared object that is neither kind of plugin: both entries named"
else
    echo "cli.sh: $ball not built; ESS plugin checks skipped"
fi

# ------------------------------------------------------------------ impact
# The rocking block's sequential outcomes pivot it on the corner hit second,
# the other corner lifting at 0.21 v0 (by hand in tests/test_impact.c) with
# v0 = sqrt(2 g 0.01); Anitescu-Potra brings it to rest.
if [ "$have_impacts" = yes ]; then
    run im_rb impact rocking-block --samples 256 --json
    expect_status im_rb 0 "hes impact rocking-block --json"
    expect_json im_rb "hes impact --json"
    expect_json_value im_rb 'abs(d["laws"][1]["u_normal"][0] - 0.21 * (2 * 9.81 * 0.01) ** 0.5) < 1e-9 and d["laws"][1]["modes"] == ["lift", "stick"]' \
        True "sequential A,B: A lifts at 0.21 v0, B sticks"
    expect_json_value im_rb 'max(abs(x) for x in d["laws"][0]["u_normal"] + d["laws"][0]["u_tangent"]) < 1e-12 and d["laws"][0]["relative_distance"] < 1e-9' \
        True "Anitescu-Potra: the block at rest, a point of the set"
    expect_json_value im_rb 'd["summary"]["samples"] == 256 and d["summary"]["max_residual"] <= 1e-9 and d["summary"]["max_energy_gain"] <= 0 and d["summary"]["sequence"] == "sobol"' \
        True "the set's summary: 256 samples, complementary, dissipative"
    run im_txt impact box-wall --samples 64 --select lemke --threads 2
    expect_status im_txt 0 "hes impact box-wall (text)"
    expect_grep im_txt out '^  sequential A,B .*slide,lift' "box-wall: sequential resolution slides A and lifts B"
    expect_grep im_txt out 'LCPs per sample' "the text gives LCPs per sample"
    run im_law impact box-wall --law sequential:B,A
    expect_status im_law 0 "--law sequential:B,A"
    expect_no_grep im_law out 'impulse stepping' "one law alone: no set"
    run im_csv impact compass-gait-impact --samples 32 --csv
    expect_status im_csv 0 "hes impact --csv"
    expect_true "the CSV has a header and 32 rows" test "$(wc -l < "$tmp/im_csv.out")" -eq 33
    expect_grep im_csv out '^sample,finished,lcps,dissipated,residual,un_A,un_B,ut_A,ut_B,mode_A,mode_B,v0' "the CSV header names the contacts"
    run im_ds impact disk-stack --samples 16
    expect_status im_ds 0 "hes impact disk-stack"
    expect_grep im_ds out '^  sequential floor-1,floor-2,top-1,top-2,2-1 .* stick,stick,lift,stick,lift ' "disk-stack: one order's sequence ends with the top disk off the left one"
    expect_grep im_ds out '^  sequential 2-1,top-2,top-1,floor-2,floor-1 .* stick,stick,stick,lift,lift ' "the reversed order ends in the mirror image"
    # the knee biped's heelstrike over its outcome set: psi of each
    # outcome's orbit; the worst orbit checked by differences of the flow
    run im_kb analyze knee-biped --impact-set 8 --threads 2 --json
    expect_status im_kb 0 "analyze knee-biped --impact-set 8"
    expect_json im_kb "analyze --impact-set --json"
    expect_json_value im_kb 'd["impact_set"]["transition"] == "heelstrike" and d["impact_set"]["orbits"] == d["impact_set"]["consistent"] > 0 and abs(d["impact_set"]["psi_nominal"] - d["psi"]) < 1e-12 and d["impact_set"]["psi_worst"] >= max(x for x in d["impact_set"]["psi"]) and d["impact_set"]["worst_check"] < 1e-6 and len(d["impact_set"]["extremes"]) == 8 and all(e["psi"] in d["impact_set"]["psi"] for e in d["impact_set"]["extremes"])' \
        True "the impact set: every consistent outcome has an orbit, the worst is the largest psi, checked by differences"
    run im_kbt analyze knee-biped --impact-set 4
    expect_grep im_kbt out '^  robust verdict over the sampled outcomes: ' "analyze --impact-set gives a robust verdict"
    run e_im_slip analyze slip-hopper --impact-set 4
    expect_status e_im_slip 2 "--impact-set on a model without a frictional impact"
    expect_grep e_im_slip err 'frictional contacts' "the refusal says what is missing"
    expect_true "the refusal prints no analysis on standard output" test ! -s "$tmp/e_im_slip.out"
    run e_im_thr analyze knee-biped --threads 2
    expect_status e_im_thr 2 "--threads without --impact-set"
    # a robot file (MuJoCo): the compass gait's MJCF at the built-in's
    # pre-impact state gives the built-in's outcomes
    if [ "$have_mujoco" = yes ]; then
        run im_rob impact --robot "${top_srcdir:-.}/share/robots/compass_gait.urdf" --contacts A:5,B:5 \
            --q -0.97814760073380569,0.20791169081775931,-1.3613568165555772,1.3613568165555772 \
            --v -0.051977922703439829,-0.24453690018345144,0.25,0.25 --samples 64 --json
        expect_status im_rob 0 "hes impact --robot the compass gait's URDF"
        run im_bi impact compass-gait-impact --samples 64 --json
        expect_true "the robot's Anitescu-Potra and sequential outcomes are the built-in's" \
            python3 -c 'import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
sys.exit(0 if all(abs(x - y) < 1e-9 for la, lb in zip(a["laws"], b["laws"]) for x, y in zip(la["u_normal"] + la["u_tangent"], lb["u_normal"] + lb["u_tangent"])) else 1)' "$tmp/im_rob.out" "$tmp/im_bi.out"
        # the knee biped's floating walker: M(q0) = diag(mT, mT, I, I) with
        # the coupling k, mT = 1.6, k = 0.19375, I = 0.07234375 (closed form
        # in problems/knee_biped.c)
        run info_rob info --robot "${top_srcdir:-.}/share/robots/knee_biped_floating.xml"
        expect_status info_rob 0 "hes info --robot"
        expect_grep info_rob out '^  swing_foot +constraints 2 and 3, friction 1' "info --robot lists the contacts and their constraints"
        expect_grep info_rob out '^   1\.6000000000e\+00  0\.0000000000e\+00  1\.9375000000e-01  1\.9375000000e-01' "info --robot: M(q0)'s first row is the closed form"
        expect_grep info_rob out '^   1\.9375000000e-01  0\.0000000000e\+00  7\.2343750003e-02' "info --robot: the leg's inertia is the closed form (+1e-12 of MuJoCo's floor)"
        run e_info_rob info --robot "${top_srcdir:-.}/share/robots/knee_biped_floating.xml" --json
        expect_status e_info_rob 2 "info --robot with --json"
        run e_rob_q impact --robot "${top_srcdir:-.}/share/robots/compass_gait.xml" --q 0,1 --v 0,0,0,0
        expect_status e_rob_q 2 "--q of the wrong length"
        expect_grep e_rob_q err 'x, z, theta_L, theta_T' "the message names the robot's coordinates"
        run e_rob_sites impact --robot "${top_srcdir:-.}/share/robots/compass_gait.urdf" --q 0,1,0,0 --v 0,-1,0,0
        expect_status e_rob_sites 2 "a URDF without sites needs --contacts"
        run e_rob_none impact --robot /nonexistent.xml --q 0 --v 0
        expect_status e_rob_none 2 "a robot file that does not exist"
        expect_grep e_rob_none err 'nonexistent.xml: No such file' "the message names the file and why"
        printf '<mujoco><worldbody><body><joint type="slide"/></body></worldbody><bogus/></mujoco>\n' >"$tmp/bogus.xml"
        run e_rob_file impact --robot "$tmp/bogus.xml" --q 0 --v 0
        expect_status e_rob_file 2 "a robot file that does not load"
        expect_grep e_rob_file err 'MuJoCo cannot load' "MuJoCo's reason is passed on"
    fi
    run e_im_info info rocking-block
    expect_status e_im_info 2 "hes info of an impact problem"
    expect_grep e_im_info err "is an impact problem: 'hes impact rocking-block'" "the message points to hes impact"
    run e_im_prob impact no-such-impact
    expect_status e_im_prob 2 "unknown impact problem"
    expect_grep e_im_prob err 'rocking-block' "the known impact problems are listed"
    run e_im_law impact box-wall --law sequential:A,A
    expect_status e_im_law 2 "a contact twice in a sequential order"
    run e_im_sel impact box-wall --select best
    expect_status e_im_sel 2 "--select of an unknown kind"
    run e_im_both impact box-wall --json --csv
    expect_status e_im_both 2 "--json and --csv together"
else
    echo "cli.sh: hes impact unavailable (Siconos numerics or GSL missing); impact checks skipped"
fi

# ----------------------------------------------------------- robot models
# A robot file's modes and transitions as JSON (--robot DESC.json): the
# knee biped of share/robots/knee_biped.xml is the built-in knee-biped in
# relative angles (z = T th + (slope, 0, 0)), so period and multipliers
# agree; the rimless wheel's multiplier is the closed form.
kbj=${top_srcdir:-.}/share/robots/knee_biped.json
if [ "$have_mujoco" = yes ]; then
    run rm_kb analyze --robot "$kbj" --json
    expect_status rm_kb 0 "hes analyze --robot knee_biped.json"
    run rm_kbb analyze knee-biped --json
    expect_true "the MJCF knee biped's period and multipliers are the built-in's (1e-7)" \
        python3 -c 'import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
ma = a["multipliers"]; mb = b["multipliers"]
ok = abs(a["orbit"]["period"] - b["orbit"]["period"]) < 1e-7 and len(ma) == len(mb)
ok = ok and all(abs(x["re"] - y["re"]) < 1e-7 and abs(abs(x["im"]) - abs(y["im"])) < 1e-7 for x, y in zip(ma, mb))
sys.exit(0 if ok else 1)' "$tmp/rm_kb.out" "$tmp/rm_kbb.out"
    run rm_kbs analyze --robot "$kbj" -p slope=0.045 -p hip_torque=0.01 --json
    run rm_kbbs analyze knee-biped -p slope=0.045 -p hip_torque=0.01 --json
    expect_true "... and with another slope and a hip torque (the parameters of the description)" \
        python3 -c 'import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
sys.exit(0 if abs(a["psi"] - b["psi"]) < 1e-7 else 1)' "$tmp/rm_kbs.out" "$tmp/rm_kbbs.out"
    # the heelstrike's outcome set on the description: the knee limits the
    # heelstrike locks hold through the frictional impact (bilateral, the
    # law in the velocities that keep them), so every outcome's orbit is
    # the built-in's (whose knees are not coordinates), sample by sample
    run rm_kbi analyze --robot "$kbj" --impact-set 8 --json
    expect_status rm_kbi 0 "analyze --robot knee_biped.json --impact-set 8"
    run rm_kbbi analyze knee-biped --impact-set 8 --json
    expect_true "the description's impact set: every outcome's orbit found, psi the built-in's (1e-7)" \
        python3 -c 'import json, sys
a = json.load(open(sys.argv[1]))["impact_set"]; b = json.load(open(sys.argv[2]))["impact_set"]
ok = a["orbits"] == a["consistent"] == b["orbits"] == 8 and a["failed"] == 0
ok = ok and all(x is not None and abs(x - y) < 1e-7 for x, y in zip(a["psi"], b["psi"]))
sys.exit(0 if ok else 1)' "$tmp/rm_kbi.out" "$tmp/rm_kbbi.out"
    run rm_rw analyze --robot "${top_srcdir:-.}/share/robots/rimless_wheel.json" --json
    expect_true "the MJCF rimless wheel's psi is the closed form ((I + m l^2 cos 2a) / (I + m l^2))^2" \
        python3 -c 'import json, math, sys
a = json.load(open(sys.argv[1])); c = ((0.1 + math.cos(0.6)) / 1.1) ** 2
sys.exit(0 if abs(a["psi"] - c) < 1e-8 else 1)' "$tmp/rm_rw.out"
    # the wheel with a chain of 16 light, stiff, damped hinges hanging from
    # its hub, a site on each of the first 8 links: 19 coordinates, 20
    # constraints; the chain keeps the wheel's multiplier
    {
        sed -n '/^<mujoco/,/<site name="s0"/p' "${top_srcdir:-.}/share/robots/rimless_wheel.xml"
        i=0
        while [ $i -lt 16 ]; do
            printf "<body name='c%d' pos='0 0 %s'><joint name='h%d' type='hinge' axis='0 -1 0' stiffness='10' damping='0.2' armature='0.001'/>" $i "$([ $i -eq 0 ] && echo 0 || echo -0.05)" $i
            printf "<inertial pos='0 0 -0.025' mass='1e-9' diaginertia='1e-12 1e-12 1e-12'/>"
            [ $i -lt 8 ] && printf "<site name='t%d' pos='0 0 -0.05'/>" $i
            i=$((i + 1))
        done
        i=0
        while [ $i -lt 16 ]; do printf "</body>"; i=$((i + 1)); done
        sed -n '/<site name="s1"/,$p' "${top_srcdir:-.}/share/robots/rimless_wheel.xml"
    } >"$tmp/wheel_chain.xml"
    {
        printf '{"name": "wheel-chain", "robot": "wheel_chain.xml", "contacts": {"s0": 1, "s1": 1'
        i=0
        while [ $i -lt 8 ]; do printf ', "t%d": 1' $i; i=$((i + 1)); done
        printf '}, "modes": [{"name": "stance", "pinned": "s0"}], "transitions": [{"name": "heelstrike", '
        printf '"from": "stance", "to": "stance", "activate": "s1", "after": ["s1", "s1_tangential"], '
        printf '"relabel": {"phi": {"phi": 1, "const": 0.6}'
        i=0
        while [ $i -lt 16 ]; do printf ', "h%d": {"h%d": 1}' $i $i; i=$((i + 1)); done
        printf '}}], "orbit": {"mode": "stance", "section": "heelstrike", "sequence": ["heelstrike"], '
        printf '"guess": {"phi": 0.3, "phidot": -1.0}}}\n'
    } >"$tmp/wheel_chain.json"
    run rm_rwc analyze --robot "$tmp/wheel_chain.json" --json
    expect_status rm_rwc 0 "analyze --robot of the wheel with a 16-hinge chain (19 coordinates, 20 constraints)"
    expect_true "... its psi is the wheel's closed form (1e-6)" \
        python3 -c 'import json, math, sys
a = json.load(open(sys.argv[1])); c = ((0.1 + math.cos(0.6)) / 1.1) ** 2
sys.exit(0 if abs(a["psi"] - c) < 1e-6 else 1)' "$tmp/rm_rwc.out"
    run rm_info info --robot "$kbj"
    expect_grep rm_info out '^  unlocked +dim 6  states: th1, hip, knee2, th1dot, hipdot, knee2dot' "info --robot DESC.json lists the modes' states"
    expect_grep rm_info out '^  hip_torque' "... and the motors as parameters"
    run rm_sim simulate --robot "$kbj" --steps 3 --trials 2 --perturb 0.001
    expect_status rm_sim 0 "hes simulate --robot DESC.json"
    run rm_sw sweep --robot "$kbj" --grid slope=0.045:0.055:2 --jobs 2
    expect_status rm_sw 0 "hes sweep --robot DESC.json on 2 threads (one robot, locked)"
    run rm_swb sweep knee-biped --grid slope=0.045:0.055:2
    expect_true "... psi on the grid is the built-in's" \
        python3 -c 'import csv, sys
a = {r["index"]: float(r["psi"]) for r in csv.DictReader(open(sys.argv[1]))}
b = {r["index"]: float(r["psi"]) for r in csv.DictReader(open(sys.argv[2]))}
sys.exit(0 if len(a) == 2 and all(abs(a[k] - b[k]) < 1e-7 for k in a) else 1)' "$tmp/rm_sw.out" "$tmp/rm_swb.out"
    # the minimum-energy gait of share/examples/biped_gaits.sh (coarser) by
    # collocation on the robot model and on the built-in: the same energy and
    # psi; then inverse dynamics along the robot's gait needs the friction the
    # built-in's needs by Newton's law on its point masses
    # (share/examples/knee_biped_friction.c)
    me="-p slope=0 --inputs constant --nodes 9 --refine 1 --quiet --objective energy --json"
    run rm_to trajopt --robot "$kbj" $me -o "$tmp/kbgait.json"
    expect_status rm_to 0 "hes trajopt --robot DESC.json -o GAIT (its trajopt section: inputs, bounds)"
    run rm_tob trajopt knee-biped $me -o "$tmp/kbgait_b.json"
    expect_true "the MJCF robot's minimum-energy gait is the built-in's (energy 1e-8, psi 1e-5)" \
        python3 -c 'import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
sys.exit(0 if abs(a["energy"] / b["energy"] - 1) < 1e-8 and abs(a["psi_shooting"] / b["psi_shooting"] - 1) < 1e-5 else 1)' "$tmp/rm_to.out" "$tmp/rm_tob.out"
    run rm_id invdyn --robot "$kbj" --orbit "$tmp/kbgait.json"
    expect_status rm_id 0 "hes invdyn --robot DESC.json --orbit GAIT"
    expect_grep rm_id out '^torques: tau0 th1, tau1 hip, tau2 knee2, tau3 knee1' "the torques are named: the motors, then the stance knee's stop"
    expect_grep rm_id out 'nodes infeasible or failed: 0 of 18' "every node of the gait is feasible"
    if [ -x "${top_builddir:-.}/tests/example_knee_biped_friction" ]; then
        "${top_builddir:-.}/tests/example_knee_biped_friction" "$tmp/kbgait_b.json" >"$tmp/kbf.out" 2>&1
        expect_true "the gait needs the built-in gait's friction (Newton's law, 4 digits)" \
            python3 -c 'import re, sys
a = float(re.search(r"holds the motion: ([0-9.]+)", open(sys.argv[1]).read()).group(1))
b = float(re.search(r"friction needed ([0-9.]+)", open(sys.argv[2]).read()).group(1))
sys.exit(0 if abs(a - b) < 6e-5 else 1)' "$tmp/rm_id.out" "$tmp/kbf.out"
    fi
    # --mu without --contacts on a file whose site has no name (site0)
    printf '<mujoco><worldbody><body name="b"><joint name="x" type="slide" axis="1 0 0"/><joint name="z" type="slide" axis="0 0 1"/><joint name="th" type="hinge" axis="0 -1 0"/><inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/><site pos="0 0 -1"/></body></worldbody><actuator><motor joint="th"/></actuator></mujoco>\n' >"$tmp/unnamed.xml"
    run id_unn invdyn "$tmp/unnamed.xml" --mu 0.3 --q 0,1,0 --v 0,0,0 --a 0,0,0
    expect_status id_unn 0 "invdyn --mu on a file with an unnamed site"
    expect_grep id_unn out '9\.810/0\.0000' "... carries its weight, 1 kg g, without friction"
    run e_rm_idb invdyn knee-biped --orbit "$tmp/kbgait.json"
    expect_status e_rm_idb 2 "invdyn --orbit of a built-in (not a robot model)"
    expect_grep e_rm_idb err 'not a robot model' "the message says why"
    printf '{"name": "x", "robot": "knee_biped.xml", "modes": [{"name": "m", "pinned": "foot1"}], "typo": 1}\n' >"$tmp/typo.json"
    cp "${top_srcdir:-.}/share/robots/knee_biped.xml" "$tmp/knee_biped.xml"
    run e_rm_typo analyze --robot "$tmp/typo.json"
    expect_status e_rm_typo 2 "a description with an unknown key"
    expect_grep e_rm_typo err 'unknown key "typo"' "the message names the key"
    printf '{"name": "x", "robot": "knee_biped.xml", "modes": [{"name": "m", "pinned": "foot3"}]}\n' >"$tmp/foot3.json"
    run e_rm_foot analyze --robot "$tmp/foot3.json"
    expect_status e_rm_foot 2 "a description naming a contact the robot lacks"
    expect_grep e_rm_foot err "'foot3' is not a constraint of the robot .foot1, foot1_tangential" "the message lists the robot's constraints"
    run e_rm_two analyze --robot "$kbj" --model "${top_builddir:-.}/tests/.libs/rimless_wheel_plugin.so" rimless-wheel
    expect_status e_rm_two 2 "--robot DESC.json with --model"
    # a URDF's motors named by the description; its joint limits (URDF
    # prismatic joints always have them) handled or listed as unenforced
    cp "${top_srcdir:-.}/share/robots/compass_gait.urdf" "$tmp/cg.urdf"
    printf '{"name": "cg", "robot": "cg.urdf", "contacts": {"A": 1, "B": 1}, "motors": ["theta_T"], "unenforced_limits": ["x_lower", "x_upper", "z_lower", "z_upper"], "modes": [{"name": "stance", "pinned": "A"}]}\n' >"$tmp/cg_motors.json"
    run rm_motors info --robot "$tmp/cg_motors.json"
    expect_status rm_motors 0 "a URDF description with \"motors\""
    expect_grep rm_motors out '^  theta_T_torque ' "the named joint's motor is a parameter of the model"
    printf '{"name": "cg", "robot": "cg.urdf", "contacts": {"A": 1, "B": 1}, "modes": [{"name": "stance", "pinned": "A"}]}\n' >"$tmp/cg_limits.json"
    run e_rm_limits info --robot "$tmp/cg_limits.json"
    expect_status e_rm_limits 2 "a joint limit of the file that no mode handles"
    expect_grep e_rm_limits err "limits a joint .x_lower., but mode 'stance' neither locks" "the refusal names the limit, the mode and what to do"
    sed 's/"knee2": {"knee1": 1}//; s/"hip": {"hip": -1}, /"hip": {"hip": -1}/' "$kbj" >"$tmp/kb_relabel.json"
    run e_rm_relabel info --robot "$tmp/kb_relabel.json"
    expect_status e_rm_relabel 2 "a relabel that leaves out a joint of the target"
    expect_grep e_rm_relabel err "relabel leaves out the target's 'knee2'" "the refusal names the joint left out"
    sed 's/"robot": "knee_biped.xml",/"robot": "knee_biped.xml", "robot": "none.xml",/' "$kbj" >"$tmp/kb_dupkey.json"
    run e_rm_dupkey info --robot "$tmp/kb_dupkey.json"
    expect_status e_rm_dupkey 2 "a description with a key given twice"
    expect_grep e_rm_dupkey err 'duplicate object key' "the refusal says the key is duplicated"
else
    echo "cli.sh: robot models unavailable (MuJoCo missing); their checks skipped"
fi

# ----------------------------------------------------------- robot files
# Robot files of any size, checked before MuJoCo reads them, MuJoCo's
# messages on stderr only.
if [ "$have_mujoco" = yes ]; then
    run rf_q3d info --robot "${top_srcdir:-.}/share/robots/quadruped_3d.xml"
    expect_status rf_q3d 0 "info --robot of the 18-coordinate quadruped"
    expect_grep rf_q3d out '^coordinates .18.' "... lists its 18 coordinates"
    expect_grep rf_q3d out '^applied force at q0' "... and its mass matrix and gravity force"
    # free and ball joints: quaternions among the coordinates (nq != nv)
    run rf_free info --robot "${top_srcdir:-.}/share/robots/quadruped_free.xml"
    expect_status rf_free 0 "info --robot of the quadruped on a free joint"
    expect_grep rf_free out '^coordinates .19.' "... lists its 19 coordinates"
    expect_grep rf_free out '^  base_qw  *1$' "... the free joint's quaternion among them, named after it"
    expect_grep rf_free out '^velocities .18.: base_vx, base_vy, base_vz, base_wx, base_wy, base_wz, lf_abduction,' "... and its 18 velocities"
    expect_grep rf_free out '^applied force at q0' "... and its mass matrix and gravity force"
    # the 3-D rimless wheel: its orbit in the quotient by x and y; a held
    # foot without friction is refused (it would slide, not stick)
    run rf_w3 analyze --robot "${top_srcdir:-.}/share/robots/rimless_wheel_3d.json"
    expect_status rf_w3 0 "analyze --robot the 3-D rimless wheel"
    expect_grep rf_w3 out 'the quotient map.s, by the orbit.s symmetries x, y' "... judged in the quotient by its symmetries"
    expect_grep rf_w3 out '^  one multiplier is 1, the others inside the unit circle' "... its lone multiplier 1 explained"
    # its trials judged up to the symmetries: the orbit itself returns
    # while it rolls away along the ground
    run rf_w3t simulate --robot "${top_srcdir:-.}/share/robots/rimless_wheel_3d.json" --trials 1 --steps 2 --perturb 0
    expect_status rf_w3t 0 "simulate --robot the 3-D rimless wheel from its orbit"
    expect_grep rf_w3t out "^error: the distance from the section state up to the orbit's symmetries \\(x, y\\): from the nearest moved copy" "... its trials' error up to the symmetries"
    expect_grep rf_w3t out '^converged: 1 of 1' "... the unperturbed start returns to the orbit"
    # the derivative of its flow from a state on its manifold: the states
    # whole (13 components), the Jacobian in the 8 tangent coordinates
    if [ "$have_python" = yes ]; then
        run rf_w3j analyze --robot "${top_srcdir:-.}/share/robots/rimless_wheel_3d.json" --json
        x0=$(python3 -c 'import json, sys
print(",".join(repr(v) for v in json.load(open(sys.argv[1]))["orbit"]["x0"]))' "$tmp/rf_w3j.out")
        run rf_w3f simulate --robot "${top_srcdir:-.}/share/robots/rimless_wheel_3d.json" --mode on0 --x0 "$x0" --time 0.5 --jacobian --json
        expect_status rf_w3f 0 "simulate --jacobian of the 3-D wheel"
        expect_true "... prints x0 and x_end whole (13) and the Jacobian in tangent coordinates (8 x 8)" \
            python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if len(d["x0"]) == 13 and len(d["x_end"]) == 13 and len(d["jacobian"]) == 8 and all(len(r) == 8 for r in d["jacobian"]) else 1)' "$tmp/rf_w3f.out"
        run rf_w3ft simulate --robot "${top_srcdir:-.}/share/robots/rimless_wheel_3d.json" --mode on0 --x0 "$x0" --time 0.5 --jacobian
        expect_grep rf_w3ft out '^jacobian d x\(T\) / d x0 \(saltation matrices at the events\), in the tangent coordinates dq1, dq2, dq3, dq4, dq5, dv1, dv2, dv3:$' "... the text names the tangent coordinates"
    fi
    sed 's/"s\([0-7]\)": 1.0/"s\1": 0/g; s#"rimless_wheel_3d.xml"#"'"${top_srcdir:-.}"'/share/robots/rimless_wheel_3d.xml"#' \
        "${top_srcdir:-.}/share/robots/rimless_wheel_3d.json" >"$tmp/w0.json"
    run e_rf_w0 analyze --robot "$tmp/w0.json"
    expect_status e_rf_w0 2 "a held contact without friction"
    expect_grep e_rf_w0 err "contact 's0' has no friction" "... is refused, naming it"
    # no-slip spokes: the same rolling (its forces stay inside friction 1),
    # so the same multipliers; a friction that is neither is refused
    sed 's/"s\([0-7]\)": 1.0/"s\1": "no-slip"/g; s#"rimless_wheel_3d.xml"#"'"${top_srcdir:-.}"'/share/robots/rimless_wheel_3d.xml"#' \
        "${top_srcdir:-.}/share/robots/rimless_wheel_3d.json" >"$tmp/wns.json"
    run rf_wns analyze --robot "$tmp/wns.json"
    expect_status rf_wns 0 "analyze --robot the 3-D rimless wheel with no-slip spokes"
    expect_true "... the same analysis as with friction 1" cmp -s "$tmp/rf_wns.out" "$tmp/rf_w3.out"
    sed 's/"s0": "no-slip"/"s0": "sticky"/' "$tmp/wns.json" >"$tmp/wbad.json"
    run e_rf_wbad analyze --robot "$tmp/wbad.json"
    expect_status e_rf_wbad 2 "a friction that is neither a number nor no-slip"
    expect_grep e_rf_wbad err "the friction of 's0' must be a number or \"no-slip\"" "... is refused, naming the contact"
    sed 's/type="hinge"/type="ball"/' "${top_srcdir:-.}/share/robots/compass_gait.xml" >"$tmp/ball.xml"
    run rf_ball info --robot "$tmp/ball.xml"
    expect_status rf_ball 0 "info --robot of a robot with ball joints"
    expect_grep rf_ball out '^  theta_L_qz  *0$' "... a ball's quaternion named after its joint"
    cp "${top_srcdir:-.}/share/robots/quadruped_free.xml" "$tmp/quadruped_free.xml"
    printf '{"name": "f", "robot": "quadruped_free.xml", "modes": [{"name": "m"}]}\n' >"$tmp/free.json"
    run rf_free_model info --robot "$tmp/free.json"
    expect_status rf_free_model 0 "a robot model of a robot with a free joint"
    expect_grep rf_free_model out '^  m  *dim 37  states: base_x, ' "... its state q and v (19 + 18)"
    expect_grep rf_free_model out 'tangent dim 36: base_x, base_y, base_z, base_rx, ' \
        "... on a manifold of 36, the base's turn named"
    printf '{"name": "f", "robot": "quadruped_free.xml", "modes": [{"name": "m", "pinned": "lf_foot"}]}\n' >"$tmp/free_pin.json"
    run e_rf_free_pin info --robot "$tmp/free_pin.json"
    expect_status e_rf_free_pin 2 "a pinned mode of a robot with a free joint"
    expect_grep e_rf_free_pin err 'pinned only on a planar robot' "... refused, saying why"
    # inverse dynamics along a motion with a turning base (the quaternion's
    # velocities and accelerations from differences on the manifold): the
    # quadruped spinning at 5 rad/s about its vertical axis in free fall,
    # legs straight, every node feasible (the library's suite compares the
    # torques with mj_inverse)
    awk 'BEGIN {
        printf "t,base_x,base_y,base_z,base_qw,base_qx,base_qy,base_qz";
        split("lf rf lh rh", leg, " ");
        for (l = 1; l <= 4; l++) printf ",%s_abduction,%s_hip,%s_knee", leg[l], leg[l], leg[l];
        printf "\n";
        for (n = 0; n < 11; n++) {
            t = n * 0.01;
            printf "%.17g,%.17g,%.17g,%.17g,%.17g,0,0,%.17g", t, 0.1 + 0.3 * t, -0.2 + 0.1 * t,
                1 + 0.5 * t - 0.5 * 9.81 * t * t, cos(2.5 * t), sin(2.5 * t);
            for (j = 0; j < 12; j++) printf ",0";
            printf "\n";
        }
    }' >"$tmp/free_spin.csv"
    run rf_free_invdyn invdyn "${top_srcdir:-.}/share/robots/quadruped_free.xml" --trajectory "$tmp/free_spin.csv"
    expect_status rf_free_invdyn 0 "invdyn of the free quadruped along a turning base's trajectory"
    expect_grep rf_free_invdyn out '^nodes infeasible or failed: 0 of 11$' "... every node's equation of motion holds"
    # the torques' closed form: each hip holds its leg against the
    # centripetal force, sum m_i w^2 x_hip z_i about y (0.12 kg at 4 cm,
    # 0.06 at 12, 0.01 at 16 below the hip, x_hip = 8 cm: 0.0272 N m), the
    # same with y_hip = 6 cm about x (0.0204), the knee's shank and foot
    # (0.0064)
    run rf_free_invdyn_csv invdyn "${top_srcdir:-.}/share/robots/quadruped_free.xml" --trajectory "$tmp/free_spin.csv" --csv
    expect_grep rf_free_invdyn_csv out '^0\.05,no-slip,ok,-0\.0204,0\.0272,0\.0064,0\.0204,0\.0272,0\.0064,-0\.0204,-0\.0272,-0\.0064,0\.0204,-0\.0272,-0\.0064,' "... its torques are the closed form's"
    run e_rf_free_q invdyn "${top_srcdir:-.}/share/robots/quadruped_free.xml" --q 0 --v 0 --a 0
    expect_status e_rf_free_q 2 "invdyn --q of the wrong size"
    expect_grep e_rf_free_q err '--q needs 19 numbers, --v and --a 18 each' "... names the positions' and velocities' sizes"
    # a generated planar chain: root slides x and z, 48 hinges (every third
    # one limited: 16 limited joints), a site on every fourth link (12)
    {
        printf "<mujoco model='chain'><compiler angle='radian'/><worldbody><body name='root' pos='0 0 1'>"
        printf "<joint name='x' type='slide' axis='1 0 0'/><joint name='z' type='slide' axis='0 0 1'/>"
        printf "<geom type='sphere' size='0.05' mass='1'/>"
        i=0
        while [ $i -lt 48 ]; do
            printf "<body name='l%d' pos='0.1 0 0'><joint name='h%d' type='hinge' axis='0 1 0'" $i $i
            [ $((i % 3)) -eq 0 ] && printf " limited='true' range='-1 1'"
            printf "/><geom type='capsule' fromto='0 0 0 0.1 0 0' size='0.01' mass='0.1'/>"
            [ $((i % 4)) -eq 0 ] && printf "<site name='s%d' pos='0.1 0 0'/>" $i
            i=$((i + 1))
        done
        i=0
        while [ $i -lt 48 ]; do printf "</body>"; i=$((i + 1)); done
        printf "</body></worldbody></mujoco>\n"
    } >"$tmp/chain50.xml"
    run rf_chain info --robot "$tmp/chain50.xml"
    expect_status rf_chain 0 "info --robot of a 50-coordinate chain with 12 sites"
    expect_grep rf_chain out '^coordinates .50.' "... lists its 50 coordinates"
    expect_grep rf_chain out '^contacts against the ground z = 0 .12;' "... and its 12 contacts"
    expect_grep rf_chain out '^  s44 +constraints 22 and 23, friction 1$' "... the twelfth with its rows"
    expect_true "... one line per contact (12)" \
        test "$(grep -c '^  s[0-9]* *constraints [0-9]* and [0-9]*, friction' "$tmp/rf_chain.out")" -eq 12
    expect_true "... two limits per limited joint (2 x 16)" \
        test "$(grep -c '^  h[0-9]*_\(lower\|upper\) *constraint [0-9]*$' "$tmp/rf_chain.out")" -eq 32
    expect_grep rf_chain out '^  h45_upper +constraint 55$' "... the last limit after the contacts' 24 rows"
    printf '{"name": "chain", "robot": "chain50.xml", "contacts": {"s0": 1, "s99": 1}, "modes": [{"name": "m"}]}\n' \
        >"$tmp/chain50.json"
    run e_rf_chain_site info --robot "$tmp/chain50.json"
    expect_status e_rf_chain_site 2 "a description naming a site the file lacks"
    expect_grep e_rf_chain_site err "contact 1 .s99.: no site or body of that name" "... named in the refusal"
    sed 's/name="theta_L" type="continuous"/name="theta_L" type="free"/' \
        "${top_srcdir:-.}/share/robots/compass_gait.urdf" >"$tmp/free.urdf"
    run e_rf_free info --robot "$tmp/free.urdf"
    expect_status e_rf_free 2 "a URDF joint of type free (MuJoCo 2.2.2 crashed on it)"
    expect_grep e_rf_free err "joint 'theta_L' has type \"free\"" "the refusal names the joint and its type"
    for v in nan 1e300 -1; do
        sed "s/mass=\"1\"/mass=\"$v\"/" "${top_srcdir:-.}/share/robots/compass_gait.xml" >"$tmp/mass$v.xml"
        run e_rf_mass$v info --robot "$tmp/mass$v.xml"
        expect_status e_rf_mass$v 2 "a robot file with mass $v"
        expect_true "... prints no number" test ! -s "$tmp/e_rf_mass$v.out"
    done
    mkdir -p "$tmp/logdir"
    sed 's/site name="A" pos="0 0 -1"/site name="A" pos="0 nan -1"/' \
        "${top_srcdir:-.}/share/robots/compass_gait.xml" >"$tmp/logdir/nan.xml"
    (cd "$tmp/logdir" && "$HES" info --robot nan.xml >out.txt 2>err.txt)
    expect_true "MuJoCo's warning about a NaN refuses the file on stderr" \
        grep -q "MuJoCo warns: XML contains a 'NaN'" "$tmp/logdir/err.txt"
    expect_true "... with nothing on stdout" test ! -s "$tmp/logdir/out.txt"
    expect_true "... and no MUJOCO_LOG.TXT in the working directory" test ! -e "$tmp/logdir/MUJOCO_LOG.TXT"
    rm -f "$tmp/fifo.xml"
    if mkfifo "$tmp/fifo.xml" 2>/dev/null; then
        run e_rf_fifo info --robot "$tmp/fifo.xml"
        expect_status e_rf_fifo 2 "a FIFO as the robot file (open() used to block)"
        expect_grep e_rf_fifo err 'is a FIFO' "the refusal says what the file is"
    fi
fi

# ------------------------------------------------------------------ invdyn
# Inverse dynamics with contact on the 3-D quadruped (MuJoCo).
q3d=${top_srcdir:-.}/share/robots/quadruped_3d.xml
trot=${top_srcdir:-.}/share/data/quadruped_trot.csv
feet=lf_foot:1,rf_foot:1,lh_foot:1,rh_foot:1
if [ "$have_mujoco" = yes ]; then
    # at rest on four feet (hips 0.5, knees -1, the base lowered by
    # 0.16 - 2 (0.08 cos 0.5)) the normal forces carry the weight, 4.76 kg g
    z=$(python3 -c 'import math; print(repr(2 * 0.08 * math.cos(0.5) - 0.16))')
    zero=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
    run id_rest invdyn "$q3d" --q "0,0,$z,0,0,0,0,0.5,-1,0,0.5,-1,0,0.5,-1,0,0.5,-1" \
        --v $zero --a $zero --contacts $feet --csv
    expect_status id_rest 0 "hes invdyn at rest"
    expect_true "at rest the normal forces sum to the weight 4.76 g (1e-9)" \
        python3 -c 'import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))[0]
s = sum(float(r["fn:" + f]) for f in ("lf_foot", "rf_foot", "lh_foot", "rh_foot"))
sys.exit(0 if abs(s - 4.76 * 9.81) < 1e-9 * 46.7 and r["status"] == "ok" else 1)' "$tmp/id_rest.out"
    # the trot is a kinematic plan: its base keeps y = 0 through the
    # two-foot phases, where the stance diagonal lets the body roll, so
    # the lateral balance misses by up to 3.5 % of its terms: infeasible
    # as an exact motion; within 5 % it holds with friction 1 and needs
    # about 0.41
    run id_trot_exact invdyn "$q3d" --trajectory "$trot" --contacts $feet
    expect_status id_trot_exact 1 "the trot as an exact motion"
    expect_grep id_trot_exact out 'equation of motion fails on coordinate 1 ' "the plan's lateral balance (y) fails"
    expect_grep id_trot_exact out '^smallest friction coefficient that holds the motion at the 125 of 241 nodes where the motion holds otherwise: ' "the friction it needs is said to hold only where the equation of motion does"
    run id_trot invdyn "$q3d" --trajectory "$trot" --contacts $feet --eom-tol 0.05
    expect_status id_trot 0 "hes invdyn of the quadruped's trot, friction 1, --eom-tol 0.05"
    expect_grep id_trot out '^smallest friction coefficient that holds the motion: 0\.4' "the trot needs friction about 0.4"
    expect_grep id_trot out '^nodes infeasible or failed: 0 of 241' "every node of the trot is feasible"
    expect_grep id_trot out '^friction model: the pyramid' "the output states its friction model"
    run id_coul invdyn "$q3d" --trajectory "$trot" --contacts $feet --method coulomb --eom-tol 0.05
    expect_grep id_coul out '^largest friction ratio \|f_t\|/f_n of the forces: ' "Coulomb's forces give a ratio, not the friction the motion needs (that is no-slip's)"
    run id_off invdyn "$q3d" --trajectory "$trot" --contacts $feet --eom-tol off
    expect_grep id_off out '^smallest friction coefficient that holds the motion: 0\.4' "--eom-tol off: only the motored coordinates are asked to follow"
    run id_none invdyn "$q3d" --trajectory "$trot" --contacts $feet --method none
    expect_grep id_none out "^contacts ignored \\(the baseline\\): .*equation of motion is not checked" "the baseline says what its 'ok' does not mean"
    run id_trot_03 invdyn "$q3d" --trajectory "$trot" --contacts lf_foot:0.3,rf_foot:0.3,lh_foot:0.3,rh_foot:0.3 --eom-tol 0.05
    expect_grep id_trot_03 out 'needs friction 0\.3137, more than its 0\.3 \(contact 0 of this node.s stance is rf_foot\)' "a refusal names the contact by the robot file's name, not only by its place in the node's stance"
    # with friction 0.01 the two-foot phases are infeasible, by no-slip and
    # by the Coulomb LCP alike (two different problems, the same nodes)
    for m in no-slip coulomb; do
        run id_ice_$m invdyn "$q3d" --trajectory "$trot" --mu 0.01 --method $m --csv
        expect_status id_ice_$m 1 "the trot on friction 0.01 ($m) fails"
        expect_grep id_ice_$m err 'nodes infeasible or failed' "$m says how many nodes are infeasible"
    done
    expect_true "no-slip and Coulomb find the same infeasible nodes" \
        python3 -c 'import csv, sys
a = [r["status"] for r in csv.DictReader(open(sys.argv[1]))]
b = [r["status"] for r in csv.DictReader(open(sys.argv[2]))]
sys.exit(0 if a == b and a.count("infeasible request") > 50 else 1)' "$tmp/id_ice_no-slip.out" "$tmp/id_ice_coulomb.out"
    # a sway over four fixed feet in closed form (the base at x = 0.02
    # sin 2 pi t, z = z0 + 0.01 sin 4 pi t; each leg's hip and knee by the
    # two-link inverse kinematics), sampled at 400 Hz: its sampled
    # velocities and accelerations made consistent with the stance, it is
    # feasible at every node with every foot loaded
    python3 -c 'import math, sys
l = 0.08; z0 = 2 * l * math.cos(0.5) - 0.16
legs = ("lf", "rf", "lh", "rh")
f = open(sys.argv[1], "w")
f.write(",".join(["t", "x", "y", "z", "yaw", "pitch", "roll"] + ["%s_%s" % (g, j) for g in legs for j in ("abduction", "hip", "knee")]) + "\n")
for n in range(401):
    t = n / 400.0; x = 0.02 * math.sin(2 * math.pi * t); z = z0 + 0.01 * math.sin(4 * math.pi * t)
    px, pz = -x, -(0.16 + z); k2 = -math.acos((px * px + pz * pz - 2 * l * l) / (2 * l * l)); phi = math.atan2(-px, -pz)
    f.write(",".join(repr(v) for v in [t, x, 0, z, 0, 0, 0] + [0, phi - k2 / 2, k2] * 4) + "\n")' "$tmp/sway.csv"
    run id_sway invdyn "$q3d" --trajectory "$tmp/sway.csv" --contacts $feet --csv
    expect_status id_sway 0 "the sampled four-feet sway"
    expect_true "the sway: 401 nodes ok, all four feet loaded at each, forces moving by < 0.5 N a node" \
        python3 -c 'import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
feet = ("lf_foot", "rf_foot", "lh_foot", "rh_foot")
ok = len(r) == 401 and all(x["status"] == "ok" and all(float(x["fn:" + f]) > 1 for f in feet) for x in r)
ok = ok and all(abs(float(a["fn:" + f]) - float(b["fn:" + f])) < 0.5 for a, b in zip(r, r[1:]) for f in feet)
sys.exit(0 if ok else 1)' "$tmp/id_sway.out"
    run e_id_both invdyn "$q3d" --trajectory "$trot" --q 0 --v 0 --a 0
    expect_status e_id_both 2 "--trajectory with --q"
    run e_id_q invdyn "$q3d" --q 0,0 --v 0,0 --a 0,0
    expect_status e_id_q 2 "--q of the wrong length"
    expect_grep e_id_q err 'lf_abduction' "the message names the robot's coordinates"
    printf 't,x,nonsense\n0,0,0\n' > "$tmp/bad_traj.csv"
    run e_id_col invdyn "$q3d" --trajectory "$tmp/bad_traj.csv"
    expect_status e_id_col 2 "a trajectory column that is not a coordinate"
    expect_grep e_id_col err "column 'nonsense'" "the message names the column"
    if command -v gnuplot >/dev/null 2>&1; then
        run id_csv invdyn "$q3d" --trajectory "$trot" --contacts $feet --csv
        cp "$tmp/id_csv.out" "$tmp/id.csv"
        run pl_cf plot contact-forces "$tmp/id.csv" -o "$tmp/cf.svg"
        expect_status pl_cf 0 "plot contact-forces of the trot"
        expect_true "the contact-forces picture names the feet" grep -q 'rh_foot' "$tmp/cf.svg"
        run e_pl_cf plot contact-forces "$trot" -o "$tmp/cf2.svg"
        expect_status e_pl_cf 2 "plot contact-forces of a file that is not invdyn's table"
        expect_grep e_pl_cf err "not a table of 'hes invdyn --csv'" "the refusal names the expected table"
    fi
    # a URDF has no actuators in MuJoCo: --motors names the driven joints
    urdf=${top_srcdir:-.}/share/robots/compass_gait.urdf
    run e_id_nomotor invdyn "$urdf" --contacts A:0.5 --q 0,1,0,0 --v 0,0,0,0 --a 0,0,0,0
    expect_status e_id_nomotor 2 "a URDF without --motors"
    expect_grep e_id_nomotor err 'no motors' "the message says the robot has no motors"
    run id_urdf invdyn "$urdf" --contacts A:0.5 --motors theta_T --q 0,1,0,0 \
        --v 0,0,0,0 --a 0,0,0,0
    expect_status id_urdf 0 "a URDF with --motors, upright at rest"
    # a stance leg tilted by 0.1 rad cannot stay at rest (gravity tips it;
    # the only motor is between the legs)
    run id_urdf_tilt invdyn "$urdf" --contacts A:0.5 --motors theta_T --q 0,0.995004165278,0.1,-0.1 \
        --v 0,0,0,0 --a 0,0,0,0
    expect_status id_urdf_tilt 1 "a tilted stance leg held at rest"
    expect_grep id_urdf_tilt out 'equation of motion fails' "the message names the equation of motion"
    run e_id_motor invdyn "$urdf" --contacts A:0.5 --motors nosuch --q 0,1,0,0 --v 0,0,0,0 --a 0,0,0,0
    expect_status e_id_motor 2 "--motors naming no joint"
    run e_id_method invdyn "$q3d" --trajectory "$trot" --method magic
    expect_status e_id_method 2 "an unknown method"
else
    echo "cli.sh: robot files unavailable (MuJoCo missing); invdyn checks skipped"
fi

# ------------------------------------------------------ names of user models
# A model's name is a label, never an option: a plugin named --help or -p
# is refused naming the field (it was spliced into the argument list, where
# getopt printed the usage and exited 0, or wanted an argument), and a name
# that is odd but valid goes through a sweep file and its --resume.
bad_plugin=${top_builddir:-.}/tests/.libs/bad_plugin.so
if [ -f "$bad_plugin" ]; then
    HES_TEST_BAD_MODEL=name_help
    export HES_TEST_BAD_MODEL
    run nm_help analyze --model "$bad_plugin"
    expect_status nm_help 2 "a plugin named --help is refused"
    expect_grep nm_help err "model name: the name '--help' has a leading '-'" "the refusal names the field and the reason"
    expect_no_grep nm_help out 'Usage' "a plugin named --help prints no usage"
    HES_TEST_BAD_MODEL=name_option
    run nm_opt analyze --model "$bad_plugin"
    expect_status nm_opt 2 "a plugin named -p is refused"
    expect_no_grep nm_opt err 'requires an argument' "a plugin named -p is not read as the option -p"
    HES_TEST_BAD_MODEL=name_newline
    run nm_nl sweep --model "$bad_plugin" --grid a=0.2:0.3:2 -o "$tmp/nm_nl.csv"
    expect_status nm_nl 2 "a plugin whose name has a newline is refused before a sweep header is written"
    expect_grep nm_nl err 'has a newline' "the refusal says the name has a newline"
    HES_TEST_BAD_MODEL=name_injection
    run nm_sw sweep --model "$bad_plugin" --grid a=0.2:0.3:2 -o "$tmp/nm_sw.csv"
    expect_status nm_sw 0 "a sweep of a model named with quotes, ';' and '#'"
    run nm_resume sweep --model "$bad_plugin" --grid a=0.2:0.3:2 -o "$tmp/nm_sw.csv" --resume
    expect_status nm_resume 0 "--resume takes that sweep's own file"
    expect_grep nm_resume err '^hes sweep: 0 points' "--resume keeps both rows (nothing recomputed)"
    unset HES_TEST_BAD_MODEL
fi

# ------------------------------------------------ what a new user stumbles on
run e_rob_xml analyze --robot "${top_srcdir:-.}/share/robots/knee_biped.xml"
expect_status e_rob_xml 2 "analyze --robot FILE.xml"
expect_grep e_rob_xml err 'takes a robot model.s description, DESC.json' \
    "analyze --robot FILE.xml says a description is needed, not 'unrecognized option'"
run solved_p analyze slip-hopper -p l_td=0.95 --json
expect_status solved_p 0 "analyze -p on a solved parameter"
expect_grep solved_p err 'note: l_td is solved for by the orbit search' \
    "-p on a solved parameter says that it is only the search's start"
run solved_d analyze slip-hopper --json
l_td_default=$(python3 -c "import json; print(round(json.load(open('$tmp/solved_d.out'))['params']['l_td'], 9))" 2>/dev/null)
expect_json_value solved_p 'round(d["params"]["l_td"], 9)' "$l_td_default" \
    "the solved parameter takes the orbit's value (as from its default start), not the one given"
run e_solved_sw sweep slip-hopper --grid l_td=0.8:0.9:2
expect_status e_solved_sw 2 "sweep over a solved parameter"
expect_grep e_solved_sw err "'l_td' is solved for by the orbit search" "the sweep's refusal names it"

# --max-wall-time: each simulation's wall-clock budget, for large robots
run wt_small analyze knee-biped --max-wall-time 1e-7
expect_status wt_small 1 "analyze with a wall-time budget too small to simulate"
expect_grep wt_small err 'exceeded its wall-time budget of 1e-07 s' "... says which budget ran out"
expect_grep wt_small err 'a larger budget: --max-wall-time S' "... and the option that raises it"
run wt_big analyze knee-biped --max-wall-time 30
expect_status wt_big 0 "analyze with a larger wall-time budget"
expect_grep wt_big out '^stable: psi = 0.655168 < 1' "... gives the same orbit"
for bad in 0 -1 abc 1e7 nan; do
    run e_wt analyze knee-biped --max-wall-time "$bad"
    expect_status e_wt 2 "--max-wall-time $bad"
    expect_grep e_wt err "is not a number of seconds in" "... is refused, saying what it takes"
done
run e_wt2 analyze knee-biped --max-wall-time 5 --max-wall-time 6
expect_status e_wt2 2 "--max-wall-time given twice"

# ------------------------------------------------------------------ summary
testlib_summary cli.sh
