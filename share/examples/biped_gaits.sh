#!/bin/sh
# biped_gaits.sh - the knee biped experiment of the HES paper (Sec. IV-C,
# Table II, Fig. 5) with hes: three gaits of problems/knee_biped.c on level
# ground (slope 0) with hip, swing-knee and stance-ankle torques, each
# piecewise constant on its (sub-)phases, every gait starting just after
# heelstrike with the stance leg at 0.2 rad turning at -1.1 rad/s:
#
#   ME   minimum energy: the integral of the squared torques, no psi;
#   HES  psi + energy (weight 1) without virtual events, from ME (by the
#        hybrid solver: a tenth of the budget in the full space, the rest
#        in the reduced space, --solver hybrid);
#   VHE  the same with 5 virtual events in the unlocked phase and 2 in the
#        locked phase, from HES (so it starts on the HES orbit), refined
#        in the reduced space (--solver reduced: every iterate an orbit);
#   and VHE again with psi counted in the cost only down to 0.15
#        (--psi-floor), which trades psi for energy.
# ME is collocated on 15 nodes per phase; the three with psi in the cost
# on 15 and then again on 29 (--nodes 15,29, mesh continuation: on 15
# nodes psi is 3 % off the shooting psi, and the optimiser profits from
# it), each grid with up to 600 (HES) or 700 evaluations, the floor gait
# 900 on 15 nodes and 300 on 29 (its first rounds smooth the floor's
# kink and need the evaluations; the finer grid starts near its optimum).
#
# For each: psi of the collocation (re-collocated on 57 nodes per phase,
# --refine 4 and 2, with the torques held) and of the independent shooting analysis of the
# gait file, the energy, the step period, and `hes simulate --orbit` with
# 50 starts perturbed uniformly in (-0.01, 0.01) in every state, 10 steps.
# Prints a Markdown table; the gait files stay in DIR.
#
# Usage: sh share/examples/biped_gaits.sh [DIR]
# (HES=path/to/hes chooses the program, WEIGHT=W the energy weight, 1,
# JOBS=N the threads of psi's gradient, 1: the gaits do not depend on it)
set -eu
HES=${HES:-hes}
if ! command -v "$HES" >/dev/null 2>&1; then
    if [ -x src/hes ]; then HES=src/hes; else
        echo "biped_gaits.sh: no hes program (build it, or set HES=path/to/hes)" >&2; exit 2; fi
fi
DIR=${1:-biped-gaits}
WEIGHT=${WEIGHT:-1}
JOBS=${JOBS:-1}
mkdir -p "$DIR"
common="knee-biped -p slope=0 --inputs constant --quiet --json --jobs $JOBS"
psi="--objective weighted --weight $WEIGHT --nodes 15,29 --refine 2"

echo "ME: minimum energy ..." >&2
"$HES" trajopt $common --objective energy --nodes 15 --refine 4 --maxeval 2000 -o "$DIR/me.json" \
    > "$DIR/me.out"
echo "HES without virtual events ..." >&2
"$HES" trajopt $common $psi --maxeval 600 --init "$DIR/me.json" --solver hybrid -o "$DIR/hes.json" \
    > "$DIR/hes.out"
echo "HES with virtual events ..." >&2
"$HES" trajopt $common $psi --virtual-events default --maxeval 700 --init "$DIR/hes.json" \
    --solver reduced -o "$DIR/vhe.json" > "$DIR/vhe.out"
echo "HES with virtual events, psi counted down to 0.15 only ..." >&2
"$HES" trajopt $common $psi --virtual-events default --maxeval 900,300 --psi-floor 0.15 \
    --init "$DIR/hes.json" --solver reduced -o "$DIR/vhe_floor.json" > "$DIR/vhe_floor.out"
for g in me hes vhe vhe_floor; do
    echo "perturbation trials of $g ..." >&2
    "$HES" simulate --orbit "$DIR/$g.json" --box 0.01 --trials 50 --steps 10 --seed 1 --json \
        > "$DIR/$g.trials"
done

python3 - "$DIR" <<'PY'
import json, statistics, sys, os
d = sys.argv[1]
rows = [("ME", "me"), ("HES w/o VHE", "hes"), ("HES w/ VHE", "vhe"),
        ("HES w/ VHE, psi floor 0.15", "vhe_floor")]
print("| gait | psi (collocation) | psi (shooting) | return map agreement | energy | period (s) | wall time (s) | trials: converging / falling | mean error after 10 steps |")
print("|---|---|---|---|---|---|---|---|---|")
for name, g in rows:
    r = json.load(open(os.path.join(d, g + ".out")))
    t = json.load(open(os.path.join(d, g + ".trials")))
    done = [x for x in t["trials"] if x["steps_completed"] == 10 and x["failure"] is None]
    fell = len(t["trials"]) - len(done)
    shrinking = sum(1 for x in done if x["error"][-1] < x["error"][0])
    mean = statistics.mean(x["error"][-1] for x in done) if done else float("nan")
    psi_c = r["psi_refined"] if r.get("psi_refined") is not None else r["psi_collocation"]
    print("| %s | %.4f | %.4f | %.1e | %.4f | %.4f | %.1f | %d / %d | %.2e |" % (
        name, psi_c, r["psi_shooting"], r["return_map_difference"], r["energy"],
        r["period"], r["seconds"], shrinking, fell, mean))
PY
