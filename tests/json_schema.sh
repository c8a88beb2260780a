#!/bin/sh
# tests/json_schema.sh - every JSON document the hes program writes, and the
# JSON files it reads that have a schema, against the JSON Schemas of
# share/doc/schema (tests/json_schema.py, python3-jsonschema): the schemas
# themselves first (valid Draft 2020-12, a description on every property,
# every $ref resolving), then each command's real output on small, fast
# problems, each output also mutated (a required key removed, a wrong type,
# a word outside its enum, an unknown key, ...) and every mutated copy
# required to be rejected.  Every schema must have met at least one real
# document.  Run by `make check` with HES, top_srcdir and top_builddir in the
# environment; skipped (exit 77) without python3-jsonschema.

if [ -x /usr/bin/python3 ]; then
    PY=/usr/bin/python3
elif command -v python3 >/dev/null 2>&1; then
    PY=python3
else
    echo "json_schema.sh: python3 not found; skipped (install python3-jsonschema)"
    exit 77
fi
if ! $PY -c 'from jsonschema import Draft202012Validator' >/dev/null 2>&1; then
    echo "json_schema.sh: python3-jsonschema (4.x, Draft 2020-12) not found; skipped (install python3-jsonschema)"
    exit 77
fi

HES=${HES:-${top_builddir:-.}/src/hes}
case $HES in /*) ;; *) HES=$(pwd)/$HES ;; esac
rigid=${top_builddir:-.}/tests/.libs/rigid_body_plugin.so
case $rigid in /*) ;; *) rigid=$(pwd)/$rigid ;; esac
srcdir=${top_srcdir:-${srcdir:-.}}
case $srcdir in /*) ;; *) srcdir=$(pwd)/$srcdir ;; esac
schemas=$srcdir/share/doc/schema
robots=$srcdir/share/robots
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hes-json-schema.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
cd "$tmp" || exit 1
have_python=no
. "$srcdir/tests/testlib.sh"

if [ ! -x "$HES" ]; then
    echo "FAIL: the program '$HES' does not exist or is not executable"
    exit 1
fi
have_mujoco=no
have_impacts=no
features=$("$HES" --version | sed -n 's/^features: //p')
case " $features " in *" mujoco "*) have_mujoco=yes ;; esac
case " $features " in *" siconos "*) case " $features " in *" gsl "*) have_impacts=yes ;; esac ;; esac

# ------------------------------------------------------------------ helpers
validated=
# valid SCHEMA NAME [--lines] [MUTATION...]: $tmp/NAME.out matches
# SCHEMA.schema.json and each mutated copy does not.
valid() {
    schema=$1
    name=$2
    shift 2
    checks=$((checks + 1))
    if $PY "$srcdir/tests/json_schema.py" "$schemas" "$schema" "$tmp/$name.out" "$@" \
            >"$tmp/$name.check" 2>&1; then
        pass "$name: matches $schema.schema.json, $(printf '%s\n' "$@" | grep -c ':') mutated copies rejected"
        validated="$validated $schema"
    else
        fail "$name against $schema.schema.json"
        sed 's/^/    /' "$tmp/$name.check" | head -20
    fi
}

# json NAME ARGS...: runs hes ARGS, exit status 0 expected (then valid).
json() {
    name=$1
    shift
    run "$name" "$@"
    expect_status "$name" 0 "hes $*"
}

# --------------------------------------------------------------- the schemas
checks=$((checks + 1))
if $PY "$srcdir/tests/json_schema.py" "$schemas" >"$tmp/lint.out" 2>&1; then
    pass "every schema is valid Draft 2020-12, documented, its \$refs resolving"
else
    fail "the schemas of share/doc/schema"
    sed 's/^/    /' "$tmp/lint.out" | head -20
fi
# the validator: a document that matches, and the same with NaN, with a key
# given twice and with an integer written as 1.0, which do not
row='"params": {"g": 1}, "status": "invalid input", "message": "m"}'
printf '{"index": 1, %s\n' "$row" >good.row
printf '{"index": 1, "params": {"g": NaN}, "status": "invalid input", "message": "m"}\n' >nan.row
printf '{"index": 1, "index": 2, %s\n' "$row" >dup.row
printf '{"index": 1.0, %s\n' "$row" >real.row
for f in good nan dup real; do
    checks=$((checks + 1))
    $PY "$srcdir/tests/json_schema.py" "$schemas" sweep-row $f.row >$f.check 2>&1
    got=$?
    want=1
    [ $f = good ] && want=0
    if [ $got -eq $want ]; then
        pass "json_schema.py on $(cat $f.row): exit $got"
    else
        fail "json_schema.py on $(cat $f.row): exit $got"
        sed 's/^/    /' $f.check | head -5
    fi
done

# ------------------------------------------------------------------- info
json info_h info slip-hopper --json
valid info info_h del:orbit/residual 'set:params/0/shape="yes"' \
    'set:transitions/0/direction="sideways"' 'set:params/0/search=[1]' set:modes/0/dim=0 \
    'set:orbit/period_param="g"' 'set:name="-x"' set:modes/0/states/0=3 del:params/0/unit \
    set:extra=1
json info_none info trot-rigid --json
valid info info_none del:orbit set:transitions/0/clock_reset=0
json info_ess info hopper-pumped --json
valid info-ess info_ess 'set:integrator="event"' del:events set:orbit_guess/section=-1 \
    del:orbit_guess/period set:states=[] 'set:params/0/min="0"'
json info_ess_none info hopper-1d --json
valid info-ess info_ess_none set:orbit_guess=[] del:description

# ---------------------------------------------------------------- analyze
json an analyze paddle-juggler --json
valid analyze an del:psi 'set:psi="0.5"' 'set:verdict="stabel"' set:stable=false set:extra=1 \
    set:multipliers/0/abs=-1 set:multipliers/0/arg=0 'set:orbit/events/0/x_plus="x"' \
    'set:orbit/mode0="-flight"' del:orbit/events set:monodromy=[] set:params/g=true \
    'set:psi_gradient={}'
json an_check analyze slip-hopper --check --gradient --json
valid analyze an_check del:check/jacobians/where set:check/jacobians/checked=1.5 \
    del:psi_gradient_method 'set:check/method="exact"' 'set:return_map=[[1, "a"]]' \
    'set:psi_gradient_method="numeric"' set:psi_gradient/K=true
json an_sim analyze twin-jugglers --json
valid analyze an_sim 'set:simultaneous/0/other_order=["impact1"]' \
    del:simultaneous/0/continuous set:simultaneous=[] set:simultaneous/0/dt=-1 \
    set:simultaneous/0/first=7
# a mode on a manifold (tests/rigid_body.c): the monodromy in tangent coordinates
if [ -f "$rigid" ]; then
    json an_chart analyze --model "$rigid" --check --json
    valid analyze an_chart 'set:tangent_names=[1]' 'set:tangent_names/0="-rx"'
    json info_chart info --model "$rigid" --json
    valid info info_chart set:modes/0/tdim=0 'set:modes/0/tangent=[]' 'set:modes/0/tdim="7"'
fi
json an_ess analyze hopper-pumped --json
valid analyze-ess an_ess del:eps_order 'set:integrator="event"' \
    set:orbit/counts/projections=-1 set:section=3 set:orbit/iterations=3.5 del:return_map \
    set:stable=false 'set:check={}'
json an_ess_check analyze hopper-pumped --check --json
valid analyze-ess an_ess_check del:check/max_abs_diff 'set:check/method="exact"' \
    set:check/max_abs_diff=-1
if [ "$have_impacts" = yes ]; then
    json an_impact analyze knee-biped --impact-set 4 --json
    valid analyze an_impact del:impact_set/psi_worst \
        'set:impact_set/worst_outcome/modes/0="stuck"' 'set:impact_set/extremes/0/which="mid"' \
        set:impact_set/extremes/0/extra=1 set:impact_set/samples=0 \
        set:impact_set/worst_sample=-2 'set:impact_set/psi/0="x"' 'set:psi_gradient={}'
fi

# --------------------------------------------------------------- simulate
json sim_fail simulate slip-hopper --trials 3 --steps 5 --perturb 2 --json
expect_grep sim_fail out '"failure": "' "a trial that fails says why (the failure text is validated)"
valid simulate sim_fail 'set:region="cube"' del:trials/0/error \
    'set:trials/0/failure="broken: x"' set:seed=-1 set:converged=1.0 set:trials=[] \
    del:orbit/mode0 set:orbit/events=[]
json sim_box simulate paddle-juggler --box 0.01 --trials 2 --steps 2 --json
valid simulate sim_box set:trials/0/error/0=-1 set:trials/0/steps_completed=true
json sw_fail simulate slip-hopper --sweep vy=-1:1:2 --x0 2,0.5,0 --time 200 --json
expect_grep sw_fail out '"failure": "no event' "a state sweep's failed run says why"
valid simulate-sweep sw_fail 'set:results/0/failure="oops"' del:results/0/event_times
json sw simulate trot-rigid --sweep theta=-0.01:0.01:3 --x0 0.6,0,0,0 --time 0.4 --json
valid simulate-sweep sw del:results/0/failure set:results/0/events/0=3 set:sweep/values=[] \
    set:results=[] set:sweep/mode=null
json flow simulate trot-rigid --x0 0.6,0,0,0 --time 0.4 --jacobian --json
valid simulate-jacobian flow del:mode_end 'set:events/0/t="0"' set:simultaneous/0/dt=-1 \
    set:jacobian=[[]] del:simultaneous set:events/0/x_minus=[]
json ess_run simulate hopper-1d --x0 1.5,0 --time 0.5 --samples 3 --jacobian --json
valid simulate-ess ess_run set:signs_end/0=0 del:counts/rearms 'set:samples/0={"t": 0}' \
    'set:jacobian="none"' set:counts/refused=0.5 'set:integrator="event"'
json ess_steps simulate hopper-1d --x0 1.5,0 --time 0.5 --json
valid simulate-ess ess_steps del:jacobian del:eps_error

# ------------------------------------------------------------------- shape
json shape shape paddle-juggler --starts 1 --maxeval 5 --no-polish --verify --trials 2 \
    --steps 3 --json
valid shape shape 'set:gradient="numeric"' del:verify/contradiction 'set:measure="max"' \
    set:bounds/paddle_accel=[1] 'set:shape={}' 'set:algorithm="slsqp"' set:verify/trials=0 \
    del:orbit/events set:stable=false
json shape_free shape slip-hopper --algorithm LN_BOBYQA --maxeval 5 --starts 1 --no-polish \
    --json
valid shape shape_free del:psi_initial set:verify=null

# ----------------------------------------------------------------- trajopt
json tj trajopt slip-hopper --nodes 5 --maxeval 3 --quiet --starts 2 --virtual-events 1,0,0 \
    --solver slsqp -o slip.gait --json
valid trajopt tj del:best_start 'set:objective="psi"' set:phases/0/virtual=false \
    'set:grids/0/solver="newton"' 'set:starts/0/status="fine"' set:weight=1 \
    'set:starts/0/message="m"' set:grid_resolved=null del:phases/0/offset \
    set:phases/1/offset=0
cp slip.gait gait_slip.out
valid gait gait_slip 'set:format="gait"' set:version=2 del:phases/0/states \
    'set:phases/0/direction="left"' set:phases/0/nodes=1 'set:inputs=["K", "K"]' \
    set:phases/0/duration=0 set:phases/0/states/0/0=null set:params/K=null del:energy
json tj_w trajopt knee-biped --nodes 4 --maxeval 2 --refine 1 --quiet --solver slsqp \
    --objective weighted -o knee.gait --json
valid trajopt tj_w del:weight set:verdict=null del:grids set:starts=[]
cp knee.gait gait_knee.out
valid gait gait_knee 'set:phases/0/inputs/0/0="u"' 'set:objective="psi"'
json an_gait analyze --orbit slip.gait --json
valid analyze an_gait del:orbit/mode0
json sim_gait simulate --orbit slip.gait --trials 1 --steps 1 --json
valid simulate sim_gait set:radius=-1

# ------------------------------------------------------------------- sweep
json sweep sweep paddle-juggler --grid alpha=0:0.5:2 --json
valid sweep-row sweep --lines del:status 'set:status="fine"' set:index=-1 'set:params={}' \
    'set:params/alpha="0"'
sed -n 1p sweep.out >sweep_failed.out
sed -n 2p sweep.out >sweep_ok.out
expect_grep sweep_failed out '"status": "no periodic orbit"' "the sweep's first point fails (alpha 0)"
valid sweep-row sweep_failed --lines del:message set:psi=1 'set:status="ok"'
valid sweep-row sweep_ok --lines 'set:multipliers/0=[1]' del:branch_jump 'set:message="x"' \
    set:stable=false set:psi=-1 'set:psi="1"'
json sweep_ess sweep hopper-pumped --grid k=900:1000:2 --json
valid sweep-row sweep_ess --lines 'set:period="0.8"' 'set:multipliers/0/1="0"'

# ---------------------------------------------------------------- continue
json cont continue paddle-juggler --param paddle_accel=-20:10 --json
valid continue cont del:branches/0/points/0/psi 'set:branches/0/method="auto"' \
    'set:branches/0/points/0/label="XX"' 'set:branches/0/points/0/crossing="+2"' \
    set:branches/0/returns=0 'set:branches/0/points/0/multipliers/0={"re": 1}' \
    set:branches/0/from_branch=-1 set:branches=[] set:extra=1 'set:branches/0/points/0/verdict="ok"'
json cont_slip continue slip-hopper --param K=10:12 --max-points 5 --json
valid continue cont_slip del:branches/0/why set:branches/0/points/0/x0=3
# a branch that ends at a grazing (GR, its guard in detail; the margins)
json cont_gr continue paddle-juggler --param paddle_accel=10:30 --json
valid continue cont_gr 'set:branches/0/points/0/margins/0/margin="x"' \
    'set:branches/0/points/0/margins/0={"margin": 1}' set:branches/0/points/0/full=1 \
    del:branches/0/points/0/margins 'set:branches/0/kind="arc"' set:branches/0/points/0/value2=[]
# the curves of --param2 after the branch
json cont_curve continue paddle-juggler --param paddle_accel=-16:2 --param2 alpha=0.6 --json
valid continue cont_curve del:param2 'set:branches/1/kind="boundary"' \
    'set:branches/1/points/0/value2="0.5"' set:branches/1/param2=1 del:branches/1/kind \
    'set:to2="x"'

# ------------------------------------------------------------------ impact
if [ "$have_impacts" = yes ]; then
    json impact impact rocking-block --samples 8 --json --samples-out
    valid impact impact del:summary/pivots 'set:laws/0/law="routh"' \
        set:options/select_random=1 del:laws/1/order set:hulls=[] set:samples/0/extra=1 \
        'set:laws/0/order=["A", "B"]' 'set:extremes/0/extreme/of="u_sideways"' \
        'set:summary/sequence="random"' set:mode_counts/0/stick=1.5 set:hulls/normals/0/z=0 \
        del:laws/0/v
    json impact_law impact rocking-block --law anitescu-potra --json
    valid impact impact_law set:summary/samples=-1 set:samples=[[]] set:laws/0/status=0
fi
if [ "$have_impacts" = yes ] && [ "$have_mujoco" = yes ]; then
    json impact_robot impact --robot "$robots/compass_gait.urdf" --contacts A:5 \
        --q -0.9781476,0.2079117,-1.3613568,1.3613568 --v -0.0519779,-0.2445369,0.25,0.25 \
        --samples 4 --json
    valid impact impact_robot 'set:hulls={}' 'set:problem=""'
fi

# ------------------------------------------------------------ robot models
for f in knee_biped rimless_wheel rimless_wheel_3d; do
    cp "$robots/$f.json" "desc_$f.out"
    valid robot-model "desc_$f" set:unknown=1 del:robot set:modes/0/pinned=3 \
        'set:transitions/0/release="s0"' set:modes=[] 'set:contacts/x="1"' \
        'set:orbit/guess="x"' 'set:trajopt={"paths": []}'
done
if [ "$have_mujoco" = yes ]; then
    json an_robot analyze --robot "$robots/rimless_wheel.json" --json
    valid analyze an_robot 'set:params/x="1"'
    json info_robot info --robot "$robots/knee_biped.json" --json
    valid info info_robot del:orbit
fi

# ---------------------------------------------------------------- coverage
for f in "$schemas"/*.schema.json; do
    s=$(basename "$f" .schema.json)
    [ "$s" = defs ] && continue
    [ "$s" = impact ] && [ "$have_impacts" = no ] && continue
    checks=$((checks + 1))
    case " $validated " in
        *" $s "*) pass "$s.schema.json met real documents" ;;
        *) fail "$s.schema.json was checked against no document of hes" ;;
    esac
done

testlib_summary json_schema.sh
