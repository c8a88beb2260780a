#!/bin/sh
# tests/bad_input.sh - hundreds of malformed command lines over every command
# of the program (top level, list, info, analyze, simulate, shape, trajopt,
# sweep, plot, --model): for every option a missing value, a non-number,
# NaN, infinities, negatives, zero where invalid, huge values, empty
# strings, unknown names, unknown options, options given twice, conflicting
# options; nonexistent, directory, empty and non-regular files; malformed
# gait files, sweep CSV files and plugins (tests/bad_plugin.c, broken in the
# field HES_TEST_BAD_MODEL names).  Each line must
#   - exit with status 1 (the computation failed) or 2 (bad usage or input),
#   - print a message on stderr,
#   - not crash (no exit status >= 128) and finish within 30 s,
#   - print no sanitizer report (in an ASan/UBSan build).
# Run by `make check` with HES, top_srcdir and top_builddir in the
# environment; prints each failed line and a summary, exits 1 if any failed.
# With BAD_INPUT_LOG=FILE it also appends every line and its first message
# to FILE.

HES=${HES:-${top_builddir:-.}/src/hes}
tmp=${TMPDIR:-/tmp}/hes-bad-input.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
plugin=${top_builddir:-.}/tests/.libs/bad_plugin.so
wrong_abi=${top_builddir:-.}/tests/.libs/rimless_wheel_wrong_abi.so
libhes=${top_builddir:-.}/lib/.libs/libhes.so
LIMIT=30

lines=0
failures=0
slowest=0
slowest_line=

if [ ! -x "$HES" ]; then
    echo "FAIL: the program '$HES' does not exist or is not executable"
    exit 1
fi
# Uninstalled, $HES is libtool's wrapper script, which costs more than most
# of the lines below: run the program behind it, with the library path the
# wrapper would set.
if [ -x "${top_builddir:-.}/libtool" ]; then
    real=$("${top_builddir:-.}/libtool" --mode=execute sh -c \
        'printf "%s\n%s\n" "$1" "$LD_LIBRARY_PATH"' sh "$HES" 2>/dev/null)
    program=$(printf '%s\n' "$real" | sed -n 1p)
    libpath=$(printf '%s\n' "$real" | sed -n 2p)
    if [ -n "$program" ] && [ "$program" != "$HES" ] && [ -x "$program" ] &&
        LD_LIBRARY_PATH=$libpath "$program" --version >/dev/null 2>&1; then
        HES=$program
        LD_LIBRARY_PATH=$libpath
        export LD_LIBRARY_PATH
    fi
fi
# plots never reach gnuplot here: every line below is refused before
HES_GNUPLOT=/nonexistent/gnuplot
export HES_GNUPLOT
OPENBLAS_NUM_THREADS=1
export OPENBLAS_NUM_THREADS

# milliseconds (GNU date), or whole seconds elsewhere
now_ms() {
    ms=$(date +%s%3N)
    case $ms in
    *N*) echo $(($(date +%s) * 1000)) ;;
    *) echo "$ms" ;;
    esac
}

# bad ARGS...: one malformed command line.
bad() {
    lines=$((lines + 1))
    start=$(now_ms)
    timeout "$LIMIT" "$HES" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    st=$?
    took=$(($(now_ms) - start))
    if [ "$took" -gt "$slowest" ]; then
        slowest=$took
        slowest_line="$*"
    fi
    why=
    if [ "$st" -eq 124 ]; then
        why="no result within $LIMIT s"
    elif [ "$st" -ge 128 ]; then
        why="killed by signal $((st - 128))"
    elif [ "$st" -ne 1 ] && [ "$st" -ne 2 ]; then
        why="exit status $st, expected 1 or 2"
    elif ! grep -q '[^[:space:]]' "$tmp/err"; then
        why="exit status $st with nothing on stderr"
    fi
    if grep -E -q 'runtime error|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer' \
        "$tmp/err"; then
        why="${why:+$why; }a sanitizer report"
    fi
    if [ -n "${BAD_INPUT_LOG:-}" ]; then # every line and its first message, to read them
        printf '%s\n    => %s: %s\n' "hes $*" "$st" "$(head -n 1 "$tmp/err")" >> "$BAD_INPUT_LOG"
    fi
    if [ -n "$why" ]; then
        failures=$((failures + 1))
        echo "FAIL: hes $*: $why"
        sed 's/^/    /' "$tmp/err" | head -8
    fi
}

# with_model VARIANT ARGS...: bad ARGS with the bad plugin broken in VARIANT.
with_model() {
    HES_TEST_BAD_MODEL=$1
    export HES_TEST_BAD_MODEL
    shift
    bad "$@"
    unset HES_TEST_BAD_MODEL
}

# ------------------------------------------------------------------- files
printf 'hello, not a library\n' > "$tmp/text.txt"
: > "$tmp/empty"
mkdir -p "$tmp/dir"
printf '\177ELF\002\001\001\000garbage' > "$tmp/fake.so"
printf '\000\001\002\003\377\376binary' > "$tmp/binary"
nofile=$tmp/no-such-file
files="$nofile $tmp/dir $tmp/empty /dev/null $tmp/text.txt $tmp/binary"

# ------------------------------------------------------------------ top level
bad
bad ""
bad --bogus
bad -x
bad -
bad --
bad bogus
bad help
bad LIST
bad " list"
bad --model
bad --model "$tmp/text.txt" list

# ---------------------------------------------------------------------- list
bad list extra
bad list --bogus
bad list --json
bad list -p K=1
bad list --model
bad list --model "$nofile"

# ---------------------------------------------------------------------- info
bad info
bad info nosuch
bad info ""
bad info slip-hopper extra
bad info --bogus slip-hopper
bad info slip-hopper --json=yes
bad info -p K=1 slip-hopper
for f in $files "$tmp/fake.so" "$libhes" "$wrong_abi"; do
    bad info --model "$f"
done
bad info --model
bad info --model=
bad info --model "$plugin" --model "$plugin"

# ------------------------------------------------------- -p on every command
for cmd in analyze simulate shape trajopt sweep; do
    extra=
    [ "$cmd" = sweep ] && extra="--grid K=0:0.1:2"
    for p in "" K "=1" K= "K=x" "K=nan" "K=inf" "K=-inf" "K=1e999" "K=0x" "K= 1" "K=1 " \
             "nosuch=1" "k=-5" "k=0" "k=nan" "g=0" "apex_height=-1" \
             "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=1"; do
        bad $cmd slip-hopper $extra -p "$p"
    done
    bad $cmd slip-hopper $extra -p K=0.1 -p K=0.2
    bad $cmd slip-hopper $extra -p
    bad $cmd nosuch $extra
    bad $cmd $extra
    bad $cmd slip-hopper extra $extra
    bad $cmd slip-hopper $extra --bogus
    bad $cmd --help=x
done
bad analyze knee-biped --impact-set 0
bad analyze knee-biped --impact-set -1
bad analyze knee-biped --impact-set 1e9
bad analyze knee-biped --impact-set x
bad analyze knee-biped --impact-set 2 --gradient
bad analyze knee-biped --impact-set 2 --select best
bad analyze knee-biped --impact-set 2 --threads 0
bad analyze knee-biped --select lemke
bad analyze hopper-pumped --impact-set 2
bad analyze paddle-juggler --impact-set 2
bad plot impact-set -o "$tmp/x.png"
bad plot impact-set no-such-problem -o "$tmp/x.png"
bad plot impact-set rocking-block --samples 0 -o "$tmp/x.png"
bad plot impact-set rocking-block --samples x -o "$tmp/x.png"
bad plot impact-set rocking-block -p a=1 -o "$tmp/x.png"
bad plot impact-set rocking-block
bad info --robot "$tmp/none.xml"
# robot models (--robot DESC.json): malformed descriptions
cp "${top_srcdir:-.}/share/robots/knee_biped.xml" "$tmp/kb.xml"
rj() { printf '%s\n' "$2" >"$tmp/$1.json"; }
rj r_empty '{}'
rj r_notobj '[1, 2]'
rj r_norobot '{"name": "x", "modes": [{"name": "m"}]}'
rj r_nofile '{"name": "x", "robot": "none.xml", "modes": [{"name": "m"}]}'
rj r_noname '{"robot": "kb.xml", "modes": [{"name": "m"}]}'
rj r_nomodes '{"name": "x", "robot": "kb.xml"}'
rj r_modes0 '{"name": "x", "robot": "kb.xml", "modes": []}'
rj r_dupmode '{"name": "x", "robot": "kb.xml", "modes": [{"name": "m"}, {"name": "m"}]}'
rj r_pinjoint '{"name": "x", "robot": "kb.xml", "modes": [{"name": "m", "pinned": "knee1_upper"}]}'
rj r_locktwice '{"name": "x", "robot": "kb.xml", "modes": [{"name": "m", "locked": ["knee1_upper", "knee1_lower"]}]}'
rj r_lockfoot '{"name": "x", "robot": "kb.xml", "modes": [{"name": "m", "locked": ["foot1"]}]}'
rj r_slope '{"name": "x", "robot": "kb.xml", "slope": "steep", "modes": [{"name": "m"}]}'
rj r_slope2 '{"name": "x", "robot": "kb.xml", "slope": 2, "modes": [{"name": "m"}]}'
rj r_contacts '{"name": "x", "robot": "kb.xml", "contacts": {"foot1": "high"}, "modes": [{"name": "m"}]}'
rj r_mu '{"name": "x", "robot": "kb.xml", "contacts": {"foot1": -1}, "modes": [{"name": "m"}]}'
rj r_site '{"name": "x", "robot": "kb.xml", "contacts": {"toe": 1}, "modes": [{"name": "m"}]}'
m2='"modes": [{"name": "a", "pinned": "foot1"}, {"name": "b", "pinned": "foot2"}]'
rj r_trfrom "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, \"transitions\": [{\"name\": \"t\", \"from\": \"c\", \"to\": \"b\", \"activate\": \"foot2\"}]}"
rj r_trboth "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, \"transitions\": [{\"name\": \"t\", \"from\": \"a\", \"to\": \"b\", \"activate\": \"foot2\", \"release\": \"foot1\"}]}"
rj r_trheld "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, \"transitions\": [{\"name\": \"t\", \"from\": \"a\", \"to\": \"b\", \"activate\": \"foot1\"}]}"
rj r_trbil "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, \"transitions\": [{\"name\": \"t\", \"from\": \"a\", \"to\": \"b\", \"activate\": \"foot2_tangential\"}]}"
rj r_trrel "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, \"transitions\": [{\"name\": \"t\", \"from\": \"a\", \"to\": \"b\", \"release\": \"foot2\"}]}"
rj r_trafter "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, \"transitions\": [{\"name\": \"t\", \"from\": \"a\", \"to\": \"b\", \"activate\": \"foot2\", \"after\": [\"foot1\"]}]}"
rj r_relnoafter "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, \"transitions\": [{\"name\": \"t\", \"from\": \"a\", \"to\": \"b\", \"activate\": \"foot2\", \"relabel\": {}}]}"
rj r_relcoord "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, \"transitions\": [{\"name\": \"t\", \"from\": \"a\", \"to\": \"b\", \"activate\": \"foot2\", \"after\": [\"foot2\"], \"relabel\": {\"xh\": {\"th1\": 1}}}]}"
rj r_relsrc "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, \"transitions\": [{\"name\": \"t\", \"from\": \"a\", \"to\": \"b\", \"activate\": \"foot2\", \"after\": [\"foot2\"], \"relabel\": {\"th1\": {\"toe\": 1}}}]}"
rj r_relnan "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, \"transitions\": [{\"name\": \"t\", \"from\": \"a\", \"to\": \"b\", \"activate\": \"foot2\", \"after\": [\"foot2\"], \"relabel\": {\"th1\": {\"th1\": \"one\"}}}]}"
t1="\"transitions\": [{\"name\": \"t\", \"from\": \"a\", \"to\": \"b\", \"activate\": \"foot2\"}]"
rj r_orbmode "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, $t1, \"orbit\": {\"mode\": \"z\", \"section\": \"t\", \"sequence\": [\"t\"], \"guess\": []}}"
rj r_orbseq "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, $t1, \"orbit\": {\"mode\": \"a\", \"section\": \"t\", \"sequence\": [\"u\"], \"guess\": []}}"
rj r_orbguess "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, $t1, \"orbit\": {\"mode\": \"a\", \"section\": \"t\", \"sequence\": [\"t\"], \"guess\": [1, 2]}}"
rj r_orbstate "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, $t1, \"orbit\": {\"mode\": \"a\", \"section\": \"t\", \"sequence\": [\"t\"], \"guess\": {\"xh\": 1}}}"
rj r_orbfree "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, $t1, \"orbit\": {\"mode\": \"a\", \"section\": \"t\", \"sequence\": [\"t\"], \"guess\": {}, \"free\": [\"th1\"], \"residual\": []}}"
rj r_orbkey "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, $t1, \"orbit\": {\"mode\": \"a\", \"section\": \"t\", \"sequence\": [\"t\"], \"guess\": {}, \"period\": 1}}"
to1="\"trajopt\": {\"path\": [{\"name\": \"p\", \"mode\": \"a\", \"linear\": {\"toe\": 1}}]}"
rj r_pathjoint "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, $to1}"
to2="\"trajopt\": {\"path\": [{\"name\": \"p\", \"mode\": \"z\", \"linear\": {\"hip\": 1}}]}"
rj r_pathmode "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, $to2}"
to3="\"trajopt\": {\"inputs\": {\"hip_torque\": [1, -1]}}"
rj r_inbounds "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, $to3}"
to4="\"trajopt\": {\"inputs\": {\"toe_torque\": [-1, 1]}}"
rj r_inname "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, $to4}"
to5="\"trajopt\": {\"x0\": {\"th1\": [0, 1]}}"
rj r_x0noorbit "{\"name\": \"x\", \"robot\": \"kb.xml\", $m2, $to5}"
printf '{"name": "x", ' >"$tmp/r_trunc.json"
for f in r_empty r_notobj r_norobot r_nofile r_noname r_nomodes r_modes0 r_dupmode r_pinjoint \
    r_locktwice r_lockfoot r_slope r_slope2 r_contacts r_mu r_site r_trfrom r_trboth r_trheld \
    r_trbil r_trrel r_trafter r_relnoafter r_relcoord r_relsrc r_relnan r_orbmode r_orbseq \
    r_orbguess r_orbstate r_orbfree r_orbkey r_trunc r_pathjoint r_pathmode r_inbounds \
    r_inname r_x0noorbit; do
    bad analyze --robot "$tmp/$f.json"
