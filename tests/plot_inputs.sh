#!/bin/sh
# tests/plot_inputs.sh - what `hes plot` makes of the tables, models and
# descriptions users bring.  First: no string read from a file, a model or
# a robot description reaches gnuplot as code: `hes plot` is run with the real
# gnuplot on inputs whose names are gnuplot syntax (a quote closing the
# label, then system('touch pwned'), a comment sign; double quotes with
# backquotes, which gnuplot substitutes inside double-quoted strings; '@'
# macros; backslashes; semicolons), each in a fresh working directory.
# Every plot must complete (exit 0, the name drawn as text) or be refused
# cleanly (exit 2 with a message), and no file 'pwned' may appear.  Also:
# underscores in names are drawn as underscores, not as subscripts.
# Then: tables of any size are drawn whole (no row, column or contact
# limit).
# Run by `make check` with HES, top_srcdir and top_builddir in the
# environment; skipped (exit 77) without gnuplot.

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "plot_inputs.sh: gnuplot not found; skipped (install gnuplot-nox)"
    exit 77
fi
unset HES_GNUPLOT

HES=${HES:-${top_builddir:-.}/src/hes}
case $HES in /*) ;; *) HES=$(pwd)/$HES ;; esac
srcdir=${top_srcdir:-.}
case $srcdir in /*) ;; *) srcdir=$(pwd)/$srcdir ;; esac
builddir=${top_builddir:-.}
case $builddir in /*) ;; *) builddir=$(pwd)/$builddir ;; esac
tmp=${TMPDIR:-/tmp}/hes-plot-inputs.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
have_python=no
. "$srcdir/tests/testlib.sh"

if [ ! -x "$HES" ]; then
    echo "FAIL: the program '$HES' does not exist or is not executable"
    exit 1
fi

# The payloads: each closes gnuplot's string its own way and runs a
# command that creates the file 'pwned' in the working directory.
sq="x';system('touch pwned');#"              # single quotes (the issue's)
dq='x";system("touch pwned");#'              # double quotes
bq='x`touch pwned`y'                         # command substitution
bs="x\\';system('touch pwned');#\\"          # backslashes around the quote
at="x'.@GPVAL_PWD.'y;@z"                     # macros

# plot_case NAME DESCRIPTION ARGS...: runs `hes plot ARGS...` in the fresh
# directory $tmp/NAME; passes when no 'pwned' appears there and the plot
# completed (exit 0 and a picture, *.svg) or was refused with a message (exit 2).
plot_case() {
    name=$1
    what=$2
    shift 2
    dir=$tmp/$name
    mkdir -p "$dir"
    (cd "$dir" && "$HES" plot "$@" >"$tmp/$name.out" 2>"$tmp/$name.err")
    status=$?
    checks=$((checks + 1))
    if [ -e "$dir/pwned" ]; then
        fail "$what: gnuplot ran the command in a name (the file pwned exists)"
    elif [ "$status" -eq 0 ] && [ -n "$(find "$dir" -name '*.svg' -size +0)" ]; then
        pass "$what: drawn, nothing run"
    elif [ "$status" -eq 2 ] && [ -s "$tmp/$name.err" ]; then
        pass "$what: refused with a message, nothing run ($(head -1 "$tmp/$name.err"))"
    else
        fail "$what: exit status $status (expected 0 with a picture, or 2 with a message)"
        sed 's/^/    stderr: /' "$tmp/$name.err" | head -5
    fi
}

# drawn NAME TEXT DESCRIPTION: the picture of case NAME shows TEXT as text
# (the SVG's characters, with XML's escapes for & < > ' ").
drawn() {
    checks=$((checks + 1))
    want=$(printf '%s' "$2" | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g')
    if [ "$status" -ne 0 ]; then
        fail "$3: not drawn (exit $status)"
    elif grep -F -q -- "$want" "$tmp/$1/out.svg" ||
        grep -F -q -- "$(printf '%s' "$want" | sed -e "s/'/\\&#39;/g" -e 's/"/\&quot;/g')" \
            "$tmp/$1/out.svg"; then
        pass "$3"
    else
        fail "$3: the picture does not show '$2'"
    fi
}

# ------------------------------------------- contact-forces: a column name
# (the table of `hes invdyn --csv`: t,method,status,fn:C,ratio:C,stance:C,
# mu_min; the contact's name C is the payload)
forces_table() {
    printf 't,method,status,fn:%s,ratio:%s,stance:%s,mu_min,slip\n' "$1" "$1" "$1"
    printf '0,no-slip,ok,10,0.1,1,0.1,0\n0.5,no-slip,ok,12,0.2,1,0.2,0\n1,no-slip,ok,9,0.1,1,0.1,0\n'
}
i=0
for payload in "$sq" "$dq" "$bq" "$bs" "$at" "lf_foot"; do
    i=$((i + 1))
    forces_table "$payload" > "$tmp/forces$i.csv"
    plot_case cf$i "contact-forces, column fn:$payload" contact-forces "$tmp/forces$i.csv" -o out.svg
    drawn cf$i "$payload" "contact-forces draws the column name $payload as text"
done

# ------------------------------------------ stability-map: a header name
sweep_table() {
    printf '# hes sweep\nindex,%s,%s,status,psi,stable\n' "$1" "$2"
    printf '0,1,1,ok,0.5,1\n1,1,2,ok,0.9,1\n2,2,1,ok,1.2,0\n3,2,2,ok,1.5,0\n'
}
i=0
for payload in "$sq" "$dq" "$bq" "$bs" "$at"; do
    i=$((i + 1))
    sweep_table "$payload" K > "$tmp/sweep$i.csv"
    plot_case map$i "stability-map, first parameter $payload" stability-map "$tmp/sweep$i.csv" -o out.svg
    drawn map$i "$payload" "stability-map draws the parameter name $payload as text"
    sweep_table K "$payload" > "$tmp/sweepb$i.csv"
    plot_case mapb$i "stability-map, second parameter $payload" stability-map "$tmp/sweepb$i.csv" -o out.svg
done
sweep_table apex_height theta_td > "$tmp/sweep_us.csv"
plot_case map_us "stability-map over apex_height" stability-map "$tmp/sweep_us.csv" -o out.svg
drawn map_us "apex_height" "an underscore is drawn as an underscore, not a subscript"

# ---------------------- bifurcation: hes continue's CSV and JSON documents
# (a state name and the parameter's name are drawn as text; a label is one
# of the library's words or the file is refused)
branch_csv() {
    printf 'branch,returns,index,label,detail,value,s,period,psi,verdict,crossing,%s,vB\n' "$1"
    printf '0,1,0,%s,,-2,0,0.5,1.5,unstable,,0.3,0\n' "$2"
    printf '0,1,1,PD,,-1,0,0.5,1,marginal,-1,0.3,0\n0,1,2,,,0,0,0.5,0.5,stable,,0.3,0\n'
}
# the JSON document, its strings escaped for JSON
jstr() {
    printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"
}
branch_json() {
    p='"s": 0, "period": 0.5, "psi_tol": 1e-9, "crossing": null, "detail": null'
    printf '{"problem": "p", "param": %s, "from": -2, "to": 0, "state_names": [%s, "vB"],\n' \
        "$(jstr "$1")" "$(jstr "$2")"
    printf '"branches": [{"returns": 1, "method": "natural", "from_branch": null, "from_point": null,\n'
    printf '"reached": true, "why": null, "points": [\n'
    printf '{"index": 0, "label": %s, "value": -2, "psi": 1.5, "verdict": "unstable", %s,\n' "$3" "$p"
    printf ' "multipliers": [{"re": -1.5, "im": 0}], "x0": [0.3, 0]},\n'
    printf '{"index": 1, "label": "PD", "value": -1, "psi": 1, "verdict": "marginal", %s,\n' "$p"
    printf ' "multipliers": [{"re": -1, "im": 0}], "x0": [0.3, 0]},\n'
    printf '{"index": 2, "label": "EP", "value": 0, "psi": 0.5, "verdict": "stable", %s,\n' "$p"
    printf ' "multipliers": [{"re": 0.5, "im": 0}], "x0": [0.3, 0]}]}]}\n'
}
i=0
for payload in "$sq" "$dq" "$bq" "$bs" "$at" 'x
system("touch pwned")'; do
    i=$((i + 1))
    # a state name: drawn with --y NAME
    branch_csv "$payload" EP > "$tmp/branch$i.csv"
    plot_case bif$i "bifurcation --y, CSV state name $payload" bifurcation "$tmp/branch$i.csv" \
        --y "$payload" -o out.svg
    case $payload in *"
"*) ;; *) drawn bif$i "$payload" "bifurcation draws the state name $payload as text" ;; esac
    # a label: refused
    branch_csv xB "$payload" > "$tmp/branchl$i.csv"
    plot_case bifl$i "bifurcation, CSV label $payload" bifurcation "$tmp/branchl$i.csv" -o out.svg
    # JSON: the parameter's name, a state name, a label
    branch_json "$payload" xB '"EP"' > "$tmp/branchp$i.json"
    plot_case bifp$i "bifurcation, JSON parameter $payload" bifurcation "$tmp/branchp$i.json" -o out.svg
    case $payload in *"
"*) ;; *) drawn bifp$i "$payload" "bifurcation draws the parameter $payload as text" ;; esac
    plot_case bmp$i "branch-multipliers, JSON parameter $payload" branch-multipliers \
        "$tmp/branchp$i.json" -o out.svg
    branch_json K "$payload" '"EP"' > "$tmp/branchs$i.json"
    plot_case bifs$i "bifurcation --y, JSON state name $payload" bifurcation "$tmp/branchs$i.json" \
        --y "$payload" -o out.svg
    branch_json K xB "$(jstr "$payload")" > "$tmp/branchj$i.json"
    plot_case bifj$i "bifurcation, JSON label $payload" bifurcation "$tmp/branchj$i.json" -o out.svg
done
branch_csv xB EP > "$tmp/branch_ok.csv"
plot_case bif_ok "bifurcation of a CSV table with labels" bifurcation "$tmp/branch_ok.csv" -o out.svg
drawn bif_ok "PD" "bifurcation marks the PD point with its label"

# ------------------------ boundary: the curves of hes continue --param2
# (the parameters' names are drawn as text; a label, or a kind other than
# branch and curve, refuses the file; a curve's title is made of its label
# and its number only)
curve_csv() {
    printf 'branch,returns,index,label,detail,value,value2,s,period,psi,verdict,crossing,xB,vB,margin_%s\n' "$1"
    printf '0,1,0,EP,,-2,,0,0.5,1.5,unstable,,0.3,0,\n0,1,1,PD,%s,-1,,0,0.5,1,marginal,-1,0.3,0,0.1\n' "$1"
    printf '1,1,0,%s,,-1,0.5,0,0.5,1,marginal,-1,0.3,0,0.1\n1,1,1,PD,,-0.9,0.6,0,0.5,1,marginal,,0.3,0,\n' "$2"
}
curve_json() {
    p='"s": 0, "period": 0.5, "psi": 1, "psi_tol": 1e-9, "verdict": "marginal", "crossing": null, "detail": null, "margins": [], "full": true, "multipliers": [{"re": -1, "im": 0}], "x0": [0.3, 0]'
    printf '{"problem": "p", "param": %s, "from": -2, "to": 0, "param2": %s, "from2": 0.5, "to2": 0.6,\n' \
        "$(jstr "$1")" "$(jstr "$2")"
    printf '"state_names": ["xB", "vB"], "branches": [\n'
    printf '{"kind": "branch", "param2": null, "returns": 1, "method": "natural", "from_branch": null, "from_point": null, "reached": true, "why": null, "points": [\n'
    printf '{"index": 0, "label": "EP", "value": -2, "value2": null, %s},\n' "$p"
    printf '{"index": 1, "label": "PD", "value": -1, "value2": null, %s}]},\n' "$p"
    printf '{"kind": %s, "param2": "q", "returns": 1, "method": "natural", "from_branch": 0, "from_point": 1, "reached": true, "why": null, "points": [\n' "$4"
    printf '{"index": 0, "label": %s, "value": -1, "value2": 0.5, %s},\n' "$3" "$p"
    printf '{"index": 1, "label": "PD", "value": -0.9, "value2": 0.6, %s}]}]}\n' "$p"
}
i=0
for payload in "$sq" "$dq" "$bq" "$bs" "$at" 'x
system("touch pwned")'; do
    i=$((i + 1))
    # CSV: a transition's name in a margin column and in detail (not drawn), a label
    curve_csv "$payload" PD > "$tmp/curve$i.csv"
    plot_case bd$i "boundary, CSV transition $payload" boundary "$tmp/curve$i.csv" -o out.svg
    curve_csv impact "$payload" > "$tmp/curvel$i.csv"
    plot_case bdl$i "boundary, CSV curve label $payload" boundary "$tmp/curvel$i.csv" -o out.svg
    # JSON: the two parameters' names (drawn), a label, a kind
    curve_json "$payload" q '"PD"' '"curve"' > "$tmp/curvep$i.json"
    plot_case bdp$i "boundary, JSON parameter $payload" boundary "$tmp/curvep$i.json" -o out.svg
    case $payload in *"
"*) ;; *) drawn bdp$i "$payload" "boundary draws the parameter $payload as text" ;; esac
    curve_json p "$payload" '"PD"' '"curve"' > "$tmp/curveq$i.json"
    plot_case bdq$i "boundary, JSON second parameter $payload" boundary "$tmp/curveq$i.json" -o out.svg
    case $payload in *"
"*) ;; *) drawn bdq$i "$payload" "boundary draws the second parameter $payload as text" ;; esac
    curve_json p q "$(jstr "$payload")" '"curve"' > "$tmp/curvej$i.json"
    plot_case bdj$i "boundary, JSON curve label $payload" boundary "$tmp/curvej$i.json" -o out.svg
    curve_json p q '"PD"' "$(jstr "$payload")" > "$tmp/curvek$i.json"
    plot_case bdk$i "boundary, JSON kind $payload" boundary "$tmp/curvek$i.json" -o out.svg
    plot_case bfk$i "bifurcation, JSON kind $payload" bifurcation "$tmp/curvek$i.json" -o out.svg
done
curve_csv impact PD > "$tmp/curve_ok.csv"
plot_case bd_ok "boundary of a CSV table with a curve" boundary "$tmp/curve_ok.csv" -o out.svg
drawn bd_ok "PD curve 0" "boundary names the curve by its label"
plot_case bd_bif "bifurcation of a table with a curve" bifurcation "$tmp/curve_ok.csv" -o out.svg
branch_csv xB EP > "$tmp/branch_nocurve.csv"
plot_case bd_none "boundary of a table without curves" boundary "$tmp/branch_nocurve.csv" -o out.svg
checks=$((checks + 1))
if [ "$status" -eq 2 ] && grep -q 'no curve' "$tmp/bd_none.err"; then
    pass "boundary refuses a table without curves"
else
    fail "boundary of a table without curves: exit $status"
fi

# --------------------------------- a robot description's name (--robot)
if [ -f "$srcdir/share/robots/rimless_wheel.json" ] &&
    "$HES" info --robot "$srcdir/share/robots/rimless_wheel.json" >/dev/null 2>&1; then
    i=0
    for payload in "$sq" "$dq" "$bq" "$bs" "$at"; do
        i=$((i + 1))
        # JSON: the payload's backslashes and double quotes escaped
        jname=$(printf '%s' "$payload" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')
        sed -e "s|\"rimless-wheel-mjcf\"|\"$(printf '%s' "$jname" | sed 's/[|&\\]/\\&/g')\"|" \
            -e "s|\"rimless_wheel.xml\"|\"$srcdir/share/robots/rimless_wheel.xml\"|" \
            "$srcdir/share/robots/rimless_wheel.json" > "$tmp/robot$i.json"
        plot_case rm$i "multipliers --robot, name $payload" multipliers --robot "$tmp/robot$i.json" -o out.svg
        plot_case rc$i "convergence --robot, name $payload" convergence --robot "$tmp/robot$i.json" \
            --trials 2 --steps 2 -o out.svg
    done
    # a newline in the name: the line after it would be a command of its own
    sed -e 's|"rimless-wheel-mjcf"|"w\\nsystem(\\"touch pwned\\")"|' \
        -e "s|\"rimless_wheel.xml\"|\"$srcdir/share/robots/rimless_wheel.xml\"|" \
        "$srcdir/share/robots/rimless_wheel.json" > "$tmp/robot_nl.json"
    plot_case rm_nl "multipliers --robot, a name with a newline" multipliers --robot "$tmp/robot_nl.json" -o out.svg
else
    echo "plot_inputs.sh: no MuJoCo robot model; the --robot names are skipped"
fi

# --------------------------------------- a plugin model's name (--model)
plugin=$builddir/tests/.libs/bad_plugin.so
if [ -f "$plugin" ]; then
    HES_TEST_BAD_MODEL=name_injection
    export HES_TEST_BAD_MODEL
    plot_case pm "multipliers --model, name $sq" multipliers --model "$plugin" -o out.svg
    plot_case pc "convergence --model, name $sq" convergence --model "$plugin" --trials 2 --steps 2 -o out.svg
    unset HES_TEST_BAD_MODEL
fi

# ------------------------------- paths: the output and the temporary directory
plot_case out_q "-o a path with quotes" multipliers slip-hopper -o "x';system('touch pwned');#.svg"
checks=$((checks + 1))
if [ "$status" -eq 0 ] && [ -s "$tmp/out_q/x';system('touch pwned');#.svg" ]; then
    pass "-o takes a path with quotes as a path"
elif [ "$status" -eq 2 ]; then
    pass "-o with quotes refused"
else
    fail "-o with quotes: exit $status"
fi
odd="$tmp/t'\`touch pwned\`\"@x;#"
mkdir -p "$odd"
TMPDIR=$odd
export TMPDIR
plot_case tmpdir "TMPDIR with quotes and backquotes" multipliers slip-hopper -o out.svg
unset TMPDIR
checks=$((checks + 1))
if [ -e "$odd/pwned" ] || [ -e "$tmp/pwned" ]; then
    fail "TMPDIR: a command ran"
else
    pass "TMPDIR: nothing ran"
fi

# ---------------------------------------------------------------- sizes
# bench_ess_mujoco's table with 65 rows (N = 1 to 65): every row drawn
{
    printf '# bench\nN,hes_s,mujoco_s,eq_hes_s\n'
    n=1
    while [ $n -le 65 ]; do
        printf '%d,%d.5e-4,%d.25e-3,%d.75e-4\n' $n $n $n $n
        n=$((n + 1))
    done
} > "$tmp/bench65.csv"
plot_case bench65 "ess-bench with 65 rows" ess-bench "$tmp/bench65.csv" -o out.svg
checks=$((checks + 1))
# the points of the hes series: one SVG path per point marker is not
# stable across gnuplot versions, the fit is: 65 rows of slope 0.1 ms per
# contact (hes_s = N.5e-4 s: 0.1 N + 0.05 ms) give "100 us per contact"
if [ "$status" -eq 0 ] && grep -q 'hes: 100 us per contact' "$tmp/bench65/out.svg"; then
    pass "ess-bench fits all 65 rows (the slope of N.5e-4 s: 100 us per contact)"
else
    fail "ess-bench with 65 rows: exit $status, or not the slope of all 65 rows"
fi

# a sweep written with DOS line ends (a spreadsheet's) is the same sweep
sweep_table K thetadot | sed 's/$/\r/' > "$tmp/sweep_dos.csv"
plot_case map_dos "stability-map of a sweep with DOS line ends" stability-map "$tmp/sweep_dos.csv" -o out.svg
checks=$((checks + 1))
if [ "$status" -eq 0 ] && grep -q '<text>thetadot</text>' "$tmp/map_dos/out.svg"; then
    pass "the DOS sweep's parameter is drawn without its carriage return"
else
    fail "the DOS sweep's parameter: exit $status, or not the label 'thetadot'"
fi

# a motion with 20 contacts: each drawn with its name
{
    printf 't,method,status'
    for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do printf ',fn:foot_%02d' $k; done
    for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do printf ',ratio:foot_%02d' $k; done
    for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do printf ',stance:foot_%02d' $k; done
    printf ',mu_min,slip\n'
    for t in 0 1 2; do
        printf '%d,no-slip,ok' $t
        for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do printf ',%d' $((k + t)); done
        for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do printf ',0.1'; done
        for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do printf ',1'; done
        printf ',0.1,0\n'
    done
} > "$tmp/forces20.csv"
plot_case cf20 "contact-forces with 20 contacts" contact-forces "$tmp/forces20.csv" -o out.svg
for k in 00 15 16 19; do
    drawn cf20 "foot_$k" "contact-forces draws contact foot_$k of 20"
done

# the script gnuplot runs is the program's constant: no name in it (a
# wrapper keeps a copy of the script, `gnuplot -c SCRIPT ...`)
printf '#!/bin/sh\ncp "$2" "%s/last.gp"\nexec gnuplot "$@"\n' "$tmp" > "$tmp/gpwrap"
chmod +x "$tmp/gpwrap"
HES_GNUPLOT="$tmp/gpwrap" plot_case wrapped "contact-forces through a wrapper" contact-forces "$tmp/forces20.csv" -o out.svg
checks=$((checks + 1))
if [ -s "$tmp/last.gp" ] && ! grep -q 'foot_' "$tmp/last.gp" && ! grep -q "$tmp" "$tmp/last.gp"; then
    pass "the script holds no name and no path: they are gnuplot's data and arguments"
else
    fail "the script gnuplot ran holds a name or a path (or was not kept)"
fi

testlib_summary plot_inputs.sh
