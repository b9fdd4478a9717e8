#!/usr/bin/env bash
# The long random-tester run: 10^6 operations x 20 seeds for every protocol
# on every config given (default: the teaching crossbar), 16 cores, tiny
# caches, message jitter. Prints one line a run and a total; exits 1 on any
# violation, unexpected row or deadlock. Not part of ctest (minutes).
# Usage: bench/stress-long.sh [OPS] [SEEDS] [CONFIG ...]   (after scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
ops=${1:-1000000}
seeds=${2:-20}
shift $(( $# > 2 ? 2 : $# )) || true
configs=("$@")
[ ${#configs[@]} -eq 0 ] && configs=(teach-xbar)
total_ops=0 total_checks=0 total_viol=0 failed=0 runs=0
start=$(date +%s)
for cfg in "${configs[@]}"; do
  for p in msi mesi mesif mesif-llc moesi gols; do
    # mesif-llc's home is an LLC: a config without one gets a hit time
    llc=()
    build/ccsim config -c "$cfg" --set "machine.protocol=\"$p\"" >/dev/null 2>&1 ||
      llc=(--set home.llc_cycles=20)
    for seed in $(seq 1 "$seeds"); do
      out=$(build/ccsim stress -c "$cfg" --set "machine.protocol=\"$p\"" --set machine.cores=16 \
            --set home.count=4 "${llc[@]}" --ops "$ops" --seed "$seed" 2>&1) || { failed=$((failed+1)); echo "$out"; }
      line=$(echo "$out" | grep '^ops ' || true) # none when a run stops on a missing row
      read -r _ o _ c _ v _ <<<"$line"
      total_ops=$((total_ops+o)) total_checks=$((total_checks+c)) total_viol=$((total_viol+v))
      runs=$((runs+1))
      echo "$cfg $p seed $seed: $line"
    done
  done
done
echo "total: $runs runs, $total_ops ops, $total_checks checks, $total_viol violations, $failed failed runs, $(( $(date +%s) - start )) s"
[ "$failed" -eq 0 ] && [ "$total_viol" -eq 0 ]