done
bad analyze --robot "$tmp/none.json"
bad analyze --robot "$tmp"
mkdir -p "$tmp/dir.json"
bad analyze --robot "$tmp/dir.json"
bad analyze --robot "${top_srcdir:-.}/share/robots/knee_biped.json" knee-biped
bad analyze --robot "${top_srcdir:-.}/share/robots/knee_biped.json" --robot "${top_srcdir:-.}/share/robots/knee_biped.json"
bad analyze --robot "${top_srcdir:-.}/share/robots/knee_biped.json" -p slope=x
bad analyze --robot "${top_srcdir:-.}/share/robots/knee_biped.json" -p mh=1
bad simulate --robot "${top_srcdir:-.}/share/robots/knee_biped.json" --steps 0
bad trajopt slip-hopper --solver
bad trajopt slip-hopper --solver snopt
bad trajopt slip-hopper --solver default
bad trajopt slip-hopper --solver ipopt --solver slsqp
bad invdyn --orbit "$tmp/none.json"
bad invdyn --robot "${top_srcdir:-.}/share/robots/knee_biped.json" --orbit "$tmp/none.json"
bad invdyn --robot "${top_srcdir:-.}/share/robots/knee_biped.json" --orbit "$tmp/r_empty.json"
bad invdyn --robot "${top_srcdir:-.}/share/robots/knee_biped.json" --orbit "$tmp/r_empty.json" --q 0
bad invdyn --robot "${top_srcdir:-.}/share/robots/knee_biped.json" --orbit "$tmp/r_empty.json" --mu 1
bad invdyn knee-biped --orbit "$tmp/r_empty.json"
bad invdyn --robot "${top_srcdir:-.}/share/robots/knee_biped.json"
bad info --robot
bad info --robot "${top_srcdir:-.}/share/robots/compass_gait.xml" knee-biped
bad info --robot "$tmp"
bad impact --robot "$tmp/none.xml" --q 0 --v 0
bad impact --robot "${top_srcdir:-.}/share/robots/compass_gait.xml"
bad impact --robot "${top_srcdir:-.}/share/robots/compass_gait.xml" --q 0,0,0,0
bad impact --robot "${top_srcdir:-.}/share/robots/compass_gait.xml" --q 0,0,0,0 --v 0,0,0
bad impact --robot "${top_srcdir:-.}/share/robots/compass_gait.xml" --q x --v 0,0,0,0
bad impact --robot "${top_srcdir:-.}/share/robots/compass_gait.xml" --q 0,0,0,0 --v 0,0,0,0 --contacts A
q3d="${top_srcdir:-.}/share/robots/quadruped_3d.xml"
trot="${top_srcdir:-.}/share/data/quadruped_trot.csv"
bad invdyn
bad invdyn "$q3d"
bad invdyn "$tmp/none.xml" --trajectory "$trot"
bad invdyn "$q3d" --trajectory "$tmp/none.csv"
bad invdyn "$q3d" --trajectory "$tmp"
bad invdyn "$q3d" --trajectory "$trot" --dt 0
bad invdyn "$q3d" --trajectory "$trot" --dt -1
bad invdyn "$q3d" --trajectory "$trot" --dt nan
bad invdyn "$q3d" --trajectory "$trot" --dt 2
bad invdyn "$q3d" --trajectory "$trot" --mu -1
bad invdyn "$q3d" --trajectory "$trot" --mu x
bad invdyn "$q3d" --trajectory "$trot" --mu inf
bad invdyn "$q3d" --trajectory "$trot" --stance-tol 0
bad invdyn "$q3d" --trajectory "$trot" --slip-tol 1
bad invdyn "$q3d" --trajectory "$trot" --slip-tol 0
bad invdyn "$q3d" --trajectory "$trot" --method
bad invdyn "$q3d" --trajectory "$trot" --method coulomb --method convex
bad invdyn "$q3d" --trajectory "$trot" --contacts nosuch:1
bad invdyn "$q3d" --trajectory "$trot" --contacts lf_foot
bad invdyn "$q3d" --trajectory "$trot" --contacts lf_foot:-1
bad invdyn "$q3d" --q 0 --v 0
bad invdyn "$q3d" --q x --v 0 --a 0
bad invdyn "$q3d" --trajectory "$trot" extra
bad invdyn "$q3d" --trajectory "$tmp/empty"
bad invdyn "$q3d" --trajectory "$tmp/binary"
bad invdyn "$q3d" --trajectory "$tmp/text.txt"
bad invdyn "${top_srcdir:-.}/share/robots/compass_gait.urdf" --contacts A:1 --motors theta_T,theta_T --q 0,1,0,0 --v 0,0,0,0 --a 0,0,0,0
bad impact --robot "${top_srcdir:-.}/share/robots/compass_gait.xml" --q 0,0,0,0 --v 0,0,0,0 --contacts A:-1
bad impact --robot "${top_srcdir:-.}/share/robots/compass_gait.xml" --q 0,0,0,0 --v 0,0,0,0 --contacts Z:1
bad impact --robot "${top_srcdir:-.}/share/robots/compass_gait.xml" --q 0,0,0,0 --v 0,0,0,0 rocking-block
bad impact rocking-block --q 0,0,0
bad impact
bad impact no-such-problem
bad impact rocking-block box-wall
bad impact rocking-block --samples 0
bad impact rocking-block --samples -3
bad impact rocking-block --samples 1e9
bad impact rocking-block --samples x
bad impact rocking-block --step 0
bad impact rocking-block --step -1
bad impact rocking-block --step nan
bad impact rocking-block --step inf
bad impact rocking-block --steps 0
bad impact rocking-block --steps 100000
bad impact rocking-block --seed -1
bad impact rocking-block --seed x
bad impact rocking-block --threads 0
bad impact rocking-block --threads 1000
bad impact rocking-block --select
bad impact rocking-block --select maybe
bad impact rocking-block --law
bad impact rocking-block --law newton
bad impact rocking-block --law sequential:
bad impact rocking-block --law sequential:A
bad impact rocking-block --law sequential:A,C
bad impact rocking-block --law sequential:A,B,A
bad impact rocking-block --law anitescu-potra --csv
bad impact rocking-block --samples-out
bad impact rocking-block --json --csv
bad impact rocking-block --samples 4 --samples 5
bad impact rocking-block --bogus
bad plot multipliers slip-hopper -p K=x -o "$tmp/x.png"
bad plot convergence slip-hopper -p nosuch=1 -o "$tmp/x.png"

# -------------------------------------------------------------------- analyze
bad analyze trot-rigid
bad analyze trot-soft
bad analyze knee-biped --gradient
bad analyze twin-jugglers -p period=0
bad analyze paddle-juggler -p paddle_accel=60
bad analyze slip-hopper --orbit
for f in $files; do
    bad analyze --orbit "$f"
done
bad analyze slip-hopper --json --check --orbit "$nofile"
bad analyze --model "$tmp/dir" slip-hopper
for v in "" x 1 1,2 1,x,0 1,,0 nan,0,0 inf,0,0 "2, 2.5, 0" 1e999,2.5,0; do
    bad analyze slip-hopper --x0 "$v"
done
bad analyze slip-hopper --x0 2,2.5,0 --x0 2,2.5,0
bad analyze slip-hopper --mode descent
bad analyze slip-hopper --mode stance --x0 0,2,1,0
bad analyze slip-hopper --mode nosuch --x0 2,2.5,0
bad analyze slip-hopper --mode descent --mode descent --x0 2,2.5,0
bad analyze trot-rigid --x0 0.6,0,0,0
bad analyze --orbit "$nofile" --orbit "$nofile"
bad --version extra
bad --help extra

# ------------------------------------------------------------------- simulate
for v in "" x nan inf -inf -1 -0.5 1e999 1,2 1e --1; do
    bad simulate slip-hopper --perturb "$v"
    bad simulate slip-hopper --box "$v"
done
for v in "" x 0 -1 1.5 nan inf 100001 99999999999 2147483648 "1 "; do
    bad simulate slip-hopper --trials "$v"
    bad simulate slip-hopper --steps "$v"
done
for v in "" x -1 1.5 nan 99999999999999999999999 " 1"; do
    bad simulate slip-hopper --seed "$v"
done
for v in "" x 0 -1 nan inf -inf; do
    bad simulate slip-hopper --tol "$v"
done
bad simulate slip-hopper --trials 100000 --steps 101
bad simulate slip-hopper --box 0.1 --perturb 0.1
bad simulate slip-hopper --perturb 0.1 --box 0.1
bad simulate slip-hopper --trials 2 --trials 3
bad simulate slip-hopper --seed 1 --seed 1
bad simulate slip-hopper --json --csv
bad simulate slip-hopper --perturb 1e6
bad simulate slip-hopper --box 1e6
bad simulate trot-rigid
bad simulate trot-rigid --trials 3
rigid="trot-rigid --x0 0.6,0,0,0 --time 1"
for s in "" theta "theta=" "theta=0" "theta=0:1" "theta=0:1:2:3" "=0:1:2" "theta=1:0:3" \
         "theta=0:1:0" "theta=0:1:-1" "theta=0:1:x" "theta=0:1:1.5" "theta=nan:1:2" \
         "theta=0:inf:2" "theta=-1e308:1e308:3" "theta=0:1:100001" "theta=0:0.01:2000000" \
         "nosuch=0:1:2" "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=0:1:2"; do
    bad simulate $rigid --sweep "$s"
done
for x in "" "," "1,,2,3" "a,b,c,d" "0.6,0,0" "0.6,0,0,0,0" "nan,0,0,0" "inf,0,0,0" "0.6;0;0;0"; do
    bad simulate trot-rigid --sweep theta=0:1:2 --x0 "$x" --time 1
done
for t in "" x 0 -1 nan inf; do
    bad simulate trot-rigid --sweep theta=0:1:2 --x0 0.6,0,0,0 --time "$t"
