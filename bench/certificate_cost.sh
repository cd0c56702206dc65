#!/usr/bin/env bash
# Certificate check against analysis: every SAFE model and task of the
# repository, per analysis, one row each: analysis time (`time_total`), certificate build
# and check time, queries, steps proved by evaluation, verdict.
#
#   bench/certificate_cost.sh [PRECIS_VERIFY]     default build-bench/examples/precis-verify
#   LIMIT=10 JOBS=2 ANALYSES="expl expl+pred pred-abe vinta-box" OUT=... bench/certificate_cost.sh
#   EXTRA="--certify-candidate hull" bench/certificate_cost.sh     more precis-verify options
set -uo pipefail
cd "$(dirname "$0")/.."
cli=${1:-build-bench/examples/precis-verify}
limit=${LIMIT:-10}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
out=${OUT:-bench/results/certificate_cost.tsv}
analyses=${ANALYSES:-"expl expl+pred pred-abe vinta-box"}
extra=${EXTRA:-}
[ -x "$cli" ] || { echo "certificate_cost: no precis-verify at $cli" >&2; exit 2; }
mkdir -p "$(dirname "$out")"

safe_inputs() {
  local d
  for d in tests/models tests/models/box tests/models/product tests/tasks/theta; do
    awk -F'\t' -v d="$d" 'NR > 1 && $2 == "SAFE" { print d "/" $1 ".cfa" }' "$d/verdicts.tsv"
  done
  awk -F'\t' 'NR > 1 && $3 == "true" { sub(/\.[ci]$/, ".yml", $1); print "tests/tasks/sv-comp/" $1 }' \
    tests/tasks/sv-comp/verdicts.tsv
  awk -F'\t' 'NR > 1 && $2 == "true" { print "tests/tasks/sv-comp-more/" $1 }' \
    tests/tasks/sv-comp-more/verdicts.tsv
}
export cli limit extra
one() {
  # shellcheck disable=SC2086
  "$cli" -q --json -a "$1" -t "$limit" $extra "$2" 2>/dev/null | python3 -c '
import json, sys
a, m = sys.argv[1], sys.argv[2]
try:
    d = json.load(sys.stdin)
except Exception:
    d = {}
s = d.get("statistics", {})
g = lambda k: s.get(k, "")
print("\t".join(str(x) for x in (a, m, d.get("verdict", "ERROR"), g("time_total"),
      g("certificate build time s"), g("certificate time s"), g("certificate queries"),
      g("certificate evaluated steps"), g("certificate disjuncts"))))' "$1" "$2"
}
export -f one
{
  printf 'analysis\tinput\tverdict\tanalysis_s\tbuild_s\tcheck_s\tqueries\tevaluated\tdisjuncts\n'
  for a in $analyses; do safe_inputs | while read -r m; do [ -f "$m" ] && printf '%s\t%s\n' "$a" "$m"; done; done |
    xargs -P "$jobs" -L 1 bash -c 'one "$0" "$1"' | sort
} >"$out"
echo "== certificate cost: $(($(wc -l <"$out") - 1)) runs, limit $limit s ($out)"
awk -F'\t' 'NR > 1 && $3 == "SAFE" { n[$1]++; an[$1] += $4; b[$1] += $5; c[$1] += $6; q[$1] += $7;
                                      if ($5 + $6 > $4) worse[$1]++ }
  END { printf "  %-12s %5s %10s %10s %10s %9s %s\n", "analysis", "SAFE", "analysis s", "build s", "check s", "queries", "tasks where build+check > analysis";
        for (a in n) printf "  %-12s %5d %10.2f %10.2f %10.2f %9d %d\n", a, n[a], an[a], b[a], c[a], q[a], worse[a] }' "$out"
