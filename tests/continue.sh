#!/bin/sh
# tests/continue.sh - `hes continue` on the paddle juggler, whose period-1
# orbit is stable exactly for -2 g (1 + alpha^2) / (1 + alpha)^2 <
# paddle_accel < 0 (-10.9 < paddle_accel < 0 at alpha 0.5, g 9.81): the
# branch from -20 to 10 has a point with crossing -1 within 1e-6 of -10.9
# and one with crossing +1 within 1e-6 of 0 (the library's located
# crossings), the table and the CSV have as many points as the JSON
# document, and bad requests are refused with a message (exit 2), a
# parameter value without an orbit is a failed computation (exit 1).
# --param2 alpha=0.9 from paddle_accel -16:2: the PD curve follows that
# lower bound in alpha to 1e-8, the BP curve stays at paddle_accel 0.
# From 10 to 30 the branch ends at a grazing of the guard 'impact' at
# 22.3161772.  The bouncing-ball plugin (a ball on a sinusoidally moving
# table) folds at amplitude g (T/2)^2 / (2 (1 + e)) / (4 pi) (T 0.5, e 0.5)
# and its period-doubling cascade gives branches of 1, 2 and 4 returns.
# The simplest-walker plugin: --start-at, --resume (and its refusals of
# bad files, exit 2) and SIGINT (exit 130), described at their section.
# Run by `make check` with HES, top_srcdir and top_builddir in the
# environment.