done
bad simulate trot-rigid --sweep theta=0:1:2 --x0 0.6,0,0,0 --time 1 --mode nosuch
bad simulate trot-rigid --sweep theta=0:1:2 --x0 0.6,0,0,0 --time 1 --mode ""
bad simulate trot-rigid --sweep theta=0:1:2 --time 1
bad simulate trot-rigid --sweep theta=0:1:2 --x0 0.6,0,0,0
bad simulate trot-rigid --x0 0.6,0,0,0
bad simulate trot-rigid --mode flight
bad simulate trot-rigid --time 1
bad simulate trot-rigid --sweep theta=0:1:2 --x0 0.6,0,0,0 --time 1 --trials 3
bad simulate trot-rigid --sweep theta=0:1:2 --x0 0.6,0,0,0 --time 1 --seed 3
bad simulate trot-rigid --sweep theta=0:1:2 --x0 0.6,0,0,0 --time 1 --json --csv
bad simulate trot-rigid --sweep theta=0:1:2 --sweep theta=0:1:3 --x0 0.6,0,0,0 --time 1
bad simulate trot-rigid --sweep theta=0:1:2 --x0 0.6,0,0,0 --x0 0.6,0,0,0 --time 1
bad simulate trot-soft --sweep y1=0:1:2 --x0 0.6,0,0.3,0.3,0,0,0,0 --mode both --time 1
# the ESS integrator (an event-selected system: hopper-1d)
ess="hopper-1d --x0 1.2,0 --time 1"
for i in "" rk4 ESS "ess " event; do
    bad simulate $ess --integrator "$i"
done
bad simulate slip-hopper --integrator ess --x0 1,2 --time 1
bad simulate trot-rigid --integrator ess --x0 0.6,0,0,0 --time 1
bad simulate nosuch --integrator ess --x0 1,2 --time 1
bad simulate --orbit "$tmp/text.txt" --integrator ess --x0 1,2 --time 1
for e in "" x 0 -1 nan inf; do
    bad simulate $ess --eps "$e"
done
for n in "" x 0 1 1000001 2.5 -3; do
    bad simulate $ess --samples "$n"
done
for x in "" 1 1,2,3 a,b nan,0 "1.2;0"; do
    bad simulate hopper-1d --x0 "$x" --time 1
done
for t in "" x 0 -1 nan inf; do
    bad simulate hopper-1d --x0 1.2,0 --time "$t"
done
for p in "" k "k=x" "k=-1" "k=0" "nosuch=1" "K=1"; do
    bad simulate $ess -p "$p"
done
bad simulate $ess -p k=1 -p k=2
bad simulate $ess --csv --jacobian
bad simulate $ess --json --csv
bad simulate $ess --trials 3
bad simulate $ess --perturb 0.1
bad simulate $ess --sweep y=0:1:2
bad simulate $ess --mode flight
bad simulate $ess --eps 1e-3 --eps 1e-3
bad simulate $ess --integrator ess --integrator ess
bad simulate hopper-1d --x0 1.2,0
bad simulate hopper-1d --time 1
bad simulate hopper-1d
bad simulate slip-hopper --eps 1e-3
bad simulate slip-hopper --samples 3
bad simulate slip-hopper --jacobian
bad simulate trot-rigid --sweep theta=0:1:2 --x0 0.6,0,0,0 --time 1 --jacobian
bad analyze hopper-1d
bad info hopper-1d extra
bad simulate slip-hopper --orbit
for f in $files; do
    bad simulate --orbit "$f"
done

# ---------------------------------------------------------------------- shape
for v in "" K K= "K=x" "K=nan" "K=inf" "nosuch=1" "k=1" "K=100" "=1"; do
    bad shape slip-hopper --start "$v"
done
for v in "" K "K=" "K=0" "K=1:0" "K=0:0" "K=x:1" "K=0:x" "K=0:inf" "K=nan:1" "K=0:1:2" \
         "nosuch=0:1" "k=0:1" ":0:1"; do
    bad shape slip-hopper --bounds "$v"
done
bad shape slip-hopper --start K=0.1 --start K=0.2
bad shape slip-hopper --bounds K=0:0.2 --bounds K=0:0.3
bad shape slip-hopper --start K=0.5 --bounds K=0:0.2
for v in "" nosuch LD_NOSUCH ld_slsqp; do
    bad shape slip-hopper --algorithm "$v"
done
bad shape slip-hopper --algorithm LN_BOBYQA --fd-gradient
bad shape slip-hopper --algorithm GN_DIRECT_L --starts 3
bad shape slip-hopper --algorithm LD_MMA --algorithm LD_SLSQP
for v in "" x 0 -1 1001 1.5 nan; do
    bad shape slip-hopper --starts "$v"
done
for v in "" x 0 -1 100001 nan; do
    bad shape slip-hopper --maxeval "$v"
done
for v in "" bogus PSI "psi "; do
    bad shape slip-hopper --measure "$v"
done
for v in "" x -1; do
    bad shape slip-hopper --seed "$v"
done
for v in "" x 0 -1 100001; do
    bad shape slip-hopper --trials "$v"
    bad shape slip-hopper --steps "$v"
done
for v in "" x -1 nan inf; do
    bad shape slip-hopper --perturb "$v"
done
for v in "" x 0 -1 nan; do
    bad shape slip-hopper --tol "$v"
done
bad shape slip-hopper --trials 100000 --steps 200
bad shape knee-biped
bad shape trot-rigid
bad shape slip-hopper --verify=1

# -------------------------------------------------------------------- trajopt
for v in "" bogus Stability "energy "; do
    bad trajopt slip-hopper --objective "$v"
done
bad trajopt slip-hopper --objective energy
bad trajopt slip-hopper --objective weighted
for v in "" x -1 nan inf; do
    bad trajopt knee-biped --objective weighted --weight "$v"
    bad trajopt knee-biped --smooth "$v"
    bad trajopt knee-biped --psi-floor "$v"
    bad trajopt slip-hopper --psi-smoothing "$v"
done
bad trajopt slip-hopper --psi-smoothing 0.05 --measure smooth
bad trajopt knee-biped --objective energy --psi-smoothing 0.05
bad trajopt slip-hopper --weight 1
bad trajopt knee-biped --objective energy --measure smooth
bad trajopt knee-biped --objective feasible --psi-floor 0.1
bad trajopt knee-biped --objective energy --smooth 0.1
for v in "" bogus PSI; do
    bad trajopt slip-hopper --measure "$v"
done
for v in "" x "1,x" 1 "1,2,3" "-1,0" "65,0" "1,,2" ",1" "1,2," "1 ,2" "99999999999,0"; do
    bad trajopt knee-biped --virtual-events "$v"
done
bad trajopt slip-hopper --virtual-events default
for v in "" bogus Linear; do
    bad trajopt knee-biped --inputs "$v"
done
bad trajopt slip-hopper --inputs constant
for v in "" K K=1 "K=1:0" "K=x:1" "K=0:inf" "K=nan:1" "=0:1" "K=0:1:2" "nosuch=0:1"; do
    bad trajopt slip-hopper --design "$v"
done
bad trajopt slip-hopper --design K=0:1 --design K=0:2
seventeen=
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
    seventeen="$seventeen --design p$i=0:1"
done
bad trajopt slip-hopper $seventeen
for v in "" vx "vx=1:0" "vx=x:1" "vx=0:inf" "nosuch=0:1" "th1=0:1"; do
    bad trajopt slip-hopper --bound "$v"
done
bad trajopt slip-hopper --bound vx=0:3 --bound vx=0:4
for v in "" x 0 2 1001 -1 nan 1.5; do
    bad trajopt slip-hopper --nodes "$v"
done
for v in "" x 0 -1 100001 10,0 10,x 1,2,3,4,5,6,7,8,9; do
    bad trajopt slip-hopper --maxeval "$v"
done
bad trajopt slip-hopper --nodes 7,9 --maxeval 10,20,30
for v in "" x 0 65; do
    bad trajopt slip-hopper --jobs "$v"
done
for v in "" x 0 65 1.5; do
    bad trajopt slip-hopper --starts "$v"
done
for v in "" x -1 1.5 99999999999999999999999; do
    bad trajopt slip-hopper --starts 2 --seed "$v"
done
for v in "" x -1 0 1.5 nan inf; do
    bad trajopt slip-hopper --starts 2 --spread "$v"
done
for v in "" x 0 17 -1; do
    bad trajopt knee-biped --refine "$v"
done
bad trajopt slip-hopper --refine 3
bad trajopt slip-hopper --nodes 5 --nodes 7
bad trajopt slip-hopper -o "$tmp/a.json" -o "$tmp/b.json"
for f in $files; do
    bad trajopt slip-hopper --init "$f"
done
bad trajopt paddle-juggler
bad trajopt trot-rigid
bad trajopt twin-jugglers

# ---------------------------------------------------------------------- sweep
for v in "" K "K=0:1" "K=0:1:0" "K=1:0:3" "K=0:1:x" "K=0:1:1.5" "K=0:1:1000001" "K=nan:1:2" \
         "K=0:inf:2" "=0:1:2" "nosuch=0:1:2" "K=0:1:2:3"; do
    bad sweep slip-hopper --grid "$v"
done
bad sweep slip-hopper --grid K=0:1:10000 --grid thetadot=0:1:10000
bad sweep slip-hopper --grid K=0:1:2 --grid K=0:1:3
seventeen=
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
    seventeen="$seventeen --grid p$i=0:1:1"
done
bad sweep slip-hopper $seventeen
for v in "" x 0 -1 1.5 10000001 2000000000 99999999999; do
    bad sweep slip-hopper --random "$v" --bounds K=0:1
done
for v in "" K "K=0" "K=1:0" "K=0:1:2" "K=x:1" "nosuch=0:1"; do
    bad sweep slip-hopper --random 2 --bounds "$v"
done
bad sweep slip-hopper --random 2
bad sweep slip-hopper --bounds K=0:1
bad sweep slip-hopper --random 2 --bounds K=0:1 --bounds K=0:2
bad sweep slip-hopper --random 2 --random 3 --bounds K=0:1
for v in "" x -1; do
    bad sweep slip-hopper --random 2 --bounds K=0:1 --seed "$v"
done
bad sweep slip-hopper --grid K=0:1:2 --seed 3
bad sweep slip-hopper --grid K=0:1:2 -p K=0.5
for v in "" x 0 -1 1025; do
    bad sweep slip-hopper --grid K=0:1:2 --jobs "$v"
done
bad sweep slip-hopper
bad sweep slip-hopper --grid K=0:1:2 --random 2 --bounds K=0:1
bad sweep slip-hopper --grid K=0:1:2 --resume
bad sweep slip-hopper --grid K=0:1:2 -o "$tmp/dir"
bad sweep slip-hopper --grid K=0:1:2 -o "$nofile/x.csv"
bad sweep slip-hopper --grid K=0:1:2 -o "$tmp/a.csv" -o "$tmp/b.csv"
printf 'index,a,b,status\n' > "$tmp/other-header.csv"
bad sweep slip-hopper --grid K=0:1:2 -o "$tmp/other-header.csv" --resume
bad sweep trot-rigid --grid theta=0:1:2
bad sweep knee-biped --grid slope=0.04:0.05:2 --optimize
bad sweep knee-biped --grid nosuch=0:1:2
for f in $files; do
    bad sweep slip-hopper --list "$f"
done
printf 'K\nx\n' > "$tmp/list-text.csv"
printf 'K,thetadot\n0.1\n' > "$tmp/list-short.csv"
printf 'K\n0.1,0.2\n' > "$tmp/list-long.csv"
printf 'nosuch\n0.1\n' > "$tmp/list-name.csv"
printf ',\n0.1\n' > "$tmp/list-noname.csv"
printf 'K\nnan\n' > "$tmp/list-nan.csv"
for f in text short long name noname nan; do
    bad sweep slip-hopper --list "$tmp/list-$f.csv"
done

# ----------------------------------------------------------------------- plot
bad plot
bad plot bogus -o "$tmp/x.png"
bad plot multipliers slip-hopper
bad plot multipliers slip-hopper -o "$tmp/x.jpg"
bad plot multipliers slip-hopper -o "$tmp/x"
bad plot multipliers slip-hopper -o "$tmp/it's.png"
bad plot multipliers slip-hopper -o ""
bad plot multipliers -o "$tmp/x.png"
bad plot multipliers nosuch -o "$tmp/x.png"
bad plot multipliers trot-rigid -o "$tmp/x.png"
bad plot multipliers slip-hopper --trials 3 -o "$tmp/x.png"
bad plot multipliers slip-hopper --seed 3 -o "$tmp/x.png"
bad plot multipliers slip-hopper --box 0.1 -o "$tmp/x.png"
bad plot multipliers slip-hopper -o "$tmp/x.png" -o "$tmp/y.png"
bad plot convergence slip-hopper -o "$tmp/x.png" --box 0.1 --perturb 0.1
for v in "" x 0 -1 10001 nan; do
    bad plot convergence slip-hopper --trials "$v" -o "$tmp/x.png"
    bad plot convergence slip-hopper --steps "$v" -o "$tmp/x.png"
