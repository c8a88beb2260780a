#!/bin/sh
# tests/layers.sh - the library's layers, checked on its object files: every
# call between two files of libhes goes from a layer to the same or a lower
# one (base < ode < model < problems < contact < ess < invdyn < hybrid < shaping <
# batch < io), and the
# files call each other in no circle.  Reads the symbol tables with nm.
top=${top_builddir:-.}
objs=$(find "$top/lib" "$top/problems" -name '*libhes_la-*.o' ! -path '*/.libs/*' | sort)
if test -z "$objs"; then
    echo "layers.sh: no object files of libhes under $top/lib" >&2
    exit 99
fi
if ! command -v nm >/dev/null 2>&1; then
    echo "layers.sh: nm is not installed" >&2
    exit 77
fi
tab=$(mktemp) || exit 99
trap 'rm -f "$tab"' EXIT
for o in $objs; do
    dir=$(basename "$(dirname "$o")")
    f=$(basename "$o" .o); f=${f#*libhes_la-}
    nm "$o" | awk -v n="$dir/$f" '$2 ~ /^[TDBR]$/ { print "D", n, $3 } $1 == "U" && $2 ~ /^hes/ { print "U", n, $2 }'
done > "$tab"
awk '
BEGIN { split("base ode model problems contact ess invdyn hybrid shaping batch io", L, " ")
        for (i in L) rank[L[i]] = i + 0 }
$1 == "D" { def[$3] = $2 }
$1 == "U" { nu++; uf[nu] = $2; us[nu] = $3 }
END {
    bad = 0
    for (i = 1; i <= nu; i++) {
        a = uf[i]; s = us[i]
        if (!(s in def) || def[s] == a) continue
        b = def[s]
        split(a, pa, "/"); split(b, pb, "/")
        if (!(pa[1] in rank) || !(pb[1] in rank)) { print "unknown layer: " a " or " b; bad = 1; continue }
        if (rank[pa[1]] < rank[pb[1]]) { print "upward call: " a " -> " b " (" s ")"; bad = 1 }
        if (!((a, b) in edge)) { edge[a, b] = s; out[a] = out[a] " " b; files[a]; files[b] }
    }
    # circles: an edge a -> b lies on one when b reaches a
    for (e in edge) {
        split(e, ab, SUBSEP); a = ab[1]; b = ab[2]
        delete seen; top = 1; stack[1] = b; seen[b]; found = 0
        while (top > 0 && !found) {
            f = stack[top--]
            n = split(out[f], o, " ")
            for (k = 1; k <= n; k++) {
                if (o[k] == a) { found = 1; break }
                if (!(o[k] in seen)) { seen[o[k]]; stack[++top] = o[k] }
            }
        }
        if (found) { print "circle: " a " -> " b " (" edge[e] ") and back"; bad = 1 }
        ne++
    }
    nf = 0; for (f in out) nf++
    print (bad ? "FAIL" : "ok") ": " ne " calls between files of libhes, checked for layer order and circles"
    exit bad
}' "$tab" || exit 1

# The public headers by area (lib/hes/AREA.h): each declares only functions
# defined in its own layer or below (a document of an orbit is io's, and is
# declared in io.h), and every exported symbol is declared in one (what no
# public header declares is internal: hes__, not exported).
src=${top_srcdir:-.}
hdr=$(mktemp) || exit 99
trap 'rm -f "$tab" "$hdr"' EXIT
for h in "$src"/lib/hes/*.h; do
    a=$(basename "$h" .h)
    gcc -fpreprocessed -dD -E -P "$h" 2>/dev/null |
        grep -oE '\bhes_[a-z0-9_]+[[:space:]]*\(' | sed 's/[[:space:]]*($//' | sort -u |
        awk -v a="$a" '{ print "H", a, $1 }'
done > "$hdr"
awk '$1 == "D" && $3 ~ /^hes_[a-z]/ { print }' "$tab" >> "$hdr"
awk '
BEGIN { split("base ode model problems contact ess invdyn hybrid shaping batch io", L, " ")
        for (i in L) rank[L[i]] = i + 0
        # each header'"'"'s highest layer (its place in the chain of headers)
        split("base:base model:model mech:model robot:model ess:ess contact:contact " \
              "invdyn:invdyn problems:invdyn hybrid:hybrid orbit:hybrid " \
              "shaping:shaping trajopt:shaping batch:batch continuation:batch io:io", H, " ")
        for (i in H) { split(H[i], kv, ":"); top[kv[1]] = kv[2] } }
$1 == "H" { decl[$3] = $2; nh++; hh[nh] = $2; hf[nh] = $3 }
$1 == "D" { split($2, p, "/"); def[$3] = p[1] }
END {
    bad = 0
    for (f in def)
        if (!(f in decl)) { print "exported without a public declaration: " f " (" def[f] "/)"; bad = 1 }
    for (i = 1; i <= nh; i++) {
        h = hh[i]; f = hf[i]
        if (!(f in def)) continue          # a type or a macro
        if (!(h in top)) { print "unknown header: " h; bad = 1; continue }
        if (rank[def[f]] > rank[top[h]])
            { print "header below its function: hes/" h ".h declares " f ", defined in " def[f] "/"; bad = 1 }
    }
    n = 0; for (f in def) n++
    print (bad ? "FAIL" : "ok") ": " n " exported symbols, each declared in a public header at or above its layer"
    exit bad
}' "$hdr"
