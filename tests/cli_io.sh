#!/bin/sh
# tests/cli_io.sh - the hes program's input and output under failure (issue
# 10: right answers or a clear refusal): standard output on a full device,
# the files of sweep -o, trajopt -o and plot -o on a full device or past a
# file size limit (a full disk), a sweep file that says what defines it
# (--resume refuses another sweep's file, naming the difference), rows with
# a CRC-32 (a corrupted row is computed again), the lock that keeps two
# writers apart, and the strict readers of --list and --resume files.  Run
# by `make check` with HES (the program), top_srcdir and top_builddir in the
# environment; same conventions as tests/cli.sh.  Prints each failed check
# and exits 1 if any failed.

HES=${HES:-${top_builddir:-.}/src/hes}
tmp=${TMPDIR:-/tmp}/hes-cli-io-test.$$
mkdir -p "$tmp" || exit 1
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT HUP INT TERM

have_python=no
command -v python3 >/dev/null 2>&1 && have_python=yes
. "${top_srcdir:-.}/tests/testlib.sh"

# run_full NAME ARGS...: the same with standard output on /dev/full.
run_full() {
    name=$1
    shift
    "$HES" "$@" >/dev/full 2>"$tmp/$name.err"
    status=$?
}

# run_limited NAME BLOCKS ARGS...: the same with files limited to BLOCKS
# blocks of 512 bytes (a full disk: a write past it fails with EFBIG, as
# SIGXFSZ is ignored) and at most 60 s.
run_limited() {
    name=$1
    blocks=$2
    shift 2
    (trap '' XFSZ; ulimit -f "$blocks" && exec timeout 60 "$HES" "$@") >"$tmp/$name.out" 2>"$tmp/$name.err"
    status=$?
}

# same_rows A B: the two files have the same lines, in any order.
same_rows() {
    [ "$(sort "$1")" = "$(sort "$2")" ]
}

# unprivileged COMMAND...: runs the command without the power to ignore
# file permissions (as root: without CAP_DAC_OVERRIDE, through setpriv);
# status 125 when that is impossible.
unprivileged() {
    if [ "$(id -u)" -ne 0 ]; then
        "$@"
    elif setpriv --bounding-set=-dac_override,-dac_read_search true 2>/dev/null; then
        setpriv --bounding-set=-dac_override,-dac_read_search "$@"
    else
        return 125
    fi
}
if unprivileged true; then can_drop=yes; else can_drop=no; fi

if [ ! -x "$HES" ]; then
    echo "FAIL: the program '$HES' does not exist or is not executable"
    exit 1
fi

# --------------------------------------------- standard output on /dev/full
# Every command: exit 1 and the reason, not 0 with the output lost.
for cmd in "list" "info slip-hopper" "analyze paddle-juggler" "analyze paddle-juggler --json" \
    "simulate paddle-juggler --trials 2 --steps 3" "--help" \
    "sweep paddle-juggler --grid paddle_accel=-6:-4:3" \
    "sweep paddle-juggler --grid paddle_accel=-6:-4:3 --json"; do
    # shellcheck disable=SC2086
    run_full full_stdout $cmd
    expect_status full_stdout 1 "hes $cmd > /dev/full"
    expect_grep full_stdout err 'write error on standard output: No space left on device' \
        "hes $cmd > /dev/full says why"
done

# ------------------------------------------------------ files on /dev/full
# A sweep onto a full device stops at once (10000 points would take minutes).
status=0
timeout 20 "$HES" sweep slip-hopper --grid K=0:0.4:100 --grid thetadot=-1:1:100 -o /dev/full \
    >"$tmp/sw_full.out" 2>"$tmp/sw_full.err" || status=$?
expect_status sw_full 1 "sweep -o /dev/full fails at once"
expect_grep sw_full err 'cannot write /dev/full: No space left on device' "sweep -o /dev/full says why"

# --resume reads the file back: /dev/full (endless zeros) is refused at once.
status=0
timeout 20 "$HES" sweep slip-hopper --grid K=0:0.4:100 -o /dev/full --resume \
    >"$tmp/sw_full_resume.out" 2>"$tmp/sw_full_resume.err" || status=$?