done
for v in "" x -1 nan inf; do
    bad plot convergence slip-hopper --box "$v" -o "$tmp/x.png"
    bad plot convergence slip-hopper --perturb "$v" -o "$tmp/x.png"
done
bad plot convergence slip-hopper --seed -1 -o "$tmp/x.png"
bad plot convergence --orbit "$nofile" -o "$tmp/x.png"
bad plot stability-map -o "$tmp/x.png"
for f in $files; do
    bad plot stability-map "$f" -o "$tmp/x.png"
done
bad plot stability-map "$tmp/a.csv" "$tmp/b.csv" -o "$tmp/x.png"
bad plot stability-map "$tmp/text.txt" -p K=1 -o "$tmp/x.png"
bad plot stability-map "$tmp/text.txt" --trials 3 -o "$tmp/x.png"
bad plot stability-map "$tmp/text.txt" --orbit "$nofile" -o "$tmp/x.png"
head='index,K,thetadot,status,psi'
printf '%s\n' "$head" > "$tmp/map-header.csv"
printf '%s\n0,0,0,ok,0.5\n1,0,1,ok,0.5\n2,1,0,ok,0.5\n' "$head" > "$tmp/map-three.csv"
printf '%s\n0,0,0,ok,0.5\n1,0,1,ok,0.5\n2,1,0,ok,0.5\n4,1,1,ok,0.5\n' "$head" > "$tmp/map-gap.csv"
printf '%s\n0,0,0,ok,0.5\n1,0,1,ok,0.5\n1,1,0,ok,0.5\n3,1,1,ok,0.5\n' "$head" > "$tmp/map-twice.csv"
printf '%s\n0,0,0,ok,0.5\n1,0,nan,ok,0.5\n2,1,0,ok,0.5\n3,1,1,ok,0.5\n' "$head" > "$tmp/map-nan.csv"
printf '%s\n0,0,0,ok,0.5\nrubbish\n2,1,0,ok,0.5\n3,1,1,ok,0.5\n' "$head" > "$tmp/map-rubbish.csv"
printf '%s\n0,0,0,x,\n1,0,1,x,\n2,1,0,x,\n3,1,1,x,\n' "$head" > "$tmp/map-failed.csv"
printf 'index,K,status,psi\n0,0,ok,0.5\n1,1,ok,0.5\n' > "$tmp/map-one.csv"
printf 'index,K,thetadot,status,psi\n-1,0,0,ok,0.5\n0,0,1,ok,0.5\n1,1,0,ok,0.5\n2,1,1,ok,0.5\n' \
    > "$tmp/map-negative.csv"
printf '%s\n0,0,0,ok,0.5\n1,0,1,ok,0.5\n2,0,2,ok,0.5\n3,1,0,ok,0.5\n4,1,1,ok,0.5\n' "$head" \
    > "$tmp/map-ragged.csv"
for f in header three gap twice nan rubbish failed one negative ragged; do
    bad plot stability-map "$tmp/map-$f.csv" -o "$tmp/x.png"
done

# ----------------------------------------------------------------- gait files
if command -v python3 >/dev/null 2>&1 &&
    "$HES" trajopt slip-hopper --nodes 9 --quiet -o "$tmp/gait.json" >/dev/null 2>&1; then
    python3 - "$tmp/gait.json" "$tmp" <<'EOF'
import copy, json, sys
base = json.load(open(sys.argv[1]))
out = sys.argv[2]
def phase(d, i=0):
    return d["phases"][i]
cases = {
    "format": lambda d: d.update(format="other"),
    "no-format": lambda d: d.pop("format"),
    "version": lambda d: d.update(version=2),
    "version-text": lambda d: d.update(version="1"),
    "problem": lambda d: d.update(problem="nosuch"),
    "no-problem": lambda d: d.pop("problem"),
    "problem-number": lambda d: d.update(problem=5),
    "params": lambda d: d.pop("params"),
    "param-missing": lambda d: d["params"].pop("k"),
    "param-text": lambda d: d["params"].update(k="500"),
    "param-range": lambda d: d["params"].update(k=-5.0),
    "param-huge": lambda d: d["params"].update(apex_height=1e308),
    "inputs": lambda d: d.update(inputs="none"),
    "input-unknown": lambda d: d.update(inputs=["nosuch"]),
    "phases-empty": lambda d: d.update(phases=[]),
    "phases-object": lambda d: d.update(phases={}),
    "phases-one": lambda d: d.update(phases=d["phases"][:1]),
    "phases-reversed": lambda d: d.update(phases=d["phases"][::-1]),
    "phases-twice": lambda d: d.update(phases=d["phases"] * 2),
    "mode": lambda d: phase(d).update(mode="nosuch"),
    "mode-missing": lambda d: phase(d).pop("mode"),
    "ends-with": lambda d: phase(d).update(ends_with="nosuch"),
    "ends-with-other": lambda d: phase(d).update(ends_with="liftoff"),
    "direction": lambda d: phase(d).update(direction="sideways"),
    "direction-number": lambda d: phase(d).update(direction=5),
    "duration-zero": lambda d: phase(d).update(duration=0),
    "duration-negative": lambda d: phase(d).update(duration=-1),
    "duration-text": lambda d: phase(d).update(duration="1"),
    "nodes-one": lambda d: phase(d).update(nodes=1),
    "nodes-huge": lambda d: phase(d).update(nodes=2000000000),
    "nodes-negative": lambda d: phase(d).update(nodes=-3),
    "nodes-text": lambda d: phase(d).update(nodes="9"),
    "nodes-more": lambda d: phase(d).update(nodes=phase(d)["nodes"] + 1),
    "states-missing": lambda d: phase(d).pop("states"),
    "states-row": lambda d: phase(d)["states"][0].append(1.0),
    "states-short": lambda d: phase(d)["states"][0].pop(),
    "states-text": lambda d: phase(d)["states"][0].__setitem__(0, "x"),
    "states-null": lambda d: phase(d)["states"][0].__setitem__(0, None),
    "state-1e10": lambda d: phase(d)["states"][0].__setitem__(1, 1e10),
    "state-1e300": lambda d: phase(d)["states"][0].__setitem__(2, 1e300),
    "offset-text": lambda d: phase(d).update(offset="x"),
    "virtual-text": lambda d: phase(d).update(virtual="yes"),
}
for name, f in cases.items():
    d = copy.deepcopy(base)
    f(d)
    json.dump(d, open("%s/gait-%s.json" % (out, name), "w"))
open("%s/gait-truncated.json" % out, "w").write(json.dumps(base)[:200])
open("%s/gait-array.json" % out, "w").write("[1, 2, 3]")
open("%s/gait-nan.json" % out, "w").write(json.dumps(base).replace('"k": 500.0', '"k": NaN'))
open("%s/gait-deep.json" % out, "w").write("[" * 100000 + "]" * 100000)
EOF
    for g in "$tmp"/gait-*.json; do
        bad analyze --orbit "$g"
    done
    for g in direction nodes-huge states-row param-range phases-twice state-1e300; do
        bad simulate --orbit "$tmp/gait-$g.json" --trials 2 --steps 2
        bad trajopt slip-hopper --init "$tmp/gait-$g.json" --quiet
        bad plot multipliers --orbit "$tmp/gait-$g.json" -o "$tmp/x.png"
    done
    bad analyze paddle-juggler --orbit "$tmp/gait.json"
    bad simulate --orbit "$tmp/gait.json" --box 0.1 --perturb 0.1
    bad simulate --orbit "$tmp/gait.json" --orbit "$tmp/gait.json"
    bad trajopt knee-biped --init "$tmp/gait.json"
    # the gait's parameters with -p over them must be valid together: l_td
    # 0.97 is valid with the default l0 = 1, l0 = 0.95 with the default l_td
    python3 -c "
import json, sys; d = json.load(open(sys.argv[1])); d['params']['l_td'] = 0.97
json.dump(d, open(sys.argv[2], 'w'))" "$tmp/gait.json" "$tmp/gait-ltd.json"
    bad trajopt slip-hopper --init "$tmp/gait-ltd.json" -p l0=0.95 --quiet
else
    echo "bad_input.sh: no python3 or no SLIP gait; the gait-file lines are skipped"
fi

# -------------------------------------------------------- malformed plugins
if [ -f "$plugin" ]; then
    for v in abi name n_modes modes dim dim_huge field state_name n_transitions transitions \
             state_name_twice from direction guard n_params params param_name param_twice param_range \
             param_default param_default_nan param_search param_flags integrator \
             max_phase_time max_phase_time_nan max_phase_time_inf orbit_mode section \
             n_sequence n_sequence_big sequence sequence_entry nothing_to_solve n_free_states \
             free_states free_states_null free_states_twice n_residual residual \
             n_free_params free_params period_param trajopt_n_inputs trajopt_inputs \
             trajopt_inputs_null trajopt_input_bounds trajopt_input_nan trajopt_x0_bounds \
             trajopt_n_path trajopt_path_mode trajopt_path_fn trajopt_durations \
             trajopt_duration_nan trajopt_virtual_events trajopt_crossing_rate \
             trajopt_crossing_rate_nan mech_no_data mech_guard_no_data unknown-variant; do
        with_model $v analyze --model "$plugin"
    done
    for cmd in "info" "analyze --check" "simulate --trials 2 --steps 2" "shape" "trajopt --quiet" \
               "sweep --grid a=0.2:0.3:2" "plot multipliers -o $tmp/x.png"; do
        with_model n_sequence $cmd --model "$plugin"
        with_model integrator $cmd --model "$plugin"
        with_model max_phase_time_nan $cmd --model "$plugin"
    done
    # the valid variant with bad options
    with_model none trajopt --model "$plugin" --virtual-events 1,1 --quiet
    with_model none analyze --model "$plugin" -p tau=2
    with_model none shape --model "$plugin"
fi

# ------------------------------------------------------ plots and names
# The tables `hes plot` reads (src/plot_table.c), each malformed one way,
# and names that a command line, a CSV header, JSON or gnuplot would read
# as their own syntax: in robot descriptions, robot files and plugins.
# (HES_GNUPLOT is missing here: a table that is read fails with status 1.)
sh_='index,K,thetadot,status,psi'
printf '%s\n0,0,0,ok,0.5\n1,0,1,ok,0.5\n2,1,0,ok,0.5\n3,1,1,ok,0.5\n' 'index,,thetadot,status,psi' > "$tmp/pm-noname.csv"
printf '%s\n0,0,0,ok,0.5\n1,0,1,ok,0.5\n2,1,0,ok,0.5\n3,1,1,ok,0.5\n' 'index,K,thetadot,status' > "$tmp/pm-nopsi.csv"
printf '%s\n0,0,0,ok,0.5\n1,0,1,ok,0.5\n2,1,0,ok,0.5\n3,1,1,ok,0.5\n' 'index,K,thetadot,psi,status' > "$tmp/pm-order.csv"
printf '%s\n0x0,0,0,ok,0.5\n1,0,1,ok,0.5\n2,1,0,ok,0.5\n3,1,1,ok,0.5\n' "$sh_" > "$tmp/pm-hexindex.csv"
printf '%s\n0,0,0,ok,0.5\n1e0,0,1,ok,0.5\n2,1,0,ok,0.5\n3,1,1,ok,0.5\n' "$sh_" > "$tmp/pm-expindex.csv"
printf '%s\n 0,0,0,ok,0.5\n1,0,1,ok,0.5\n2,1,0,ok,0.5\n3,1,1,ok,0.5\n' "$sh_" > "$tmp/pm-blankindex.csv"
printf '%s\n0,inf,0,ok,0.5\n1,0,1,ok,0.5\n2,1,0,ok,0.5\n3,1,1,ok,0.5\n' "$sh_" > "$tmp/pm-inf.csv"
printf '%s\n0,0,0,ok,0.5\n1,0,1,ok,0.5\n2,0x1,0,ok,0.5\n3,1,1,ok,0.5\n' "$sh_" > "$tmp/pm-hexa.csv"
printf '%s\n0,0,0\n1,0,1,ok,0.5\n2,1,0,ok,0.5\n3,1,1,ok,0.5\n' "$sh_" > "$tmp/pm-short.csv"
printf '%s\n0,0,0,ok,0.5\n1,1,0,ok,0.5\n2,2,0,ok,0.5\n3,3,0,ok,0.5\n' "$sh_" > "$tmp/pm-column.csv"
printf '# only comments\n# of a sweep\n' > "$tmp/pm-comments.csv"
printf '%s\n0,0,0,ok,0.5\n1,0,1,ok,0\0005\n2,1,0,ok,0.5\n3,1,1,ok,0.5\n' "$sh_" > "$tmp/pm-nul.csv"
{ printf '%s\n0,0,0,ok,0.5\n1,0,1,ok,' "$sh_"; head -c 70000 /dev/zero | tr '\0' '5'; printf '\n'; } > "$tmp/pm-long.csv"
printf '%s\n9999999999,0,0,ok,0.5\n1,0,1,ok,0.5\n2,1,0,ok,0.5\n3,1,1,ok,0.5\n' "$sh_" > "$tmp/pm-bigindex.csv"
for f in noname nopsi order hexindex expindex blankindex inf hexa short column comments nul long bigindex; do
    bad plot stability-map "$tmp/pm-$f.csv" -o "$tmp/x.png"
