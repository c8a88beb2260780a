#!/bin/sh
# bench_sweep.sh - points per second of `hes sweep` on the SLIP hopper
# (run by `make bench`): 1 thread, 2 threads, 2 MPI ranks (when hes has MPI
# and mpirun exists), and the same analysis written with SciPy (slip_scipy.py:
# solve_ivp with events, finite-difference Newton and monodromy, the same
# tolerance) on the same points, one run each on this machine.  The psi of
# both are compared point by point.
set -eu
HES=${HES:-src/hes}
srcdir=${srcdir:-.}
tmp=${TMPDIR:-/tmp}/hes-bench-sweep.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
grid="--grid K=-0.2:0.6:12 --grid thetadot=-3:1:12"
n=144
now() { date +%s.%N; }
echo "SLIP hopper sweep, $n points (K x thetadot grid); $(nproc) cores online"
t0=$(now); "$HES" sweep slip-hopper $grid -o "$tmp/j1.csv" 2>/dev/null; t1=$(now)
"$HES" sweep slip-hopper $grid --jobs 2 -o "$tmp/j2.csv" 2>/dev/null; t2=$(now)
s1=$(echo "$t1 - $t0" | bc -l); s2=$(echo "$t2 - $t1" | bc -l)
printf '%-22s %8.3f s  %8.1f points/s  ratio %.2f\n' "hes, 1 thread" "$s1" "$(echo "$n / $s1" | bc -l)" 1
printf '%-22s %8.3f s  %8.1f points/s  ratio %.2f\n' "hes, 2 threads" "$s2" "$(echo "$n / $s2" | bc -l)" "$(echo "$s1 / $s2" | bc -l)"
if "$HES" --version | grep -q MPI && command -v mpirun >/dev/null 2>&1; then
    t3=$(now)
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 2 --oversubscribe \
        "$HES" sweep slip-hopper $grid -o "$tmp/mpi.csv" 2> "$tmp/mpi.err"
    t4=$(now); s3=$(echo "$t4 - $t3" | bc -l)
    # the sweep's own time (after MPI_Init), and the whole mpirun
    s3in=$(sed -n 's/^hes sweep: [0-9]* points in \([0-9.]*\) s.*/\1/p' "$tmp/mpi.err")
    printf '%-22s %8.3f s  %8.1f points/s  ratio %.2f (mpirun with start-up: %.3f s)\n' "hes, 2 MPI ranks" \
        "$s3in" "$(echo "$n / $s3in" | bc -l)" "$(echo "$s1 / $s3in" | bc -l)" "$s3"
else
    echo "hes, 2 MPI ranks: skipped (hes built without MPI, or no mpirun)"
fi
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
