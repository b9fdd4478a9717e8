#!/usr/bin/env bash
# The workload figures: `ccsim bench workloads` (each reference run in its own
# process), then each figure beside the issue's targets: >= 10 M events/s,
# the KNC barrier's slowdown <= 300x, the 1024-core run under 1 GiB (the
# peak_rss_mb figure is in MiB: the process's maximum RSS in KiB / 1024).
# Usage: bench/workloads.sh [ccsim bench workloads options, e.g. --quick]
# (after scripts/setup.sh; CCSIM=path/to/ccsim to use another binary)
set -euo pipefail
cd "$(dirname "$0")/.."
ccsim=${CCSIM:-build/ccsim}
status=0
out=$("$ccsim" bench workloads "$@") || status=$? # a failed reference: print the others
echo "$out"
case " $* " in
  *" --quick "*)
    echo "== --quick: two iterations each, set-up dominated; the targets judge the full runs"
    exit "$status"
    ;;
esac
echo "== against the targets"
echo "$out" | awk '
  /events_per_s=/ {
    for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    eps = v["events_per_s"] / 1e6
    printf "%-18s %6.2f M events/s (>= 10: %s)", $1, eps, (eps >= 10 ? "met" : "NOT met")
    if ($1 ~ /^knc-barrier/)
      printf "  slowdown %.0fx (<= 300: %s)", v["slowdown"], (v["slowdown"] <= 300 ? "met" : "NOT met")
    if ($1 ~ /^mesh1024/)
      printf "  peak RSS %.1f MiB (< 1024: %s)", v["peak_rss_mb"], (v["peak_rss_mb"] < 1024 ? "met" : "NOT met")
    printf "\n"
  }'
exit "$status"