done
bh_='N,hes_s,mujoco_s'
printf '%s\n' "$bh_" > "$tmp/pb-header.csv"
printf '%s\n1,0.001,0.002\n' "$bh_" > "$tmp/pb-one.csv"
printf '%s\n0,0.001,0.002\n2,0.002,0.003\n' "$bh_" > "$tmp/pb-nzero.csv"
printf '%s\n1,-0.001,0.002\n2,0.002,0.003\n' "$bh_" > "$tmp/pb-negative.csv"
printf '%s\n1,nan,0.002\n2,0.002,0.003\n' "$bh_" > "$tmp/pb-nan.csv"
printf '%s\n1,inf,0.002\n2,0.002,0.003\n' "$bh_" > "$tmp/pb-inf.csv"
printf '%s\n1,0.001\n2,0.002,0.003\n' "$bh_" > "$tmp/pb-short.csv"
printf 'N,mujoco_s,hes_s\n1,0.001,0.002\n2,0.002,0.003\n' > "$tmp/pb-order.csv"
printf '%s\n1,0.001,0.002\n2,0.002,0.003\nabc\n' "$bh_" > "$tmp/pb-rubbish.csv"
printf '%s\n1,0.001,0.002\n2,0.002,0\0003\n' "$bh_" > "$tmp/pb-nul.csv"
for f in header one nzero negative nan inf short order rubbish nul; do
    bad plot ess-bench "$tmp/pb-$f.csv" -o "$tmp/x.png"
done
cf_='t,method,status'
printf '%s,fn:a,stance:a,mu_min\n0,m,ok,1,1,0.1\n1,m,ok,1,1,0.1\n' "$cf_" > "$tmp/pf-noratio.csv"
printf '%s,fn:a,ratio:a,mu_min\n0,m,ok,1,0.1,0.1\n1,m,ok,1,0.1,0.1\n' "$cf_" > "$tmp/pf-nostance.csv"
printf '%s,fn:a,ratio:a,stance:a\n0,m,ok,1,0.1,1\n1,m,ok,1,0.1,1\n' "$cf_" > "$tmp/pf-nomu.csv"
printf '%s,mu_min\n0,m,ok,0.1\n1,m,ok,0.1\n' "$cf_" > "$tmp/pf-nocontact.csv"
printf '%s,fn:a,fn:a,ratio:a,stance:a,mu_min\n0,m,ok,1,1,0.1,1,0.1\n1,m,ok,1,1,0.1,1,0.1\n' "$cf_" > "$tmp/pf-twice.csv"
printf '%s,fn:a,ratio:a,stance:a,mu_min\n0,m,ok,1,0.1,1,0.1\n1,m,ok,1,0.1,1\n' "$cf_" > "$tmp/pf-fields.csv"
printf '%s,fn:a,ratio:a,stance:a,mu_min\n0,m,ok,heavy,0.1,1,0.1\n1,m,ok,1,0.1,1,0.1\n' "$cf_" > "$tmp/pf-word.csv"
printf '%s,fn:a,ratio:a,stance:a,mu_min\n0,m,ok,1,0.1,1,0.1\n' "$cf_" > "$tmp/pf-onerow.csv"
printf '%s,fn:a,ratio:a,stance:a,mu_min\nnow,m,ok,1,0.1,1,0.1\n1,m,ok,1,0.1,1,0.1\n' "$cf_" > "$tmp/pf-time.csv"
printf 'time,method,status,fn:a,ratio:a,stance:a,mu_min\n0,m,ok,1,0.1,1,0.1\n1,m,ok,1,0.1,1,0.1\n' > "$tmp/pf-first.csv"
printf '%s,fn:a,ratio:a,stance:a,mu_min\n0,m,ok,nan,0.1,1,0.1\n1,m,ok,1,0.1,1,0.1\n' "$cf_" > "$tmp/pf-nanforce.csv"
printf '%s,fn:a,ratio:b,stance:a,mu_min\n0,m,ok,1,0.1,1,0.1\n1,m,ok,1,0.1,1,0.1\n' "$cf_" > "$tmp/pf-othername.csv"
for f in noratio nostance nomu nocontact twice fields word onerow time first nanforce othername; do
    bad plot contact-forces "$tmp/pf-$f.csv" -o "$tmp/x.png"
done
for f in $files; do
    bad plot ess-bench "$f" -o "$tmp/x.png"
    bad plot contact-forces "$f" -o "$tmp/x.png"
done
bad plot ess-bench "$tmp/pb-one.csv" "$tmp/pb-one.csv" -o "$tmp/x.png"
bad plot contact-forces "$tmp/pf-onerow.csv" -p K=1 -o "$tmp/x.png"
bad plot contact-forces "$tmp/pf-onerow.csv" --orbit "$tmp/none.json" -o "$tmp/x.png"
bad plot contact-forces -o "$tmp/x.png"
# injection-looking names in tables that are otherwise valid (refused here
# only because gnuplot is missing; tests/plot_inputs.sh draws them)
printf "index,a';system('touch pwned');#,b,status,psi\n0,0,0,ok,0.5\n1,0,1,ok,0.5\n2,1,0,ok,0.5\n3,1,1,ok,0.5\n" > "$tmp/pm-inject.csv"
printf "%s,fn:x';system('touch pwned');#,ratio:x';system('touch pwned');#,stance:x';system('touch pwned');#,mu_min\n0,m,ok,1,0.1,1,0.1\n1,m,ok,1,0.1,1,0.1\n" "$cf_" > "$tmp/pf-inject.csv"
bad plot stability-map "$tmp/pm-inject.csv" -o "$tmp/x.png"
bad plot contact-forces "$tmp/pf-inject.csv" -o "$tmp/x.png"
# robot descriptions whose names are not names, over the commands that take them
cp "${top_srcdir:-.}/share/robots/rimless_wheel.xml" "$tmp/rw.xml"
rwd() { # rwd FILE NAME MODE TRANSITION: the rimless wheel's description with these names
    printf '{"name": "%s", "robot": "rw.xml", "contacts": {"s0": 1.0, "s1": 1.0}, "modes": [{"name": "%s", "pinned": "s0"}], "transitions": [{"name": "%s", "from": "%s", "to": "%s", "activate": "s1", "after": ["s1", "s1_tangential"], "relabel": {"phi": {"phi": 1, "const": 0.6}}}], "orbit": {"mode": "%s", "section": "%s", "sequence": ["%s"], "guess": {"phi": 0.3, "phidot": -1.0}, "free": ["phidot"], "residual": ["phidot"]}}\n' \
        "$2" "$3" "$4" "$3" "$3" "$3" "$4" "$4" > "$tmp/$1.json"
}
rwd n_help --help stance heelstrike
rwd n_opt -p stance heelstrike
rwd n_dash - stance heelstrike
rwd n_newline 'rimless\nwheel' stance heelstrike
rwd n_cr 'rimless\rwheel' stance heelstrike
rwd n_comma 'rimless,wheel' stance heelstrike
rwd n_quote 'rimless\"wheel' stance heelstrike
rwd n_backslash 'rimless\\wheel' stance heelstrike
rwd n_equals 'wheel=1' stance heelstrike
rwd n_blank ' wheel' stance heelstrike
rwd n_long 'a-rimless-wheel-whose-name-goes-on-far-past-the-sixty-four-bytes-a-label-may-have' stance heelstrike
rwd n_utf8 'r\u00e4d' stance heelstrike
rwd n_esc 'wheel\u001b[2J' stance heelstrike
rwd n_mode wheel -stance heelstrike
rwd n_mode_nl wheel 'st\nance' heelstrike
rwd n_tr wheel stance 'heel,strike'
rwd n_tr_tab wheel stance 'heel\tstrike'
for f in n_help n_opt n_dash n_newline n_cr n_comma n_quote n_backslash n_equals n_blank n_long \
    n_utf8 n_esc n_mode n_mode_nl n_tr n_tr_tab; do
    bad analyze --robot "$tmp/$f.json"
done
for cmd in "info" "simulate --trials 2 --steps 2" "shape" "trajopt --quiet" \
           "sweep --grid slope=0.01:0.02:2" "plot multipliers -o $tmp/x.png" \
           "plot convergence -o $tmp/x.png"; do
    bad $cmd --robot "$tmp/n_help.json"
    bad $cmd --robot "$tmp/n_opt.json"
    bad $cmd --robot "$tmp/n_newline.json"
done
bad invdyn --robot "$tmp/n_help.json" --orbit "$tmp/none.json"
bad invdyn --robot "${top_srcdir:-.}/share/robots/rimless_wheel.json" --q 0,0,0 --v 0,0,0 --a 0,0,0
# robot files whose site or joint names are not names
printf '<mujoco><worldbody><body name="b"><joint name="x" type="slide" axis="1 0 0"/><joint name="z" type="slide" axis="0 0 1"/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/><site name="foot,left" pos="0 0 -1"/></body></worldbody></mujoco>\n' > "$tmp/site-comma.xml"
printf '<mujoco><worldbody><body name="b"><joint name="x" type="slide" axis="1 0 0"/><joint name="z" type="slide" axis="0 0 1"/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/><site name="-foot" pos="0 0 -1"/></body></worldbody></mujoco>\n' > "$tmp/site-dash.xml"
printf '<mujoco><worldbody><body name="b"><joint name="x" type="slide" axis="1 0 0"/><joint name="z" type="slide" axis="0 0 1"/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/><site name="foot&#10;left" pos="0 0 -1"/></body></worldbody></mujoco>\n' > "$tmp/site-newline.xml"
printf '<mujoco><worldbody><body name="b"><joint name="x=1" type="slide" axis="1 0 0" limited="true" range="-1 1"/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/><site name="s" pos="0 0 -1"/></body></worldbody></mujoco>\n' > "$tmp/joint-equals.xml"
for f in site-comma site-dash site-newline joint-equals; do
    bad info --robot "$tmp/$f.xml"
    bad invdyn "$tmp/$f.xml" --q 0,0 --v 0,0 --a 0,0
    bad impact --robot "$tmp/$f.xml" --q 0,0 --v 0,-1
done
# plugins whose names are not names (tests/bad_plugin.c), over the commands
if [ -f "$plugin" ]; then
    for v in name_help name_option name_newline name_comma name_quote name_tab name_space \
             name_8bit name_long mode_name state_name_comma transition_name param_name_bad \
             path_name; do
        with_model $v analyze --model "$plugin"
        with_model $v sweep --model "$plugin" --grid a=0.2:0.3:2
    done
    for cmd in "info" "simulate --trials 2 --steps 2" "shape" "trajopt --quiet" \
               "plot multipliers -o $tmp/x.png" "plot convergence -o $tmp/x.png"; do
        with_model name_help $cmd --model "$plugin"
        with_model name_option $cmd --model "$plugin"
        with_model name_newline $cmd --model "$plugin"
    done
    with_model name_injection plot multipliers --model "$plugin" -o "$tmp/x.png"
    with_model name_help list --model "$plugin"
    with_model none list --model "$plugin"