HES=${HES:-${top_builddir:-.}/src/hes}
case $HES in /*) ;; *) HES=$(pwd)/$HES ;; esac
srcdir=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hes-continue.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
have_python=no
PY=
if [ -x /usr/bin/python3 ]; then
    PY=/usr/bin/python3
    have_python=yes
fi
. "$srcdir/tests/testlib.sh"

if [ ! -x "$HES" ]; then
    echo "FAIL: the program '$HES' does not exist or is not executable"
    exit 1
fi

# --------------------------------------------------------- the juggler
run_for cj 10 continue paddle-juggler --param paddle_accel=-20:10 --json
expect_status cj 0 "continue paddle-juggler --param paddle_accel=-20:10 --json"
expect_json cj "the JSON document"
if [ "$have_python" = yes ]; then
    checks=$((checks + 1))
    if $PY - "$tmp/cj.out" >"$tmp/cj.check" 2>&1 <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["param"] == "paddle_accel" and d["from"] == -20 and d["to"] == 10, d["param"]
assert len(d["branches"]) == 1, "branches: %d" % len(d["branches"])
b = d["branches"][0]
assert b["reached"] is True and b["why"] is None, b["why"]
assert b["from_branch"] is None and b["from_point"] is None
pts = b["points"]
lower = -2 * 9.81 * (1 + 0.5 ** 2) / (1 + 0.5) ** 2
minus = [p["value"] for p in pts if p["crossing"] == "-1"]
plus = [p["value"] for p in pts if p["crossing"] == "+1"]
assert any(abs(v - lower) < 1e-6 for v in minus), "crossing -1 at %s, not %.12g" % (minus, lower)
assert any(abs(v) < 1e-6 for v in plus), "crossing +1 at %s, not 0" % plus
assert pts[0]["value"] == -20 and pts[-1]["value"] == 10
assert d["state_names"] == ["xB", "vB"], d["state_names"]
assert all(len(p["x0"]) == 2 for p in pts)
for p in pts:
    if -10.8 < p["value"] < -0.1:
        assert p["verdict"] == "stable", p
    if p["value"] < -11 or p["value"] > 0.1:
        assert p["verdict"] == "unstable", p
print(len(pts))
PYEOF
    then
        pass "crossing -1 within 1e-6 of -10.9, +1 within 1e-6 of 0, verdicts between ($(cat "$tmp/cj.check") points)"
    else
        fail "the juggler's branch: $(tail -1 "$tmp/cj.check")"
    fi
    n_json=$(tail -1 "$tmp/cj.check")

    run_for cc 10 continue paddle-juggler --param paddle_accel=-20:10 --csv
    expect_status cc 0 "continue ... --csv"
    expect_grep cc out '^branch,returns,index,label,detail,value,value2,s,period,psi,verdict,crossing,xB,vB,margin_impact,margin_apex$' \
        "the CSV header"
    checks=$((checks + 1))
    n_csv=$(($(wc -l <"$tmp/cc.out") - 1))
    if [ "$n_csv" = "$n_json" ]; then
        pass "the CSV has a row per point ($n_csv)"
    else
        fail "the CSV has $n_csv rows, the JSON $n_json points"
    fi
    expect_grep cc out '^0,1,[0-9]+,[A-Z]*,,-10\.8999[0-9]*,.*,-1,' "the CSV's -1 crossing"

    run_for ct 10 continue paddle-juggler --param paddle_accel=-20:10
    expect_status ct 0 "continue ... (the table)"
    checks=$((checks + 1))
    n_text=$(grep -c -E '^ +[0-9]+ ' "$tmp/ct.out")
    if [ "$n_text" = "$n_json" ]; then
        pass "the table has a row per point ($n_text)"
    else
        fail "the table has $n_text rows, the JSON $n_json points"
    fi
    expect_grep ct out '^branch 0: paddle_accel from -20 to 10, returns 1' "the table's heading"
    expect_grep ct out '^reached paddle_accel = 10$' "the table says the branch reached TO"
    expect_grep ct out ' -1 ' "the table's -1 crossing"
fi

# the other direction, fixed parameters set, quiet
run_for cq 10 continue paddle-juggler -p alpha=0.5 --param paddle_accel=-5:-12 --step 0.5 -q --csv
expect_status cq 0 "continue downwards with -p and --step"
checks=$((checks + 1))
if [ ! -s "$tmp/cq.err" ]; then pass "-q: nothing on stderr"; else fail "-q: stderr not empty"; fi

# --max-points: the branch ends, and says why
run_for cm 10 continue paddle-juggler --param paddle_accel=-20:10 --max-points 3
expect_status cm 0 "a branch cut by --max-points"
expect_grep cm out '^ended before paddle_accel = 10: ' "the table says why it ended"

# ------------------------------------------- --param2: the curves in (p, q)
run_for c2 10 continue paddle-juggler --param paddle_accel=-16:2 --param2 alpha=0.9 --json
expect_status c2 0 "continue ... --param2 alpha=0.9 --json"
if [ "$have_python" = yes ]; then
    checks=$((checks + 1))
    if $PY - "$tmp/c2.out" >"$tmp/c2.check" 2>&1 <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["param2"] == "alpha" and d["from2"] == 0.5 and d["to2"] == 0.9, d["param2"]
bs = d["branches"]
assert [b["kind"] for b in bs] == ["branch", "curve", "curve"], [b["kind"] for b in bs]
assert bs[0]["param2"] is None and all(p["value2"] is None for p in bs[0]["points"])
g = 9.81
seen = set()
for c in bs[1:]:
    assert c["param2"] == "alpha" and c["from_branch"] == 0, c["from_branch"]
    src = bs[0]["points"][c["from_point"]]
    lab = src["label"]
    assert all(p["label"] == lab for p in c["points"]), lab
    assert c["reached"] is True, c["why"]
    assert c["points"][0]["value2"] == 0.5 and c["points"][-1]["value2"] == 0.9
    assert len(c["points"]) >= 5, len(c["points"])
    for p in c["points"]:
        a = p["value2"]
        if lab == "PD":
            want = -2 * g * (1 + a * a) / (1 + a) ** 2
            assert abs(p["value"] - want) <= 1e-8 * abs(want), (a, p["value"], want)
        elif lab == "BP":
            assert abs(p["value"]) <= 1e-8, (a, p["value"])
        else:
            raise AssertionError("a curve of a %s" % lab)
    seen.add(lab)
assert seen == {"PD", "BP"}, seen
print(sum(len(c["points"]) for c in bs[1:]))
PYEOF
    then
        pass "the PD curve is -2 g (1+alpha^2)/(1+alpha)^2 to 1e-8, the BP curve 0 ($(cat "$tmp/c2.check") curve points)"
    else
        fail "the curves in (paddle_accel, alpha): $(tail -1 "$tmp/c2.check")"
    fi
fi
run_for c2t 10 continue paddle-juggler --param paddle_accel=-16:2 --param2 alpha=0.9 -q
expect_status c2t 0 "continue ... --param2 (the table)"
expect_grep c2t out '^curve 0: PD of point [0-9]+ of branch 0 in \(paddle_accel, alpha\)' \
    "the table's heading of the PD curve"
expect_grep c2t out '^curve 1: BP of point [0-9]+ of branch 0 in \(paddle_accel, alpha\)' \
    "the table's heading of the BP curve"
expect_grep c2t out '^index label +paddle_accel +alpha +period' "a curve's table has alpha's column"
expect_grep c2t out '^reached alpha = 0\.9$' "the curves reach alpha = 0.9"
run_for c2c 10 continue paddle-juggler --param paddle_accel=-16:2 --param2 alpha=0.9 --csv -q
expect_grep c2c out '^branch,returns,index,label,detail,value,value2,s,' "the CSV's value2 column"
expect_grep c2c out '^0,1,[0-9]+,[A-Z]*,,[^,]+,,' "a branch's row has no value2"
expect_grep c2c out '^2,1,[0-9]+,BP,,[^,]+,0\.90*[0-9]?,' "the BP curve's row has alpha 0.9"
expect_grep c2c out ',margin_impact,margin_apex$' "a margin column per transition"
# --step2: the curve's steps in alpha
run_for c2s 10 continue paddle-juggler --param paddle_accel=-16:2 --param2 alpha=0.6 \
    --step2 0.05 --max-step2 0.05 --json -q
expect_json_value c2s '[len(b["points"]) for b in d["branches"][1:]]' "[3, 3]" \
    "--step2 0.05 --max-step2 0.05: three points per curve from alpha 0.5 to 0.6"

# ------------------------------------------------------------- grazing
run_for gr 10 continue paddle-juggler --param paddle_accel=10:30 --json
expect_status gr 0 "continue paddle-juggler --param paddle_accel=10:30"
expect_json_value gr '(lambda b, p: (p["label"], p["detail"], abs(p["value"] / 22.3161772 - 1) < 1e-6, b["reached"], "grazing" in b["why"], p["full"]))(d["branches"][0], d["branches"][0]["points"][-1])' \
    "('GR', 'impact', True, False, True, True)" \
    "the branch ends at a grazing (GR) of 'impact' at 22.3161772, not reached, why says grazing"
expect_json_value gr '[m["transition"] for m in d["branches"][0]["points"][-1]["margins"]]' \
    "['impact', 'apex']" "a point's margins name each transition"
expect_json_value gr 'abs(d["branches"][0]["points"][-1]["margins"][0]["margin"]) < 1e-8' \
    "True" "the grazed guard's margin is 0 at GR"
run_for grt 10 continue paddle-juggler --param paddle_accel=10:30 -q
expect_grep grt out '^index label +paddle_accel +period +psi +verdict +crossing +clearance +detail ' \
    "the table has clearance and (for GR) detail columns"
expect_grep grt out '^ +[0-9]+ GR +22\.316177.* impact +impact ' "the GR row: clearance and detail"
expect_no_grep c2t out 'detail' "no detail column where no point has one"

# ------------------------------------------- the bouncing ball (a plugin)
ball=${top_builddir:-.}/tests/.libs/bouncing_ball_plugin.so
if [ -f "$ball" ]; then
    run_for bsn 10 continue --model "$ball" --param amplitude=0.08:0.03 --json
    expect_status bsn 0 "continue the bouncing ball from amplitude 0.08 to 0.03"
    expect_json_value bsn '[abs(p["value"] / 0.0650545829888 - 1) < 1e-8 for p in d["branches"][0]["points"] if p["label"] == "SN"]' \
        "[True]" "one fold (SN) at amplitude 9.81*0.5*0.5/(2*1.5)/(4*pi) to 1e-8"
    run_for bpd 10 continue --model "$ball" --param amplitude=0.08:0.12 --doublings 2 --json
    expect_status bpd 0 "continue the bouncing ball with --doublings 2"
    expect_json_value bpd '([b["returns"] for b in d["branches"]], [any(p["label"] == "PD" for p in b["points"][1:]) for b in d["branches"][:2]], [(b["from_branch"], b["kind"]) for b in d["branches"]])' \
        "([1, 2, 4], [True, True], [(None, 'branch'), (0, 'branch'), (1, 'branch')])" \
        "the cascade: branches of 1, 2 and 4 returns, a PD on the first two"
else
    echo "continue.sh: no $ball (built by make check); the bouncing ball is skipped"
fi

# -------------------------------- --start-at, --resume, SIGINT (a plugin)
# The simplest walker's branch from gamma 0.001 to 0.02 has one period
# doubling.  Followed both ways from 0.009 (--start-at, two threads) it is
# one branch from 0.001 to 0.02 with that PD within 1e-9 (--tol 1e-10: the
# PD is located to 1e-10); cut after 6 points (--max-points) and resumed,
# it keeps those 6 points and finds the same PD; a run stopped by SIGINT
# prints what it has, exit 130, and resumes too.
walker=${top_builddir:-.}/tests/.libs/simplest_walker_plugin.so
case $walker in /*) ;; *) walker=$(pwd)/$walker ;; esac
if [ -f "$walker" ]; then
    run_for wp 10 continue --model "$walker" --param gamma=0.001:0.02 --tol 1e-10 --json -q
    expect_status wp 0 "the walker from gamma 0.001 to 0.02"
    run_for wsa 10 continue --model "$walker" --param gamma=0.001:0.02 --start-at 0.009 \
        --tol 1e-10 --json -q
    expect_status wsa 0 "the walker both ways from gamma 0.009 (--start-at)"
    expect_json wsa "the --start-at document"
    run_for wsa1 10 continue --model "$walker" --param gamma=0.001:0.02 --start-at 0.009 \
        --tol 1e-10 --jobs 1 --json -q
    expect_true "--jobs 1 gives the document --jobs 2 gives" cmp -s "$tmp/wsa.out" "$tmp/wsa1.out"
    run_for wpart 10 continue --model "$walker" --param gamma=0.001:0.02 --tol 1e-10 \
        --max-points 6 --json -q
    expect_status wpart 0 "the walker cut after 6 points"
    cp "$tmp/wpart.out" "$tmp/part.json"
    run_for wres 10 continue --model "$walker" --resume "$tmp/part.json" --tol 1e-10 --json -q
    expect_status wres 0 "--resume part.json"
    run_for wcol 30 continue --model "$walker" --param gamma=0.001:0.02 --tol 1e-10 \
        --corrector collocation --json -q
    expect_status wcol 0 "the walker by the collocation corrector"
    if [ "$have_python" = yes ]; then
        checks=$((checks + 1))
        if $PY - "$tmp/wp.out" "$tmp/wsa.out" "$tmp/part.json" "$tmp/wres.out" \
            "$tmp/wcol.out" >"$tmp/wsr.check" 2>&1 <<'PYEOF'
import json, sys
plain, sa, part, res, col = [json.load(open(f)) for f in sys.argv[1:6]]
def pd(d):
    v = [p["value"] for p in d["branches"][0]["points"] if p["label"] == "PD"]
    assert len(v) == 1, v
    return v[0]
b = sa["branches"][0]
assert len(sa["branches"]) == 1 and b["kind"] == "branch" and b["reached"] is True, b["why"]
vals = [p["value"] for p in b["points"]]
assert vals[0] == 0.001 and vals[-1] == 0.02, (vals[0], vals[-1])
assert all(x < y for x, y in zip(vals, vals[1:])), "the points do not run from FROM to TO"
assert [p["index"] for p in b["points"]] == list(range(len(vals)))
assert [p["label"] for p in b["points"]].count("EP") == 2
assert 0.009 in vals
assert abs(pd(sa) - pd(plain)) < 1e-9, (pd(sa), pd(plain))
pp, rp = part["branches"][0]["points"], res["branches"][0]["points"]
assert len(pp) == 6 and part["branches"][0]["reached"] is False
assert res["branches"][0]["reached"] is True and len(rp) > 6
for a, c in zip(pp, rp):
    for k in ("value", "period", "psi", "psi_tol", "x0", "multipliers", "verdict", "crossing"):
        assert a[k] == c[k], (k, a[k], c[k])
assert abs(pd(res) - pd(plain)) < 1e-9, (pd(res), pd(plain))
assert res["from"] == 0.001 and res["to"] == 0.02
assert col["branches"][0]["method"] == "natural" and col["branches"][0]["reached"] is True
assert abs(pd(col) - pd(plain)) < 1e-8, (pd(col), pd(plain))
print("PD %.15g, %.15g both ways, %.15g resumed, %.15g by collocation" %
      (pd(plain), pd(sa), pd(res), pd(col)))
PYEOF
        then
            pass "--start-at: one branch from 0.001 to 0.02; --resume keeps the 6 points; the same PD within 1e-9 ($(cat "$tmp/wsr.check"))"
        else
            fail "--start-at and --resume on the walker: $(tail -1 "$tmp/wsr.check")"
        fi
        # SIGINT: what was found so far, exit 130, resumable
        checks=$((checks + 1))
        if $PY - "$HES" "$walker" "$tmp/int.json" >"$tmp/int.check" 2>&1 <<'PYEOF'
import json, signal, subprocess, sys, time
hes, walker, out = sys.argv[1:4]
p = subprocess.Popen([hes, "continue", "--model", walker, "--param", "gamma=0.001:0.02",
                      "--step", "1e-6", "--max-step", "1e-6", "--min-step", "1e-7",
                      "--max-points", "100000", "--json", "-q"],
                     stdout=open(out, "w"), stderr=subprocess.PIPE)
time.sleep(0.5)
p.send_signal(signal.SIGINT)
err = p.communicate(timeout=20)[1].decode()
assert p.returncode == 130, (p.returncode, err)
b = json.load(open(out))["branches"][0]
assert b["reached"] is False and b["why"].startswith("stopped"), b["why"]
assert len(b["points"]) >= 2, len(b["points"])
print(len(b["points"]))
PYEOF
        then
            pass "SIGINT: exit 130, the branch so far with why 'stopped' ($(cat "$tmp/int.check") points)"
        else
            fail "SIGINT: $(tail -1 "$tmp/int.check")"
        fi
        run_for wires 10 continue --model "$walker" --resume "$tmp/int.json" --max-step 0.002 --json -q
        expect_status wires 0 "--resume of the branch SIGINT stopped"
        expect_json_value wires 'd["branches"][0]["reached"]' "True" "it reaches TO"
    fi
    # refusals of bad resume files: exit 2 and a message naming the problem
    run_for wr_missing 10 continue --model "$walker" --resume "$tmp/nosuch.json"
    expect_status wr_missing 2 "--resume of a missing file"
    expect_grep wr_missing err 'nosuch\.json' "the message names the file"
    echo 'not json' >"$tmp/notjson.json"
    run_for wr_notjson 10 continue --model "$walker" --resume "$tmp/notjson.json"
    expect_status wr_notjson 2 "--resume of a file that is not JSON"
    expect_grep wr_notjson err 'not JSON' "the message says it is not JSON"
    run_for pj 10 continue paddle-juggler --param paddle_accel=-20:-15 --max-points 4 --json -q
    cp "$tmp/pj.out" "$tmp/pj.json"
    run_for wr_other 10 continue --model "$walker" --resume "$tmp/pj.json"
    expect_status wr_other 2 "--resume of another problem's document"
    expect_grep wr_other err "problem 'paddle-juggler', not 'walker-heelstrike'" \
        "the message names both problems"
    run_for wr_param 10 continue paddle-juggler --resume "$tmp/pj.json" --param alpha=0.4:0.6
    expect_status wr_param 2 "--resume with --param of another parameter"
    expect_grep wr_param err 'follows paddle_accel, not alpha' "the message names both"
    run_for wr_done 10 continue --model "$walker" --resume "$tmp/wp.out"
    expect_status wr_done 2 "--resume of a branch that reached TO"
    expect_grep wr_done err 'already TO' "the message says it is there"
    if [ "$have_python" = yes ]; then
        $PY - "$tmp/part.json" "$tmp" <<'PYEOF'
import json, sys
part, tmp = sys.argv[1:3]
def bad(name, edit):
    d = json.load(open(part))
    edit(d)
    json.dump(d, open("%s/%s.json" % (tmp, name), "w"))
pts = lambda d: d["branches"][0]["points"]
bad("x0len", lambda d: pts(d)[3].update(x0=pts(d)[3]["x0"][:3]))
bad("nonfinite", lambda d: pts(d)[2].update(period=None))
bad("wrongtype", lambda d: pts(d)[1].update(psi="0.5"))
bad("states", lambda d: d.update(state_names=["a", "b", "c", "d"]))
bad("curve", lambda d: d["branches"][0].update(kind="curve"))
PYEOF
        sed 's/"psi": [0-9.e-]*,/"psi": 1e999,/' "$tmp/part.json" >"$tmp/overflow.json"
        for bad in x0len:'"x0" is not a list of 4' nonfinite:'"period" is not a finite number' \
            wrongtype:'"psi" is not a finite number' states:"state 0 of the document is 'a'" \
            curve:'not of kind "branch"' overflow:'not JSON'; do
            bn=${bad%%:*}
            want=${bad#*:}
            run_for "wr_$bn" 10 continue --model "$walker" --resume "$tmp/$bn.json"
            expect_status "wr_$bn" 2 "--resume refuses $bn.json"
            expect_grep "wr_$bn" err "$want" "$bn.json: the message names the problem"
        done
    fi
    run_for wr_sa 10 continue --model "$walker" --param gamma=0.001:0.02 --start-at 0.03
    expect_status wr_sa 2 "--start-at outside FROM:TO"
    run_for wr_jobs 10 continue --model "$walker" --param gamma=0.001:0.02 --jobs 2
    expect_status wr_jobs 2 "--jobs without --start-at"
    run_for wr_both 10 continue --model "$walker" --resume "$tmp/part.json" \
        --param gamma=0.001:0.02 --start-at 0.01
    expect_status wr_both 2 "--resume with --start-at"
else
    echo "continue.sh: no $walker (built by make check); --start-at and --resume are skipped"
fi

# ---------------------------------------------------------- refusals
# refused NAME WANT DESCRIPTION ARGS...: exit status WANT and a message
# naming the command
refused() {
    name=$1
    want=$2
    what=$3
    shift 3
    run_for "$name" 10 continue "$@"
    expect_status "$name" "$want" "$what"
    expect_grep "$name" err '^hes( continue)?: ' "$what: a message"
}
refused r_corrector 2 "an unknown corrector" paddle-juggler --param paddle_accel=-5:-3 --corrector bogus
refused r_colloc 2 "the collocation corrector on a stroboscopic orbit" paddle-juggler --param paddle_accel=-5:-3 --corrector collocation
refused r_none 2 "no followed parameter" paddle-juggler
refused r_two 2 "two followed parameters" paddle-juggler --param paddle_accel=-1:1 --param alpha=0.1:0.5
refused r_unknown 2 "an unknown parameter" paddle-juggler --param nope=1:2
expect_grep r_unknown err "no parameter 'nope'.*paddle_accel" "the message lists the parameters"
refused r_same 2 "FROM == TO" paddle-juggler --param paddle_accel=1:1
refused r_nan 2 "FROM not a number" paddle-juggler --param paddle_accel=x:1
refused r_inf 2 "TO infinite" paddle-juggler --param paddle_accel=1:inf
refused r_empty 2 "TO empty" paddle-juggler --param paddle_accel=1:
refused r_step 2 "--step 0" paddle-juggler --param paddle_accel=-5:-4 --step 0
refused r_tol 2 "--tol -1" paddle-juggler --param paddle_accel=-5:-4 --tol -1
refused r_jump 2 "--max-jump abc" paddle-juggler --param paddle_accel=-5:-4 --max-jump abc
refused r_points 2 "--max-points 1" paddle-juggler --param paddle_accel=-5:-4 --max-points 1
refused r_returns 2 "--returns 0" paddle-juggler --param paddle_accel=-5:-4 --returns 0
refused r_doublings 2 "--doublings 7" paddle-juggler --param paddle_accel=-5:-4 --doublings 7
refused r_method 2 "an unknown method" paddle-juggler --param paddle_accel=-5:-4 --method newton
refused r_steps 2 "--max-step below --step" paddle-juggler --param paddle_accel=-5:-4 --step 0.5 --max-step 0.1
refused r_start 2 "--start with the wrong count" paddle-juggler --param paddle_accel=-5:-4 --start 1,2,3
refused r_startx 2 "--start not numbers" paddle-juggler --param paddle_accel=-5:-4 --start a,b
refused r_both 2 "--json with --csv" paddle-juggler --param paddle_accel=-5:-4 --json --csv
refused r_fixed 2 "-p of the followed parameter" paddle-juggler --param paddle_accel=-5:-4 -p paddle_accel=1
refused r_twice 2 "--step twice" paddle-juggler --param paddle_accel=-5:-4 --step 1 --step 2
refused r_problem 2 "an unknown problem" no-such-problem --param a=1:2
refused r_noprob 2 "no problem" --param paddle_accel=-5:-4
refused r_noorbit 2 "a problem without an orbit" trot-rigid --param g=9:10
refused r2_same 2 "--param2 of the followed parameter" paddle-juggler --param paddle_accel=-5:-4 --param2 paddle_accel=3
expect_grep r2_same err 'paddle_accel is the parameter of the branches' "the message says so"
refused r2_unknown 2 "--param2 of an unknown parameter" paddle-juggler --param paddle_accel=-5:-4 --param2 nope=3
expect_grep r2_unknown err "no parameter 'nope'.*alpha" "the message lists the parameters"
refused r2_noval 2 "--param2 without a value" paddle-juggler --param paddle_accel=-5:-4 --param2 alpha
refused r2_bad 2 "--param2 with a non-number" paddle-juggler --param paddle_accel=-5:-4 --param2 alpha=x
refused r2_range 2 "--param2 with a range" paddle-juggler --param paddle_accel=-5:-4 --param2 alpha=0.5:0.9
refused r2_inf 2 "--param2 infinite" paddle-juggler --param paddle_accel=-5:-4 --param2 alpha=inf
refused r2_noname 2 "--param2 without a name" paddle-juggler --param paddle_accel=-5:-4 --param2 =0.9
refused r2_at 2 "--param2 at its value already" paddle-juggler --param paddle_accel=-5:-4 --param2 alpha=0.5
refused r2_step 2 "--step2 without --param2" paddle-juggler --param paddle_accel=-5:-4 --step2 0.1
refused r2_step0 2 "--step2 0" paddle-juggler --param paddle_accel=-5:-4 --param2 alpha=0.9 --step2 0
refused r2_order 2 "--max-step2 below --step2" paddle-juggler --param paddle_accel=-5:-4 --param2 alpha=0.9 --step2 0.1 --max-step2 0.01
# no orbit at FROM: the computation failed
refused r_fail 1 "no orbit at FROM" paddle-juggler --param alpha=0:0.5
expect_grep r_fail err "alpha" "the failure names the parameter"
expect_no_grep r_fail out '.' "nothing on stdout when no orbit at FROM"

testlib_summary continue.sh
