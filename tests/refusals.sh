#!/bin/sh
# tests/refusals.sh - the refusals ("right answers or a clear
# refusal, everywhere"), each with its exit status and a message that names
# the problem:
#   9  malformed plugins (tests/bad_plugin.c, broken in the field that
#      HES_TEST_BAD_MODEL names) and gait files are refused, never crash;
#   10 counts above their limits are refused at once, and hopeless
#      simulations stop within their budgets;
#   11 options that would be silently ignored or overridden are refused;
#   12 the messages say what is wrong.
# Run by `make check` with HES, top_srcdir and top_builddir in the
# environment.  Prints each failed check and exits 1 if any failed.

HES=${HES:-${top_builddir:-.}/src/hes}
tmp=${TMPDIR:-/tmp}/hes-refusals.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

have_python=no
command -v python3 >/dev/null 2>&1 && have_python=yes
. "${top_srcdir:-.}/tests/testlib.sh"
plugin=${top_builddir:-.}/tests/.libs/bad_plugin.so

# refused NAME WANT PATTERN DESCRIPTION: exit status WANT and a line of
# stderr matching the extended regular expression PATTERN.
refused() {
    checks=$((checks + 1))
    if [ "$status" -eq "$2" ] && grep -E -q -- "$3" "$tmp/$1.err"; then
        pass "$4 (exit $2)"
    else
        fail "$4: exit status $status (expected $2), stderr:"
        sed 's/^/    /' "$tmp/$1.err" | head -5
        [ "$status" -eq "$2" ] && echo "    (no line matching '$3')"
    fi
}

# within NAME SECONDS: the run before took less than SECONDS ($took), which
# counts only together with the check of its outcome just before: a slow
# run with the right message is still a failure.
within() {
    checks=$((checks + 1))
    if [ "$took" -ge "$2" ]; then
        fail "$1 took $took s, expected under $2 s"
    else
        echo "    ($1 took $took s)"
    fi
}

if [ ! -x "$HES" ]; then
    echo "FAIL: the program '$HES' does not exist or is not executable"
    exit 1
fi