fi
# ---------------------------------------------- orbits the user brings
# sweeps over what the orbit search solves, and other sweeps that cannot be
for sp in "slip-hopper --grid l_td=0.8:0.9:2" "slip-hopper --grid theta_td=0.1:0.2:3" \
          "slip-hopper --random 4 --bounds l_td=0.8:0.9" "trot-rigid --grid m=1:2:2" \
          "trot-soft --grid k=1:2:2" "hopper-1d --grid k=1:2:2" "rocking-block --grid mu=1:2:2" \
          "slip-hopper --grid K=0:1:0" "slip-hopper --grid K=nan:1:2" \
          "slip-hopper --grid K=0:1:2 --grid K=0:1:2"; do
    # shellcheck disable=SC2086
    bad sweep $sp
done
# a supplied Jacobian that is wrong: refused by default by every analysis
wrongjac=${top_builddir:-.}/tests/.libs/rimless_wheel_wrong_jacobian.so
if [ -f "$wrongjac" ]; then
    bad analyze --model "$wrongjac"
    bad analyze --model "$wrongjac" --json
    bad analyze --model "$wrongjac" --gradient
    bad analyze --model "$wrongjac" --check
    bad analyze --model "$wrongjac" --check --no-check-derivatives
    bad analyze --model "$wrongjac" -p a=0.35
    bad trajopt --model "$wrongjac" --quiet --nodes 9
fi
bad analyze slip-hopper --no-check-derivatives=1
bad sweep slip-hopper --no-check-derivatives --grid l_td=0.8:0.9:2
bad list --no-check-derivatives
bad info slip-hopper --no-check-derivatives
# a problem without a periodic orbit, and the run's derivative misused
for p in trot-rigid trot-soft; do
    bad analyze $p
    bad analyze $p --json
    bad shape $p
    bad sweep $p --grid m=1:2:2
    bad trajopt $p --quiet
done
bad simulate trot-rigid --jacobian
bad simulate trot-rigid --jacobian --x0 0.6,0,0,0
bad simulate trot-rigid --jacobian --time 0.4
bad simulate trot-rigid --jacobian --x0 0.6,0,0 --time 0.4
bad simulate trot-rigid --jacobian --x0 0.6,0,0,0,0 --time 0.4
bad simulate trot-rigid --jacobian --x0 0.6,0,0,nan --time 0.4
bad simulate trot-rigid --jacobian --x0 0.6,0,0,0 --time 0
bad simulate trot-rigid --jacobian --x0 0.6,0,0,0 --time -1
bad simulate trot-rigid --jacobian --x0 0.6,0,0,0 --time inf
bad simulate trot-rigid --jacobian --x0 0.6,0,0,0 --time 0.4 --csv
bad simulate trot-rigid --jacobian --x0 0.6,0,0,0 --time 0.4 --mode nowhere
bad simulate trot-rigid --jacobian --x0 0.6,0,0,0 --time 0.4 --sweep theta=0:1:2
bad simulate trot-rigid --jacobian --x0 0.6,0,0,0 --time 0.4 --trials 3
bad simulate trot-rigid --jacobian --x0 0.6,0,0,0 --time 0.4 --jacobian
bad simulate trot-soft --jacobian --x0 0.6,0,0.3,0.3,0,0,0,0 --time 0.4 --mode both
bad simulate slip-hopper --jacobian --x0 1,2 --time 1
# robot files where a description is needed
for cmd in analyze simulate shape trajopt sweep; do
    bad $cmd --robot "${top_srcdir:-.}/share/robots/knee_biped.xml"
    bad $cmd --robot="${top_srcdir:-.}/share/robots/compass_gait.urdf"
done
# an ESS run or orbit asked for what it cannot give
bad simulate hopper-1d --integrator ess --x0 1.2,0 --time 1 --eps 0
bad simulate hopper-1d --integrator ess --x0 1.2,0 --time 1 --eps -1e-3
bad simulate hopper-1d --integrator ess --x0 1.2,0 --time 1 --eps nan
bad simulate hopper-1d --integrator ess --x0 1.2,0 --time 1 --jacobian --csv
bad analyze hopper-pumped --eps 0
bad analyze hopper-pumped --x0 1.5,0 --period 0 --section y
bad analyze hopper-pumped --x0 1.5,0 --period 0.7 --section nowhere
# ------------------------------------------- robot files and descriptions
# Robot files (MJCF, URDF) and robot model descriptions, mutated: FIFOs and
# devices as every input file, non-finite, huge and negative values, URDF
# joint types MuJoCo 2.2.2 crashes on, malformed XML, duplicates, joint
# limits and relabels left unhandled.  Each must be refused (exit 2) fast,
# MuJoCo's messages on stderr, nothing in the working directory.
if "$HES" --version 2>/dev/null | grep -q '^features:.* mujoco'; then
    rob=$tmp/rob
    mkdir -p "$rob"
    had_log=no
    [ -e MUJOCO_LOG.TXT ] && had_log=yes
    cg=${top_srcdir:-.}/share/robots/compass_gait.xml
    cgu=${top_srcdir:-.}/share/robots/compass_gait.urdf
    kbx=${top_srcdir:-.}/share/robots/knee_biped.xml
    q3d=${top_srcdir:-.}/share/robots/quadruped_3d.xml
    cp "$kbx" "$rob/kb.xml"
    cp "$cgu" "$rob/cg.urdf"
    mkfifo "$rob/fifo" "$rob/fifo.xml" "$rob/fifo.json" "$rob/fifo.csv"
    z4=0,1,0,0
    # a FIFO, /dev/full and /dev/zero as every input file
    for f in "$rob/fifo" /dev/full /dev/zero; do
        bad info --robot "$f"
        bad impact --robot "$f" --q $z4 --v $z4
        bad invdyn "$f" --q $z4 --v $z4 --a $z4
        bad invdyn "$cg" --contacts A:1 --trajectory "$f"
        bad analyze --orbit "$f"
        bad simulate --orbit "$f"
        bad invdyn --robot "${top_srcdir:-.}/share/robots/knee_biped.json" --orbit "$f"
        bad trajopt slip-hopper --init "$f" --quiet
        bad sweep slip-hopper --list "$f"
        bad plot stability-map "$f" -o "$tmp/x.png"
        bad plot contact-forces "$f" -o "$tmp/x.png"
        bad plot ess-bench "$f" -o "$tmp/x.png"
        bad analyze --model "$f"
        bad plot multipliers --orbit "$f" -o "$tmp/x.png"
    done
    bad sweep slip-hopper --grid K=0:0.1:2 --resume -o "$rob/fifo"
    bad sweep slip-hopper --grid K=0:0.1:2 --resume -o /dev/full
    bad analyze --robot "$rob/fifo.json"
    bad info --robot "$rob/fifo.json"
    bad trajopt --robot "$rob/fifo.json" --quiet
    # a description naming a FIFO as its robot file; an MJCF including one
    printf '{"name": "x", "robot": "fifo.xml", "modes": [{"name": "m"}]}\n' >"$rob/dfifo.json"
    bad analyze --robot "$rob/dfifo.json"
    printf '<mujoco><include file="fifo.xml"/><worldbody/></mujoco>\n' >"$rob/incfifo.xml"
    bad info --robot "$rob/incfifo.xml"
    printf '<mujoco><asset><mesh name="m" file="fifo"/></asset><worldbody/></mujoco>\n' >"$rob/meshfifo.xml"
    bad info --robot "$rob/meshfifo.xml"
    printf '<mujoco><compiler meshdir="."/><asset><mesh file="fifo"/></asset></mujoco>\n' >"$rob/meshdir.xml"
    bad info --robot "$rob/meshdir.xml"
    printf '<mujoco><include file="incfifo.xml"/><worldbody/></mujoco>\n' >"$rob/inc2.xml"
    bad info --robot "$rob/inc2.xml"
    printf '<mujoco><include file="loop.xml"/></mujoco>\n' >"$rob/loop.xml"
    bad info --robot "$rob/loop.xml"
    # mutated MJCF: non-finite, huge and negative values
    mut() { sed "$2" "$cg" >"$rob/$1.xml"; bad info --robot "$rob/$1.xml"; }
    mut mass_nan 's/mass="1"/mass="nan"/'
    mut mass_inf 's/mass="1"/mass="inf"/'
    mut mass_minf 's/mass="1"/mass="-inf"/'
    mut mass_huge 's/mass="1"/mass="1e300"/'
    mut mass_neg 's/mass="1"/mass="-1"/'
    mut mass_negzero 's/mass="1"/mass="-1e-300"/'
    mut inertia_neg 's/diaginertia="0 0 0"/diaginertia="0 -1 0"/'
    mut inertia_nan 's/diaginertia="0 0 0"/diaginertia="0 nan 0"/'
    mut pos_nan 's/pos="0 0 -1"/pos="0 nan -1"/'
    mut pos_inf 's/pos="0 0 -1"/pos="0 0 -inf"/'
    mut pos_huge 's/pos="0 0 -1"/pos="0 0 -1e300"/'
    mut pos_big 's/pos="0 0 -1"/pos="0 0 -2e10"/'
    mut ipos_nan 's/pos="0 0 -0.5"/pos="0 0 nan"/'
    mut gravity_nan 's/gravity="0 0 -9.81"/gravity="0 0 nan"/'
    mut gravity_huge 's/gravity="0 0 -9.81"/gravity="0 0 -1e300"/'
    mut axis_nan 's/axis="1 0 0"/axis="nan 0 0"/'
    mut axis_zero 's/axis="1 0 0"/axis="0 0 0"/'
    mut no_root_end 's#</mujoco>##'
    mut comment_open 's#<mujoco#<!-- <mujoco#'
    mut tag_open 's#<worldbody>#<worldbody#'
    mut unquoted 's/name="hip"/name=hip/'
    mut no_value 's/name="hip"/name/'
    mut two_roots 's#</mujoco>#</mujoco><mujoco/>#'
    mut stray_end 's#<worldbody>#</body><worldbody>#'
    mut unknown_elem 's#<worldbody>#<worldbody><nonsense/>#'
    mut bad_joint 's/type="slide"/type="sideways"/'
    mut free_joint 's#<joint name="x" type="slide" axis="1 0 0"/>#<freejoint/>#'
    printf '<mujoco><worldbody/></mujoco>\n' >"$rob/nodof.xml"
    bad info --robot "$rob/nodof.xml"
    printf 'not xml at all\n' >"$rob/text.xml"
    bad info --robot "$rob/text.xml"
    printf '<mujoco>\000</mujoco>\n' >"$rob/nul.xml"
    bad info --robot "$rob/nul.xml"
    : >"$rob/empty.xml"
    bad info --robot "$rob/empty.xml"
    bad impact --robot "$rob/mass_nan.xml" --q $z4 --v $z4
    bad invdyn "$rob/pos_nan.xml" --q $z4 --v $z4 --a $z4
    bad invdyn "$rob/mass_huge.xml" --contacts A:1 --q $z4 --v $z4 --a $z4
    # URDF joints of types URDF does not have (MuJoCo 2.2.2 crashed on them)
    for t in free hinge ball slide bogus REVOLUTE "" "revolute " '\&#102;ree'; do
        sed "s/name=\"theta_L\" type=\"continuous\"/name=\"theta_L\" type=\"$t\"/" "$cgu" >"$rob/jt.urdf"
        bad info --robot "$rob/jt.urdf"
        bad impact --robot "$rob/jt.urdf" --contacts A:1 --q $z4 --v $z4
    done
    sed 's/name="theta_L" type="continuous"/name="theta_L"/' "$cgu" >"$rob/notype.urdf"
    bad info --robot "$rob/notype.urdf"
    sed 's/<mass value="1"\/>/<mass value="-1"\/>/' "$cgu" >"$rob/negmass.urdf"
    bad info --robot "$rob/negmass.urdf"
    sed 's/ixx="0"/ixx="-1"/' "$cgu" >"$rob/neginertia.urdf"
    bad info --robot "$rob/neginertia.urdf"
    sed 's/<mass value="1"\/>/<mass value="nan"\/>/' "$cgu" >"$rob/nanmass.urdf"
    bad info --robot "$rob/nanmass.urdf"
    sed 's/xyz="0 0 -1"/xyz="0 0 1e300"/' "$cgu" >"$rob/hugeorigin.urdf"
    bad info --robot "$rob/hugeorigin.urdf"
    sed 's/<parent link="hip"\/>/<parent link="nowhere"\/>/' "$cgu" >"$rob/noparent.urdf"
    bad info --robot "$rob/noparent.urdf"
    # a robot larger than the arrays it used to be copied into: refused, no overflow
    awk 'BEGIN { printf "<mujoco><worldbody>"; for (i = 0; i < 400; i++) printf "<body pos=\"%d 0 1\"><joint type=\"slide\" axis=\"1 0 0\"/><joint type=\"slide\" axis=\"0 1 0\"/><joint type=\"slide\" axis=\"0 0 1\"/><inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\"/></body>", i; printf "<body><joint type=\"slide\" axis=\"0 0 1\"/><inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\"/><site name=\"s\" pos=\"0 0 -1\"/></body></worldbody></mujoco>\n" }' >"$rob/big.xml"
    zb=$(awk 'BEGIN { for (i = 0; i < 1201; i++) printf "%s0", i ? "," : "" }')
    bad impact --robot "$rob/big.xml" --q "$zb" --v "$zb" --samples 2
    bad impact --robot "$rob/big.xml" --contacts s:1 --q "$zb" --v "$zb" --law anitescu-potra
    # duplicates
    bad impact --robot "$cg" --contacts A:1,B:1,B:2 --q $z4 --v $z4
    bad impact --robot "$cg" --contacts A:1,A:1 --q $z4 --v $z4
    bad invdyn "$cg" --contacts A:1,B:1,A:0.5 --q $z4 --v $z4 --a $z4
    bad info --robot "$cg" --robot "$cgu"
    bad info --robot "$cg" --robot "$cg"
    bad impact --robot "$cg" --robot "$cg" --q $z4 --v $z4
    bad invdyn "$q3d" --contacts lf_foot:1,lf_foot:1 --q 0 --v 0 --a 0
    rj2() { printf '%s\n' "$2" >"$rob/$1.json"; bad info --robot "$rob/$1.json"; }
    rj2 dupkey_robot '{"name": "x", "robot": "kb.xml", "robot": "none.xml", "modes": [{"name": "m", "pinned": "foot1", "locked": ["knee1_upper", "knee2_upper"]}]}'
    rj2 dupkey_name '{"name": "x", "name": "y", "robot": "kb.xml", "modes": [{"name": "m", "pinned": "foot1", "locked": ["knee1_upper", "knee2_upper"]}]}'
    rj2 dupkey_contact '{"name": "x", "robot": "kb.xml", "contacts": {"foot1": 1, "foot1": 2}, "modes": [{"name": "m", "pinned": "foot1", "locked": ["knee1_upper", "knee2_upper"]}]}'
    rj2 dupkey_mode '{"name": "x", "robot": "kb.xml", "modes": [{"name": "m", "name": "n", "pinned": "foot1", "locked": ["knee1_upper", "knee2_upper"]}]}'
    rj2 dupkey_pinned '{"name": "x", "robot": "kb.xml", "modes": [{"name": "m", "pinned": "foot1", "pinned": "foot2", "locked": ["knee1_upper", "knee2_upper"]}]}'
    # joint limits, motors and relabels a description leaves unhandled
    kl='"locked": ["knee1_upper", "knee2_upper"]'
    rj2 limit_free '{"name": "x", "robot": "kb.xml", "modes": [{"name": "m", "pinned": "foot1", "locked": ["knee1_upper"]}]}'
    rj2 limit_notarray "{\"name\": \"x\", \"robot\": \"kb.xml\", \"unenforced_limits\": \"knee2_lower\", \"modes\": [{\"name\": \"m\", \"pinned\": \"foot1\", $kl}]}"
    rj2 limit_contact "{\"name\": \"x\", \"robot\": \"kb.xml\", \"unenforced_limits\": [\"foot1\"], \"modes\": [{\"name\": \"m\", \"pinned\": \"foot1\", $kl}]}"
    rj2 limit_unknown "{\"name\": \"x\", \"robot\": \"kb.xml\", \"unenforced_limits\": [\"elbow_lower\"], \"modes\": [{\"name\": \"m\", \"pinned\": \"foot1\", $kl}]}"
    rj2 limit_number "{\"name\": \"x\", \"robot\": \"kb.xml\", \"unenforced_limits\": [3], \"modes\": [{\"name\": \"m\", \"pinned\": \"foot1\", $kl}]}"
    rj2 motors_unknown "{\"name\": \"x\", \"robot\": \"kb.xml\", \"motors\": [\"elbow\"], \"modes\": [{\"name\": \"m\", \"pinned\": \"foot1\", $kl}]}"
    rj2 motors_twice "{\"name\": \"x\", \"robot\": \"kb.xml\", \"motors\": [\"hip\", \"hip\"], \"modes\": [{\"name\": \"m\", \"pinned\": \"foot1\", $kl}]}"
    rj2 motors_empty "{\"name\": \"x\", \"robot\": \"kb.xml\", \"motors\": [], \"modes\": [{\"name\": \"m\", \"pinned\": \"foot1\", $kl}]}"
    rj2 motors_string "{\"name\": \"x\", \"robot\": \"kb.xml\", \"motors\": \"hip\", \"modes\": [{\"name\": \"m\", \"pinned\": \"foot1\", $kl}]}"
    rj2 motors_number "{\"name\": \"x\", \"robot\": \"kb.xml\", \"motors\": [1], \"modes\": [{\"name\": \"m\", \"pinned\": \"foot1\", $kl}]}"
    rj2 relabel_part "{\"name\": \"x\", \"robot\": \"kb.xml\", \"modes\": [{\"name\": \"m\", \"pinned\": \"foot1\", $kl}], \"transitions\": [{\"name\": \"t\", \"from\": \"m\", \"to\": \"m\", \"activate\": \"foot2\", \"after\": [\"foot2\", \"foot2_tangential\", \"knee1_upper\", \"knee2_upper\"], \"relabel\": {\"th1\": {\"th1\": 1}}}]}"
    rj2 relabel_none "{\"name\": \"x\", \"robot\": \"kb.xml\", \"modes\": [{\"name\": \"m\", \"pinned\": \"foot1\", $kl}], \"transitions\": [{\"name\": \"t\", \"from\": \"m\", \"to\": \"m\", \"activate\": \"foot2\", \"after\": [\"foot2\", \"foot2_tangential\", \"knee1_upper\", \"knee2_upper\"], \"relabel\": {}}]}"
    printf '{"name": "cg", "robot": "cg.urdf", "contacts": {"A": 1, "B": 1}, "modes": [{"name": "stance", "pinned": "A"}]}\n' >"$rob/urdf_limits.json"
    bad info --robot "$rob/urdf_limits.json"
    printf '{"name": "cg", "robot": "jt.urdf", "modes": [{"name": "stance"}]}\n' >"$rob/urdf_badjoint.json"
    bad analyze --robot "$rob/urdf_badjoint.json"
    printf '{"name": "x", "robot": "mass_nan.xml", "modes": [{"name": "m"}]}\n' >"$rob/d_nan.json"
    bad analyze --robot "$rob/d_nan.json"
    printf '{"name": "x", "robot": "dir", "modes": [{"name": "m"}]}\n' >"$rob/d_dir.json"
    mkdir -p "$rob/dir"
    bad analyze --robot "$rob/d_dir.json"
    printf '{"name": "x", "robot": "/dev/zero", "modes": [{"name": "m"}]}\n' >"$rob/d_zero.json"
    bad analyze --robot "$rob/d_zero.json"
    # MuJoCo's warning (XML contains a 'NaN') is hes's refusal on stderr:
    # nothing on stdout, no MUJOCO_LOG.TXT in the working directory
    bad info --robot "$rob/pos_nan.xml"
    if [ -s "$tmp/out" ] || ! grep -q "MuJoCo warns: XML contains a 'NaN'" "$tmp/err"; then
        failures=$((failures + 1))
        echo "FAIL: hes info --robot pos_nan.xml: MuJoCo's warning not on stderr alone"
    fi
    if [ "$had_log" = no ] && [ -e MUJOCO_LOG.TXT ]; then
        failures=$((failures + 1))
        echo "FAIL: MuJoCo wrote MUJOCO_LOG.TXT in the working directory"
    fi
