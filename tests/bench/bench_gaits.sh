#!/bin/sh
# bench_gaits.sh - wall time and evaluations of the knee-biped gaits of
# share/examples/biped_gaits.sh (run by `make bench`), with the machine's
# core count, serial and with psi's gradient on 2 threads (--jobs 2: the
# same gaits bit for bit, so that run prints its seconds only; OpenBLAS
# runs single-threaded).
# Each line: the gait, its NLP size, evaluations of the cost, seconds
# (including the refinement and the shooting re-analysis), psi by shooting
# and the energy (the HES gaits minimise psi + energy, which is nearly flat
# along its valley: psi alone moves more between runs than the sum).  The
# gaits with virtual events refine the HES gait in the reduced space
# (--solver reduced, lib/shaping/colloc_reduced.c).
set -eu
HES=${HES:-src/hes}
tmp=${TMPDIR:-/tmp}/hes-bench-gaits.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
common="knee-biped -p slope=0 --inputs constant --nodes 15 --refine 4 --quiet --json"
echo "knee-biped gaits (share/examples/biped_gaits.sh); $(nproc) cores online"
printf '%-12s %9s %11s %8s %9s %12s %9s %9s\n' gait variables constraints evals seconds "psi shooting" energy \
    "s --jobs 2"
run() {
    name=$1
    shift
    "$HES" trajopt $common "$@" -o "$tmp/$name.json" > "$tmp/$name.out"
    "$HES" trajopt $common "$@" --jobs 2 -o "$tmp/$name.2.json" > "$tmp/$name.2.out"
    cmp -s "$tmp/$name.json" "$tmp/$name.2.json" || { echo "bench_gaits: $name differs on 2 jobs" >&2; exit 1; }
    python3 - "$tmp/$name.out" "$name" "$tmp/$name.2.out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d2 = json.load(open(sys.argv[3]))
print("%-12s %9d %11d %8d %9.2f %12.6f %9.6f %9.2f" % (sys.argv[2], d["variables"], d["constraints"] + d["path_constraints"],
                                           d["evaluations"], d["seconds"], d["psi_shooting"], d["energy"], d2["seconds"]))
PY
}
run ME --objective energy --maxeval 2000
run HES --objective weighted --weight 1 --maxeval 2000 --init "$tmp/ME.json"
run HES+VHE --objective weighted --weight 1 --virtual-events default --maxeval 2000 --init "$tmp/HES.json" \
    --solver reduced
run floor0.15 --objective weighted --weight 1 --virtual-events default --maxeval 2000 --psi-floor 0.15 \
    --init "$tmp/HES.json" --solver reduced