expect_status sw_full_resume 2 "sweep -o /dev/full --resume is refused at once"
expect_grep sw_full_resume err 'not a regular file' "sweep --resume of a device says why"

run tj_full trajopt slip-hopper --nodes 9 --quiet -o /dev/full
expect_status tj_full 1 "trajopt -o /dev/full"
expect_grep tj_full err 'cannot write /dev/full: No space left on device' "trajopt -o /dev/full says why"

run tj_nodir trajopt slip-hopper --nodes 9 --quiet -o "$tmp/no-such-dir/gait.json"
expect_status tj_nodir 1 "trajopt -o into a missing directory"
expect_grep tj_nodir err 'no-such-dir/gait.json: No such file or directory' \
    "trajopt -o into a missing directory names the file and the reason"

# A gait file that does not fit (a full disk) is removed, not left cut.
run_limited tj_limit 2 trajopt slip-hopper --nodes 9 --quiet -o "$tmp/cut-gait.json"
expect_status tj_limit 1 "trajopt -o onto a full disk"
expect_grep tj_limit err 'cut-gait.json: File too large' "trajopt -o onto a full disk says why"
expect_true "trajopt -o onto a full disk leaves no cut gait file" test ! -e "$tmp/cut-gait.json"

if command -v gnuplot >/dev/null 2>&1; then
    ln -s /dev/full "$tmp/full.svg"
    run pl_full plot multipliers paddle-juggler -o "$tmp/full.svg"
    expect_status pl_full 1 "plot -o onto /dev/full"
    expect_grep pl_full err 'No space left on device' "plot -o onto /dev/full says why"
else
    echo "cli_io.sh: gnuplot not found; the plot check is skipped"
fi

# A gnuplot that stops at once, drawing nothing: exit 1 with the reason.
printf '#!/bin/sh\nexit 0\n' > "$tmp/quitter"
chmod +x "$tmp/quitter"
HES_GNUPLOT="$tmp/quitter"
export HES_GNUPLOT
run pl_quit plot convergence slip-hopper --trials 200 --steps 30 -o "$tmp/conv.png"
unset HES_GNUPLOT
expect_status pl_quit 1 "plot with a gnuplot that quits at once"
expect_grep pl_quit err 'gnuplot stopped without drawing the picture' "plot says gnuplot drew nothing"

# ------------------------------------------------ a sweep onto a full disk
# The disk fills after a few rows: exit 1 with the reason; --resume with a
# little more room keeps the rows, adds some and still fails (rows are
# missing); with room it ends with exactly the rows of an uninterrupted run.
grid="--grid K=0:0.4:12 --grid thetadot=-1:1:12"
# shellcheck disable=SC2086
"$HES" sweep slip-hopper $grid -o "$tmp/full.csv" 2>/dev/null
# shellcheck disable=SC2086
run_limited sw_disk 24 sweep slip-hopper $grid -o "$tmp/disk.csv"
expect_status sw_disk 1 "sweep onto a full disk"
expect_grep sw_disk err 'cannot write .*disk.csv: File too large' "sweep onto a full disk says why"
rows1=$(grep -vc '^#' "$tmp/disk.csv")
# shellcheck disable=SC2086
run_limited sw_disk2 48 sweep slip-hopper $grid -o "$tmp/disk.csv" --resume
expect_status sw_disk2 1 "sweep --resume onto a still full disk does not report success"
rows2=$(grep -vc '^#' "$tmp/disk.csv")
expect_true "sweep --resume onto a full disk kept the rows and added some ($rows1, then $rows2 lines)" \
    test "$rows2" -gt "$rows1" -a "$rows2" -lt 145
# shellcheck disable=SC2086
run sw_disk3 sweep slip-hopper $grid -o "$tmp/disk.csv" --resume
expect_status sw_disk3 0 "sweep --resume with room"
expect_true "the resumed sweep has exactly the rows of an uninterrupted run" \
    same_rows "$tmp/disk.csv" "$tmp/full.csv"