fi
# ------------------------------------------ impacts and inverse dynamics
# Impacts: friction beyond what double precision resolves (1e6), cones that
# are not pointed, contacts not touching, steps no sample can end with;
# inverse dynamics: motions the contacts cannot produce (no foot down, the
# equation of motion), malformed and inconsistent trajectories.
cg="${top_srcdir:-.}/share/robots/compass_gait.xml"
cgu="${top_srcdir:-.}/share/robots/compass_gait.urdf"
for mu in 1e17 3e16 1e7 1.000001e6 1e300 inf nan -0.5 x "" 1e6x; do
    bad impact --robot "$cg" --contacts "A:$mu" --q 0,1,0,0 --v 1,-1,0,0 --samples 64
done
bad impact --robot "$cg" --contacts A:1e17 --q 0,1,0,0 --v 1,-1,0,0 --law anitescu-potra
bad impact --robot "$cg" --contacts A:1e17 --q 0,1,0,0 --v 1,-1,0,0 --law sequential:A
bad impact --robot "$cg" --contacts A:1e17 --q 0,1,0,0 --v 1,-1,0,0 --json
bad impact --robot "$cg" --contacts A:1e17 --q 0,1,0,0 --v 1,-1,0,0 --csv
bad impact --robot "$cg" --contacts A:1e17 --q 0,1,0,0 --v 1,-1,0,0 --step 0.5
bad impact --robot "$cg" --contacts A:1e3 --q 0,1,0,0 --v 1,-1,0,0 --samples 64
bad impact --robot "$cg" --contacts A:1e4,B:1e4 --q 0,1,0,0 --v 1,-1,0,0 --samples 64
bad impact --robot "$cg" --contacts A:1e5 --q 0,1,0,0 --v 1,-1,0,0 --law anitescu-potra
# contacts away from the ground: 4 m above, 1 m below, 1 mm above
bad impact --robot "$cg" --q 0,5,0,0 --v 1,-1,0,0 --samples 64
bad impact --robot "$cg" --contacts A:1 --q 0,5,0,0 --v 1,-1,0,0 --samples 64
bad impact --robot "$cg" --contacts A:1,B:1 --q 0,5,0,0 --v 1,-1,0,0
bad impact --robot "$cg" --contacts A:1 --q 0,0,0,0 --v 1,-1,0,0
bad impact --robot "$cg" --contacts A:1 --q 0,1.001,0,0 --v 1,-1,0,0
bad impact --robot "$cg" --contacts A:1 --q 0,1.001,0,0 --v 1,-1,0,0 --gap-tol 1e-4
bad impact --robot "$cg" --q 0,1e300,0,0 --v 1,-1,0,0
bad impact --robot "$cg" --q 0,-1e300,0,0 --v 1,-1,0,0
bad impact --robot "$cgu" --contacts A:1 --q 0,5,0,0 --v 0,-1,0,0
for g in 0 -1 1 2 nan inf x "" 1e-6x; do
    bad impact --robot "$cg" --q 0,1,0,0 --v 1,-1,0,0 --gap-tol "$g"
done
bad impact --robot "$cg" --q 0,1,0,0 --v 1,-1,0,0 --gap-tol 1e-6 --gap-tol 1e-3
bad impact rocking-block --gap-tol 1e-3
bad impact box-wall --gap-tol 1e-3
# steps no sample can end with: refused up front, or no sample finished
for h in 1e-300 1e-30 1e-12 1e-9 1e-6 1e-4; do
    bad impact box-wall --step "$h" --samples 64
done
bad impact box-wall --step 0.01 --samples 64
bad impact box-wall --step 0.01 --samples 64 --json
bad impact box-wall --step 0.01 --samples 64 --csv
bad impact rocking-block --step 1e-300 --steps 10000 --samples 8
bad impact disk-stack --step 1e-12 --samples 8
bad impact compass-gait-impact --step 1e-9 --samples 8
bad impact --robot "$cg" --q 0,1,0,0 --v 1,-1,0,0 --step 1e-300 --samples 8
bad impact --robot "$cg" --q 0,1,0,0 --v 1,-1,0,0 --step 1e-12 --steps 1 --samples 8
bad impact box-wall --step 1e-320
bad impact box-wall --step 4.9e-324
bad impact box-wall --step 0x1p-1074
bad impact box-wall --steps 1 --step 1e-5
# states that are not numbers, or not the robot's
bad impact --robot "$cg" --q 0,1,0,0 --v nan,-1,0,0
bad impact --robot "$cg" --q 0,1,0,0 --v inf,-1,0,0
bad impact --robot "$cg" --q 0,nan,0,0 --v 1,-1,0,0
bad impact --robot "$cg" --q 0,1,0,0 --v 1,-1,0,0,0
bad impact --robot "$cg" --q 0,1,0,0 --v 1,-1,0,0 --law sequential:A,A
bad impact --robot "$cg" --q 0,1,0,0 --v 1,-1,0,0 --law sequential:B
# inverse dynamics: no foot on the ground, one state (exit 1: infeasible)
z18=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
up18=0,0,1,0,0,0,0,0.5,-1,0,0.5,-1,0,0.5,-1,0,0.5,-1
feet=lf_foot:1,rf_foot:1,lh_foot:1,rh_foot:1
bad invdyn "$q3d" --contacts $feet --q $up18 --v $z18 --a $z18
bad invdyn "$q3d" --q $up18 --v $z18 --a $z18
for m in no-slip coulomb convex convex-no-slip; do
    bad invdyn "$q3d" --contacts $feet --q 0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --v $z18 --a $z18 --method $m
