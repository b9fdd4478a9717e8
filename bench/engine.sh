#!/usr/bin/env bash
# The engine figure: `ccsim bench engine --pending 65536`, five runs, median.
# Usage: bench/engine.sh [RUNS] (after scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
figures=()
for _ in $(seq "$runs"); do
  f=$(build/ccsim bench engine --pending 65536 | sed -n 's/^events_per_s=//p')
  echo "run: events_per_s=$f"
  figures+=("$f")
done
# the middle one; of an even count the mean of the two middle ones
median=$(printf '%s\n' "${figures[@]}" | sort -n |
  awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else printf "%.0f\n", (a[NR/2]+a[NR/2+1])/2}')
echo "median of $runs: events_per_s=$median"
