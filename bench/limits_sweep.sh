#!/usr/bin/env bash
# The limits sweep: every analysis with a short time limit over every model
# and task of the repository; lists the runs that did not end by themselves: the ones
# the watchdog ended ("stopped by the watchdog" on stderr) and the ones that overran the
# limit by more than the allowed slack.
#
#   bench/limits_sweep.sh [PRECIS_VERIFY]      default build-bench/examples/precis-verify
#   LIMIT=1 SLACK=0.5 JOBS=2 OUT=bench/results/limits_sweep.tsv bench/limits_sweep.sh
#
# Writes one row per run: analysis, input, exit code, wall seconds, outcome (ok,
# overrun, watchdog) and the first line of the reason; prints the counts per analysis.
set -uo pipefail
cd "$(dirname "$0")/.."
cli=${1:-build-bench/examples/precis-verify}
limit=${LIMIT:-1}
slack=${SLACK:-0.5}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
out=${OUT:-bench/results/limits_sweep.tsv}
analyses=${ANALYSES:-"auto expl pred-cart pred-bool expl+pred pred-abe pred-abe-cart expl+pred-abe prod-state prod-path prod-arg ai-box ai-boxes vinta-box vinta-boxes ufo-box ufo-boxes synergy ai-zone ai-oct ai-poly vinta-zone vinta-oct vinta-poly bmc kind"}
[ -x "$cli" ] || { echo "limits_sweep: no precis-verify at $cli" >&2; exit 2; }
mkdir -p "$(dirname "$out")"

inputs=$(find tests/models tests/tasks/theta -name '*.cfa'; find tests/tasks/sv-comp tests/tasks/sv-comp-more -name '*.yml')
inputs=$(echo "$inputs" | sort)
export cli limit slack
one() {
  local a=$1 m=$2 err t0 t1 rc wall outcome reason
  err=$(mktemp)
  t0=$(date +%s.%N)
  reason=$("$cli" -q --json -a "$a" -t "$limit" "$m" 2>"$err" | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
    print((d.get("reason") or d.get("message") or d.get("verdict") or "").splitlines()[0][:160])
except Exception:
    print("(no JSON report)")')
  rc=${PIPESTATUS[0]}
  t1=$(date +%s.%N)
  wall=$(echo "$t1 - $t0" | bc)
  if grep -q "stopped by the watchdog" "$err"; then
    outcome=watchdog
  elif [ "$(echo "$wall > $limit + $slack" | bc)" = 1 ]; then
    outcome=overrun
  else
    outcome=ok
  fi
  rm -f "$err"
  printf '%s\t%s\t%s\t%.2f\t%s\t%s\n' "$a" "$m" "$rc" "$wall" "$outcome" "$reason"
}
export -f one
{
  printf 'analysis\tinput\texit\twall_s\toutcome\treason\n'
  for a in $analyses; do for m in $inputs; do printf '%s\t%s\n' "$a" "$m"; done; done |
    xargs -P "$jobs" -L 1 bash -c 'one "$0" "$1"' | sort
} >"$out"
echo "== limits sweep: limit $limit s, slack $slack s, $(($(wc -l <"$out") - 1)) runs ($out)"
awk -F'\t' 'NR > 1 { n[$1]++; if ($5 != "ok") bad[$1 " " $5]++ }
  END { for (k in bad) print "  " k ": " bad[k]; }' "$out" | sort
echo "  runs the watchdog ended: $(awk -F'\t' '$5 == "watchdog"' "$out" | wc -l)"
echo "  runs over the limit by more than $slack s: $(awk -F'\t' '$5 == "overrun"' "$out" | wc -l)"