done
bad invdyn "$q3d" --contacts $feet --q $up18 --v $z18 --a $z18 --eom-tol 0.5
bad invdyn "$cgu" --contacts A:0.5 --motors theta_T --q 0,0.995004165278,0.1,-0.1 --v 0,0,0,0 --a 0,0,0,0
bad invdyn "$cgu" --contacts A:0.5 --motors theta_T --q 0,3,0,0 --v 0,0,0,0 --a 0,0,0,0
for e in 0 -1 1 2 nan inf x "" 1e-3x; do
    bad invdyn "$q3d" --trajectory "$trot" --contacts $feet --eom-tol "$e"
done
bad invdyn "$q3d" --trajectory "$trot" --eom-tol 0.1 --eom-tol 0.2
bad invdyn "$q3d" --trajectory "$trot" --contacts $feet
# trajectories: lifted by 1 m, malformed, inconsistent
if [ -r "$trot" ]; then
    awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } { $4 = $4 + 1; print }' "$trot" > "$tmp/trot_up.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_up.csv" --contacts $feet
    bad invdyn "$q3d" --trajectory "$tmp/trot_up.csv" --contacts $feet --eom-tol 0.5
    bad invdyn "$q3d" --trajectory "$tmp/trot_up.csv" --contacts $feet --method convex
    bad invdyn "$q3d" --trajectory "$tmp/trot_up.csv" --contacts $feet --csv
    awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } { if (NR == 5) $1 = "1.2"; print }' "$trot" > "$tmp/trot_time.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_time.csv" --contacts $feet
    awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } { if (NR == 9) $3 = "nan"; print }' "$trot" > "$tmp/trot_nan.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_nan.csv" --contacts $feet
    awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } { if (NR == 9) $3 = "inf"; print }' "$trot" > "$tmp/trot_inf.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_inf.csv" --contacts $feet
    awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } { if (NR == 9) $3 = "1e300"; print }' "$trot" > "$tmp/trot_huge.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_huge.csv" --contacts $feet
    awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } { if (NR == 9) $20 = "2"; print }' "$trot" > "$tmp/trot_stance.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_stance.csv" --contacts $feet
    awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } { if (NR == 9) $5 = ""; print }' "$trot" > "$tmp/trot_empty.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_empty.csv" --contacts $feet
    awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } { if (NR == 9) $7 = "0x"; print }' "$trot" > "$tmp/trot_junk.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_junk.csv" --contacts $feet
    awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } { if (NR == 9) NF = 10; print }' "$trot" > "$tmp/trot_short.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_short.csv" --contacts $feet
    awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } { if (NR == 9) $0 = $0 ",1"; print }' "$trot" > "$tmp/trot_long.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_long.csv" --contacts $feet
    awk -F, 'BEGIN { OFS = "," } NR == 1 { $2 = "t"; print; next } { print }' "$trot" > "$tmp/trot_twot.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_twot.csv" --contacts $feet
    awk -F, 'BEGIN { OFS = "," } NR == 1 { $3 = "x"; print; next } { print }' "$trot" > "$tmp/trot_twox.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_twox.csv" --contacts $feet
    awk -F, 'BEGIN { OFS = "," } NR == 1 { $20 = "stance:nosuch"; print; next } { print }' "$trot" > "$tmp/trot_nosite.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_nosite.csv" --contacts $feet
    head -n 3 "$trot" > "$tmp/trot_two.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_two.csv" --contacts $feet
    head -n 1 "$trot" > "$tmp/trot_header.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_header.csv" --contacts $feet
    { head -n 1 "$trot"; sed -n 2p "$trot"; sed -n 2p "$trot"; sed -n 3p "$trot"; } > "$tmp/trot_dup.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_dup.csv" --contacts $feet
    { head -n 1 "$trot"; sed -n '4p;3p;2p' "$trot"; } > "$tmp/trot_back.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_back.csv" --contacts $feet
    # the stance declared where the feet are 10 cm up: contacts that cannot hold
    awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } { $4 = $4 + 0.1; print }' "$trot" > "$tmp/trot_hover.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_hover.csv" --contacts $feet
    bad invdyn "$q3d" --trajectory "$tmp/trot_hover.csv" --contacts $feet --method coulomb
    # a trajectory of a second, sampled at 1 MHz in time but moving a metre a step
    awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } { $1 = (NR - 2) * 1e-6; $2 = NR; print }' "$trot" > "$tmp/trot_fast.csv"
    bad invdyn "$q3d" --trajectory "$tmp/trot_fast.csv" --contacts $feet
fi
bad invdyn "$q3d" --trajectory /dev/null --contacts $feet
bad invdyn "$q3d" --trajectory "$tmp/dir" --contacts $feet
bad invdyn "$q3d" --trajectory "$trot" --q $z18 --v $z18 --a $z18
bad invdyn "$q3d" --q $z18 --v $z18 --a nan,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
bad invdyn "$q3d" --q $z18 --v inf,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --a $z18
bad invdyn "$q3d" --q $z18 --v $z18 --a $z18 --mu 1e400

# ------------------------------------------------------------ the ESS plates
# plate-vertical (the paper's plate) and plate-springs: malformed states,
# parameters, options, and falls the integrator refuses rather than
# integrate wrongly
for pl in plate-vertical plate-springs; do
    pv="$pl --x0 0,0.8,0.1,0,0,0 --time 1"
    for x in "" 0 0,0.3 0,0.3,0.1,0,0 0,0.3,0.1,0,0,0,0 0,nan,0,0,0,0 0,inf,0,0,0,0 \
        0,-inf,0,0,0,0 0,0.3,nan,0,0,0 a,b,c,d,e,f "0,0.3;0.1,0,0,0" 0,,0,0,0,0; do
        bad simulate $pl --x0 "$x" --time 1
    done
    for t in "" x 0 -1 nan inf -inf 1e400; do
        bad simulate $pl --x0 0,0.8,0.1,0,0,0 --time "$t"
    done
    for p in g mass inertia K; do
        for v in "" x 0 -1 nan inf -inf 1e300; do
            bad simulate $pv -p "$p=$v"
        done
    done
    for v in "" x -1 nan inf 1e300; do
        bad simulate $pv -p "C=$v"
        bad simulate $pv -p "a=$v"
    done
    for e in "" x 0 -1 nan inf 1e400; do
        bad simulate $pv --eps "$e"
    done
    for p in nosuch l0x "g 1" "=1" "g=" "g==1"; do
        bad simulate $pv -p "$p"
    done
    bad simulate $pv --integrator event
    bad simulate $pv --samples 0
    bad simulate $pv --mode stance
    bad simulate $pv --sweep g=1:2:2
    bad simulate $pv --trials 2
    bad simulate $pv --eps 1e-3 --eps 2e-3
    bad simulate $pv --jacobian --csv
    bad simulate $pl --x0 0,0.8,0.1,0,0,0
    bad simulate $pl --time 1
    bad analyze $pl
    bad analyze $pl --period 1
    bad info $pl extra
done
# plate-vertical tipped on its side: tan(theta) is not finite
bad simulate plate-vertical --x0 0,0.3,1.5707963267948966,0,0,0 --time 1
for p in l0 rho; do
    for v in "" x -1 nan inf 1e300; do
        bad simulate plate-springs --x0 0,0.8,0.1,0,0,0 --time 1 -p "$p=$v"
    done
done
bad simulate plate-vertical --x0 0,0.3,0.1,0,0,0 --time 1 -p l0=0.5
bad simulate plate-vertical --x0 0,0.3,0.1,0,0,0 --time 1 -p rho=0.1

# ------------------------------------------------------------ --ess-method
# a missing, empty, unknown or repeated method, and the option where no ESS
# run is asked for
bad simulate plate-vertical --x0 0,0.3,0.1,0,0,0 --time 1 --ess-method
bad simulate plate-vertical --x0 0,0.3,0.1,0,0,0 --time 1 --ess-method=
bad simulate plate-vertical --x0 0,0.3,0.1,0,0,0 --time 1 --ess-method DOPRI5
bad simulate plate-vertical --x0 0,0.3,0.1,0,0,0 --time 1 --ess-method rk45
bad simulate plate-vertical --x0 0,0.3,0.1,0,0,0 --time 1 --ess-method dopri5 --ess-method cvodes
bad simulate plate-vertical --x0 0,0.3,0.1,0,0,0 --time 1 --ess-method dopri5 --integrator event
bad simulate slip-hopper --ess-method dopri5
bad analyze hopper-pumped --ess-method
bad analyze hopper-pumped --ess-method " dopri5"
bad analyze hopper-pumped --ess-method dopri5 --ess-method dopri5
bad analyze slip-hopper --ess-method dopri5

# ------------------------------------------------------ --strict-liveness
# misplaced or repeated, and falls from rest that strict liveness refuses
# (a near miss, a liftoff guard re-armed while its leg still compresses:
# exit 1 with the guard named; by default the same falls are integrated)
sv="--x0 0,0.3,0.1,0,0,0 --time 2"
bad simulate plate-vertical $sv --strict-liveness
bad simulate plate-vertical $sv --strict-liveness --strict-liveness
bad simulate plate-vertical $sv --strict-liveness=1
bad simulate plate-vertical $sv --strict-liveness=
bad simulate plate-vertical $sv --strict-liveness --integrator event
bad simulate plate-vertical $sv --strict-liveness --trials 2
bad simulate plate-vertical $sv --strict-liveness --sweep z=0.3:0.4:2
bad simulate plate-vertical $sv --strict-liveness --mode stance
bad simulate plate-vertical $sv --strict-liveness --jacobian --csv
bad simulate plate-vertical $sv --strict-liveness --eps 0
bad simulate plate-vertical --strict-liveness --time 2
bad simulate plate-vertical --strict-liveness $sv extra
bad simulate hopper-1d --x0 0.9995,0 --time 1 --strict-liveness
bad simulate hopper-1d --x0 0.9995,0 --time 1 --strict-liveness --jacobian
bad simulate hopper-1d --x0 0.9995,0 --time 1 --strict-liveness --samples 5 --csv
bad simulate hopper-1d --x0 0.9995,0 --time 1 --strict-liveness --json
bad simulate slip-hopper --strict-liveness
bad simulate slip-hopper --x0 1,2 --time 1 --strict-liveness
bad simulate slip-hopper --integrator event --strict-liveness
bad simulate --orbit /nonexistent --strict-liveness
bad analyze slip-hopper --strict-liveness
bad analyze hopper-pumped --strict-liveness --strict-liveness
bad analyze hopper-pumped --strict-liveness=yes
bad analyze hopper-pumped --strict-liveness --check --mode stance
bad analyze hopper-pumped --strict-liveness --gradient
bad analyze hopper-pumped --strict-liveness --mode stance
bad analyze hopper-pumped --strict-liveness --impact-set 2
bad analyze hopper-pumped --strict-liveness --eps 0
bad analyze hopper-pumped --strict-liveness --section w
bad analyze hopper-pumped --strict-liveness -p pump=0
bad analyze hopper-1d --strict-liveness
bad analyze --strict-liveness
bad analyze --orbit /nonexistent --strict-liveness
for th in -0.18 -0.1 0.1 0.18; do
    for z in 0.25 0.3 0.35 0.4; do
        bad simulate plate-vertical --x0 0,$z,$th,0,0,0 --time 2 --strict-liveness
    done
    for z in 0.75 0.8; do
        bad simulate plate-springs --x0 0,$z,$th,0,0,0 --time 2 --strict-liveness
    done
done

echo "bad_input.sh: $lines command lines, $failures failed (slowest: $slowest ms, hes $slowest_line)"
[ "$failures" -eq 0 ] || exit 1
exit 0
