#!/bin/sh
# bench_sweep.sh - `hes sweep` on the SLIP hopper (run by `make bench`), one
# run of the script on this machine:
#  1. hes on 1 thread against the same analysis written with SciPy
#     (slip_scipy.py: solve_ivp with events, finite-difference Newton and
#     monodromy, the same tolerance) on the same 144 points, psi compared
#     point by point;
#  2. 1 thread, 2 threads and 2 MPI ranks (when hes has MPI and mpirun
#     exists) on a 1600-point grid, as ratios to 1 thread.
# A hes time is the median of 3 runs (part 1) or of 5 interleaved ones
# (part 2) of the sweep's own time (its last
# line, after start-up and MPI_Init); SciPy's is one run of the script.
set -eu
HES=${HES:-src/hes}
srcdir=${srcdir:-.}
tmp=${TMPDIR:-/tmp}/hes-bench-sweep.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
grid="--grid K=-0.2:0.6:12 --grid thetadot=-3:1:12"
big="--grid K=-0.2:0.6:40 --grid thetadot=-3:1:40"
now() { date +%s.%N; }
mpi() {
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 2 --oversubscribe "$@"
}
# median of 3 runs of the sweep's own time: median3 [mpi] ARGS...
median3() {
    for r in 1 2 3; do
        "$@" 2> "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
        sed -n 's/^hes sweep: [0-9]* points in \([0-9.]*\) s.*/\1/p' "$tmp/err"
    done | sort -n | sed -n 2p
}
echo "SLIP hopper sweeps; $(nproc) cores online"
n=144
s1=$(median3 "$HES" sweep slip-hopper $grid -o "$tmp/j1.csv")
printf '%-22s %8.3f s  %8.1f points/s  (%d points, median of 3)\n' "hes, 1 thread" "$s1" \
    "$(echo "$n / $s1" | bc -l)" "$n"
PY=python3
python3 -c 'import scipy' 2>/dev/null || PY=/usr/bin/python3
if "$PY" -c 'import scipy' 2>/dev/null; then
    grep -v '^#' "$tmp/j1.csv" > "$tmp/j1.rows" # the sweep file's '#' lines off
    points=$(awk -F, 'NR > 1 { printf "%s,%s ", $2, $3 }' "$tmp/j1.rows")
    t5=$(now); "$PY" "$srcdir/tests/bench/slip_scipy.py" $points > "$tmp/py.txt"; t6=$(now)
    s5=$(echo "$t6 - $t5" | bc -l)
    printf '%-22s %8.3f s  %8.1f points/s  hes (1 thread) is %.1f times faster\n' "Python + SciPy" "$s5" \
        "$(echo "$n / $s5" | bc -l)" "$(echo "$s5 / $s1" | bc -l)"
    awk -F, 'NR == FNR { if (FNR > 1) psi[FNR - 1] = $5; next }
             { if ($3 != "failed") { d = $3 - psi[FNR]; if (d < 0) d = -d; if (d > m) m = d; k++ } }
             END { printf "psi of SciPy vs hes: max |difference| %.2e over %d points\n", m, k }' \
        "$tmp/j1.rows" FS=' ' "$tmp/py.txt"
else
    echo "Python + SciPy: skipped (install python3-scipy)"
fi
echo
n=1600
# the three interleaved, 5 rounds (1 thread, 2 threads, 2 ranks, then
# again), each the median of its 5: a drift of the machine's load during
# the script falls on all three alike
have_mpi=0
if "$HES" --version | grep -q MPI && command -v mpirun >/dev/null 2>&1; then have_mpi=1; fi
own_time() { # the sweep's own time of one run: own_time [mpi] ARGS...
    "$@" 2> "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
    sed -n 's/^hes sweep: [0-9]* points in \([0-9.]*\) s.*/\1/p' "$tmp/err"
}
: > "$tmp/t1"; : > "$tmp/t2"; : > "$tmp/t3"
for r in 1 2 3 4 5; do
    own_time "$HES" sweep slip-hopper $big -o "$tmp/b1.csv" >> "$tmp/t1"
    own_time "$HES" sweep slip-hopper $big --jobs 2 -o "$tmp/b2.csv" >> "$tmp/t2"
    [ "$have_mpi" -eq 0 ] || own_time mpi "$HES" sweep slip-hopper $big -o "$tmp/mpi.csv" >> "$tmp/t3"
done
median5() { sort -n "$1" | sed -n 3p; }
b1=$(median5 "$tmp/t1")
b2=$(median5 "$tmp/t2")
printf '%-22s %8.3f s  %8.1f points/s  ratio %.2f  (%d points, median of 5, interleaved)\n' \
    "hes, 1 thread" "$b1" "$(echo "$n / $b1" | bc -l)" 1 "$n"
printf '%-22s %8.3f s  %8.1f points/s  ratio %.2f\n' "hes, 2 threads" "$b2" \
    "$(echo "$n / $b2" | bc -l)" "$(echo "$b1 / $b2" | bc -l)"
if [ "$have_mpi" -eq 1 ]; then
    b3=$(median5 "$tmp/t3")
    printf '%-22s %8.3f s  %8.1f points/s  ratio %.2f\n' "hes, 2 MPI ranks" "$b3" \
        "$(echo "$n / $b3" | bc -l)" "$(echo "$b1 / $b3" | bc -l)"
    # rows by point index (ranks write in the order rows arrive)
    awk -F, '/^#/ || $1 == "index" { next }
             NR == FNR { psi[$1] = $5; next }
             { d = $5 - psi[$1]; if (d < 0) d = -d; if (d > m) m = d; k++ }
             END { printf "psi of 2 MPI ranks vs 1 thread: max |difference| %.2e over %d points\n", m, k }' \
        "$tmp/b1.csv" "$tmp/mpi.csv"
else
    echo "hes, 2 MPI ranks: skipped (hes built without MPI, or no mpirun)"
fi