# ------------------------------------------- 9: malformed plugins and gaits
if [ -f "$plugin" ]; then
    # the valid variant works, so a refusal below is the broken field's
    HES_TEST_BAD_MODEL=none run_for bp_ok 60 analyze --model "$plugin"
    checks=$((checks + 1))
    if [ "$status" -eq 0 ]; then pass "the valid bad_plugin variant is analysed"; else
        fail "the valid bad_plugin variant: exit $status"; sed 's/^/    /' "$tmp/bp_ok.err"; fi

    # n_sequence = -1 crashed hes trajopt (negative-size-param in parse_virtual)
    HES_TEST_BAD_MODEL=n_sequence run_for bp_nseq 30 trajopt --model "$plugin" --quiet
    refused bp_nseq 2 'n_sequence = -1' "plugin with orbit.n_sequence = -1: trajopt refuses it"
    HES_TEST_BAD_MODEL=n_sequence run_for bp_nseq_info 30 info --model "$plugin"
    refused bp_nseq_info 2 'n_sequence' "plugin with orbit.n_sequence = -1: info refuses it"
    for case in "integrator:integrator = 9" "max_phase_time:max_phase_time = -1" \
                "max_phase_time_nan:max_phase_time = nan" "max_phase_time_inf:max_phase_time = inf" \
                "direction:direction = 5" "section:section = 7" "orbit_mode:orbit.mode = 3" \
                "free_states:free_states" "n_residual:n_residual" \
                "free_params:free_params" "period_param:period_param" \
                "dim:dim = 0" "dim_huge:dim = 2000000000" \
                "n_params:n_params" "param_default:parameter 'a'" "param_search:parameter 'a'" \
                "trajopt_n_inputs:n_inputs" "trajopt_inputs:inputs" \
                "trajopt_input_bounds:input_lo" "trajopt_durations:min_duration" \
                "trajopt_path_mode:path.0..mode" "trajopt_virtual_events:virtual_events" \
                "trajopt_crossing_rate_nan:min_crossing_rate" "mech_no_data:hes_mech_mode" \
                "mech_guard_no_data:hes_mech_transition" \
                "state_name_twice:state name 'theta' appears twice"; do
        bad=${case%%:*}
        want=${case#*:}
        HES_TEST_BAD_MODEL=$bad run_for "bp_$bad" 30 analyze --model "$plugin"
        refused "bp_$bad" 2 "$want" "plugin broken in $bad: refused, naming the field"
    done
fi

# a gait whose phase direction is neither down, up nor any
run_for mk_gait 120 trajopt slip-hopper --nodes 9 --quiet -o "$tmp/slip.json"
if [ "$status" -eq 0 ]; then
    sed 's/"direction": "down"/"direction": "sideways"/' "$tmp/slip.json" > "$tmp/sideways.json"
    run_for gait_dir 30 analyze --orbit "$tmp/sideways.json"
    refused gait_dir 2 'direction.*sideways' 'a gait with "direction": "sideways" is refused'
else
    fail "trajopt slip-hopper -o FILE (the gait for the direction check): exit $status"
fi

# ------------------------------------------ 10: limits and budgets
run_for lim_random 10 sweep slip-hopper --random 2000000000 --bounds K=0:1
refused lim_random 2 '--random.*10000000' "sweep --random 2000000000 is refused at once"
run_for lim_sweep 10 simulate trot-rigid --sweep theta=0:0.01:2000000 --x0 0.6,0,0,0 --time 1
refused lim_sweep 2 '--sweep.*100000' "simulate --sweep with 2000000 values is refused at once"
run_for lim_trials 10 simulate slip-hopper --trials 100001
refused lim_trials 2 '--trials.*100000' "simulate --trials above 100000 is refused"
run_for lim_product 10 simulate slip-hopper --trials 100000 --steps 1000
refused lim_product 2 'more than 10000000' "simulate --trials x --steps above 10^7 is refused"
run_for lim_starts 10 shape slip-hopper --starts 1001
refused lim_starts 2 '--starts.*1000' "shape --starts above 1000 is refused"
run_for lim_maxeval 10 trajopt slip-hopper --maxeval 2000000
refused lim_maxeval 2 '--maxeval.*100000' "trajopt --maxeval above 100000 is refused"

# knee_torque = -10 spins the light shank at ~3000 rad/s: the first shooting
# took 10^6 steps (16 s) before failing; the step budget stops it in seconds
start=$(date +%s)
run_for slow_knee 60 analyze knee-biped -p knee_torque=-10
took=$(($(date +%s) - start))
refused slow_knee 1 'max_steps' "analyze knee-biped -p knee_torque=-10 fails with the step budget"
within slow_knee 25

# a gait whose first state is 1e10: the vector field's round-off noise
# collapsed the steps (41 s); now refused at once (the straight knee starts
# into hyperextension: a grazing knee lock) or, failing that, by the step
# budget
run_for mk_biped 120 trajopt knee-biped -p slope=0 --objective energy --inputs constant --nodes 7 \
    --maxeval 300 --quiet -o "$tmp/biped.json"
if [ "$status" -eq 0 ] && command -v python3 >/dev/null 2>&1; then
    python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
d['phases'][0]['states'][0][0] = 1e10
json.dump(d, open(sys.argv[2], 'w'))" "$tmp/biped.json" "$tmp/biped-1e10.json"
    start=$(date +%s)
    run_for slow_gait 60 analyze --orbit "$tmp/biped-1e10.json"
    took=$(($(date +%s) - start))
    refused slow_gait 1 'max_steps|wall-time|grazing event' "a gait whose first state is 1e10 fails fast with a reason"
    within slow_gait 25
else
    echo "refusals.sh: no knee-biped gait (or no python3); the 1e10 gait check is skipped"
fi

# starts beyond the divergence bound would all be hopeless
run_for far_trials 30 simulate knee-biped --perturb 1e10
refused far_trials 2 'divergence bound' "simulate --perturb beyond the divergence bound is refused"

# ------------------------------------------ 11: ignored or overridden options
run_for cf_boxball 30 simulate slip-hopper --box 0.01 --perturb 0.1 --trials 2 --steps 2
refused cf_boxball 2 '--box and --perturb' "simulate --box with --perturb"
run_for cf_ballbox 30 simulate slip-hopper --perturb 0.1 --box 0.01 --trials 2 --steps 2
refused cf_ballbox 2 '--box and --perturb' "simulate --perturb with --box"
run_for cf_start 30 shape slip-hopper --start K=0.1 --start K=0.2
refused cf_start 2 '--start K given twice' "shape --start K twice"
run_for cf_bounds 30 shape slip-hopper --bounds K=0:0.2 --bounds K=0:0.3
refused cf_bounds 2 '--bounds K given twice' "shape --bounds K twice"
run_for cf_sw_bounds 30 sweep slip-hopper --random 2 --bounds K=0:0.2 --bounds K=0:0.3
refused cf_sw_bounds 2 '--bounds K given twice' "sweep --bounds K twice"
run_for cf_sw_grid 30 sweep slip-hopper --grid K=0:0.2:2 --grid K=0:0.3:2
refused cf_sw_grid 2 '--grid K given twice' "sweep --grid K twice"
run_for cf_sw_p 30 sweep slip-hopper --grid K=0:0.2:2 -p K=0.1
refused cf_sw_p 2 'K is swept' "sweep -p of a swept parameter"
run_for cf_sw_seed 30 sweep slip-hopper --grid K=0:0.2:2 --seed 4
refused cf_sw_seed 2 '--seed only goes with --random' "sweep --seed without --random"
run_for cf_param 30 analyze slip-hopper -p K=0.1 -p K=0.2
refused cf_param 2 '-p K given twice' "-p K twice"
run_for cf_twice 30 simulate slip-hopper --trials 2 --trials 3
refused cf_twice 2 '--trials given twice' "an option that takes one value, given twice"
run_for cf_box 30 simulate slip-hopper --box x
refused cf_box 2 "--box expects a finite number >= 0, got 'x'" "a bad --box value is named as --box"
run_for cf_flag 30 analyze hopper-pumped --strict-liveness --strict-liveness
refused cf_flag 2 '--strict-liveness given twice$' "a flag given twice (no value to speak of)"
HES_GNUPLOT=/nonexistent/gnuplot
export HES_GNUPLOT
printf 'index,K,thetadot,status,psi\n0,0,0,ok,0.5\n1,0,1,ok,0.5\n2,1,0,ok,0.5\n3,1,1,ok,0.5\n' \
    > "$tmp/map.csv"
run_for cf_map_p 30 plot stability-map "$tmp/map.csv" -p K=1 -o "$tmp/map.png"
refused cf_map_p 2 '-p does not apply' "plot stability-map -p"
run_for cf_mult_trials 30 plot multipliers slip-hopper --trials 3 -o "$tmp/m.png"
refused cf_mult_trials 2 '--trials is an option of .hes plot convergence' "plot multipliers --trials"
run_for cf_conv_boxball 30 plot convergence slip-hopper --box 0.1 --perturb 0.1 -o "$tmp/c.png"
refused cf_conv_boxball 2 '--box and --perturb' "plot convergence --box with --perturb"
unset HES_GNUPLOT
run_for cf_weight 30 trajopt slip-hopper --weight 2
refused cf_weight 2 '--weight does not apply' "trajopt --weight without --objective weighted"
run_for cf_floor 30 trajopt slip-hopper --objective feasible --psi-floor 0.2
refused cf_floor 2 '--psi-floor does not apply' "trajopt --psi-floor without a psi objective"
run_for cf_design 30 trajopt slip-hopper --design K=0:1 --design K=0:2
refused cf_design 2 '--design K given twice' "trajopt --design K twice"

# ------------------------------------------------------------ 12: messages
printf 'not a library\n' > "$tmp/model.txt"
mkdir -p "$tmp/model.dir"
run_for msg_text 30 analyze --model "$tmp/model.txt"
refused msg_text 2 'not a shared library' "--model on a text file says it is not a shared library"
run_for msg_dir 30 analyze --model "$tmp/model.dir"
refused msg_dir 2 'is a directory' "--model on a directory says so"
run_for msg_null 30 analyze --model /dev/null
refused msg_null 2 'not a regular file' "--model /dev/null says it is not a regular file"
: > "$tmp/empty.so"
run_for msg_empty 30 analyze --model "$tmp/empty.so"
refused msg_empty 2 'empty file' "--model on an empty file says so"
run_for msg_bound 30 trajopt slip-hopper --bound vx=1:0
refused msg_bound 2 '^hes trajopt: --bound vx=1:0' "trajopt --bound errors name --bound"
printf 'index,K,thetadot,status,psi\n0,0,0,no periodic orbit,\n1,0,1,no periodic orbit,\n2,1,0,no periodic orbit,\n3,1,1,no periodic orbit,\n' \
    > "$tmp/failed.csv"
run_for msg_map 30 plot stability-map "$tmp/failed.csv" -o "$tmp/failed.png"
refused msg_map 2 'no successful points to plot' "plot stability-map of an all-failed sweep"
if [ -f "$plugin" ]; then
    HES_TEST_BAD_MODEL=nothing_to_solve run_for msg_nothing 30 analyze --model "$plugin"
    refused msg_nothing 2 'nothing to solve' "an orbit spec with no unknowns has nothing to solve"
fi

testlib_summary refusals.sh