# ---------------------------------------------------- what defines a sweep
head -n 20 "$tmp/full.csv" > "$tmp/full.head"
expect_grep full head '^# hes sweep file, format 1$' "a sweep file starts with its format line"
expect_grep full head '^# problem: slip-hopper$' "a sweep file names its problem"
expect_grep full head '^# points: grid K=0:0.4:12 thetadot=-1:1:12$' "a sweep file names its points"
expect_grep full head '^# param: k=500$' "a sweep file has every fixed parameter"
expect_grep full head '^# optimize: no$' "a sweep file says whether it optimised"

# Every row ends with the CRC-32 of its text (checked with zlib).
if command -v python3 >/dev/null 2>&1; then
    expect_true "every row's last column is the zlib CRC-32 of the text before it" \
        python3 -c '
import sys, zlib
rows = [l.rstrip("\n") for l in open(sys.argv[1]) if not l.startswith("#")][1:]
ok = len(rows) == 144
for r in rows:
    text, crc = r.rsplit(",", 1)
    ok = ok and int(crc, 16) == zlib.crc32(text.encode())
sys.exit(0 if ok else 1)' "$tmp/full.csv"
fi

pj="--grid paddle_accel=-6:-4:5"
# shellcheck disable=SC2086
"$HES" sweep paddle-juggler -p alpha=0.5 $pj -o "$tmp/pj.csv" 2>/dev/null
cp "$tmp/pj.csv" "$tmp/pj.orig"
# shellcheck disable=SC2086
run rs_param sweep paddle-juggler -p alpha=0.7 $pj -o "$tmp/pj.csv" --resume
expect_status rs_param 2 "--resume with another -p value is refused"
expect_grep rs_param err 'the file was written with -p alpha=0.5, this run has alpha=0.7' \
    "--resume names the parameter that differs"
run rs_grid sweep paddle-juggler -p alpha=0.5 --grid paddle_accel=-6:-3:5 -o "$tmp/pj.csv" --resume
expect_status rs_grid 2 "--resume with another grid range is refused"
expect_grep rs_grid err "points are 'grid paddle_accel=-6:-4:5', this run's are 'grid paddle_accel=-6:-3:5'" \
    "--resume names the points that differ"
# shellcheck disable=SC2086
run rs_opt sweep paddle-juggler -p alpha=0.5 $pj --optimize -o "$tmp/pj.csv" --resume
expect_status rs_opt 2 "--resume with --optimize of a file without is refused"
expect_grep rs_opt err 'without --optimize, this run is with it' "--resume names --optimize"
run rs_problem sweep knee-biped --grid slope=0:0.01:5 -o "$tmp/pj.csv" --resume
expect_status rs_problem 2 "--resume of another problem's file is refused"
expect_grep rs_problem err "problem 'paddle-juggler', this run's problem is 'knee-biped'" \
    "--resume names both problems"
expect_true "a refused --resume leaves the file as it was" cmp -s "$tmp/pj.csv" "$tmp/pj.orig"

printf 'paddle_accel\n-6\n-5\n' > "$tmp/list1.csv"
printf 'paddle_accel\n-6\n-4\n' > "$tmp/list2.csv"
"$HES" sweep paddle-juggler --list "$tmp/list1.csv" -o "$tmp/pjl.csv" 2>/dev/null
run rs_list sweep paddle-juggler --list "$tmp/list2.csv" -o "$tmp/pjl.csv" --resume
expect_status rs_list 2 "--resume with another --list file is refused"
expect_grep rs_list err 'points are .list paddle_accel 2 points fnv1a64=' "--resume names the lists"
"$HES" sweep paddle-juggler --random 4 --seed 1 --bounds paddle_accel=-6:-4 -o "$tmp/pjr.csv" 2>/dev/null
run rs_seed sweep paddle-juggler --random 4 --seed 2 --bounds paddle_accel=-6:-4 -o "$tmp/pjr.csv" --resume
expect_status rs_seed 2 "--resume with another --seed is refused"
expect_grep rs_seed err 'random 4 seed=1 .*random 4 seed=2' "--resume names both seeds"

