#!/bin/sh
# tests/trot_check.sh - the free quadruped's trot (share/robots/
# quadruped_trot.json: 81 modes, a floating base on a unit quaternion, feet
# that slip and slide before they lift off): its monodromy, by the
# saltation pipeline, against the independent Jacobian of its return map,
# Richardson's fourth-order central differences of the full nonlinear flow
# (hes analyze --check-order 4 --check-step 3e-4), relative to the
# monodromy's largest entry, to 1e-6; every Jacobian the model supplies
# compared with differences at the orbit's states, none disagreeing; and
# the trot is stable.  Skipped
# (exit 77) without MuJoCo or without /usr/bin/python3 to read the JSON.
# Run by `make check` with HES and top_srcdir in the environment.

HES=${HES:-${top_builddir:-.}/src/hes}
srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hes-trot.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

if ! "$HES" --version | grep -q '^features:.* mujoco'; then
    echo "SKIP: hes was built without MuJoCo"
    exit 77
fi
if [ ! -x /usr/bin/python3 ]; then
    echo "SKIP: no /usr/bin/python3 to read the analysis"
    exit 77
fi

"$HES" analyze --robot "$srcdir/share/robots/quadruped_trot.json" --max-wall-time 120 \
    --check-order 4 --check-step 3e-4 --json >"$tmp/trot.json" 2>"$tmp/trot.err"
status=$?
if [ $status -ne 0 ]; then
    echo "FAIL: hes analyze of the trot exited with $status"
    sed 's/^/    /' "$tmp/trot.err"
    exit 1
fi

/usr/bin/python3 - "$tmp/trot.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["check"]
# the matrix the check compares: the return map of an autonomous orbit
# (the document has one only then), else the monodromy (the trot's: the
# reference's clock makes it non-autonomous)
m = d["return_map"] if "return_map" in d else d["monodromy"]
scale = max(abs(v) for row in m for v in row)
rel = c["max_abs_diff"] / scale
ok = True
def check(cond, what):
    global ok
    print(("ok: " if cond else "FAIL: ") + what)
    ok = ok and cond
j = c["jacobians"]
print("trot: psi %.7f, %s; the check %.3e absolute, %.3e of the largest entry %.4g; "
      "Jacobians: %d compared, %s at %s" % (d["psi"], d["verdict"], c["max_abs_diff"], rel,
                                            scale, j["checked"], j["max_rel_err"], j["where"]))
check(c["method"] == "finite-differences", "the check is by differences of the flow")
check(rel < 1e-6, "the monodromy agrees with fourth-order differences to 1e-6 (%.2e)" % rel)
# every supplied Jacobian compared (the resets' are differences of their
# maps already, and not compared), none disagreeing
check(not j["disagree"] and j["checked"] > 0 and "failed" not in str(j["where"]),
      "every Jacobian of the model compared, none disagreeing with differences")
check(d["verdict"] == "stable" and d["psi"] < 1, "the trot is stable (psi %.6f)" % d["psi"])
sys.exit(0 if ok else 1)
PY
