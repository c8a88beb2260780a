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
# HES gait is found by the hybrid solver (--solver hybrid: a tenth of the
# budget in the full space, the rest in the reduced space); the gaits with
# virtual events refine it in the reduced space (--solver reduced,
# lib/shaping/colloc_reduced.c); the three with psi on 15 and then 29
# nodes per phase (mesh continuation).  Then the HES gait again from the
# same ME gait with g changed in its 14th digit, on 15 nodes alone (2000
# evaluations) and continued on 29 (600 each): where the end point lands
# when only the rounding changes (min / median / max over the runs), in
# the cost the optimiser sees (psi of its last grid + energy) and in the
# true one (psi by shooting + energy).  Last the floor gait from the same
# HES gait with g so changed (its true cost max(psi by shooting, 0.15) +
# energy), from one start and the best of 2 (--starts 2, on 2 threads).
set -eu
HES=${HES:-src/hes}
tmp=${TMPDIR:-/tmp}/hes-bench-gaits.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
common="knee-biped -p slope=0 --inputs constant --quiet --json"
psi="--objective weighted --weight 1 --nodes 15,29 --refine 2"
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
run ME --objective energy --nodes 15 --refine 4 --maxeval 2000
run HES $psi --maxeval 600 --init "$tmp/ME.json" --solver hybrid
run HES+VHE $psi --virtual-events default --maxeval 700 --init "$tmp/HES.json" --solver reduced
run floor0.15 $psi --virtual-events default --maxeval 900,300 --psi-floor 0.15 \
    --init "$tmp/HES.json" --solver reduced

echo
echo "HES gait from the same ME gait, g = 9.81 changed in its 14th digit (hybrid, --jobs 2):"
printf '%-6s %5s %24s %24s %27s %20s\n' nodes runs "cost min/median/max" "true cost min/med/max" \
    "psi shooting min/median/max" "seconds min/med/max"
for grids in 15:2000 15,29:600; do
    nodes=${grids%:*}
    for g in 9.81 9.8100000000001 9.8100000000002 9.8100000000003 9.8099999999999 \
             9.8099999999998 9.8099999999997 9.8100000000004; do
        "$HES" trajopt $common -p g=$g --objective weighted --weight 1 --nodes "$nodes" \
            --refine $((56 / (${nodes##*,} - 1))) --maxeval ${grids#*:} --init "$tmp/ME.json" \
            --solver hybrid --jobs 2 -o "$tmp/g.json" > "$tmp/g-$nodes-$g.out"
    done
    python3 - "$tmp" "$nodes" <<'PY'
import glob, json, statistics, sys
rows = [json.load(open(f)) for f in sorted(glob.glob("%s/g-%s-*.out" % (sys.argv[1], sys.argv[2])))]
def span(v, fmt):
    return "/".join(fmt % x for x in (min(v), statistics.median(v), max(v)))
cost = [d["psi_collocation"] + d["energy"] for d in rows]
true = [d["psi_shooting"] + d["energy"] for d in rows]
print("%-6s %5d %24s %24s %27s %20s" % (sys.argv[2], len(rows), span(cost, "%.5f"),
                                        span(true, "%.5f"),
                                        span([d["psi_shooting"] for d in rows], "%.4f"),
                                        span([d["seconds"] for d in rows], "%.2f")))
PY
done

echo
echo "floor gait (psi floor 0.15) from the same HES gait, g changed so (--maxeval 900,300),"
echo "from one start and with --starts 2 --jobs 2:"
printf '%-7s %5s %24s %27s %24s %20s\n' starts runs "true cost min/med/max" \
    "psi shooting min/median/max" "energy min/median/max" "seconds min/med/max"
for starts in 1 2; do
    for g in 9.81 9.8100000000001 9.8100000000002 9.8100000000003 9.8099999999999 \
             9.8099999999998 9.8099999999997 9.8100000000004; do
        "$HES" trajopt $common -p g=$g $psi --virtual-events default --maxeval 900,300 \
            --psi-floor 0.15 --init "$tmp/HES.json" --solver reduced --starts $starts \
            --jobs $starts -o "$tmp/f.json" > "$tmp/f$starts-$g.out"
    done
    python3 - "$tmp" $starts <<'PY'
import glob, json, statistics, sys
rows = [json.load(open(f)) for f in sorted(glob.glob("%s/f%s-*.out" % (sys.argv[1], sys.argv[2])))]
def span(v, fmt):
    return "/".join(fmt % x for x in (min(v), statistics.median(v), max(v)))
print("%-7s %5d %24s %27s %24s %20s" % (sys.argv[2], len(rows),
      span([max(d["psi_shooting"], 0.15) + d["energy"] for d in rows], "%.5f"),
      span([d["psi_shooting"] for d in rows], "%.4f"), span([d["energy"] for d in rows], "%.4f"),
      span([d["seconds"] for d in rows], "%.2f")))
PY
done