# A file without the '#' lines (standard output, an older hes) is refused.
# shellcheck disable=SC2086
"$HES" sweep paddle-juggler $pj > "$tmp/plain.csv" 2>/dev/null
# shellcheck disable=SC2086
run rs_plain sweep paddle-juggler $pj -o "$tmp/plain.csv" --resume
expect_status rs_plain 2 "--resume of a file without '#' lines is refused"
expect_grep rs_plain err "no '# hes sweep file, format 1' lines" "--resume says what the file lacks"

# Killed while it wrote its '#' lines: the file begins anew.
head -c 60 "$tmp/pj.orig" > "$tmp/pjcut.csv"
# shellcheck disable=SC2086
run rs_cutpre sweep paddle-juggler -p alpha=0.5 $pj -o "$tmp/pjcut.csv" --resume
expect_status rs_cutpre 0 "--resume of a file cut inside its '#' lines"
expect_true "it then has the rows of an uninterrupted run" same_rows "$tmp/pjcut.csv" "$tmp/pj.orig"

# --------------------------------------------------- corrupted rows, resumed
# psi of one row changed by hand, another row's bytes garbled, a row
# repeated: the bad rows are dropped (and said so) and their points computed
# again; the file ends with exactly the rows of an uninterrupted run.
awk -F, -v OFS=, 'NR == 30 { $5 = $5 "1" } NR == 40 { $2 = $2 "9" } { print }' \
    "$tmp/full.csv" > "$tmp/bad.csv"
sed -n 50p "$tmp/full.csv" >> "$tmp/bad.csv"
if same_rows "$tmp/bad.csv" "$tmp/full.csv"; then # (the test's own set-up)
    fail "the corrupted copy of the sweep file is not corrupted"
fi
# shellcheck disable=SC2086
run rs_bad sweep slip-hopper $grid -o "$tmp/bad.csv" --resume
expect_status rs_bad 0 "--resume of a file with corrupted rows"
expect_grep rs_bad err 'dropped 2 corrupted rows .* 1 duplicate row' "--resume says how many rows it dropped"
expect_grep rs_bad err '^hes sweep: 2 points in' "--resume computes exactly the corrupted rows' points"
expect_true "a file with corrupted rows resumes to the rows of an uninterrupted run" \
    same_rows "$tmp/bad.csv" "$tmp/full.csv"

# ----------------------------------------------------------- two writers
# shellcheck disable=SC2086
"$HES" sweep slip-hopper $grid -o "$tmp/lock.csv" 2>"$tmp/first.err" &
first=$!
i=0
n=0
while [ "${n:-0}" -lt 2 ] && [ $i -lt 200 ]; do # until it has written a row
    sleep 0.05
    i=$((i + 1))
    n=$(grep -vc '^#' "$tmp/lock.csv" 2>/dev/null)
done
# shellcheck disable=SC2086
run lock2 sweep slip-hopper $grid -o "$tmp/lock.csv"
# shellcheck disable=SC2086
run lock3 sweep slip-hopper $grid -o "$tmp/lock.csv" --resume
wait $first
first_status=$?
expect_status lock2 2 "a second sweep -o onto a file being written is refused"
expect_grep lock2 err 'lock.csv: locked by another hes process' "the refusal says the file is locked"
expect_status lock3 2 "a second sweep --resume of a file being written is refused"
status=$first_status
expect_status first 0 "the first sweep goes on"
expect_true "the first sweep's file has exactly the rows of an uninterrupted run" \
    same_rows "$tmp/lock.csv" "$tmp/full.csv"

# ---------------------------------------------------------- --list reader
try_list() { # NAME CONTENT-FILE: sweep slip-hopper --list FILE
    run "$1" sweep slip-hopper --list "$2"
}
printf 'K,thetadot\n0,,1\n' > "$tmp/l_empty.csv"
try_list l_empty "$tmp/l_empty.csv"
expect_status l_empty 2 "--list row '0,,1' is refused"
expect_grep l_empty err 'l_empty.csv: line 2: ' "the refusal names the line"
printf 'K,thetadot,k\n0,,500\n' > "$tmp/l_empty3.csv"
try_list l_empty3 "$tmp/l_empty3.csv"
expect_status l_empty3 2 "--list with an empty field"
expect_grep l_empty3 err 'line 2: field 2 \(thetadot\) is empty' "the refusal names the empty field"
printf 'K,K\n0.1,0.2\n' > "$tmp/l_dup.csv"
try_list l_dup "$tmp/l_dup.csv"
expect_status l_dup 2 "--list header 'K,K' is refused"
expect_grep l_dup err "column 'K' appears twice" "the refusal names the repeated column"
printf 'K,thetadot\n' > "$tmp/l_header.csv"
try_list l_header "$tmp/l_header.csv"
expect_status l_header 2 "--list with a header only"
expect_grep l_header err 'no points' "a header-only --list says it has no points"
mkdir "$tmp/l_dir"
try_list l_dir "$tmp/l_dir"
expect_status l_dir 2 "--list of a directory"
expect_grep l_dir err 'l_dir is a directory' "--list of a directory says so"
# a line of 9003 characters is one point, not two
awk 'BEGIN { print "K"; s = ""; for (i = 0; i < 9000; i++) s = s "0"; print s "0.1" }' > "$tmp/l_long.csv"
try_list l_long "$tmp/l_long.csv"
expect_status l_long 0 "--list with a line of 9003 characters"
expect_true "a long --list line is one point" test "$(grep -c ',ok,' "$tmp/l_long.out")" -eq 1
awk 'BEGIN { print "K"; s = ""; for (i = 0; i < 70000; i++) s = s "0"; print s "0.1" }' > "$tmp/l_huge.csv"
try_list l_huge "$tmp/l_huge.csv"
expect_status l_huge 2 "--list with a line over 65536 bytes"
expect_grep l_huge err 'line 2 is longer than 65536 bytes' "the refusal names the limit"

# ------------------------------------ --resume of a read-only file (not as root)
if [ "$can_drop" = yes ]; then
    cp "$tmp/pj.orig" "$tmp/ro.csv"
    chmod 444 "$tmp/ro.csv"
    # shellcheck disable=SC2086
    unprivileged "$HES" sweep paddle-juggler -p alpha=0.5 $pj -o "$tmp/ro.csv" --resume \
        >"$tmp/rs_ro.out" 2>"$tmp/rs_ro.err"
    status=$?
    expect_status rs_ro 1 "--resume of a read-only file"
    expect_grep rs_ro err 'ro.csv: .*Permission denied' "--resume of a read-only file says why"
else
    echo "cli_io.sh: cannot drop the power to ignore permissions; the read-only check is skipped"
fi

# ------------------------------------------------------------ installation
# Installed under any prefix, the program finds its library: its run path
# names the configured libdir.
binary=${top_builddir:-.}/src/.libs/hes
if [ -n "$HES_LIBDIR" ] && [ -f "$binary" ] && command -v readelf >/dev/null 2>&1; then
    checks=$((checks + 1))
    if readelf -d "$binary" | grep -E '(RUNPATH|RPATH)' | grep -qF "[$HES_LIBDIR]"; then
        pass "the program's run path is the libdir it is installed with ($HES_LIBDIR)"
    else
        fail "the program's run path is the libdir it is installed with ($HES_LIBDIR)"
    fi
else
    echo "cli_io.sh: no libdir, built program or readelf; the run-path check is skipped"
fi

# The examples build against the source tree before any make install (a
# copy of the folder, told where the tree is).
if command -v make >/dev/null 2>&1 && command -v cc >/dev/null 2>&1 &&
    ! pkg-config --exists hes 2>/dev/null; then
    mkdir -p "$tmp/ex"
    cp "${top_srcdir:-.}/share/examples/Makefile" "${top_srcdir:-.}/share/examples/rimless_wheel.c" "$tmp/ex/"
    run_tree=$(cd "${top_srcdir:-.}" && pwd)
    make -s -C "$tmp/ex" HES_TREE="$run_tree" rimless_wheel.so >"$tmp/ex_make.out" 2>"$tmp/ex_make.err"
    status=$?
    expect_status ex_make 0 "make -C share/examples rimless_wheel.so before make install"
    run ex_an analyze --model "$tmp/ex/rimless_wheel.so" --json
    expect_status ex_an 0 "the example plugin built from the tree analyses"
fi

# ------------------------------------------------------------------ summary
testlib_summary cli_io.sh
